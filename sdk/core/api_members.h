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

#define QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER(X) \
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

QNN_API_MEMBER_HELPERS_(QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER, QNN_SYSTEM_INTERFACE_VER_TYPE,
                        kNumSystemInterfaceMembers, systemInterfaceMemberApiName)

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
