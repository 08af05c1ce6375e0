// The Saver's entries, one per member of the 71-entry function table, declared
// with the table's own function types so a signature cannot drift. Defined in
// saver_api_*.cpp by API group; the members listed in saver_table.h as
// unsupported are recorded by saver_unsupported.h instead.
#pragma once

#include <type_traits>

#include "QnnInterface.h"

namespace qnn::saver {

std::remove_pointer_t<QnnProperty_HasCapabilityFn_t> propertyHasCapability;
std::remove_pointer_t<QnnBackend_CreateFn_t> backendCreate;
std::remove_pointer_t<QnnBackend_SetConfigFn_t> backendSetConfig;
std::remove_pointer_t<QnnBackend_GetApiVersionFn_t> backendGetApiVersion;
std::remove_pointer_t<QnnBackend_GetBuildIdFn_t> backendGetBuildId;
std::remove_pointer_t<QnnBackend_RegisterOpPackageFn_t> backendRegisterOpPackage;
std::remove_pointer_t<QnnBackend_GetSupportedOperationsFn_t> backendGetSupportedOperations;
std::remove_pointer_t<QnnBackend_ValidateOpConfigFn_t> backendValidateOpConfig;
std::remove_pointer_t<QnnBackend_FreeFn_t> backendFree;
std::remove_pointer_t<QnnContext_CreateFn_t> contextCreate;
std::remove_pointer_t<QnnContext_SetConfigFn_t> contextSetConfig;
std::remove_pointer_t<QnnContext_GetBinarySizeFn_t> contextGetBinarySize;
std::remove_pointer_t<QnnContext_GetBinaryFn_t> contextGetBinary;
std::remove_pointer_t<QnnContext_CreateFromBinaryFn_t> contextCreateFromBinary;
std::remove_pointer_t<QnnContext_FreeFn_t> contextFree;
std::remove_pointer_t<QnnGraph_CreateFn_t> graphCreate;
std::remove_pointer_t<QnnGraph_SetConfigFn_t> graphSetConfig;
std::remove_pointer_t<QnnGraph_AddNodeFn_t> graphAddNode;
std::remove_pointer_t<QnnGraph_FinalizeFn_t> graphFinalize;
std::remove_pointer_t<QnnGraph_RetrieveFn_t> graphRetrieve;
std::remove_pointer_t<QnnGraph_ExecuteFn_t> graphExecute;
std::remove_pointer_t<QnnGraph_ExecuteAsyncFn_t> graphExecuteAsync;
std::remove_pointer_t<QnnTensor_CreateContextTensorFn_t> tensorCreateContextTensor;
std::remove_pointer_t<QnnTensor_CreateGraphTensorFn_t> tensorCreateGraphTensor;
std::remove_pointer_t<QnnLog_CreateFn_t> logCreate;
std::remove_pointer_t<QnnLog_SetLogLevelFn_t> logSetLogLevel;
std::remove_pointer_t<QnnLog_FreeFn_t> logFree;
std::remove_pointer_t<QnnProfile_CreateFn_t> profileCreate;
std::remove_pointer_t<QnnProfile_GetEventsFn_t> profileGetEvents;
std::remove_pointer_t<QnnProfile_GetSubEventsFn_t> profileGetSubEvents;
std::remove_pointer_t<QnnProfile_GetEventDataFn_t> profileGetEventData;
std::remove_pointer_t<QnnProfile_FreeFn_t> profileFree;
std::remove_pointer_t<QnnProfile_SetConfigFn_t> profileSetConfig;
std::remove_pointer_t<QnnProfile_GetExtendedEventDataFn_t> profileGetExtendedEventData;
std::remove_pointer_t<QnnGlobalConfig_SetFn_t> globalConfigSet;
std::remove_pointer_t<QnnBackend_GetPropertyFn_t> backendGetProperty;
std::remove_pointer_t<QnnContext_GetPropertyFn_t> contextGetProperty;
std::remove_pointer_t<QnnGraph_GetPropertyFn_t> graphGetProperty;
std::remove_pointer_t<QnnMem_RegisterFn_t> memRegister;
std::remove_pointer_t<QnnMem_DeRegisterFn_t> memDeRegister;
std::remove_pointer_t<QnnDevice_GetPlatformInfoFn_t> deviceGetPlatformInfo;
std::remove_pointer_t<QnnDevice_FreePlatformInfoFn_t> deviceFreePlatformInfo;
std::remove_pointer_t<QnnDevice_GetInfrastructureFn_t> deviceGetInfrastructure;
std::remove_pointer_t<QnnDevice_CreateFn_t> deviceCreate;
std::remove_pointer_t<QnnDevice_SetConfigFn_t> deviceSetConfig;
std::remove_pointer_t<QnnDevice_GetInfoFn_t> deviceGetInfo;
std::remove_pointer_t<QnnDevice_FreeFn_t> deviceFree;
std::remove_pointer_t<QnnSignal_CreateFn_t> signalCreate;
std::remove_pointer_t<QnnSignal_SetConfigFn_t> signalSetConfig;
std::remove_pointer_t<QnnSignal_TriggerFn_t> signalTrigger;
std::remove_pointer_t<QnnSignal_FreeFn_t> signalFree;
std::remove_pointer_t<QnnError_GetMessageFn_t> errorGetMessage;
std::remove_pointer_t<QnnError_GetVerboseMessageFn_t> errorGetVerboseMessage;
std::remove_pointer_t<QnnError_FreeVerboseMessageFn_t> errorFreeVerboseMessage;
std::remove_pointer_t<QnnContext_ValidateBinaryFn_t> contextValidateBinary;
std::remove_pointer_t<QnnContext_CreateFromBinaryWithSignalFn_t> contextCreateFromBinaryWithSignal;
// saver_api_sections.cpp
std::remove_pointer_t<QnnTensor_UpdateGraphTensorsFn_t> tensorUpdateGraphTensors;
std::remove_pointer_t<QnnTensor_UpdateContextTensorsFn_t> tensorUpdateContextTensors;
std::remove_pointer_t<QnnContext_GetBinarySectionSizeFn_t> contextGetBinarySectionSize;
std::remove_pointer_t<QnnContext_GetBinarySectionFn_t> contextGetBinarySection;
std::remove_pointer_t<QnnContext_ApplyBinarySectionFn_t> contextApplyBinarySection;
std::remove_pointer_t<QnnContext_GetBinarySectionUpdateFn_t> contextGetBinarySectionUpdate;
std::remove_pointer_t<QnnContext_FreeBinarySectionUpdateFn_t> contextFreeBinarySectionUpdate;
std::remove_pointer_t<QnnContext_FinalizeFn_t> contextFinalize;
// saver_api_graph.cpp
std::remove_pointer_t<QnnGraph_PrepareExecutionEnvironmentFn_t> graphPrepareExecutionEnvironment;
std::remove_pointer_t<QnnGraph_CreateSubgraphFn_t> graphCreateSubgraph;
// saver_api_context.cpp
std::remove_pointer_t<QnnContext_CreateFromBinaryWithCallbackFn_t> contextCreateFromBinaryWithCallback;
std::remove_pointer_t<QnnContext_CreateFromBinaryListAsyncFn_t> contextCreateFromBinaryListAsync;
std::remove_pointer_t<QnnGraph_ReleaseExecutionEnvironmentFn_t> graphReleaseExecutionEnvironment;
std::remove_pointer_t<QnnContext_GetIncrementalBinaryFn_t> contextGetIncrementalBinary;
std::remove_pointer_t<QnnContext_ReleaseIncrementalBinaryFn_t> contextReleaseIncrementalBinary;

}  // namespace qnn::saver
