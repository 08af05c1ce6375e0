/* OpenQNN public header: The versioned function table a backend hands out through QnnInterface_getProviders.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_INTERFACE_H
#define QNN_INTERFACE_H

#include "QnnCommon.h"
#include "QnnTypes.h"
#include "QnnBackend.h"
#include "QnnContext.h"
#include "QnnDevice.h"
#include "QnnError.h"
#include "QnnGlobalConfig.h"
#include "QnnGraph.h"
#include "QnnLog.h"
#include "QnnMem.h"
#include "QnnProfile.h"
#include "QnnProperty.h"
#include "QnnSignal.h"
#include "QnnTensor.h"
#include "QnnOpDef.h"
#include "QnnOpPackage.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_INTERFACE_VER_EVAL(major, minor) QNN_PASTE_THREE ( major , _ , minor )
#define QNN_INTERFACE_NAME_EVAL(prefix, body, suffix) QNN_PASTE_THREE ( prefix , body , suffix )
#define QNN_INTERFACE_VER_TYPE_EVAL(ver_major, ver_minor) QNN_INTERFACE_NAME_EVAL ( QnnInterface_ImplementationV , QNN_INTERFACE_VER_EVAL ( ver_major , ver_minor ) , _t )
#define QNN_INTERFACE_VER_NAME_EVAL(ver_major, ver_minor) QNN_INTERFACE_NAME_EVAL ( v , QNN_INTERFACE_VER_EVAL ( ver_major , ver_minor ) , )
#define QNN_INTERFACE_VER_TYPE QNN_INTERFACE_VER_TYPE_EVAL ( QNN_API_VERSION_MAJOR , QNN_API_VERSION_MINOR )
#define QNN_INTERFACE_VER_NAME QNN_INTERFACE_VER_NAME_EVAL ( QNN_API_VERSION_MAJOR , QNN_API_VERSION_MINOR )
typedef enum {
  QNN_INTERFACE_MIN_ERROR = 60000,
  QNN_INTERFACE_NO_ERROR = 0,
  QNN_INTERFACE_ERROR_NOT_SUPPORTED = 1000,
  QNN_INTERFACE_ERROR_INVALID_PARAMETER = 1004,
  QNN_INTERFACE_MAX_ERROR = 60999,
} QnnInterface_Error_t;

typedef Qnn_ErrorHandle_t (*QnnProperty_HasCapabilityFn_t)(QnnProperty_Key_t key);

typedef Qnn_ErrorHandle_t (*QnnGlobalConfig_SetFn_t)(const QnnGlobalConfig_t **config);

typedef Qnn_ErrorHandle_t (*QnnBackend_CreateFn_t)(Qnn_LogHandle_t logger, const QnnBackend_Config_t **config, Qnn_BackendHandle_t *backend);

typedef Qnn_ErrorHandle_t (*QnnBackend_SetConfigFn_t)(Qnn_BackendHandle_t backend, const QnnBackend_Config_t **config);

typedef Qnn_ErrorHandle_t (*QnnBackend_GetApiVersionFn_t)(Qnn_ApiVersion_t *pVersion);

typedef Qnn_ErrorHandle_t (*QnnBackend_GetBuildIdFn_t)(const char **id);

typedef Qnn_ErrorHandle_t (*QnnBackend_RegisterOpPackageFn_t)(Qnn_BackendHandle_t backend, const char *packagePath, const char *interfaceProvider, const char *target);

typedef Qnn_ErrorHandle_t (*QnnBackend_GetSupportedOperationsFn_t)(Qnn_BackendHandle_t backend, uint32_t *numOperations, const QnnBackend_OperationName_t **operations);

typedef Qnn_ErrorHandle_t (*QnnBackend_ValidateOpConfigFn_t)(Qnn_BackendHandle_t backend, Qnn_OpConfig_t opConfig);

typedef Qnn_ErrorHandle_t (*QnnBackend_FreeFn_t)(Qnn_BackendHandle_t backend);

typedef Qnn_ErrorHandle_t (*QnnBackend_GetPropertyFn_t)(Qnn_BackendHandle_t backendHandle, QnnBackend_Property_t **properties);

typedef Qnn_ErrorHandle_t (*QnnContext_CreateFn_t)(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, Qnn_ContextHandle_t *context);

typedef Qnn_ErrorHandle_t (*QnnContext_SetConfigFn_t)(Qnn_ContextHandle_t context, const QnnContext_Config_t **config);

typedef Qnn_ErrorHandle_t (*QnnContext_GetBinarySizeFn_t)(Qnn_ContextHandle_t context, Qnn_ContextBinarySize_t *binaryBufferSize);

typedef Qnn_ErrorHandle_t (*QnnContext_GetBinaryFn_t)(Qnn_ContextHandle_t context, void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, Qnn_ContextBinarySize_t *writtenBufferSize);

typedef Qnn_ErrorHandle_t (*QnnContext_CreateFromBinaryFn_t)(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, Qnn_ContextHandle_t *context, Qnn_ProfileHandle_t profile);

typedef Qnn_ErrorHandle_t (*QnnContext_FreeFn_t)(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile);

typedef Qnn_ErrorHandle_t (*QnnContext_ValidateBinaryFn_t)(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize);

typedef Qnn_ErrorHandle_t (*QnnContext_CreateFromBinaryWithSignalFn_t)(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, Qnn_ContextHandle_t *context, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);

typedef Qnn_ErrorHandle_t (*QnnContext_CreateFromBinaryListAsyncFn_t)(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Params_t **contextParams, const QnnContext_Config_t **listConfig, Qnn_SignalHandle_t signal);

typedef Qnn_ErrorHandle_t (*QnnContext_FinalizeFn_t)(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile);

typedef Qnn_ErrorHandle_t (*QnnContext_CreateFromBinaryWithCallbackFn_t)(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, const Qnn_ContextBinaryCallback_t *callback, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, Qnn_ContextHandle_t *context, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);

typedef Qnn_ErrorHandle_t (*QnnContext_GetBinarySectionSizeFn_t)(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, QnnContext_SectionType_t section, Qnn_ContextBinarySize_t *binaryBufferSize);

typedef Qnn_ErrorHandle_t (*QnnContext_GetBinarySectionFn_t)(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, QnnContext_SectionType_t section, const QnnContext_Buffer_t *binaryBuffer, Qnn_ContextBinarySize_t *writtenBufferSize, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);

typedef Qnn_ErrorHandle_t (*QnnContext_ApplyBinarySectionFn_t)(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, QnnContext_SectionType_t section, const QnnContext_Buffer_t *binaryBuffer, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);

typedef Qnn_ErrorHandle_t (*QnnContext_GetBinarySectionUpdateFn_t)(const QnnContext_Buffer_t *binaryBuffer, const QnnContext_Buffer_t *auxiliaryBuffer, const Qnn_Tensor_t **tensors, uint64_t numTensors, uint8_t keepUpdatable, Qnn_LogHandle_t logger, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal, QnnContext_Buffer_t *binarySectionUpdate);

typedef Qnn_ErrorHandle_t (*QnnContext_FreeBinarySectionUpdateFn_t)(QnnContext_Buffer_t binarySectionUpdate, Qnn_LogHandle_t logger);

typedef Qnn_ErrorHandle_t (*QnnContext_GetPropertyFn_t)(Qnn_ContextHandle_t contextHandle, QnnContext_Property_t **properties);

typedef Qnn_ErrorHandle_t (*QnnContext_GetIncrementalBinaryFn_t)(Qnn_ContextHandle_t context, const void **binaryBuffer, Qnn_ContextBinarySize_t *startOffset, Qnn_ContextBinarySize_t *writtenBufferSize);

typedef Qnn_ErrorHandle_t (*QnnContext_ReleaseIncrementalBinaryFn_t)(Qnn_ContextHandle_t context, const void *binaryBuffer, Qnn_ContextBinarySize_t startOffset);

typedef Qnn_ErrorHandle_t (*QnnGraph_CreateFn_t)(Qnn_ContextHandle_t contextHandle, const char *graphName, const QnnGraph_Config_t **config, Qnn_GraphHandle_t *graphHandle);

typedef Qnn_ErrorHandle_t (*QnnGraph_CreateSubgraphFn_t)(Qnn_GraphHandle_t graphHandle, const char *graphName, Qnn_GraphHandle_t *subgraphHandle);

typedef Qnn_ErrorHandle_t (*QnnGraph_SetConfigFn_t)(Qnn_GraphHandle_t graphHandle, const QnnGraph_Config_t **config);

typedef Qnn_ErrorHandle_t (*QnnGraph_GetPropertyFn_t)(Qnn_GraphHandle_t graphHandle, QnnGraph_Property_t **properties);

typedef Qnn_ErrorHandle_t (*QnnGraph_AddNodeFn_t)(Qnn_GraphHandle_t graphHandle, Qnn_OpConfig_t opConfig);

typedef Qnn_ErrorHandle_t (*QnnGraph_FinalizeFn_t)(Qnn_GraphHandle_t graphHandle, Qnn_ProfileHandle_t profileHandle, Qnn_SignalHandle_t signalHandle);

typedef Qnn_ErrorHandle_t (*QnnGraph_RetrieveFn_t)(Qnn_ContextHandle_t contextHandle, const char *graphName, Qnn_GraphHandle_t *graphHandle);

typedef Qnn_ErrorHandle_t (*QnnGraph_PrepareExecutionEnvironmentFn_t)(Qnn_GraphHandle_t graphHandle, QnnGraph_ExecuteEnvironment_t **envs, uint32_t envSize);

typedef Qnn_ErrorHandle_t (*QnnGraph_ExecuteFn_t)(Qnn_GraphHandle_t graphHandle, const Qnn_Tensor_t *inputs, uint32_t numInputs, Qnn_Tensor_t *outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profileHandle, Qnn_SignalHandle_t signalHandle);

typedef Qnn_ErrorHandle_t (*QnnGraph_ExecuteAsyncFn_t)(Qnn_GraphHandle_t graphHandle, const Qnn_Tensor_t *inputs, uint32_t numInputs, Qnn_Tensor_t *outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profileHandle, Qnn_SignalHandle_t signalHandle, Qnn_NotifyFn_t notifyFn, void *notifyParam);

typedef Qnn_ErrorHandle_t (*QnnGraph_ReleaseExecutionEnvironmentFn_t)(Qnn_GraphHandle_t graphHandle, const QnnGraph_ExecuteEnvironment_t **envs, uint32_t envSize);

typedef Qnn_ErrorHandle_t (*QnnTensor_CreateContextTensorFn_t)(Qnn_ContextHandle_t context, Qnn_Tensor_t *tensor);

typedef Qnn_ErrorHandle_t (*QnnTensor_CreateGraphTensorFn_t)(Qnn_GraphHandle_t graph, Qnn_Tensor_t *tensor);

typedef Qnn_ErrorHandle_t (*QnnTensor_UpdateContextTensorsFn_t)(Qnn_ContextHandle_t context, const Qnn_Tensor_t **tensor, uint64_t numTensors);

typedef Qnn_ErrorHandle_t (*QnnTensor_UpdateGraphTensorsFn_t)(Qnn_GraphHandle_t graph, const Qnn_Tensor_t **tensor, uint64_t numTensors);

typedef Qnn_ErrorHandle_t (*QnnLog_CreateFn_t)(QnnLog_Callback_t callback, QnnLog_Level_t maxLogLevel, Qnn_LogHandle_t *logger);

typedef Qnn_ErrorHandle_t (*QnnLog_SetLogLevelFn_t)(Qnn_LogHandle_t logger, QnnLog_Level_t maxLogLevel);

typedef Qnn_ErrorHandle_t (*QnnLog_FreeFn_t)(Qnn_LogHandle_t logger);

typedef Qnn_ErrorHandle_t (*QnnProfile_CreateFn_t)(Qnn_BackendHandle_t backend, QnnProfile_Level_t level, Qnn_ProfileHandle_t *profile);

typedef Qnn_ErrorHandle_t (*QnnProfile_SetConfigFn_t)(Qnn_ProfileHandle_t profileHandle, const QnnProfile_Config_t **config);

typedef Qnn_ErrorHandle_t (*QnnProfile_GetEventsFn_t)(Qnn_ProfileHandle_t profile, const QnnProfile_EventId_t **profileEventIds, uint32_t *numEvents);

typedef Qnn_ErrorHandle_t (*QnnProfile_GetSubEventsFn_t)(QnnProfile_EventId_t eventId, const QnnProfile_EventId_t **subEventIds, uint32_t *numSubEvents);

typedef Qnn_ErrorHandle_t (*QnnProfile_GetEventDataFn_t)(QnnProfile_EventId_t eventId, QnnProfile_EventData_t *eventData);

typedef Qnn_ErrorHandle_t (*QnnProfile_GetExtendedEventDataFn_t)(QnnProfile_EventId_t eventId, QnnProfile_ExtendedEventData_t *eventData);

typedef Qnn_ErrorHandle_t (*QnnProfile_FreeFn_t)(Qnn_ProfileHandle_t profile);

typedef Qnn_ErrorHandle_t (*QnnMem_RegisterFn_t)(Qnn_ContextHandle_t context, const Qnn_MemDescriptor_t *memDescriptors, uint32_t numDescriptors, Qnn_MemHandle_t *memHandles);

typedef Qnn_ErrorHandle_t (*QnnMem_DeRegisterFn_t)(const Qnn_MemHandle_t *memHandles, uint32_t numHandles);

typedef Qnn_ErrorHandle_t (*QnnDevice_GetPlatformInfoFn_t)(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t **platformInfo);

typedef Qnn_ErrorHandle_t (*QnnDevice_FreePlatformInfoFn_t)(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t *platformInfo);

typedef Qnn_ErrorHandle_t (*QnnDevice_GetInfrastructureFn_t)(const QnnDevice_Infrastructure_t *deviceInfra);

typedef Qnn_ErrorHandle_t (*QnnDevice_CreateFn_t)(Qnn_LogHandle_t logger, const QnnDevice_Config_t **config, Qnn_DeviceHandle_t *device);

typedef Qnn_ErrorHandle_t (*QnnDevice_SetConfigFn_t)(Qnn_DeviceHandle_t device, const QnnDevice_Config_t **config);

typedef Qnn_ErrorHandle_t (*QnnDevice_GetInfoFn_t)(Qnn_DeviceHandle_t device, const QnnDevice_PlatformInfo_t **platformInfo);

typedef Qnn_ErrorHandle_t (*QnnDevice_FreeFn_t)(Qnn_DeviceHandle_t device);

typedef Qnn_ErrorHandle_t (*QnnSignal_CreateFn_t)(Qnn_BackendHandle_t backend, const QnnSignal_Config_t **config, Qnn_SignalHandle_t *signal);

typedef Qnn_ErrorHandle_t (*QnnSignal_SetConfigFn_t)(Qnn_SignalHandle_t signal, const QnnSignal_Config_t **config);

typedef Qnn_ErrorHandle_t (*QnnSignal_TriggerFn_t)(Qnn_SignalHandle_t signal);

typedef Qnn_ErrorHandle_t (*QnnSignal_FreeFn_t)(Qnn_SignalHandle_t signal);

typedef Qnn_ErrorHandle_t (*QnnError_GetMessageFn_t)(Qnn_ErrorHandle_t errorHandle, const char **errorMessage);

typedef Qnn_ErrorHandle_t (*QnnError_GetVerboseMessageFn_t)(Qnn_ErrorHandle_t errorHandle, const char **errorMessage);

typedef Qnn_ErrorHandle_t (*QnnError_FreeVerboseMessageFn_t)(const char *errorMessage);

/* The four calls API 2.39 appends to the table (not in this 2.32 table yet). */
typedef Qnn_ErrorHandle_t (*QnnContext_AddToDlcFn_t)(Qnn_ContextHandle_t context, QnnSystemDlc_Handle_t dlcHandle);
typedef Qnn_ErrorHandle_t (*QnnGraph_ValidateFn_t)(Qnn_GraphHandle_t graphHandle, const QnnGraph_ValidateConfig_t **config, QnnGraph_ValidationResult_t **validationResult);
typedef Qnn_ErrorHandle_t (*QnnGraph_FreeValidationResultFn_t)(QnnGraph_ValidationResult_t *validationResult);
typedef Qnn_ErrorHandle_t (*QnnBackend_RegisterOpPackageFromBinaryFn_t)(Qnn_BackendHandle_t backend, const void *opPackageBuffer, uint64_t opPackageBufferSize, const char *interfaceProvider, const char *target);

