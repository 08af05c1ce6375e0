// Members of the function table added after API 2.7. The runtime implements the
// ones it can honour; every other member of core/api_members.h answers
// QNN_COMMON_ERROR_NOT_SUPPORTED and says so in the log, as the project's rule
// for unimplemented entries demands.
#pragma once

#include <string>

#include "binary/context_binary.h"
#include "core/api_members.h"
#include "core/logger.h"
#include "runtime/api_table.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {

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
template <typename Table>
void ApiTable<rt>::fillNewerMembers(Table& t) {
  t.backendSetConfig = backendSetConfig;
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
  t.contextValidateBinary = [](Qnn_BackendHandle_t b, Qnn_DeviceHandle_t d, const QnnContext_Config_t** c,
                               const void* buffer, Qnn_ContextBinarySize_t size) {
    return rt().contextValidateBinary(b, d, c, buffer, size);
  };
  t.contextCreateFromBinaryWithSignal = [](Qnn_BackendHandle_t b, Qnn_DeviceHandle_t d, const QnnContext_Config_t** c,
                                           const void* buf, Qnn_ContextBinarySize_t s, Qnn_ContextHandle_t* x,
                                           Qnn_ProfileHandle_t p, Qnn_SignalHandle_t signal) -> Qnn_ErrorHandle_t {
    return rt().contextCreateFromBinary(b, d, c, buf, s, x, p, signal);
  };
  t.backendGetProperty = backendGetProperty;
  t.contextGetProperty = contextGetProperty;
  t.graphGetProperty = graphGetProperty;
  t.globalConfigSet = globalConfigSet;
  t.profileSetConfig = profileSetConfig;
  t.profileGetExtendedEventData = profileGetExtendedEventData;
  t.contextCreateFromBinaryListAsync = [](Qnn_BackendHandle_t b, Qnn_DeviceHandle_t d, const QnnContext_Params_t** p,
                                          const QnnContext_Config_t** c, Qnn_SignalHandle_t s) {
    return rt().contextCreateFromBinaryListAsync(b, d, p, c, s);
  };
  t.contextCreateFromBinaryWithCallback = [](Qnn_BackendHandle_t b, Qnn_DeviceHandle_t d, const QnnContext_Config_t** c,
                                             const Qnn_ContextBinaryCallback_t* cb, const void* buf,
                                             Qnn_ContextBinarySize_t s, Qnn_ContextHandle_t* x, Qnn_ProfileHandle_t p,
                                             Qnn_SignalHandle_t sig) {
    return rt().contextCreateFromBinaryWithCallback(b, d, c, cb, buf, s, x, p, sig);
  };
  t.graphCreateSubgraph = [](Qnn_GraphHandle_t g, const char* n, Qnn_GraphHandle_t* s) {
    return rt().graphCreateSubgraph(g, n, s);
  };
  t.contextFinalize = [](Qnn_ContextHandle_t x, Qnn_ProfileHandle_t p) { return rt().contextFinalize(x, p); };
  t.contextGetIncrementalBinary = [](Qnn_ContextHandle_t x, const void** b, Qnn_ContextBinarySize_t* o,
                                     Qnn_ContextBinarySize_t* w) { return rt().contextGetIncrementalBinary(x, b, o, w); };
  t.contextReleaseIncrementalBinary = [](Qnn_ContextHandle_t x, const void* b, Qnn_ContextBinarySize_t o) {
    return rt().contextReleaseIncrementalBinary(x, b, o);
  };
  t.graphPrepareExecutionEnvironment = [](Qnn_GraphHandle_t g, QnnGraph_ExecuteEnvironment_t** e, uint32_t n) {
    return rt().graphPrepareExecutionEnvironment(g, e, n);
  };
  t.graphReleaseExecutionEnvironment = [](Qnn_GraphHandle_t g, const QnnGraph_ExecuteEnvironment_t** e, uint32_t n) {
    return rt().graphReleaseExecutionEnvironment(g, e, n);
  };
  t.tensorUpdateGraphTensors = tensorUpdateGraphTensors;
  t.tensorUpdateContextTensors = tensorUpdateContextTensors;
  t.contextGetBinarySectionSize = [](Qnn_ContextHandle_t x, Qnn_GraphHandle_t g, QnnContext_SectionType_t s,
                                     Qnn_ContextBinarySize_t* n) { return rt().contextGetBinarySectionSize(x, g, s, n); };
  t.contextGetBinarySection = [](Qnn_ContextHandle_t x, Qnn_GraphHandle_t g, QnnContext_SectionType_t s,
                                 const QnnContext_Buffer_t* b, Qnn_ContextBinarySize_t* w, Qnn_ProfileHandle_t p,
                                 Qnn_SignalHandle_t sig) { return rt().contextGetBinarySection(x, g, s, b, w, p, sig); };
  t.contextApplyBinarySection = [](Qnn_ContextHandle_t x, Qnn_GraphHandle_t g, QnnContext_SectionType_t s,
                                   const QnnContext_Buffer_t* b, Qnn_ProfileHandle_t p, Qnn_SignalHandle_t sig) {
    return rt().contextApplyBinarySection(x, g, s, b, p, sig);
  };
  t.contextGetBinarySectionUpdate = [](const QnnContext_Buffer_t* b, const QnnContext_Buffer_t* aux,
                                       const Qnn_Tensor_t** ts, uint64_t n, uint8_t keep, Qnn_LogHandle_t l,
                                       Qnn_ProfileHandle_t p, Qnn_SignalHandle_t sig, QnnContext_Buffer_t* out) {
    return rt().contextGetBinarySectionUpdate(b, aux, ts, n, keep, l, p, sig, out);
  };
  t.contextFreeBinarySectionUpdate = [](QnnContext_Buffer_t b, Qnn_LogHandle_t l) {
    return rt().contextFreeBinarySectionUpdate(b, l);
  };
  // Members a later table adds, should this one grow (core/api_members.h).
  fillUnassignedMembers<NotSupported>(t);
}


}  // namespace qnn::sdk
