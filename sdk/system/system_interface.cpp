// The C entry points of libQnnSystem.so: the provider table of system API 1.7 and its four
// QnnSystemContext_* calls; the other members are in system_tensor_api.cpp,
// system_log_api.cpp, system_dlc_api.cpp and system_profile_api.cpp. Each entry runs inside guarded(),
// so no C++ exception crosses the C boundary, and answers a null, freed or
// forged handle with QNN_SYSTEM_CONTEXT_ERROR_INVALID_HANDLE (handles are keys
// in the core's HandleRegistry, never dereferenced pointers).
#include <new>
#include <string>

#include "System/QnnSystemInterface.h"
#include "compat/legacy_interface.h"
#include "core/api_members.h"
#include "core/logger.h"
#include "system_context.h"
#include "system_guard.h"

namespace qnn::system {
namespace {

// Every refusal of a QnnSystemContext_* call: logged, and on stderr (the calls take no logger).
Qnn_ErrorHandle_t toSystemError(const char* entry, const sdk::Status& s) {
  if (!s.isOk()) alsoToStderr(entry, s.message());
  return toComponentError(entry, s, kContextErrors);
}

std::shared_ptr<SystemContextObject> lookup(QnnSystemContext_Handle_t handle) {
  return sdk::handles().get<SystemContextObject>(handle, sdk::HandleKind::kSystemContext);
}

// Shared by getBinaryInfo and getMetadata: validates, parses, returns the info.
Qnn_ErrorHandle_t binaryInfo(const char* entry, QnnSystemContext_Handle_t handle, const void* buffer, uint64_t size,
                             const QnnSystemContext_BinaryInfo_t** info, Qnn_ContextBinarySize_t* infoSize) {
  auto ctx = lookup(handle);
  if (!ctx) return toSystemError(entry, {sdk::StatusCode::kInvalidHandle, "invalid system context handle"});
  if (!buffer || size == 0 || !info)
    return toSystemError(entry, sdk::invalidArgument("binary buffer, its size and the info pointer are required"));
  const BinaryInfoStorage* storage = nullptr;
  Qnn_ErrorHandle_t err = toSystemError(entry, ctx->parse(buffer, size, &storage));
  if (err != QNN_SUCCESS) return err;
  *info = storage->info();
  if (infoSize) *infoSize = storage->byteSize();
  return QNN_SUCCESS;
}

// Members of system API 1.7 this library does not implement yet (profile serialization; the list is core/api_members.h): each logs its name
// and answers NOT_SUPPORTED, as the project's rule for unimplemented entries demands.
template <typename Fn, unsigned Id>
struct NotSupported;
template <typename... Args, unsigned Id>
struct NotSupported<Qnn_ErrorHandle_t (*)(Args...), Id> {
  static Qnn_ErrorHandle_t call(Args...) noexcept {
    logError(sdk::systemInterfaceMemberApiName(Id), "not implemented by this library yet");
    return QNN_COMMON_ERROR_NOT_SUPPORTED;
  }
};

}  // namespace

}  // namespace qnn::system

using qnn::system::guarded;

extern "C" {

QNN_API Qnn_ErrorHandle_t QnnSystemContext_create(QnnSystemContext_Handle_t* sysCtxHandle) {
  const char* entry = __func__;  // the lambda's own __func__ would be "operator()"
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!sysCtxHandle)
      return qnn::system::toSystemError(entry, qnn::sdk::invalidArgument("sysCtxHandle is null"));
    *sysCtxHandle = qnn::sdk::handles().add(std::make_shared<qnn::system::SystemContextObject>());
    return QNN_SUCCESS;
  });
}

// Frees the handle and with it every QnnSystemContext_BinaryInfo_t returned through it.
QNN_API Qnn_ErrorHandle_t QnnSystemContext_free(QnnSystemContext_Handle_t sysCtxHandle) {
  const char* entry = __func__;  // the lambda's own __func__ would be "operator()"
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!qnn::sdk::handles().remove(sysCtxHandle, qnn::sdk::HandleKind::kSystemContext))
      return qnn::system::toSystemError(entry, {qnn::sdk::StatusCode::kInvalidHandle, "invalid system context handle"});
    return QNN_SUCCESS;
  });
}

