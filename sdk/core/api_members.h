// The members of the function tables, in table order, once for every library
// and tool: the backends' runtime tables, the Saver's table, the trace format's
// call ids (id = position, part of the .qnntrace format: append, never
// renumber) and the system library's table. X(id, member, ApiFunction): the
// member's type is that of the function include/QNN declares under that name,
// and its API name ("QnnBackend_create") is the name spelled out.
//
// The core list is API 2.39's 75 members: 2.32's 71 (include/QNN's table,
// QNN_INTERFACE_VER_TYPE) and the four 2.39 appends. The 71 make the table
// every default provider hands out; the 75 make InterfaceTable2_39, the table
// of the opt-in 2.39 provider (include/QNN stays 2.32: docs/compatibility.md),
// and everything keyed by call id. A library fills the 75-member table (the
// members it implements, then fillUnassignedMembers: whatever it left null
// answers NOT_SUPPORTED, so a member added here can never be left null) and
// takes the 2.32 table as its prefix (prefixOf2_32). The static_asserts tie
// each list to its table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "QnnInterface.h"
#include "System/QnnSystemInterface.h"

#define QNN_FOR_EACH_INTERFACE_MEMBER_2_32(X) \
  X(1, propertyHasCapability, QnnProperty_hasCapability) \
  X(2, backendCreate, QnnBackend_create) \
  X(3, backendSetConfig, QnnBackend_setConfig) \
  X(4, backendGetApiVersion, QnnBackend_getApiVersion) \
  X(5, backendGetBuildId, QnnBackend_getBuildId) \
  X(6, backendRegisterOpPackage, QnnBackend_registerOpPackage) \
  X(7, backendGetSupportedOperations, QnnBackend_getSupportedOperations) \
  X(8, backendValidateOpConfig, QnnBackend_validateOpConfig) \
  X(9, backendFree, QnnBackend_free) \
  X(10, contextCreate, QnnContext_create) \
  X(11, contextSetConfig, QnnContext_setConfig) \
  X(12, contextGetBinarySize, QnnContext_getBinarySize) \
  X(13, contextGetBinary, QnnContext_getBinary) \
  X(14, contextCreateFromBinary, QnnContext_createFromBinary) \
  X(15, contextFree, QnnContext_free) \
  X(16, graphCreate, QnnGraph_create) \
  X(17, graphCreateSubgraph, QnnGraph_createSubgraph) \
  X(18, graphSetConfig, QnnGraph_setConfig) \
  X(19, graphAddNode, QnnGraph_addNode) \
  X(20, graphFinalize, QnnGraph_finalize) \
  X(21, graphRetrieve, QnnGraph_retrieve) \
  X(22, graphExecute, QnnGraph_execute) \
  X(23, graphExecuteAsync, QnnGraph_executeAsync) \
  X(24, tensorCreateContextTensor, QnnTensor_createContextTensor) \
  X(25, tensorCreateGraphTensor, QnnTensor_createGraphTensor) \
  X(26, logCreate, QnnLog_create) \
  X(27, logSetLogLevel, QnnLog_setLogLevel) \
  X(28, logFree, QnnLog_free) \
  X(29, profileCreate, QnnProfile_create) \
  X(30, profileSetConfig, QnnProfile_setConfig) \
  X(31, profileGetEvents, QnnProfile_getEvents) \
  X(32, profileGetSubEvents, QnnProfile_getSubEvents) \
  X(33, profileGetEventData, QnnProfile_getEventData) \
  X(34, profileGetExtendedEventData, QnnProfile_getExtendedEventData) \
  X(35, profileFree, QnnProfile_free) \
  X(36, memRegister, QnnMem_register) \
  X(37, memDeRegister, QnnMem_deRegister) \
  X(38, deviceGetPlatformInfo, QnnDevice_getPlatformInfo) \
  X(39, deviceFreePlatformInfo, QnnDevice_freePlatformInfo) \
  X(40, deviceGetInfrastructure, QnnDevice_getInfrastructure) \
  X(41, deviceCreate, QnnDevice_create) \
  X(42, deviceSetConfig, QnnDevice_setConfig) \
  X(43, deviceGetInfo, QnnDevice_getInfo) \
  X(44, deviceFree, QnnDevice_free) \
  X(45, signalCreate, QnnSignal_create) \
  X(46, signalSetConfig, QnnSignal_setConfig) \
  X(47, signalTrigger, QnnSignal_trigger) \
  X(48, signalFree, QnnSignal_free) \
  X(49, errorGetMessage, QnnError_getMessage) \
  X(50, errorGetVerboseMessage, QnnError_getVerboseMessage) \
  X(51, errorFreeVerboseMessage, QnnError_freeVerboseMessage) \
  X(52, graphPrepareExecutionEnvironment, QnnGraph_prepareExecutionEnvironment) \
  X(53, graphReleaseExecutionEnvironment, QnnGraph_releaseExecutionEnvironment) \
  X(54, graphGetProperty, QnnGraph_getProperty) \
  X(55, contextValidateBinary, QnnContext_validateBinary) \
  X(56, contextCreateFromBinaryWithSignal, QnnContext_createFromBinaryWithSignal) \
  X(57, contextCreateFromBinaryListAsync, QnnContext_createFromBinaryListAsync) \
  X(58, tensorUpdateGraphTensors, QnnTensor_updateGraphTensors) \
  X(59, tensorUpdateContextTensors, QnnTensor_updateContextTensors) \
  X(60, contextGetBinarySectionSize, QnnContext_getBinarySectionSize) \
  X(61, contextGetBinarySection, QnnContext_getBinarySection) \
  X(62, contextApplyBinarySection, QnnContext_applyBinarySection) \
  X(63, backendGetProperty, QnnBackend_getProperty) \
  X(64, contextGetProperty, QnnContext_getProperty) \
  X(65, contextGetIncrementalBinary, QnnContext_getIncrementalBinary) \
  X(66, contextReleaseIncrementalBinary, QnnContext_releaseIncrementalBinary) \
  X(67, contextFinalize, QnnContext_finalize) \
  X(68, globalConfigSet, QnnGlobalConfig_Set) \
  X(69, contextCreateFromBinaryWithCallback, QnnContext_createFromBinaryWithCallback) \
  X(70, contextGetBinarySectionUpdate, QnnContext_getBinarySectionUpdate) \
  X(71, contextFreeBinarySectionUpdate, QnnContext_freeBinarySectionUpdate)

