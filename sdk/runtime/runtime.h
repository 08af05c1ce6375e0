// Runtime: the shared implementation of the QNN C API for one backend library.
// Each backend's thin C entry file creates one Runtime with its descriptor and
// forwards every entry point to the method of the same name. Methods validate
// every handle and pointer, never throw, and return QNN error codes.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "runtime/engine.h"

namespace qnn::sdk {

class SignalObject;  // runtime/objects.h

class Runtime {
 public:
  explicit Runtime(BackendDescriptor descriptor);

  const BackendDescriptor& descriptor() const { return desc_; }
  // The API version of the provider handed out (providers.h: 2.32, or 2.39
  // under QNN_OPENQNN_PROVIDER_API=2.39), and of a provider of core minor 32 or 39.
  Qnn_ApiVersion_t apiVersion() const;
  Qnn_ApiVersion_t apiVersion(uint32_t coreMinor) const;

  Qnn_ErrorHandle_t propertyHasCapability(QnnProperty_Key_t key);

  Qnn_ErrorHandle_t backendCreate(Qnn_LogHandle_t logger, const QnnBackend_Config_t** config,
                                  Qnn_BackendHandle_t* backend);
  Qnn_ErrorHandle_t backendSetConfig(Qnn_BackendHandle_t backend, const QnnBackend_Config_t** config);
  Qnn_ErrorHandle_t backendGetApiVersion(Qnn_ApiVersion_t* version);
  Qnn_ErrorHandle_t backendGetBuildId(const char** id);
  Qnn_ErrorHandle_t backendRegisterOpPackage(Qnn_BackendHandle_t backend, const char* path, const char* provider,
                                             const char* target);
  // API 2.39: the package's library from memory (a memfd dlopen'ed through
  // /proc/self/fd), then the same registration as from a file.
  Qnn_ErrorHandle_t backendRegisterOpPackageFromBinary(Qnn_BackendHandle_t backend, const void* buffer,
                                                       uint64_t size, const char* provider, const char* target);
  Qnn_ErrorHandle_t backendGetSupportedOperations(Qnn_BackendHandle_t backend, uint32_t* num,
                                                  const QnnBackend_OperationName_t** ops);
  Qnn_ErrorHandle_t backendValidateOpConfig(Qnn_BackendHandle_t backend, Qnn_OpConfig_t opConfig);
  Qnn_ErrorHandle_t backendFree(Qnn_BackendHandle_t backend);
  Qnn_ErrorHandle_t backendGetProperty(Qnn_BackendHandle_t backend, QnnBackend_Property_t** properties);

