#include "trace_format.h"

namespace qnn::trace {
namespace {

struct CallInfo {
  const char* member;
  const char* name;
};

// Index + 1 = call id. Same order as QnnInterface_ImplementationV2_32_t.
constexpr CallInfo kCalls[kNumTableCalls] = {
    {"propertyHasCapability", "QnnProperty_hasCapability"},
    {"backendCreate", "QnnBackend_create"},
    {"backendSetConfig", "QnnBackend_setConfig"},
    {"backendGetApiVersion", "QnnBackend_getApiVersion"},
    {"backendGetBuildId", "QnnBackend_getBuildId"},
    {"backendRegisterOpPackage", "QnnBackend_registerOpPackage"},
    {"backendGetSupportedOperations", "QnnBackend_getSupportedOperations"},
    {"backendValidateOpConfig", "QnnBackend_validateOpConfig"},
    {"backendFree", "QnnBackend_free"},
    {"contextCreate", "QnnContext_create"},
    {"contextSetConfig", "QnnContext_setConfig"},
    {"contextGetBinarySize", "QnnContext_getBinarySize"},
    {"contextGetBinary", "QnnContext_getBinary"},
    {"contextCreateFromBinary", "QnnContext_createFromBinary"},
    {"contextFree", "QnnContext_free"},
    {"graphCreate", "QnnGraph_create"},
    {"graphCreateSubgraph", "QnnGraph_createSubgraph"},
    {"graphSetConfig", "QnnGraph_setConfig"},
    {"graphAddNode", "QnnGraph_addNode"},
    {"graphFinalize", "QnnGraph_finalize"},
    {"graphRetrieve", "QnnGraph_retrieve"},
    {"graphExecute", "QnnGraph_execute"},
    {"graphExecuteAsync", "QnnGraph_executeAsync"},
    {"tensorCreateContextTensor", "QnnTensor_createContextTensor"},
    {"tensorCreateGraphTensor", "QnnTensor_createGraphTensor"},
    {"logCreate", "QnnLog_create"},
    {"logSetLogLevel", "QnnLog_setLogLevel"},
    {"logFree", "QnnLog_free"},
    {"profileCreate", "QnnProfile_create"},
    {"profileSetConfig", "QnnProfile_setConfig"},
    {"profileGetEvents", "QnnProfile_getEvents"},
    {"profileGetSubEvents", "QnnProfile_getSubEvents"},
    {"profileGetEventData", "QnnProfile_getEventData"},
    {"profileGetExtendedEventData", "QnnProfile_getExtendedEventData"},
    {"profileFree", "QnnProfile_free"},
    {"memRegister", "QnnMem_register"},
    {"memDeRegister", "QnnMem_deRegister"},
    {"deviceGetPlatformInfo", "QnnDevice_getPlatformInfo"},
    {"deviceFreePlatformInfo", "QnnDevice_freePlatformInfo"},
    {"deviceGetInfrastructure", "QnnDevice_getInfrastructure"},
    {"deviceCreate", "QnnDevice_create"},
    {"deviceSetConfig", "QnnDevice_setConfig"},
    {"deviceGetInfo", "QnnDevice_getInfo"},
    {"deviceFree", "QnnDevice_free"},
    {"signalCreate", "QnnSignal_create"},
    {"signalSetConfig", "QnnSignal_setConfig"},
    {"signalTrigger", "QnnSignal_trigger"},
    {"signalFree", "QnnSignal_free"},
    {"errorGetMessage", "QnnError_getMessage"},
    {"errorGetVerboseMessage", "QnnError_getVerboseMessage"},
    {"errorFreeVerboseMessage", "QnnError_freeVerboseMessage"},
    {"graphPrepareExecutionEnvironment", "QnnGraph_prepareExecutionEnvironment"},
    {"graphReleaseExecutionEnvironment", "QnnGraph_releaseExecutionEnvironment"},
    {"graphGetProperty", "QnnGraph_getProperty"},
    {"contextValidateBinary", "QnnContext_validateBinary"},
    {"contextCreateFromBinaryWithSignal", "QnnContext_createFromBinaryWithSignal"},
    {"contextCreateFromBinaryListAsync", "QnnContext_createFromBinaryListAsync"},
    {"tensorUpdateGraphTensors", "QnnTensor_updateGraphTensors"},
    {"tensorUpdateContextTensors", "QnnTensor_updateContextTensors"},
    {"contextGetBinarySectionSize", "QnnContext_getBinarySectionSize"},
    {"contextGetBinarySection", "QnnContext_getBinarySection"},
    {"contextApplyBinarySection", "QnnContext_applyBinarySection"},
    {"backendGetProperty", "QnnBackend_getProperty"},
    {"contextGetProperty", "QnnContext_getProperty"},
    {"contextGetIncrementalBinary", "QnnContext_getIncrementalBinary"},
    {"contextReleaseIncrementalBinary", "QnnContext_releaseIncrementalBinary"},
    {"contextFinalize", "QnnContext_finalize"},
    {"globalConfigSet", "QnnGlobalConfig_Set"},
    {"contextCreateFromBinaryWithCallback", "QnnContext_createFromBinaryWithCallback"},
    {"contextGetBinarySectionUpdate", "QnnContext_getBinarySectionUpdate"},
    {"contextFreeBinarySectionUpdate", "QnnContext_freeBinarySectionUpdate"},
};

}  // namespace

const char* callName(uint32_t id) {
  if (id == kCallSaverInitialize) return "QnnSaver_initialize";
  return id >= 1 && id <= kNumTableCalls ? kCalls[id - 1].name : "unknown";
}

const char* callMember(uint32_t id) {
  if (id == kCallSaverInitialize) return "saverInitialize";
  return id >= 1 && id <= kNumTableCalls ? kCalls[id - 1].member : "unknown";
}

uint32_t callIdOf(const std::string& member) {
  for (uint32_t k = 0; k < kNumTableCalls; ++k)
    if (member == kCalls[k].member) return k + 1;
  return 0;
}

}  // namespace qnn::trace