// Appended by API 2.39 (QnnInterface.h of QAIRT 2.50.40), in its order.
#define QNN_FOR_EACH_INTERFACE_MEMBER_ADDED_2_39(X) \
  X(72, contextAddToDlc, QnnContext_addToDlc) \
  X(73, graphValidate, QnnGraph_validate) \
  X(74, graphFreeValidationResult, QnnGraph_freeValidationResult) \
  X(75, backendRegisterOpPackageFromBinary, QnnBackend_registerOpPackageFromBinary)

// Every member: the 2.39 table, the trace's call ids 1..75.
#define QNN_FOR_EACH_INTERFACE_MEMBER(X) \
  QNN_FOR_EACH_INTERFACE_MEMBER_2_32(X)  \
  QNN_FOR_EACH_INTERFACE_MEMBER_ADDED_2_39(X)

// System API 1.7 (include/QNN: QnnSystemInterface_ImplementationV1_7_t, 16 members).
#define QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER_1_7(X) \
  X(1, systemContextCreate, QnnSystemContext_create) \
  X(2, systemContextGetBinaryInfo, QnnSystemContext_getBinaryInfo) \
  X(3, systemContextGetMetaData, QnnSystemContext_getMetadata) \
  X(4, systemContextFree, QnnSystemContext_free) \
  X(5, systemTensorGetMemoryFootprint, QnnSystemTensor_getMemoryFootprint) \
  X(6, systemLogCreate, QnnSystemLog_create) \
  X(7, systemLogSetLogLevel, QnnSystemLog_setLogLevel) \
  X(8, systemLogFree, QnnSystemLog_free) \
  X(9, systemDlcCreateFromFile, QnnSystemDlc_createFromFile) \
  X(10, systemDlcCreateFromBinary, QnnSystemDlc_createFromBinary) \
  X(11, systemDlcComposeGraphs, QnnSystemDlc_composeGraphs) \
  X(12, systemDlcGetOpMappings, QnnSystemDlc_getOpMappings) \
  X(13, systemDlcFree, QnnSystemDlc_free) \
  X(14, systemProfileCreateSerializationTarget, QnnSystemProfile_createSerializationTarget) \
  X(15, systemProfileSerializeEventData, QnnSystemProfile_serializeEventData) \
  X(16, systemProfileFreeSerializationTarget, QnnSystemProfile_freeSerializationTarget)

