// The members of the current function tables, in table order, once for every
// library and tool: the backends' runtime table, the Saver's table, the trace
// format's call ids (id = position, part of the .qnntrace format: append,
// never renumber) and the system library's table. X(id, member, apiName).
//
// A library assigns the members it implements and then calls
// fillUnassignedMembers: whatever it left null answers NOT_SUPPORTED, so a
// member added here can never be left null. The static_asserts tie each list to
// the table in include/QNN.
#pragma once

#include <cstddef>
#include <cstring>

#include "QnnInterface.h"
#include "System/QnnSystemInterface.h"

#define QNN_FOR_EACH_INTERFACE_MEMBER(X) \
  X(1, propertyHasCapability, "QnnProperty_hasCapability") \
  X(2, backendCreate, "QnnBackend_create") \
  X(3, backendSetConfig, "QnnBackend_setConfig") \
  X(4, backendGetApiVersion, "QnnBackend_getApiVersion") \
  X(5, backendGetBuildId, "QnnBackend_getBuildId") \
  X(6, backendRegisterOpPackage, "QnnBackend_registerOpPackage") \
  X(7, backendGetSupportedOperations, "QnnBackend_getSupportedOperations") \
  X(8, backendValidateOpConfig, "QnnBackend_validateOpConfig") \
  X(9, backendFree, "QnnBackend_free") \
  X(10, contextCreate, "QnnContext_create") \
  X(11, contextSetConfig, "QnnContext_setConfig") \
  X(12, contextGetBinarySize, "QnnContext_getBinarySize") \
  X(13, contextGetBinary, "QnnContext_getBinary") \
  X(14, contextCreateFromBinary, "QnnContext_createFromBinary") \
  X(15, contextFree, "QnnContext_free") \
  X(16, graphCreate, "QnnGraph_create") \
  X(17, graphCreateSubgraph, "QnnGraph_createSubgraph") \
  X(18, graphSetConfig, "QnnGraph_setConfig") \
  X(19, graphAddNode, "QnnGraph_addNode") \
  X(20, graphFinalize, "QnnGraph_finalize") \
  X(21, graphRetrieve, "QnnGraph_retrieve") \
  X(22, graphExecute, "QnnGraph_execute") \
  X(23, graphExecuteAsync, "QnnGraph_executeAsync") \
  X(24, tensorCreateContextTensor, "QnnTensor_createContextTensor") \
  X(25, tensorCreateGraphTensor, "QnnTensor_createGraphTensor") \
  X(26, logCreate, "QnnLog_create") \
  X(27, logSetLogLevel, "QnnLog_setLogLevel") \
  X(28, logFree, "QnnLog_free") \
  X(29, profileCreate, "QnnProfile_create") \
  X(30, profileSetConfig, "QnnProfile_setConfig") \
  X(31, profileGetEvents, "QnnProfile_getEvents") \
  X(32, profileGetSubEvents, "QnnProfile_getSubEvents") \
  X(33, profileGetEventData, "QnnProfile_getEventData") \
  X(34, profileGetExtendedEventData, "QnnProfile_getExtendedEventData") \
  X(35, profileFree, "QnnProfile_free") \
  X(36, memRegister, "QnnMem_register") \
  X(37, memDeRegister, "QnnMem_deRegister") \
  X(38, deviceGetPlatformInfo, "QnnDevice_getPlatformInfo") \
  X(39, deviceFreePlatformInfo, "QnnDevice_freePlatformInfo") \
  X(40, deviceGetInfrastructure, "QnnDevice_getInfrastructure") \
  X(41, deviceCreate, "QnnDevice_create") \
  X(42, deviceSetConfig, "QnnDevice_setConfig") \
  X(43, deviceGetInfo, "QnnDevice_getInfo") \
  X(44, deviceFree, "QnnDevice_free") \
  X(45, signalCreate, "QnnSignal_create") \
  X(46, signalSetConfig, "QnnSignal_setConfig") \
  X(47, signalTrigger, "QnnSignal_trigger") \
  X(48, signalFree, "QnnSignal_free") \
  X(49, errorGetMessage, "QnnError_getMessage") \
  X(50, errorGetVerboseMessage, "QnnError_getVerboseMessage") \
  X(51, errorFreeVerboseMessage, "QnnError_freeVerboseMessage") \
  X(52, graphPrepareExecutionEnvironment, "QnnGraph_prepareExecutionEnvironment") \
  X(53, graphReleaseExecutionEnvironment, "QnnGraph_releaseExecutionEnvironment") \
  X(54, graphGetProperty, "QnnGraph_getProperty") \
  X(55, contextValidateBinary, "QnnContext_validateBinary") \
  X(56, contextCreateFromBinaryWithSignal, "QnnContext_createFromBinaryWithSignal") \
  X(57, contextCreateFromBinaryListAsync, "QnnContext_createFromBinaryListAsync") \
  X(58, tensorUpdateGraphTensors, "QnnTensor_updateGraphTensors") \
  X(59, tensorUpdateContextTensors, "QnnTensor_updateContextTensors") \
  X(60, contextGetBinarySectionSize, "QnnContext_getBinarySectionSize") \
  X(61, contextGetBinarySection, "QnnContext_getBinarySection") \
  X(62, contextApplyBinarySection, "QnnContext_applyBinarySection") \
  X(63, backendGetProperty, "QnnBackend_getProperty") \
  X(64, contextGetProperty, "QnnContext_getProperty") \
  X(65, contextGetIncrementalBinary, "QnnContext_getIncrementalBinary") \
  X(66, contextReleaseIncrementalBinary, "QnnContext_releaseIncrementalBinary") \
  X(67, contextFinalize, "QnnContext_finalize") \
  X(68, globalConfigSet, "QnnGlobalConfig_Set") \
  X(69, contextCreateFromBinaryWithCallback, "QnnContext_createFromBinaryWithCallback") \
  X(70, contextGetBinarySectionUpdate, "QnnContext_getBinarySectionUpdate") \
  X(71, contextFreeBinarySectionUpdate, "QnnContext_freeBinarySectionUpdate")