typedef struct {
  QnnProperty_HasCapabilityFn_t propertyHasCapability;
  QnnBackend_CreateFn_t backendCreate;
  QnnBackend_SetConfigFn_t backendSetConfig;
  QnnBackend_GetApiVersionFn_t backendGetApiVersion;
  QnnBackend_GetBuildIdFn_t backendGetBuildId;
  QnnBackend_RegisterOpPackageFn_t backendRegisterOpPackage;
  QnnBackend_GetSupportedOperationsFn_t backendGetSupportedOperations;
  QnnBackend_ValidateOpConfigFn_t backendValidateOpConfig;
  QnnBackend_FreeFn_t backendFree;
  QnnContext_CreateFn_t contextCreate;
  QnnContext_SetConfigFn_t contextSetConfig;
  QnnContext_GetBinarySizeFn_t contextGetBinarySize;
  QnnContext_GetBinaryFn_t contextGetBinary;
  QnnContext_CreateFromBinaryFn_t contextCreateFromBinary;
  QnnContext_FreeFn_t contextFree;
  QnnGraph_CreateFn_t graphCreate;
  QnnGraph_CreateSubgraphFn_t graphCreateSubgraph;
  QnnGraph_SetConfigFn_t graphSetConfig;
  QnnGraph_AddNodeFn_t graphAddNode;
  QnnGraph_FinalizeFn_t graphFinalize;
  QnnGraph_RetrieveFn_t graphRetrieve;
  QnnGraph_ExecuteFn_t graphExecute;
  QnnGraph_ExecuteAsyncFn_t graphExecuteAsync;
  QnnTensor_CreateContextTensorFn_t tensorCreateContextTensor;
  QnnTensor_CreateGraphTensorFn_t tensorCreateGraphTensor;
  QnnLog_CreateFn_t logCreate;
  QnnLog_SetLogLevelFn_t logSetLogLevel;
  QnnLog_FreeFn_t logFree;
  QnnProfile_CreateFn_t profileCreate;
  QnnProfile_SetConfigFn_t profileSetConfig;
  QnnProfile_GetEventsFn_t profileGetEvents;
  QnnProfile_GetSubEventsFn_t profileGetSubEvents;
  QnnProfile_GetEventDataFn_t profileGetEventData;
  QnnProfile_GetExtendedEventDataFn_t profileGetExtendedEventData;
  QnnProfile_FreeFn_t profileFree;
  QnnMem_RegisterFn_t memRegister;
  QnnMem_DeRegisterFn_t memDeRegister;
  QnnDevice_GetPlatformInfoFn_t deviceGetPlatformInfo;
  QnnDevice_FreePlatformInfoFn_t deviceFreePlatformInfo;
  QnnDevice_GetInfrastructureFn_t deviceGetInfrastructure;
  QnnDevice_CreateFn_t deviceCreate;
  QnnDevice_SetConfigFn_t deviceSetConfig;
  QnnDevice_GetInfoFn_t deviceGetInfo;
  QnnDevice_FreeFn_t deviceFree;
  QnnSignal_CreateFn_t signalCreate;
  QnnSignal_SetConfigFn_t signalSetConfig;
  QnnSignal_TriggerFn_t signalTrigger;
  QnnSignal_FreeFn_t signalFree;
  QnnError_GetMessageFn_t errorGetMessage;
  QnnError_GetVerboseMessageFn_t errorGetVerboseMessage;
  QnnError_FreeVerboseMessageFn_t errorFreeVerboseMessage;
  QnnGraph_PrepareExecutionEnvironmentFn_t graphPrepareExecutionEnvironment;
  QnnGraph_ReleaseExecutionEnvironmentFn_t graphReleaseExecutionEnvironment;
  QnnGraph_GetPropertyFn_t graphGetProperty;
  QnnContext_ValidateBinaryFn_t contextValidateBinary;
  QnnContext_CreateFromBinaryWithSignalFn_t contextCreateFromBinaryWithSignal;
  QnnContext_CreateFromBinaryListAsyncFn_t contextCreateFromBinaryListAsync;
  QnnTensor_UpdateGraphTensorsFn_t tensorUpdateGraphTensors;
  QnnTensor_UpdateContextTensorsFn_t tensorUpdateContextTensors;
  QnnContext_GetBinarySectionSizeFn_t contextGetBinarySectionSize;
  QnnContext_GetBinarySectionFn_t contextGetBinarySection;
  QnnContext_ApplyBinarySectionFn_t contextApplyBinarySection;
  QnnBackend_GetPropertyFn_t backendGetProperty;
  QnnContext_GetPropertyFn_t contextGetProperty;
  QnnContext_GetIncrementalBinaryFn_t contextGetIncrementalBinary;
  QnnContext_ReleaseIncrementalBinaryFn_t contextReleaseIncrementalBinary;
  QnnContext_FinalizeFn_t contextFinalize;
  QnnGlobalConfig_SetFn_t globalConfigSet;
  QnnContext_CreateFromBinaryWithCallbackFn_t contextCreateFromBinaryWithCallback;
  QnnContext_GetBinarySectionUpdateFn_t contextGetBinarySectionUpdate;
  QnnContext_FreeBinarySectionUpdateFn_t contextFreeBinarySectionUpdate;
} QnnInterface_ImplementationV2_32_t;

#define QNN_INTERFACE_VER_TYPE_INIT { NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , NULL , }
typedef struct {
  uint32_t backendId;
  const char *providerName;
  Qnn_ApiVersion_t apiVersion;
  union {
    QnnInterface_ImplementationV2_32_t v2_32;
  };
} QnnInterface_t;

#define QNN_INTERFACE_INIT { QNN_BACKEND_ID_NULL , NULL , QNN_API_VERSION_INIT , { QNN_INTERFACE_VER_TYPE_INIT } }
QNN_API
Qnn_ErrorHandle_t QnnInterface_getProviders(const QnnInterface_t ***providerList, uint32_t *numProviders);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