// Appended by system API 1.14 (System/QnnSystemInterface.h of QAIRT 2.50.40, the commit
// docs/compatibility.md names; 1.7's 16 first in the same order), in its order.
#define QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER_ADDED_1_14(X) \
  X(17, systemDlcGetRecordByName, QnnSystemDlc_getRecordByName) \
  X(18, systemDlcGetRecordsByType, QnnSystemDlc_getRecordsByType) \
  X(19, systemDlcGetRecordDataSize, QnnSystemDlc_getRecordDataSize) \
  X(20, systemDlcReadRecordDataMemoryMapped, QnnSystemDlc_readRecordDataMemoryMapped) \
  X(21, systemDlcFreeRecord, QnnSystemDlc_freeRecord) \
  X(22, systemDlcSave, QnnSystemDlc_save) \
  X(23, systemDlcCreateFromFileWithDestinationDir, QnnSystemDlc_createFromFileWithDestinationDir) \
  X(24, systemDlcCreateFromBinaryWithDestinationDir, QnnSystemDlc_createFromBinaryWithDestinationDir) \
  X(25, systemDlcGetBinarySize, QnnSystemDlc_getBinarySize) \
  X(26, systemDlcGetBinary, QnnSystemDlc_getBinary) \
  X(27, systemDlcCreateWithDestinationDir, QnnSystemDlc_createWithDestinationDir) \
  X(28, systemDlcGetComposableGraphInfoHandles, QnnSystemDlc_getComposableGraphInfoHandles) \
  X(29, systemDlcGetContextBinaryInfoHandles, QnnSystemDlc_getContextBinaryInfoHandles) \
  X(30, systemDlcGetComposableGraphInfo, QnnSystemDlc_getComposableGraphInfo) \
  X(31, systemDlcGetContextBinaryInfo, QnnSystemDlc_getContextBinaryInfo) \
  X(32, systemDlcGetComposableGraphInfoGraphName, QnnSystemDlc_getComposableGraphInfoGraphName) \
  X(33, systemDlcGetComposableGraphInfoNumInputTensors, QnnSystemDlc_getComposableGraphInfoNumInputTensors) \
  X(34, systemDlcGetComposableGraphInfoNumOutputTensors, QnnSystemDlc_getComposableGraphInfoNumOutputTensors) \
  X(35, systemDlcGetGraphInfoInputTensorInfo, QnnSystemDlc_getGraphInfoInputTensorInfo) \
  X(36, systemDlcGetGraphInfoOutputTensorInfo, QnnSystemDlc_getGraphInfoOutputTensorInfo) \
  X(37, systemDlcGetTensorInfoName, QnnSystemDlc_getTensorInfoName) \
  X(38, systemDlcGetTensorInfoId, QnnSystemDlc_getTensorInfoId) \
  X(39, systemDlcGetTensorInfoType, QnnSystemDlc_getTensorInfoType) \
  X(40, systemDlcGetTensorInfoDataFormat, QnnSystemDlc_getTensorInfoDataFormat) \
  X(41, systemDlcGetTensorInfoDataType, QnnSystemDlc_getTensorInfoDataType) \
  X(42, systemDlcGetTensorInfoRank, QnnSystemDlc_getTensorInfoRank) \
  X(43, systemDlcGetTensorInfoDimensions, QnnSystemDlc_getTensorInfoDimensions) \
  X(44, systemDlcGetTensorInfoQuantParams, QnnSystemDlc_getTensorInfoQuantParams) \
  X(45, systemDlcGetQuantParamsEncodingDefinition, QnnSystemDlc_getQuantParamsEncodingDefinition) \
  X(46, systemDlcGetQuantParamsEncoding, QnnSystemDlc_getQuantParamsEncoding) \
  X(47, systemDlcGetQuantParamsScaleOffsetScale, QnnSystemDlc_getQuantParamsScaleOffsetScale) \
  X(48, systemDlcGetQuantParamsScaleOffsetOffset, QnnSystemDlc_getQuantParamsScaleOffsetOffset) \
  X(49, systemDlcGetQuantParamsBwScaleOffsetBitwidth, QnnSystemDlc_getQuantParamsBwScaleOffsetBitwidth) \
  X(50, systemDlcGetQuantParamsBwScaleOffsetScale, QnnSystemDlc_getQuantParamsBwScaleOffsetScale) \
  X(51, systemDlcGetQuantParamsBwScaleOffsetOffset, QnnSystemDlc_getQuantParamsBwScaleOffsetOffset) \
  X(52, systemDlcGetQuantParamsAxisScaleOffsetAxis, QnnSystemDlc_getQuantParamsAxisScaleOffsetAxis) \
  X(53, systemDlcGetQuantParamsAxisScaleOffsetNumScaleOffsets, QnnSystemDlc_getQuantParamsAxisScaleOffsetNumScaleOffsets) \
  X(54, systemDlcGetQuantParamsAxisScaleOffsetScaleAtIndex, QnnSystemDlc_getQuantParamsAxisScaleOffsetScaleAtIndex) \
  X(55, systemDlcGetQuantParamsAxisScaleOffsetOffsetAtIndex, QnnSystemDlc_getQuantParamsAxisScaleOffsetOffsetAtIndex) \
  X(56, systemDlcGetQuantParamsBwAxisScaleOffsetBitwidth, QnnSystemDlc_getQuantParamsBwAxisScaleOffsetBitwidth) \
  X(57, systemDlcGetQuantParamsBwAxisScaleOffsetAxis, QnnSystemDlc_getQuantParamsBwAxisScaleOffsetAxis) \
  X(58, systemDlcGetQuantParamsBwAxisScaleOffsetNumElements, QnnSystemDlc_getQuantParamsBwAxisScaleOffsetNumElements) \
  X(59, systemDlcGetQuantParamsBwAxisScaleOffsetScaleAtIndex, QnnSystemDlc_getQuantParamsBwAxisScaleOffsetScaleAtIndex) \
  X(60, systemDlcGetQuantParamsBwAxisScaleOffsetOffsetAtIndex, QnnSystemDlc_getQuantParamsBwAxisScaleOffsetOffsetAtIndex) \
  X(61, systemDlcGetContextBinaryInfoBackendId, QnnSystemDlc_getContextBinaryInfoBackendId) \
  X(62, systemDlcGetContextBinaryInfoBuildId, QnnSystemDlc_getContextBinaryInfoBuildId) \
  X(63, systemDlcGetContextBinaryInfoCoreApiVersion, QnnSystemDlc_getContextBinaryInfoCoreApiVersion) \
  X(64, systemDlcGetContextBinaryInfoBackendApiVersion, QnnSystemDlc_getContextBinaryInfoBackendApiVersion) \
  X(65, systemDlcGetContextBinaryInfoSocVersion, QnnSystemDlc_getContextBinaryInfoSocVersion) \
  X(66, systemDlcGetContextBinaryInfoHwInfoBlobVersion, QnnSystemDlc_getContextBinaryInfoHwInfoBlobVersion) \
  X(67, systemDlcGetContextBinaryInfoContextBlobVersion, QnnSystemDlc_getContextBinaryInfoContextBlobVersion) \
  X(68, systemDlcGetContextBinaryInfoHwInfoBlobSize, QnnSystemDlc_getContextBinaryInfoHwInfoBlobSize) \
  X(69, systemDlcGetContextBinaryInfoHwInfoBlob, QnnSystemDlc_getContextBinaryInfoHwInfoBlob) \
  X(70, systemDlcGetContextBinaryInfoContextBlobSize, QnnSystemDlc_getContextBinaryInfoContextBlobSize) \
  X(71, systemDlcGetContextBinaryInfoNumContextTensors, QnnSystemDlc_getContextBinaryInfoNumContextTensors) \
  X(72, systemDlcGetContextBinaryInfoContextTensorInfo, QnnSystemDlc_getContextBinaryInfoContextTensorInfo) \
  X(73, systemDlcGetContextBinaryInfoNumGraphs, QnnSystemDlc_getContextBinaryInfoNumGraphs) \
  X(74, systemDlcGetContextGraphInfoHandle, QnnSystemDlc_getContextGraphInfoHandle) \
  X(75, systemDlcGetContextBinaryInfoSocModel, QnnSystemDlc_getContextBinaryInfoSocModel) \
  X(76, systemDlcGetContextBinaryInfoContextMetadataSize, QnnSystemDlc_getContextBinaryInfoContextMetadataSize) \
  X(77, systemDlcGetContextBinaryInfoContextMetadata, QnnSystemDlc_getContextBinaryInfoContextMetadata) \
  X(78, systemDlcGetContextGraphInfoGraphName, QnnSystemDlc_getContextGraphInfoGraphName) \
  X(79, systemDlcGetContextGraphInfoNumInputTensors, QnnSystemDlc_getContextGraphInfoNumInputTensors) \
  X(80, systemDlcGetContextGraphInfoNumOutputTensors, QnnSystemDlc_getContextGraphInfoNumOutputTensors) \
  X(81, systemDlcGetContextGraphInfoNumUpdateableTensors, QnnSystemDlc_getContextGraphInfoNumUpdateableTensors) \
  X(82, systemDlcGetContextGraphInfoGraphBlobInfoSize, QnnSystemDlc_getContextGraphInfoGraphBlobInfoSize) \
  X(83, systemDlcGetContextGraphInfoGraphBlobInfo, QnnSystemDlc_getContextGraphInfoGraphBlobInfo) \
  X(84, systemDlcGetContextGraphInfoStartOpIndex, QnnSystemDlc_getContextGraphInfoStartOpIndex) \
  X(85, systemDlcGetContextGraphInfoEndOpIndex, QnnSystemDlc_getContextGraphInfoEndOpIndex) \
  X(86, systemDlcGetContextGraphInfoInputTensorInfo, QnnSystemDlc_getContextGraphInfoInputTensorInfo) \
  X(87, systemDlcGetContextGraphInfoOutputTensorInfo, QnnSystemDlc_getContextGraphInfoOutputTensorInfo) \
  X(88, systemDlcGetContextGraphInfoUpdateableTensorInfo, QnnSystemDlc_getContextGraphInfoUpdateableTensorInfo) \
  X(89, systemDlcFreeRecordRange, QnnSystemDlc_freeRecordRange)