#define QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER(X) \
  X(1, systemContextCreate, "QnnSystemContext_create") \
  X(2, systemContextGetBinaryInfo, "QnnSystemContext_getBinaryInfo") \
  X(3, systemContextGetMetaData, "QnnSystemContext_getMetadata") \
  X(4, systemContextFree, "QnnSystemContext_free") \
  X(5, systemTensorGetMemoryFootprint, "QnnSystemTensor_getMemoryFootprint") \
  X(6, systemLogCreate, "QnnSystemLog_create") \
  X(7, systemLogSetLogLevel, "QnnSystemLog_setLogLevel") \
  X(8, systemLogFree, "QnnSystemLog_free") \
  X(9, systemDlcCreateFromFile, "QnnSystemDlc_createFromFile") \
  X(10, systemDlcCreateFromBinary, "QnnSystemDlc_createFromBinary") \
  X(11, systemDlcComposeGraphs, "QnnSystemDlc_composeGraphs") \
  X(12, systemDlcGetOpMappings, "QnnSystemDlc_getOpMappings") \
  X(13, systemDlcFree, "QnnSystemDlc_free") \
  X(14, systemProfileCreateSerializationTarget, "QnnSystemProfile_createSerializationTarget") \
  X(15, systemProfileSerializeEventData, "QnnSystemProfile_serializeEventData") \
  X(16, systemProfileFreeSerializationTarget, "QnnSystemProfile_freeSerializationTarget")

namespace qnn::sdk {

// For one list and its table type: kNum<Name>Members, static_asserts on size and
// order, fillUnassignedMembers(Table&) and <name>MemberApiName(id).
#define QNN_API_MEMBER_COUNT_(id, member, name) +1
#define QNN_API_MEMBER_AT_(id, member, name) \
  static_assert(offsetof(QnnApiTable_, member) == (id - 1) * sizeof(void (*)()), #member " is not at its listed position");
#define QNN_API_MEMBER_FILL_(id, member, name) \
  if (!t.member) t.member = &Fallback<decltype(t.member), id>::call;
#define QNN_API_MEMBER_NAME_(id, member, name) name,
#define QNN_API_MEMBER_HELPERS_(LIST, Table, countName, nameFunction)                                       \
  inline constexpr std::size_t countName = 0 LIST(QNN_API_MEMBER_COUNT_);                                  \
  /* Every member is a function pointer: the count fixes the size, the offsets the order. */              \
  static_assert(sizeof(Table) == countName * sizeof(void (*)()), #LIST " does not list every member of " #Table); \
  namespace api_members_detail_##countName {                                                               \
  using QnnApiTable_ = Table;                                                                              \
  LIST(QNN_API_MEMBER_AT_)                                                                                 \
  }                                                                                                        \
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
QNN_API_MEMBER_HELPERS_(QNN_FOR_EACH_INTERFACE_MEMBER, QNN_INTERFACE_VER_TYPE, kNumInterfaceMembers,
                        interfaceMemberApiName)
QNN_API_MEMBER_HELPERS_(QNN_FOR_EACH_SYSTEM_INTERFACE_MEMBER, QNN_SYSTEM_INTERFACE_VER_TYPE,
                        kNumSystemInterfaceMembers, systemInterfaceMemberApiName)

// API name of a member of the current interface table by its member name
// ("memRegister" -> "QnnMem_register"); nullptr for any other name.
inline const char* interfaceApiNameOfMember(const char* member) {
#define QNN_API_MEMBER_BY_NAME_(id, m, name) \
  if (std::strcmp(member, #m) == 0) return name;
  QNN_FOR_EACH_INTERFACE_MEMBER(QNN_API_MEMBER_BY_NAME_)
#undef QNN_API_MEMBER_BY_NAME_
  return nullptr;
}

#undef QNN_API_MEMBER_HELPERS_
#undef QNN_API_MEMBER_NAME_
#undef QNN_API_MEMBER_FILL_
#undef QNN_API_MEMBER_AT_
#undef QNN_API_MEMBER_COUNT_

}  // namespace qnn::sdk