  Qnn_ErrorHandle_t contextCreate(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                  const QnnContext_Config_t** config, Qnn_ContextHandle_t* context);
  Qnn_ErrorHandle_t contextSetConfig(Qnn_ContextHandle_t context, const QnnContext_Config_t** config);
  Qnn_ErrorHandle_t contextGetBinarySize(Qnn_ContextHandle_t context, Qnn_ContextBinarySize_t* size);
  Qnn_ErrorHandle_t contextGetBinary(Qnn_ContextHandle_t context, void* buffer, Qnn_ContextBinarySize_t bufferSize,
                                     Qnn_ContextBinarySize_t* written);
  // `signal` (QnnContext_createFromBinaryWithSignal): abort and timeout are
  // checked between the load's steps (reading the binary, each graph).
  Qnn_ErrorHandle_t contextCreateFromBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                            const QnnContext_Config_t** config, const void* buffer,
                                            Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                            Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal = nullptr);
  Qnn_ErrorHandle_t contextFree(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile);
  // API 2.39: the context's finalized graphs (and its binary, as a cache record) into a System DLC
  // handle of the process's libQnnSystem.so (runtime_dlc.cpp).
  Qnn_ErrorHandle_t contextAddToDlc(Qnn_ContextHandle_t context, QnnSystemDlc_Handle_t dlcHandle);
  // Checks a context binary (format, checksums) without loading it.
  Qnn_ErrorHandle_t contextValidateBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                          const QnnContext_Config_t** config, const void* buffer,
                                          Qnn_ContextBinarySize_t size);
  // runtime_context_async.cpp
  Qnn_ErrorHandle_t contextCreateFromBinaryListAsync(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                     const QnnContext_Params_t** contextParams,
                                                     const QnnContext_Config_t** listConfig, Qnn_SignalHandle_t signal);
  Qnn_ErrorHandle_t contextFinalize(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile);
  Qnn_ErrorHandle_t contextCreateFromBinaryWithCallback(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                        const QnnContext_Config_t** config,
                                                        const Qnn_ContextBinaryCallback_t* callback, const void* buffer,
                                                        Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                                        Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);
  // runtime_context_incremental.cpp
  Qnn_ErrorHandle_t contextGetIncrementalBinary(Qnn_ContextHandle_t context, const void** buffer,
                                                Qnn_ContextBinarySize_t* startOffset, Qnn_ContextBinarySize_t* written);
  Qnn_ErrorHandle_t contextReleaseIncrementalBinary(Qnn_ContextHandle_t context, const void* buffer,
                                                    Qnn_ContextBinarySize_t startOffset);
  Qnn_ErrorHandle_t contextGetProperty(Qnn_ContextHandle_t context, QnnContext_Property_t** properties);
  // Binary sections (runtime_binary_section.cpp).
  Qnn_ErrorHandle_t contextGetBinarySectionSize(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                                QnnContext_SectionType_t section, Qnn_ContextBinarySize_t* size);
  Qnn_ErrorHandle_t contextGetBinarySection(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                            QnnContext_SectionType_t section, const QnnContext_Buffer_t* buffer,
                                            Qnn_ContextBinarySize_t* written, Qnn_ProfileHandle_t profile,
                                            Qnn_SignalHandle_t signal);
  Qnn_ErrorHandle_t contextApplyBinarySection(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                              QnnContext_SectionType_t section, const QnnContext_Buffer_t* buffer,
                                              Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);
  Qnn_ErrorHandle_t contextGetBinarySectionUpdate(const QnnContext_Buffer_t* buffer,
                                                  const QnnContext_Buffer_t* auxiliary, const Qnn_Tensor_t** tensors,
                                                  uint64_t numTensors, uint8_t keepUpdatable, Qnn_LogHandle_t logger,
                                                  Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal,
                                                  QnnContext_Buffer_t* update);
  Qnn_ErrorHandle_t contextFreeBinarySectionUpdate(QnnContext_Buffer_t update, Qnn_LogHandle_t logger);

  Qnn_ErrorHandle_t graphCreate(Qnn_ContextHandle_t context, const char* name, const QnnGraph_Config_t** config,
                                Qnn_GraphHandle_t* graph);
  Qnn_ErrorHandle_t graphSetConfig(Qnn_GraphHandle_t graph, const QnnGraph_Config_t** config);
  Qnn_ErrorHandle_t graphAddNode(Qnn_GraphHandle_t graph, Qnn_OpConfig_t opConfig);
  Qnn_ErrorHandle_t graphFinalize(Qnn_GraphHandle_t graph, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);
  Qnn_ErrorHandle_t graphGetProperty(Qnn_GraphHandle_t graph, QnnGraph_Property_t** properties);
  Qnn_ErrorHandle_t graphCreateSubgraph(Qnn_GraphHandle_t graph, const char* name, Qnn_GraphHandle_t* subgraph);
  // runtime_graph_env.cpp
  Qnn_ErrorHandle_t graphPrepareExecutionEnvironment(Qnn_GraphHandle_t graph, QnnGraph_ExecuteEnvironment_t** envs,
                                                     uint32_t envSize);
  Qnn_ErrorHandle_t graphReleaseExecutionEnvironment(Qnn_GraphHandle_t graph,
                                                     const QnnGraph_ExecuteEnvironment_t** envs, uint32_t envSize);
  Qnn_ErrorHandle_t graphRetrieve(Qnn_ContextHandle_t context, const char* name, Qnn_GraphHandle_t* graph);
  Qnn_ErrorHandle_t graphExecute(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs, uint32_t numInputs,
                                 Qnn_Tensor_t* outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profile,
                                 Qnn_SignalHandle_t signal);
  Qnn_ErrorHandle_t graphExecuteAsync(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs, uint32_t numInputs,
                                      Qnn_Tensor_t* outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profile,
                                      Qnn_SignalHandle_t signal, Qnn_NotifyFn_t notifyFn, void* notifyParam);

  Qnn_ErrorHandle_t tensorCreateContextTensor(Qnn_ContextHandle_t context, Qnn_Tensor_t* tensor);
  Qnn_ErrorHandle_t tensorCreateGraphTensor(Qnn_GraphHandle_t graph, Qnn_Tensor_t* tensor);
  // Staged until the graph's next QnnGraph_finalize (runtime_updates.cpp).
  Qnn_ErrorHandle_t tensorUpdateGraphTensors(Qnn_GraphHandle_t graph, const Qnn_Tensor_t** tensors,
                                             uint64_t numTensors);
  Qnn_ErrorHandle_t tensorUpdateContextTensors(Qnn_ContextHandle_t context, const Qnn_Tensor_t** tensors,
                                               uint64_t numTensors);

  Qnn_ErrorHandle_t logCreate(QnnLog_Callback_t callback, QnnLog_Level_t level, Qnn_LogHandle_t* logger);
  Qnn_ErrorHandle_t logSetLogLevel(Qnn_LogHandle_t logger, QnnLog_Level_t level);
  Qnn_ErrorHandle_t logFree(Qnn_LogHandle_t logger);

  Qnn_ErrorHandle_t profileCreate(Qnn_BackendHandle_t backend, QnnProfile_Level_t level,
                                  Qnn_ProfileHandle_t* profile);
  Qnn_ErrorHandle_t profileGetEvents(Qnn_ProfileHandle_t profile, const QnnProfile_EventId_t** events,
                                     uint32_t* numEvents);
  Qnn_ErrorHandle_t profileGetSubEvents(QnnProfile_EventId_t event, const QnnProfile_EventId_t** subEvents,
                                        uint32_t* numSubEvents);
  Qnn_ErrorHandle_t profileGetEventData(QnnProfile_EventId_t event, QnnProfile_EventData_t* data);
  Qnn_ErrorHandle_t profileSetConfig(Qnn_ProfileHandle_t profile, const QnnProfile_Config_t** config);
  Qnn_ErrorHandle_t profileGetExtendedEventData(QnnProfile_EventId_t event, QnnProfile_ExtendedEventData_t* data);
  Qnn_ErrorHandle_t profileFree(Qnn_ProfileHandle_t profile);

  Qnn_ErrorHandle_t memRegister(Qnn_ContextHandle_t context, const Qnn_MemDescriptor_t* descriptors,
                                uint32_t numDescriptors, Qnn_MemHandle_t* memHandles);
  Qnn_ErrorHandle_t memDeRegister(const Qnn_MemHandle_t* memHandles, uint32_t numHandles);

  Qnn_ErrorHandle_t deviceGetPlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t** info);
  Qnn_ErrorHandle_t deviceFreePlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t* info);
  Qnn_ErrorHandle_t deviceGetInfrastructure(const QnnDevice_Infrastructure_t* infra);
  Qnn_ErrorHandle_t deviceCreate(Qnn_LogHandle_t logger, const QnnDevice_Config_t** config,
                                 Qnn_DeviceHandle_t* device);
  Qnn_ErrorHandle_t deviceSetConfig(Qnn_DeviceHandle_t device, const QnnDevice_Config_t** config);
  Qnn_ErrorHandle_t deviceGetInfo(Qnn_DeviceHandle_t device, const QnnDevice_PlatformInfo_t** info);
  Qnn_ErrorHandle_t deviceFree(Qnn_DeviceHandle_t device);

  Qnn_ErrorHandle_t signalCreate(Qnn_BackendHandle_t backend, const QnnSignal_Config_t** config,
                                 Qnn_SignalHandle_t* signal);
  Qnn_ErrorHandle_t signalSetConfig(Qnn_SignalHandle_t signal, const QnnSignal_Config_t** config);
  Qnn_ErrorHandle_t signalTrigger(Qnn_SignalHandle_t signal);
  Qnn_ErrorHandle_t signalFree(Qnn_SignalHandle_t signal);

  Qnn_ErrorHandle_t globalConfigSet(const QnnGlobalConfig_t** config);

  // Message of an error code (QnnError's errorGetMessage).
  static const char* errorMessage(Qnn_ErrorHandle_t error);
  // The text of a code of the API's error enums; nullptr for any other value.
  static const char* knownErrorMessage(Qnn_ErrorHandle_t error);

  // API 2.39 (runtime_graph_validate.cpp): the composed graph's nodes checked
  // again against the backend and the graph's structure; the result is the
  // backend's until graphFreeValidationResult.
  Qnn_ErrorHandle_t graphValidate(Qnn_GraphHandle_t graph, const QnnGraph_ValidateConfig_t** config,
                                  QnnGraph_ValidationResult_t** result);
  Qnn_ErrorHandle_t graphFreeValidationResult(QnnGraph_ValidationResult_t* result);

 private:
  // backendRegisterOpPackage's work once the library is at `path`; `api` and
  // `shown` (the package as the log names it) are the caller's.
  Qnn_ErrorHandle_t registerOpPackage(Qnn_BackendHandle_t backend, const std::string& path, const char* provider,
                                      const char* target, const std::string& api, const std::string& shown,
                                      Qnn_ErrorHandle_t loadFailure);
  // QnnGraph_execute; `queuedMicros` (steady clock, 0: now) is when QnnGraph_executeAsync queued it.
  Qnn_ErrorHandle_t executeGraph(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs, uint32_t numInputs,
                                 Qnn_Tensor_t* outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profile,
                                 Qnn_SignalHandle_t signal, uint64_t queuedMicros);
  // The load behind createFromBinary{,WithSignal,ListAsync}: `sig` (may be null,
  // its in-use flag managed by the caller) is checked between the steps;
  // `loadedGraphs` (may be null) receives the graphs' names and handles.
  Qnn_ErrorHandle_t loadContextBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                      const QnnContext_Config_t** config, const void* buffer,
                                      Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                      Qnn_ProfileHandle_t profile, SignalObject* sig, uint64_t begun,
                                      std::vector<std::pair<std::string, void*>>* loadedGraphs,
                                      const Qnn_ContextBinaryCallback_t* dataCallback = nullptr);
  // createFromBinary and createFromBinaryWithCallback: the signal held for the call.
  Qnn_ErrorHandle_t createFromBinaryHoldingSignal(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                  const QnnContext_Config_t** config, const void* buffer,
                                                  Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                                  Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal,
                                                  const Qnn_ContextBinaryCallback_t* dataCallback);

  // What QnnGlobalConfig_Set established: the base of every later device's and
  // context's settings.
  BackendSettings globalSettings() const;

  BackendDescriptor desc_;
  mutable std::mutex globalMutex_;
  BackendSettings globalSettings_;
  // QnnBackend_getSupportedOperations with a null backend: the built-in op
  // package, listed once (names owned here, valid as long as the library).
  std::once_flag builtinOpsOnce_;
  std::vector<std::string> builtinOpNames_;
  std::vector<QnnBackend_OperationName_t> builtinOps_;
};

}  // namespace qnn::sdk