// Every system member: the 1.14 table (89). The 16 of 1.7 make the table the default provider
// hands out; the 89 the opt-in 1.14 provider's (QNN_OPENQNN_PROVIDER_API=2.39).
#define QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER(X) \
  QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER_1_7(X)  \
  QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER_ADDED_1_14(X)

namespace qnn::sdk {

// API 2.39's function table, 75 members: 2.32's 71 (same types, same offsets)
// and the four 2.39 appends. Internal: include/QNN declares 2.32's table.
struct InterfaceTable2_39 {
#define QNN_API_MEMBER_FIELD_(id, member, fn) decltype(&fn) member;
  QNN_FOR_EACH_INTERFACE_MEMBER(QNN_API_MEMBER_FIELD_)
#undef QNN_API_MEMBER_FIELD_
};

// QnnInterface_t as a client built against 2.39 headers reads it (640 bytes):
// the same header fields, the 75-member table at the same offset.
struct Interface2_39 {
  uint32_t backendId;
  const char* providerName;
  Qnn_ApiVersion_t apiVersion;
  InterfaceTable2_39 v2_39;
};
static_assert(offsetof(Interface2_39, v2_39) == offsetof(QnnInterface_t, QNN_INTERFACE_VER_NAME),
              "the table starts where QnnInterface_t's does");
static_assert(sizeof(Interface2_39) == 640, "QnnInterface_t of API 2.39 is 640 bytes (x86_64)");

// For one list and its table type: kNum<Name>Members and static_asserts on size,
// order and types (QNN_API_MEMBER_TABLE_CHECKS_); with QNN_API_MEMBER_HELPERS_
// also fillUnassignedMembers(Table&) and <name>MemberApiName(id).
#define QNN_API_MEMBER_COUNT_(id, member, fn) +1
#define QNN_API_MEMBER_AT_(id, member, fn)                                                                \
  static_assert(offsetof(QnnApiTable_, member) == (id - 1) * sizeof(void (*)()),                         \
                #member " is not at its listed position");                                               \
  static_assert(std::is_same_v<decltype(QnnApiTable_::member), decltype(&fn)>, #member " is not of " #fn "'s type");
#define QNN_API_MEMBER_FILL_(id, member, fn) \
  if (!t.member) t.member = &Fallback<decltype(t.member), id>::call;
#define QNN_API_MEMBER_NAME_(id, member, fn) #fn,
#define QNN_API_MEMBER_TABLE_CHECKS_(LIST, Table, countName)                                                \
  inline constexpr std::size_t countName = 0 LIST(QNN_API_MEMBER_COUNT_);                                  \
  /* Every member is a function pointer: the count fixes the size, the offsets the order. */              \
  static_assert(sizeof(Table) == countName * sizeof(void (*)()), #LIST " does not list every member of " #Table); \
  namespace api_members_detail_##countName {                                                               \
  using QnnApiTable_ = Table;                                                                              \
  LIST(QNN_API_MEMBER_AT_)                                                                                 \
  }
#define QNN_API_MEMBER_HELPERS_(LIST, Table, countName, nameFunction)                                       \
  QNN_API_MEMBER_TABLE_CHECKS_(LIST, Table, countName)                                                     \
  /* Assigns `Fallback<decltype(member), id>::call` to every member still null. */                         \
  template <template <typename, unsigned> class Fallback>                                                  \
  void fillUnassignedMembers(Table& t) {                                                                   \
    LIST(QNN_API_MEMBER_FILL_)                                                                             \
  }                                                                                                        \
  /* API name of a member by id ("QnnBackend_create"); nullptr outside the list. */                        \
  constexpr const char* nameFunction(unsigned id) {                                                        \
    constexpr const char* kNames[] = {LIST(QNN_API_MEMBER_NAME_)};                                         \
    return id >= 1 && id <= countName ? kNames[id - 1] : nullptr;                                          \
  }

// System API 1.14's function table, 89 members: 1.7's 16 (same types, same offsets) and the 73
// 1.14 appends. Internal: include/QNN declares 1.7's table.
struct SystemInterfaceTable1_14 {
#define QNN_API_MEMBER_FIELD_(id, member, fn) decltype(&fn) member;
  QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER(QNN_API_MEMBER_FIELD_)
#undef QNN_API_MEMBER_FIELD_
};

// QnnSystemInterface_t as a client built against 1.14 headers reads it: the same header fields,
// the 89-member table at the same offset.
struct SystemInterface1_14 {
  uint32_t backendId;
  const char* providerName;
  Qnn_Version_t systemApiVersion;
  SystemInterfaceTable1_14 v1_14;
};
static_assert(offsetof(SystemInterface1_14, v1_14) == offsetof(QnnSystemInterface_t, QNN_SYSTEM_INTERFACE_VER_NAME),
              "the table starts where QnnSystemInterface_t's does");

// Fallback is the library's own NOT_SUPPORTED answer (logging, recording).
QNN_API_MEMBER_HELPERS_(QNN_FOR_EACH_INTERFACE_MEMBER, InterfaceTable2_39, kNumInterfaceMembers,
                        interfaceMemberApiName)
// The 2.32 table: its size and order checked against include/QNN; filled as a prefix.
QNN_API_MEMBER_TABLE_CHECKS_(QNN_FOR_EACH_INTERFACE_MEMBER_2_32, QNN_INTERFACE_VER_TYPE, kNumInterfaceMembers2_32)

// The 2.32 table of a filled 2.39 table: its first 71 members (every member type-checked).
inline QNN_INTERFACE_VER_TYPE prefixOf2_32(const InterfaceTable2_39& full) {
  QNN_INTERFACE_VER_TYPE t{};
#define QNN_API_MEMBER_COPY_(id, member, fn) t.member = full.member;
  QNN_FOR_EACH_INTERFACE_MEMBER_2_32(QNN_API_MEMBER_COPY_)
#undef QNN_API_MEMBER_COPY_
  return t;
}

// A 2.39 table over a 2.32 table (another library's, e.g. a vendor backend's):
// its 71 members; the 2.39 appends left null.
inline InterfaceTable2_39 extendedFrom2_32(const QNN_INTERFACE_VER_TYPE& t) {
  InterfaceTable2_39 full{};
#define QNN_API_MEMBER_COPY_(id, member, fn) full.member = t.member;
  QNN_FOR_EACH_INTERFACE_MEMBER_2_32(QNN_API_MEMBER_COPY_)
#undef QNN_API_MEMBER_COPY_
  return full;
}

// The provider a library of ours calls through (replay, the Saver's
// pass-through): the first of core API 2.<32 or newer>; its whole table when it
// is 2.39 or newer (a 2.39 provider's table is Interface2_39's), else its 71
// members (*table's appends null). Null when there is none.
inline const QnnInterface_t* pickProvider(const QnnInterface_t* const* providers, uint32_t n,
                                          InterfaceTable2_39* table) {
  for (uint32_t k = 0; providers && k < n; ++k) {
    const Qnn_Version_t& v = providers[k]->apiVersion.coreApiVersion;
    if (v.major != QNN_API_VERSION_MAJOR || v.minor < QNN_API_VERSION_MINOR) continue;
    *table = v.minor >= 39 ? reinterpret_cast<const Interface2_39*>(providers[k])->v2_39
                           : extendedFrom2_32(providers[k]->QNN_INTERFACE_VER_NAME);
    return providers[k];
  }
  return nullptr;
}

QNN_API_MEMBER_HELPERS_(QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER, SystemInterfaceTable1_14, kNumSystemInterfaceMembers,
                        systemInterfaceMemberApiName)
static_assert(kNumSystemInterfaceMembers == 89, "system API 1.14 has 89 members");
// The 1.7 table: its size and order checked against include/QNN; filled as a prefix.
QNN_API_MEMBER_TABLE_CHECKS_(QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER_1_7, QNN_SYSTEM_INTERFACE_VER_TYPE,
                             kNumSystemInterfaceMembers1_7)

// The 1.7 table of a filled 1.14 table: its first 16 members.
inline QNN_SYSTEM_INTERFACE_VER_TYPE systemPrefixOf1_7(const SystemInterfaceTable1_14& full) {
  QNN_SYSTEM_INTERFACE_VER_TYPE t{};
#define QNN_API_MEMBER_COPY_(id, member, fn) t.member = full.member;
  QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER_1_7(QNN_API_MEMBER_COPY_)
#undef QNN_API_MEMBER_COPY_
  return t;
}

// API name of a member of the interface table by its member name
// ("memRegister" -> "QnnMem_register"); nullptr for any other name.
inline const char* interfaceApiNameOfMember(const char* member) {
#define QNN_API_MEMBER_BY_NAME_(id, m, fn) \
  if (std::strcmp(member, #m) == 0) return #fn;
  QNN_FOR_EACH_INTERFACE_MEMBER(QNN_API_MEMBER_BY_NAME_)
#undef QNN_API_MEMBER_BY_NAME_
  return nullptr;
}

#undef QNN_API_MEMBER_HELPERS_
#undef QNN_API_MEMBER_TABLE_CHECKS_
#undef QNN_API_MEMBER_NAME_
#undef QNN_API_MEMBER_FILL_
#undef QNN_API_MEMBER_AT_
#undef QNN_API_MEMBER_COUNT_

}  // namespace qnn::sdk
