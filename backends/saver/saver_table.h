// Fills the 71-entry table with the Saver's entries. The members marked
// `unsupported` are recorded (call id and result) but answer NOT_SUPPORTED in
// both modes: their arguments hold handles and buffers the Saver does not map
// or encode yet.
#pragma once

#include "saver_api.h"
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
  t.graphCreateSubgraph = Unsupported<decltype(t.graphCreateSubgraph)>::call<17>;
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
  t.profileSetConfig = Unsupported<decltype(t.profileSetConfig)>::call<30>;
  t.profileGetEvents = profileGetEvents;
  t.profileGetSubEvents = profileGetSubEvents;
  t.profileGetEventData = profileGetEventData;
  t.profileGetExtendedEventData = Unsupported<decltype(t.profileGetExtendedEventData)>::call<34>;
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
  t.graphPrepareExecutionEnvironment = Unsupported<decltype(t.graphPrepareExecutionEnvironment)>::call<52>;
  t.graphReleaseExecutionEnvironment = Unsupported<decltype(t.graphReleaseExecutionEnvironment)>::call<53>;
  t.graphGetProperty = Unsupported<decltype(t.graphGetProperty)>::call<54>;
  t.contextValidateBinary = contextValidateBinary;
  t.contextCreateFromBinaryWithSignal = contextCreateFromBinaryWithSignal;
  t.contextCreateFromBinaryListAsync = Unsupported<decltype(t.contextCreateFromBinaryListAsync)>::call<57>;
  t.tensorUpdateGraphTensors = Unsupported<decltype(t.tensorUpdateGraphTensors)>::call<58>;
  t.tensorUpdateContextTensors = Unsupported<decltype(t.tensorUpdateContextTensors)>::call<59>;
  t.contextGetBinarySectionSize = Unsupported<decltype(t.contextGetBinarySectionSize)>::call<60>;
  t.contextGetBinarySection = Unsupported<decltype(t.contextGetBinarySection)>::call<61>;
  t.contextApplyBinarySection = Unsupported<decltype(t.contextApplyBinarySection)>::call<62>;
  t.backendGetProperty = Unsupported<decltype(t.backendGetProperty)>::call<63>;
  t.contextGetProperty = Unsupported<decltype(t.contextGetProperty)>::call<64>;
  t.contextGetIncrementalBinary = Unsupported<decltype(t.contextGetIncrementalBinary)>::call<65>;
  t.contextReleaseIncrementalBinary = Unsupported<decltype(t.contextReleaseIncrementalBinary)>::call<66>;
  t.contextFinalize = Unsupported<decltype(t.contextFinalize)>::call<67>;
  t.globalConfigSet = Unsupported<decltype(t.globalConfigSet)>::call<68>;
  t.contextCreateFromBinaryWithCallback = Unsupported<decltype(t.contextCreateFromBinaryWithCallback)>::call<69>;
  t.contextGetBinarySectionUpdate = Unsupported<decltype(t.contextGetBinarySectionUpdate)>::call<70>;
  t.contextFreeBinarySectionUpdate = Unsupported<decltype(t.contextFreeBinarySectionUpdate)>::call<71>;
}

}  // namespace qnn::saver
