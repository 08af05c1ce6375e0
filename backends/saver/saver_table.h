// Fills the table with the Saver's entries. Members not assigned here (the list
// of members is core/api_members.h) are recorded (call id and result) but answer
// NOT_SUPPORTED in both modes: their arguments hold handles and buffers the
// Saver does not map or encode yet.
#pragma once

#include "saver_api.h"
#include "core/api_members.h"
#include "saver_unsupported.h"

namespace qnn::saver {

inline void fillTable(QNN_INTERFACE_VER_TYPE& t) {
  t.propertyHasCapability = propertyHasCapability;
  t.backendCreate = backendCreate;
  t.backendSetConfig = backendSetConfig;
  t.backendGetApiVersion = backendGetApiVersion;
  t.backendGetBuildId = backendGetBuildId;
  t.backendRegisterOpPackage = backendRegisterOpPackage;
  t.backendGetSupportedOperations = backendGetSupportedOperations;
  t.backendValidateOpConfig = backendValidateOpConfig;
  t.backendFree = backendFree;
  t.contextCreate = contextCreate;
  t.contextSetConfig = contextSetConfig;
  t.contextGetBinarySize = contextGetBinarySize;
  t.contextGetBinary = contextGetBinary;
  t.contextCreateFromBinary = contextCreateFromBinary;
  t.contextFree = contextFree;
  t.graphCreate = graphCreate;
  t.graphSetConfig = graphSetConfig;
  t.graphAddNode = graphAddNode;
  t.graphFinalize = graphFinalize;
  t.graphRetrieve = graphRetrieve;
  t.graphExecute = graphExecute;
  t.graphExecuteAsync = graphExecuteAsync;
  t.tensorCreateContextTensor = tensorCreateContextTensor;
  t.tensorCreateGraphTensor = tensorCreateGraphTensor;
  t.logCreate = logCreate;
  t.logSetLogLevel = logSetLogLevel;
  t.logFree = logFree;
  t.profileCreate = profileCreate;
  t.profileGetEvents = profileGetEvents;
  t.profileGetSubEvents = profileGetSubEvents;
  t.profileGetEventData = profileGetEventData;
  t.profileFree = profileFree;
  t.memRegister = memRegister;
  t.memDeRegister = memDeRegister;
  t.deviceGetPlatformInfo = deviceGetPlatformInfo;
  t.deviceFreePlatformInfo = deviceFreePlatformInfo;
  t.deviceGetInfrastructure = deviceGetInfrastructure;
  t.deviceCreate = deviceCreate;
  t.deviceSetConfig = deviceSetConfig;
  t.deviceGetInfo = deviceGetInfo;
  t.deviceFree = deviceFree;
  t.signalCreate = signalCreate;
  t.signalSetConfig = signalSetConfig;
  t.signalTrigger = signalTrigger;
  t.signalFree = signalFree;
  t.errorGetMessage = errorGetMessage;
  t.errorGetVerboseMessage = errorGetVerboseMessage;
  t.errorFreeVerboseMessage = errorFreeVerboseMessage;
  t.contextValidateBinary = contextValidateBinary;
  t.contextCreateFromBinaryWithSignal = contextCreateFromBinaryWithSignal;
  t.profileSetConfig = profileSetConfig;
  t.profileGetExtendedEventData = profileGetExtendedEventData;
  t.globalConfigSet = globalConfigSet;
  t.backendGetProperty = backendGetProperty;
  t.contextGetProperty = contextGetProperty;
  t.graphGetProperty = graphGetProperty;
  t.tensorUpdateGraphTensors = tensorUpdateGraphTensors;
  t.tensorUpdateContextTensors = tensorUpdateContextTensors;
  t.contextGetBinarySectionSize = contextGetBinarySectionSize;
  t.contextGetBinarySection = contextGetBinarySection;
  t.contextApplyBinarySection = contextApplyBinarySection;
  t.contextGetBinarySectionUpdate = contextGetBinarySectionUpdate;
  t.contextFreeBinarySectionUpdate = contextFreeBinarySectionUpdate;
  t.contextFinalize = contextFinalize;
  t.graphPrepareExecutionEnvironment = graphPrepareExecutionEnvironment;
  t.graphCreateSubgraph = graphCreateSubgraph;
  t.contextCreateFromBinaryWithCallback = contextCreateFromBinaryWithCallback;
  t.contextCreateFromBinaryListAsync = contextCreateFromBinaryListAsync;
  t.graphReleaseExecutionEnvironment = graphReleaseExecutionEnvironment;
  t.contextGetIncrementalBinary = contextGetIncrementalBinary;
  t.contextReleaseIncrementalBinary = contextReleaseIncrementalBinary;
  sdk::fillUnassignedMembers<Unsupported>(t);
}

}  // namespace qnn::saver
