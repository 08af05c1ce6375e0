// The C entry points of libQnnSystem.so: the provider table of system API 1.7 and its four
// QnnSystemContext_* calls; the other members are in system_tensor_api.cpp,
// system_log_api.cpp, system_dlc_api.cpp and system_profile_api.cpp. Each entry runs inside guarded(),
// so no C++ exception crosses the C boundary, and answers a null, freed or
// forged handle with QNN_SYSTEM_CONTEXT_ERROR_INVALID_HANDLE (handles are keys
// in the core's HandleRegistry, never dereferenced pointers).
#include <new>
#include <string>

#include "System/QnnSystemInterface.h"
#include "adapters/client_interface.h"
#include "core/api_members.h"
#include "core/logger.h"
#include "runtime/providers.h"
#include "system/system_context.h"
#include "system/system_guard.h"

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

// Members this library does not implement (none today; the list is core/api_members.h): each
// logs its name and answers NOT_SUPPORTED, as the project's rule for unimplemented entries demands.
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

// Every member of system API 1.14 (core/api_members.h): the 89-member table of the opt-in 1.14
// provider, whose first 16 members are the default 1.7 provider's table.
static const qnn::sdk::SystemInterfaceTable1_14& systemTable() {
  static const qnn::sdk::SystemInterfaceTable1_14 table = [] {
    qnn::sdk::SystemInterfaceTable1_14 t{};
    t.systemContextCreate = QnnSystemContext_create;
    t.systemContextGetBinaryInfo = QnnSystemContext_getBinaryInfo;
    t.systemContextGetMetaData = QnnSystemContext_getMetadata;
    t.systemContextFree = QnnSystemContext_free;
    t.systemTensorGetMemoryFootprint = QnnSystemTensor_getMemoryFootprint;
    t.systemLogCreate = QnnSystemLog_create;
    t.systemLogSetLogLevel = QnnSystemLog_setLogLevel;
    t.systemLogFree = QnnSystemLog_free;
    t.systemDlcCreateFromFile = QnnSystemDlc_createFromFile;
    t.systemDlcCreateFromBinary = QnnSystemDlc_createFromBinary;
    t.systemDlcComposeGraphs = QnnSystemDlc_composeGraphs;
    t.systemDlcGetOpMappings = QnnSystemDlc_getOpMappings;
    t.systemDlcFree = QnnSystemDlc_free;
    t.systemProfileCreateSerializationTarget = QnnSystemProfile_createSerializationTarget;
    t.systemProfileSerializeEventData = QnnSystemProfile_serializeEventData;
    t.systemProfileFreeSerializationTarget = QnnSystemProfile_freeSerializationTarget;
    t.systemDlcGetRecordByName = QnnSystemDlc_getRecordByName;
    t.systemDlcGetRecordsByType = QnnSystemDlc_getRecordsByType;
    t.systemDlcGetRecordDataSize = QnnSystemDlc_getRecordDataSize;
    t.systemDlcReadRecordDataMemoryMapped = QnnSystemDlc_readRecordDataMemoryMapped;
    t.systemDlcFreeRecord = QnnSystemDlc_freeRecord;
    t.systemDlcSave = QnnSystemDlc_save;
    t.systemDlcCreateFromFileWithDestinationDir = QnnSystemDlc_createFromFileWithDestinationDir;
    t.systemDlcCreateFromBinaryWithDestinationDir = QnnSystemDlc_createFromBinaryWithDestinationDir;
    t.systemDlcGetBinarySize = QnnSystemDlc_getBinarySize;
    t.systemDlcGetBinary = QnnSystemDlc_getBinary;
    t.systemDlcCreateWithDestinationDir = QnnSystemDlc_createWithDestinationDir;
    t.systemDlcGetComposableGraphInfoHandles = QnnSystemDlc_getComposableGraphInfoHandles;
    t.systemDlcGetContextBinaryInfoHandles = QnnSystemDlc_getContextBinaryInfoHandles;
    t.systemDlcGetComposableGraphInfo = QnnSystemDlc_getComposableGraphInfo;
    t.systemDlcGetContextBinaryInfo = QnnSystemDlc_getContextBinaryInfo;
    t.systemDlcGetComposableGraphInfoGraphName = QnnSystemDlc_getComposableGraphInfoGraphName;
    t.systemDlcGetComposableGraphInfoNumInputTensors = QnnSystemDlc_getComposableGraphInfoNumInputTensors;
    t.systemDlcGetComposableGraphInfoNumOutputTensors = QnnSystemDlc_getComposableGraphInfoNumOutputTensors;
    t.systemDlcGetGraphInfoInputTensorInfo = QnnSystemDlc_getGraphInfoInputTensorInfo;
    t.systemDlcGetGraphInfoOutputTensorInfo = QnnSystemDlc_getGraphInfoOutputTensorInfo;
    t.systemDlcGetTensorInfoName = QnnSystemDlc_getTensorInfoName;
    t.systemDlcGetTensorInfoId = QnnSystemDlc_getTensorInfoId;
    t.systemDlcGetTensorInfoType = QnnSystemDlc_getTensorInfoType;
    t.systemDlcGetTensorInfoDataFormat = QnnSystemDlc_getTensorInfoDataFormat;
    t.systemDlcGetTensorInfoDataType = QnnSystemDlc_getTensorInfoDataType;
    t.systemDlcGetTensorInfoRank = QnnSystemDlc_getTensorInfoRank;
    t.systemDlcGetTensorInfoDimensions = QnnSystemDlc_getTensorInfoDimensions;
    t.systemDlcGetTensorInfoQuantParams = QnnSystemDlc_getTensorInfoQuantParams;
    t.systemDlcGetQuantParamsEncodingDefinition = QnnSystemDlc_getQuantParamsEncodingDefinition;
    t.systemDlcGetQuantParamsEncoding = QnnSystemDlc_getQuantParamsEncoding;
    t.systemDlcGetQuantParamsScaleOffsetScale = QnnSystemDlc_getQuantParamsScaleOffsetScale;
    t.systemDlcGetQuantParamsScaleOffsetOffset = QnnSystemDlc_getQuantParamsScaleOffsetOffset;
    t.systemDlcGetQuantParamsBwScaleOffsetBitwidth = QnnSystemDlc_getQuantParamsBwScaleOffsetBitwidth;
    t.systemDlcGetQuantParamsBwScaleOffsetScale = QnnSystemDlc_getQuantParamsBwScaleOffsetScale;
    t.systemDlcGetQuantParamsBwScaleOffsetOffset = QnnSystemDlc_getQuantParamsBwScaleOffsetOffset;
    t.systemDlcGetQuantParamsAxisScaleOffsetAxis = QnnSystemDlc_getQuantParamsAxisScaleOffsetAxis;
    t.systemDlcGetQuantParamsAxisScaleOffsetNumScaleOffsets = QnnSystemDlc_getQuantParamsAxisScaleOffsetNumScaleOffsets;
    t.systemDlcGetQuantParamsAxisScaleOffsetScaleAtIndex = QnnSystemDlc_getQuantParamsAxisScaleOffsetScaleAtIndex;
    t.systemDlcGetQuantParamsAxisScaleOffsetOffsetAtIndex = QnnSystemDlc_getQuantParamsAxisScaleOffsetOffsetAtIndex;
    t.systemDlcGetQuantParamsBwAxisScaleOffsetBitwidth = QnnSystemDlc_getQuantParamsBwAxisScaleOffsetBitwidth;
    t.systemDlcGetQuantParamsBwAxisScaleOffsetAxis = QnnSystemDlc_getQuantParamsBwAxisScaleOffsetAxis;
    t.systemDlcGetQuantParamsBwAxisScaleOffsetNumElements = QnnSystemDlc_getQuantParamsBwAxisScaleOffsetNumElements;
    t.systemDlcGetQuantParamsBwAxisScaleOffsetScaleAtIndex = QnnSystemDlc_getQuantParamsBwAxisScaleOffsetScaleAtIndex;
    t.systemDlcGetQuantParamsBwAxisScaleOffsetOffsetAtIndex = QnnSystemDlc_getQuantParamsBwAxisScaleOffsetOffsetAtIndex;
    t.systemDlcGetContextBinaryInfoBackendId = QnnSystemDlc_getContextBinaryInfoBackendId;
    t.systemDlcGetContextBinaryInfoBuildId = QnnSystemDlc_getContextBinaryInfoBuildId;
    t.systemDlcGetContextBinaryInfoCoreApiVersion = QnnSystemDlc_getContextBinaryInfoCoreApiVersion;
    t.systemDlcGetContextBinaryInfoBackendApiVersion = QnnSystemDlc_getContextBinaryInfoBackendApiVersion;
    t.systemDlcGetContextBinaryInfoSocVersion = QnnSystemDlc_getContextBinaryInfoSocVersion;
    t.systemDlcGetContextBinaryInfoHwInfoBlobVersion = QnnSystemDlc_getContextBinaryInfoHwInfoBlobVersion;
    t.systemDlcGetContextBinaryInfoContextBlobVersion = QnnSystemDlc_getContextBinaryInfoContextBlobVersion;
    t.systemDlcGetContextBinaryInfoHwInfoBlobSize = QnnSystemDlc_getContextBinaryInfoHwInfoBlobSize;
    t.systemDlcGetContextBinaryInfoHwInfoBlob = QnnSystemDlc_getContextBinaryInfoHwInfoBlob;
    t.systemDlcGetContextBinaryInfoContextBlobSize = QnnSystemDlc_getContextBinaryInfoContextBlobSize;
    t.systemDlcGetContextBinaryInfoNumContextTensors = QnnSystemDlc_getContextBinaryInfoNumContextTensors;
    t.systemDlcGetContextBinaryInfoContextTensorInfo = QnnSystemDlc_getContextBinaryInfoContextTensorInfo;
    t.systemDlcGetContextBinaryInfoNumGraphs = QnnSystemDlc_getContextBinaryInfoNumGraphs;
    t.systemDlcGetContextGraphInfoHandle = QnnSystemDlc_getContextGraphInfoHandle;
    t.systemDlcGetContextBinaryInfoSocModel = QnnSystemDlc_getContextBinaryInfoSocModel;
    t.systemDlcGetContextBinaryInfoContextMetadataSize = QnnSystemDlc_getContextBinaryInfoContextMetadataSize;
    t.systemDlcGetContextBinaryInfoContextMetadata = QnnSystemDlc_getContextBinaryInfoContextMetadata;
    t.systemDlcGetContextGraphInfoGraphName = QnnSystemDlc_getContextGraphInfoGraphName;
    t.systemDlcGetContextGraphInfoNumInputTensors = QnnSystemDlc_getContextGraphInfoNumInputTensors;
    t.systemDlcGetContextGraphInfoNumOutputTensors = QnnSystemDlc_getContextGraphInfoNumOutputTensors;
    t.systemDlcGetContextGraphInfoNumUpdateableTensors = QnnSystemDlc_getContextGraphInfoNumUpdateableTensors;
    t.systemDlcGetContextGraphInfoGraphBlobInfoSize = QnnSystemDlc_getContextGraphInfoGraphBlobInfoSize;
    t.systemDlcGetContextGraphInfoGraphBlobInfo = QnnSystemDlc_getContextGraphInfoGraphBlobInfo;
    t.systemDlcGetContextGraphInfoStartOpIndex = QnnSystemDlc_getContextGraphInfoStartOpIndex;
    t.systemDlcGetContextGraphInfoEndOpIndex = QnnSystemDlc_getContextGraphInfoEndOpIndex;
    t.systemDlcGetContextGraphInfoInputTensorInfo = QnnSystemDlc_getContextGraphInfoInputTensorInfo;
    t.systemDlcGetContextGraphInfoOutputTensorInfo = QnnSystemDlc_getContextGraphInfoOutputTensorInfo;
    t.systemDlcGetContextGraphInfoUpdateableTensorInfo = QnnSystemDlc_getContextGraphInfoUpdateableTensorInfo;
    t.systemDlcFreeRecordRange = QnnSystemDlc_freeRecordRange;
    qnn::sdk::fillUnassignedMembers<qnn::system::NotSupported>(t);
    return t;
  }();
  return table;
}

