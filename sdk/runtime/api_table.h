// Builds a backend's QNN function table from its Runtime, for every member of
// core/api_members.h: a member the Runtime has a method of the same name for
// forwards to it (rt().member(args...)); the few members with their own logic
// below are overrides; every other member answers QNN_COMMON_ERROR_NOT_SUPPORTED
// and says so in the log. Adding a member to the list and a method of its name
// to the Runtime is all it takes to serve it. The backend's thin entry file
// instantiates ApiTable with its own runtime accessor.
#pragma once

#include <string>
#include <type_traits>

#include "QnnInterface.h"
#include "core/api_members.h"
#include "core/logger.h"
#include "runtime/providers.h"
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {

using RuntimeAccessor = Runtime& (*)();

namespace api_table_detail {

// RuntimeMethod_<member><R>::value: &R::member when R has one such public,
// unique method, else nullptr; ::found says which. (GCC under -fsanitize does not
// take `&R::member != nullptr` as a constant expression, hence the separate flag.)
#define QNN_RUNTIME_METHOD_(id, member, fn)                                  \
  template <typename R, typename = void>                                      \
  struct RuntimeMethod_##member {                                             \
    static constexpr std::nullptr_t value = nullptr;                          \
    static constexpr bool found = false;                                      \
  };                                                                          \
  template <typename R>                                                       \
  struct RuntimeMethod_##member<R, std::void_t<decltype(&R::member)>> {       \
    static constexpr auto value = &R::member;                                 \
    static constexpr bool found = true;                                       \
  };
QNN_FOR_EACH_INTERFACE_MEMBER(QNN_RUNTIME_METHOD_)
#undef QNN_RUNTIME_METHOD_

// Members whose entry ApiTable::fillTable writes itself although the Runtime has
// a method of the same name (its parameters differ from the member's).
template <auto Member>
constexpr bool kOverridden = false;
template <>
constexpr bool kOverridden<&InterfaceTable2_39::contextCreateFromBinary> = true;

// A function of exactly the table member's type Fn that calls Method on rt().
template <RuntimeAccessor rt, auto Method, typename Fn>
struct Forward;
template <RuntimeAccessor rt, auto Method, typename... Args>
struct Forward<rt, Method, Qnn_ErrorHandle_t (*)(Args...)> {
  static Qnn_ErrorHandle_t call(Args... args) { return (rt().*Method)(args...); }
};

}  // namespace api_table_detail

// Logs that the member is not implemented and returns NOT_SUPPORTED; one
// instantiation per table member gives a function of exactly the member's type.
template <typename Fn, unsigned Id>
struct NotSupported;
template <typename... Args, unsigned Id>
struct NotSupported<Qnn_ErrorHandle_t (*)(Args...), Id> {
  static Qnn_ErrorHandle_t call(Args...) {
    logMessage(nullptr, QNN_LOG_LEVEL_WARN,
               std::string(interfaceMemberApiName(Id)) + " is not implemented by this backend yet");
    return QNN_COMMON_ERROR_NOT_SUPPORTED;
  }
};

// QnnError_getMessage / getVerboseMessage: the code's text; a value that is no
// code of the API is an unknown error handle.
inline Qnn_ErrorHandle_t errorText(Qnn_ErrorHandle_t error, const char** message) {
  if (!message) return QNN_ERROR_INVALID_ARGUMENT;
  const char* text = Runtime::knownErrorMessage(error);
  if (!text) return QNN_ERROR_INVALID_ERROR_HANDLE;
  *message = text;
  return QNN_SUCCESS;
}

template <RuntimeAccessor rt>
struct ApiTable {
  // Every member of the list (API 2.39's 75), filled once; lives for the life of the library.
  static const InterfaceTable2_39& table() {
    static const InterfaceTable2_39 t = [] {
      InterfaceTable2_39 full{};
      fillTable(full);
      return full;
    }();
    return t;
  }

  // The provider: backend id, name, API version and the 2.32 table (the
  // first 71 members of table()). Built once; lives for the life of the library.
  static const QnnInterface_t& provider() {
    static const QnnInterface_t iface = [] {
      QnnInterface_t p = QNN_INTERFACE_INIT;
      const BackendDescriptor& d = rt().descriptor();
      p.backendId = d.backendId;
      p.providerName = d.providerName;
      p.apiVersion = rt().apiVersion(QNN_API_VERSION_MINOR);
      p.QNN_INTERFACE_VER_NAME = prefixOf2_32(table());
      return p;
    }();
    return iface;
  }

  // The opt-in API 2.39 provider (QNN_OPENQNN_PROVIDER_API=2.39): the whole table.
  static const Interface2_39& provider2_39() {
    static const Interface2_39 iface = [] {
      Interface2_39 p{};
      const BackendDescriptor& d = rt().descriptor();
      p.backendId = d.backendId;
      p.providerName = d.providerName;
      p.apiVersion = rt().apiVersion(39);
      p.v2_39 = table();
      return p;
    }();
    return iface;
  }

  static void fillTable(InterfaceTable2_39& t) {
#define QNN_RUNTIME_FORWARD_(id, member, fn)                                                      \
  if constexpr (api_table_detail::RuntimeMethod_##member<Runtime>::found &&                       \
                !api_table_detail::kOverridden<&InterfaceTable2_39::member>)                      \
    t.member = &api_table_detail::Forward<rt, api_table_detail::RuntimeMethod_##member<Runtime>::value, \
                                          decltype(t.member)>::call;
    QNN_FOR_EACH_INTERFACE_MEMBER(QNN_RUNTIME_FORWARD_)
#undef QNN_RUNTIME_FORWARD_
    // Overrides: members with no Runtime method of their own name, or listed in kOverridden.
    // Messages are static strings: the verbose form is the same text and needs no freeing.
    t.errorGetMessage = [](Qnn_ErrorHandle_t error, const char** message) {
      return sdk::rt::guarded("errorGetMessage", [&] { return errorText(error, message); });
    };
    t.errorGetVerboseMessage = [](Qnn_ErrorHandle_t error, const char** message) {
      return sdk::rt::guarded("errorGetVerboseMessage", [&] { return errorText(error, message); });
    };
    t.errorFreeVerboseMessage = [](const char* message) {
      return sdk::rt::guarded("errorFreeVerboseMessage", [&]() -> Qnn_ErrorHandle_t {
        return message ? QNN_SUCCESS : QNN_ERROR_INVALID_ARGUMENT;
      });
    };
    // Both loads share Runtime::contextCreateFromBinary, whose last argument is the signal.
    t.contextCreateFromBinary = [](Qnn_BackendHandle_t b, Qnn_DeviceHandle_t d, const QnnContext_Config_t** c,
                                   const void* buf, Qnn_ContextBinarySize_t s, Qnn_ContextHandle_t* x,
                                   Qnn_ProfileHandle_t p) { return rt().contextCreateFromBinary(b, d, c, buf, s, x, p); };
    t.contextCreateFromBinaryWithSignal = [](Qnn_BackendHandle_t b, Qnn_DeviceHandle_t d,
                                             const QnnContext_Config_t** c, const void* buf,
                                             Qnn_ContextBinarySize_t s, Qnn_ContextHandle_t* x, Qnn_ProfileHandle_t p,
                                             Qnn_SignalHandle_t signal) -> Qnn_ErrorHandle_t {
      return rt().contextCreateFromBinary(b, d, c, buf, s, x, p, signal);
    };
    fillUnassignedMembers<NotSupported>(t);
  }
};

}  // namespace qnn::sdk
