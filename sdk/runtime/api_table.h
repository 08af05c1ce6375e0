// Builds a backend's QNN function table from its Runtime. ApiTable<rt> has one
// static function per table member that forwards to rt(); the backend's thin
// entry file instantiates it with its own runtime accessor.
#pragma once

#include "QnnInterface.h"
#include "runtime/runtime.h"

namespace qnn::sdk {

using RuntimeAccessor = Runtime& (*)();

template <RuntimeAccessor rt>
struct ApiTable {
  static Qnn_ErrorHandle_t propertyHasCapability(QnnProperty_Key_t k) { return rt().propertyHasCapability(k); }
  static Qnn_ErrorHandle_t backendCreate(Qnn_LogHandle_t l, const QnnBackend_Config_t** c, Qnn_BackendHandle_t* b) {
    return rt().backendCreate(l, c, b);
  }
  static Qnn_ErrorHandle_t backendSetConfig(Qnn_BackendHandle_t b, const QnnBackend_Config_t** c) {
    return rt().backendSetConfig(b, c);
  }
  static Qnn_ErrorHandle_t backendGetApiVersion(Qnn_ApiVersion_t* v) { return rt().backendGetApiVersion(v); }
  static Qnn_ErrorHandle_t backendGetBuildId(const char** id) { return rt().backendGetBuildId(id); }
  static Qnn_ErrorHandle_t backendRegisterOpPackage(Qnn_BackendHandle_t b, const char* p, const char* i,
                                                    const char* t) {
    return rt().backendRegisterOpPackage(b, p, i, t);
  }
  static Qnn_ErrorHandle_t backendGetSupportedOperations(Qnn_BackendHandle_t b, uint32_t* n,
                                                         const QnnBackend_OperationName_t** o) {
    return rt().backendGetSupportedOperations(b, n, o);
  }
  static Qnn_ErrorHandle_t backendValidateOpConfig(Qnn_BackendHandle_t b, Qnn_OpConfig_t o) {
    return rt().backendValidateOpConfig(b, o);
  }
  static Qnn_ErrorHandle_t backendFree(Qnn_BackendHandle_t b) { return rt().backendFree(b); }
  static Qnn_ErrorHandle_t backendGetProperty(Qnn_BackendHandle_t b, QnnBackend_Property_t** p) {
    return rt().backendGetProperty(b, p);
  }
  static Qnn_ErrorHandle_t contextGetProperty(Qnn_ContextHandle_t x, QnnContext_Property_t** p) {
    return rt().contextGetProperty(x, p);
  }
  static Qnn_ErrorHandle_t graphGetProperty(Qnn_GraphHandle_t g, QnnGraph_Property_t** p) {
    return rt().graphGetProperty(g, p);
  }
  static Qnn_ErrorHandle_t contextCreate(Qnn_BackendHandle_t b, Qnn_DeviceHandle_t d, const QnnContext_Config_t** c,
                                         Qnn_ContextHandle_t* x) {
    return rt().contextCreate(b, d, c, x);
  }
  static Qnn_ErrorHandle_t contextSetConfig(Qnn_ContextHandle_t x, const QnnContext_Config_t** c) {
    return rt().contextSetConfig(x, c);
  }
  static Qnn_ErrorHandle_t contextGetBinarySize(Qnn_ContextHandle_t x, Qnn_ContextBinarySize_t* s) {
    return rt().contextGetBinarySize(x, s);
  }
  static Qnn_ErrorHandle_t contextGetBinary(Qnn_ContextHandle_t x, void* b, Qnn_ContextBinarySize_t s,
                                            Qnn_ContextBinarySize_t* w) {
    return rt().contextGetBinary(x, b, s, w);
  }
  static Qnn_ErrorHandle_t contextCreateFromBinary(Qnn_BackendHandle_t b, Qnn_DeviceHandle_t d,
                                                   const QnnContext_Config_t** c, const void* buf,
                                                   Qnn_ContextBinarySize_t s, Qnn_ContextHandle_t* x,
                                                   Qnn_ProfileHandle_t p) {
    return rt().contextCreateFromBinary(b, d, c, buf, s, x, p);
  }
  static Qnn_ErrorHandle_t contextFree(Qnn_ContextHandle_t x, Qnn_ProfileHandle_t p) { return rt().contextFree(x, p); }
  static Qnn_ErrorHandle_t graphCreate(Qnn_ContextHandle_t x, const char* n, const QnnGraph_Config_t** c,
                                       Qnn_GraphHandle_t* g) {
    return rt().graphCreate(x, n, c, g);
  }
  static Qnn_ErrorHandle_t graphSetConfig(Qnn_GraphHandle_t g, const QnnGraph_Config_t** c) {
    return rt().graphSetConfig(g, c);
  }
  static Qnn_ErrorHandle_t graphAddNode(Qnn_GraphHandle_t g, Qnn_OpConfig_t o) { return rt().graphAddNode(g, o); }
  static Qnn_ErrorHandle_t graphFinalize(Qnn_GraphHandle_t g, Qnn_ProfileHandle_t p, Qnn_SignalHandle_t s) {
    return rt().graphFinalize(g, p, s);
  }
  static Qnn_ErrorHandle_t graphRetrieve(Qnn_ContextHandle_t x, const char* n, Qnn_GraphHandle_t* g) {
    return rt().graphRetrieve(x, n, g);
  }
  static Qnn_ErrorHandle_t graphExecute(Qnn_GraphHandle_t g, const Qnn_Tensor_t* in, uint32_t ni, Qnn_Tensor_t* out,
                                        uint32_t no, Qnn_ProfileHandle_t p, Qnn_SignalHandle_t s) {
    return rt().graphExecute(g, in, ni, out, no, p, s);
  }
  static Qnn_ErrorHandle_t graphExecuteAsync(Qnn_GraphHandle_t g, const Qnn_Tensor_t* in, uint32_t ni,
                                             Qnn_Tensor_t* out, uint32_t no, Qnn_ProfileHandle_t p,
                                             Qnn_SignalHandle_t s, Qnn_NotifyFn_t f, void* fp) {
    return rt().graphExecuteAsync(g, in, ni, out, no, p, s, f, fp);
  }
  static Qnn_ErrorHandle_t tensorCreateContextTensor(Qnn_ContextHandle_t x, Qnn_Tensor_t* t) {
    return rt().tensorCreateContextTensor(x, t);
  }
  static Qnn_ErrorHandle_t tensorCreateGraphTensor(Qnn_GraphHandle_t g, Qnn_Tensor_t* t) {
    return rt().tensorCreateGraphTensor(g, t);
  }
  static Qnn_ErrorHandle_t tensorUpdateGraphTensors(Qnn_GraphHandle_t g, const Qnn_Tensor_t** t, uint64_t n) {
    return rt().tensorUpdateGraphTensors(g, t, n);
  }
  static Qnn_ErrorHandle_t tensorUpdateContextTensors(Qnn_ContextHandle_t x, const Qnn_Tensor_t** t, uint64_t n) {
    return rt().tensorUpdateContextTensors(x, t, n);
  }
  static Qnn_ErrorHandle_t logCreate(QnnLog_Callback_t c, QnnLog_Level_t l, Qnn_LogHandle_t* h) {
    return rt().logCreate(c, l, h);
  }
  static Qnn_ErrorHandle_t logSetLogLevel(Qnn_LogHandle_t h, QnnLog_Level_t l) { return rt().logSetLogLevel(h, l); }
  static Qnn_ErrorHandle_t logFree(Qnn_LogHandle_t h) { return rt().logFree(h); }
  static Qnn_ErrorHandle_t profileCreate(Qnn_BackendHandle_t b, QnnProfile_Level_t l, Qnn_ProfileHandle_t* p) {
    return rt().profileCreate(b, l, p);
  }
  static Qnn_ErrorHandle_t profileGetEvents(Qnn_ProfileHandle_t p, const QnnProfile_EventId_t** e, uint32_t* n) {
    return rt().profileGetEvents(p, e, n);
  }
  static Qnn_ErrorHandle_t profileGetSubEvents(QnnProfile_EventId_t e, const QnnProfile_EventId_t** s, uint32_t* n) {
    return rt().profileGetSubEvents(e, s, n);
  }
  static Qnn_ErrorHandle_t profileGetEventData(QnnProfile_EventId_t e, QnnProfile_EventData_t* d) {
    return rt().profileGetEventData(e, d);
  }
  static Qnn_ErrorHandle_t profileFree(Qnn_ProfileHandle_t p) { return rt().profileFree(p); }
  static Qnn_ErrorHandle_t profileSetConfig(Qnn_ProfileHandle_t p, const QnnProfile_Config_t** c) {
    return rt().profileSetConfig(p, c);
  }
  static Qnn_ErrorHandle_t profileGetExtendedEventData(QnnProfile_EventId_t e, QnnProfile_ExtendedEventData_t* d) {
    return rt().profileGetExtendedEventData(e, d);
  }
  static Qnn_ErrorHandle_t memRegister(Qnn_ContextHandle_t x, const Qnn_MemDescriptor_t* d, uint32_t n,
                                       Qnn_MemHandle_t* m) {
    return rt().memRegister(x, d, n, m);
  }
  static Qnn_ErrorHandle_t memDeRegister(const Qnn_MemHandle_t* m, uint32_t n) { return rt().memDeRegister(m, n); }
  static Qnn_ErrorHandle_t deviceGetPlatformInfo(Qnn_LogHandle_t l, const QnnDevice_PlatformInfo_t** i) {
    return rt().deviceGetPlatformInfo(l, i);
  }
  static Qnn_ErrorHandle_t deviceFreePlatformInfo(Qnn_LogHandle_t l, const QnnDevice_PlatformInfo_t* i) {
    return rt().deviceFreePlatformInfo(l, i);
  }
  static Qnn_ErrorHandle_t deviceGetInfrastructure(const QnnDevice_Infrastructure_t* i) {
    return rt().deviceGetInfrastructure(i);
  }
  static Qnn_ErrorHandle_t deviceCreate(Qnn_LogHandle_t l, const QnnDevice_Config_t** c, Qnn_DeviceHandle_t* d) {
    return rt().deviceCreate(l, c, d);
  }
  static Qnn_ErrorHandle_t deviceSetConfig(Qnn_DeviceHandle_t d, const QnnDevice_Config_t** c) {
    return rt().deviceSetConfig(d, c);
  }
  static Qnn_ErrorHandle_t deviceGetInfo(Qnn_DeviceHandle_t d, const QnnDevice_PlatformInfo_t** i) {
    return rt().deviceGetInfo(d, i);
  }
  static Qnn_ErrorHandle_t deviceFree(Qnn_DeviceHandle_t d) { return rt().deviceFree(d); }
  static Qnn_ErrorHandle_t signalCreate(Qnn_BackendHandle_t b, const QnnSignal_Config_t** c, Qnn_SignalHandle_t* s) {
    return rt().signalCreate(b, c, s);
  }
  static Qnn_ErrorHandle_t signalSetConfig(Qnn_SignalHandle_t s, const QnnSignal_Config_t** c) {
    return rt().signalSetConfig(s, c);
  }
  static Qnn_ErrorHandle_t signalTrigger(Qnn_SignalHandle_t s) { return rt().signalTrigger(s); }
  static Qnn_ErrorHandle_t signalFree(Qnn_SignalHandle_t s) { return rt().signalFree(s); }
  static Qnn_ErrorHandle_t globalConfigSet(const QnnGlobalConfig_t** c) { return rt().globalConfigSet(c); }

  // The provider: backend id, name, API version and the filled table. Built
  // once; lives for the life of the library.
  static const QnnInterface_t& provider() {
    static const QnnInterface_t iface = [] {
      QnnInterface_t p = QNN_INTERFACE_INIT;
      const BackendDescriptor& d = rt().descriptor();
      p.backendId = d.backendId;
      p.providerName = d.providerName;
      p.apiVersion = rt().apiVersion();
      fillTable(p.QNN_INTERFACE_VER_NAME);
      return p;
    }();
    return iface;
  }

  template <typename Table>
  static void fillTable(Table& t) {
    t.propertyHasCapability = propertyHasCapability;
    t.backendCreate = backendCreate;
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
    fillNewerMembers(t);
  }

  // Members added after API 2.7 (see newer_members.h).
  template <typename Table>
  static void fillNewerMembers(Table& t);
};

// QnnInterface_getProviders for a backend with one provider.
Qnn_ErrorHandle_t getProviders(const QnnInterface_t& provider, const QnnInterface_t*** providerList,
                               uint32_t* numProviders);

}  // namespace qnn::sdk