// One provider; the table and the list are static, valid while the library is loaded.
static const QnnSystemInterface_t& systemProvider() {
  static const QnnSystemInterface_t provider = [] {
    QnnSystemInterface_t p = QNN_SYSTEM_INTERFACE_INIT;
    p.backendId = QNN_BACKEND_ID_NULL;  // the System API is backend-independent
    p.providerName = "SYSTEM_OPENQNN";
    p.systemApiVersion = {QNN_SYSTEM_API_VERSION_MAJOR, QNN_SYSTEM_API_VERSION_MINOR, QNN_SYSTEM_API_VERSION_PATCH};
    p.QNN_SYSTEM_INTERFACE_VER_NAME = qnn::sdk::systemPrefixOf1_7(systemTable());
    return p;
  }();
  return provider;
}

// System API 1.14.0 (QAIRT 2.50.40): the 89-member table, offered instead of 1.7 when
// QNN_OPENQNN_PROVIDER_API=2.39 (a 1.7 client reads its first 16 members as its table).
static const qnn::sdk::SystemInterface1_14& systemProvider1_14() {
  static const qnn::sdk::SystemInterface1_14 provider = [] {
    qnn::sdk::SystemInterface1_14 p{};
    p.backendId = QNN_BACKEND_ID_NULL;
    p.providerName = "SYSTEM_OPENQNN";
    p.systemApiVersion = {1, 14, 0};
    p.v1_14 = systemTable();
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
  if (qnn::adapters::clientApiFromEnvironment(&major, &minor))
    return qnn::adapters::systemProvidersForClient(provider, major, minor,
                                                 reinterpret_cast<const void***>(providerList), numProviders);
  if (qnn::sdk::providerApiMinor() == 39) {  // QNN_OPENQNN_PROVIDER_API=2.39, as the core libraries
    static const QnnSystemInterface_t* providers1_14[] = {
        reinterpret_cast<const QnnSystemInterface_t*>(&systemProvider1_14())};
    *providerList = providers1_14;
    *numProviders = 1;
    return QNN_SUCCESS;
  }
  *providerList = providers;
  *numProviders = 1;
  return QNN_SUCCESS;
}

// Compat shims (lib/x86_64-linux-clang/compat/api-2.<minor>/) ask for an older client's layout here.
QNN_API Qnn_ErrorHandle_t OpenQnn_getSystemProvidersForClientApi(uint32_t major, uint32_t minor,
                                                                 const void*** providerList, uint32_t* numProviders) {
  return qnn::adapters::systemProvidersForClient(systemProvider(), major, minor, providerList, numProviders);
}

}  // extern "C"