// *binaryInfo is owned by sysCtxHandle and stays valid until QnnSystemContext_free.
// *binaryInfoSize receives the bytes of that info tree (structs, arrays, strings).
QNN_API Qnn_ErrorHandle_t QnnSystemContext_getBinaryInfo(QnnSystemContext_Handle_t sysCtxHandle, void* binaryBuffer,
                                                         uint64_t binaryBufferSize,
                                                         const QnnSystemContext_BinaryInfo_t** binaryInfo,
                                                         Qnn_ContextBinarySize_t* binaryInfoSize) {
  const char* entry = __func__;  // the lambda's own __func__ would be "operator()"
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!binaryInfoSize && qnn::system::lookup(sysCtxHandle))
      return qnn::system::toSystemError(entry, qnn::sdk::invalidArgument("binaryInfoSize is null"));
    return qnn::system::binaryInfo(entry, sysCtxHandle, binaryBuffer, binaryBufferSize, binaryInfo,
                                   binaryInfoSize);
  });
}

// Same info as getBinaryInfo (our binaries hold no metadata cheaper to reach than
// the graphs); owned by sysCtxHandle until QnnSystemContext_free.
QNN_API Qnn_ErrorHandle_t QnnSystemContext_getMetadata(QnnSystemContext_Handle_t sysCtxHandle, const void* binaryBuffer,
                                                       Qnn_ContextBinarySize_t binaryBufferSize,
                                                       const QnnSystemContext_BinaryInfo_t** binaryInfo) {
  const char* entry = __func__;  // the lambda's own __func__ would be "operator()"
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    return qnn::system::binaryInfo(entry, sysCtxHandle, binaryBuffer, binaryBufferSize, binaryInfo, nullptr);
  });
}

// One provider; the table and the list are static, valid while the library is loaded.
static const QnnSystemInterface_t& systemProvider() {
  static const QnnSystemInterface_t provider = [] {
    QnnSystemInterface_t p = QNN_SYSTEM_INTERFACE_INIT;
    p.backendId = QNN_BACKEND_ID_NULL;  // the System API is backend-independent
    p.providerName = "SYSTEM_OPENQNN";
    p.systemApiVersion = {QNN_SYSTEM_API_VERSION_MAJOR, QNN_SYSTEM_API_VERSION_MINOR, QNN_SYSTEM_API_VERSION_PATCH};
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemContextCreate = QnnSystemContext_create;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemContextGetBinaryInfo = QnnSystemContext_getBinaryInfo;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemContextGetMetaData = QnnSystemContext_getMetadata;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemContextFree = QnnSystemContext_free;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemTensorGetMemoryFootprint = QnnSystemTensor_getMemoryFootprint;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemLogCreate = QnnSystemLog_create;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemLogSetLogLevel = QnnSystemLog_setLogLevel;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemLogFree = QnnSystemLog_free;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemDlcCreateFromFile = QnnSystemDlc_createFromFile;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemDlcCreateFromBinary = QnnSystemDlc_createFromBinary;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemDlcComposeGraphs = QnnSystemDlc_composeGraphs;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemDlcGetOpMappings = QnnSystemDlc_getOpMappings;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemDlcFree = QnnSystemDlc_free;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemProfileCreateSerializationTarget = QnnSystemProfile_createSerializationTarget;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemProfileSerializeEventData = QnnSystemProfile_serializeEventData;
    p.QNN_SYSTEM_INTERFACE_VER_NAME.systemProfileFreeSerializationTarget = QnnSystemProfile_freeSerializationTarget;
    qnn::sdk::fillUnassignedMembers<qnn::system::NotSupported>(p.QNN_SYSTEM_INTERFACE_VER_NAME);
    return p;
  }();
  return provider;
}

QNN_API Qnn_ErrorHandle_t QnnSystemInterface_getProviders(const QnnSystemInterface_t*** providerList,
                                                          uint32_t* numProviders) {
  const QnnSystemInterface_t& provider = systemProvider();
  static const QnnSystemInterface_t* providers[] = {&provider};
  if (!providerList || !numProviders) return QNN_SYSTEM_INTERFACE_ERROR_INVALID_PARAMETER;
  uint32_t major = 0, minor = 0;  // an older client's layout, asked for through the environment
  if (qnn::compat::clientApiFromEnvironment(&major, &minor))
    return qnn::compat::systemProvidersForClient(provider, major, minor,
                                                 reinterpret_cast<const void***>(providerList), numProviders);
  *providerList = providers;
  *numProviders = 1;
  return QNN_SUCCESS;
}

// Compat shims (lib/x86_64-linux-clang/compat/api-2.<minor>/) ask for an older client's layout here.
QNN_API Qnn_ErrorHandle_t OpenQnn_getSystemProvidersForClientApi(uint32_t major, uint32_t minor,
                                                                 const void*** providerList, uint32_t* numProviders) {
  return qnn::compat::systemProvidersForClient(systemProvider(), major, minor, providerList, numProviders);
}

}  // extern "C"
