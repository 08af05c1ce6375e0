// The typed dispatch of qnn-trace-replay, one function per API group.
#include <cstring>
#include <future>

#include "qnn_data_bytes.h"
#include "replayer.h"
#include "tool_error.h"
#include "trace_configs.h"

namespace qnn::replay {

using tools::ToolError;
using trace::Call;
using trace::Value;

namespace {

size_t bufferBytes(const Value& d) {
  size_t elements = 1;
  for (const Value& x : field(d, "dims").items) elements *= x.u;
  return trace::qnnDataBytes(uint32_t(field(d, "dataType").u), elements);
}

}  // namespace

// A raw-buffer callback serving ranges of `binary` (which outlives the call).
Qnn_ContextBinaryCallback_t binaryRangeCallback(const std::vector<uint8_t>* binary) {
  Qnn_ContextBinaryCallback_t cb;
  std::memset(&cb, 0, sizeof cb);
  cb.type = QNN_CONTEXT_CALLBACK_RAW_BUFFER;
  cb.rawBufferCallback.version = QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1;
  cb.rawBufferCallback.v1.notifyParam = const_cast<std::vector<uint8_t>*>(binary);
  cb.rawBufferCallback.v1.dataProvide = [](Qnn_ContextBinaryDataRequest_t req, Qnn_ContextBinaryRawDataResponse_t* out,
                                           void* param) -> Qnn_ErrorHandle_t {
    auto* bytes = static_cast<std::vector<uint8_t>*>(param);
    if (!out || req.offset > bytes->size() || req.size > bytes->size() - req.offset)
      return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    out->memPtr = bytes->data() + req.offset;
    out->dataStartOffset = 0;
    out->alignedSize = req.size;
    return QNN_SUCCESS;
  };
  cb.rawBufferCallback.v1.dataRelease = [](Qnn_ContextBinaryRawDataMem_t, void*) -> Qnn_ErrorHandle_t {
    return QNN_SUCCESS;
  };
  return cb;
}

const std::vector<uint8_t>* Replayer::binaryOf(const Value& ref) const {
  auto it = liveBinaries_.find(ref.u);  // a binary this replay produced replaces the recorded one
  return it != liveBinaries_.end() ? &it->second : trace_.blob(ref);
}

void Replayer::attachMemory(OwnedTensor& t, bool input) {
  if (!t.memHandle) return;
  t.tensor.v1.memHandle = live(*t.memHandle);
  size_t bytes = 0;
  uint8_t* data = memory_.data(t.tensor.v1.memHandle, &bytes);
  if (!data) throw ToolError("tensor '" + t.name + "' uses memory this replay did not register");
  if (input && !t.data.empty()) std::memcpy(data, t.data.data(), std::min(bytes, t.data.size()));
}

template <trace::Call C>
Qnn_ErrorHandle_t Replayer::execute(const trace::CallRecord& c) {
  const trace::Args<C> a(c);
  std::vector<OwnedTensor> in(a.inputs.items.size()), out(a.outputs.items.size());
  std::vector<Qnn_Tensor_t> ins, outs;
  for (size_t k = 0; k < in.size(); ++k) {
    buildTensor(a.inputs.items[k], trace_, true, false, in[k]);
    attachMemory(in[k], true);
    ins.push_back(in[k].tensor);
  }
  for (size_t k = 0; k < out.size(); ++k) {
    buildTensor(a.outputs.items[k], trace_, false, true, out[k]);
    attachMemory(out[k], false);
    outs.push_back(out[k].tensor);
  }
  Qnn_ErrorHandle_t rc;
  if constexpr (C == Call::graphExecuteAsync) {
    // Awaited here: the next call may use the outputs.
    std::promise<Qnn_ErrorHandle_t> notified;
    auto notify = [](void* param, Qnn_NotifyStatus_t status) {
      static_cast<std::promise<Qnn_ErrorHandle_t>*>(param)->set_value(status.error);
    };
    rc = api_.graphExecuteAsync(live(a.graph), ins.data(), uint32_t(ins.size()), outs.data(),
                                uint32_t(outs.size()), live(a.profile), live(a.signal), notify,
                                &notified);
    if (rc == QNN_SUCCESS) rc = notified.get_future().get();
  } else {
    rc = api_.graphExecute(live(a.graph), ins.data(), uint32_t(ins.size()), outs.data(),
                           uint32_t(outs.size()), live(a.profile), live(a.signal));
  }
  if (rc == QNN_SUCCESS && options_.compare) {
    std::vector<std::vector<uint8_t>> got;
    std::vector<Qnn_DataType_t> types;
    for (size_t k = 0; k < out.size(); ++k) {
      size_t bytes = 0;
      const uint8_t* mem = out[k].memHandle ? memory_.data(outs[k].v1.memHandle, &bytes) : nullptr;
      got.push_back(mem ? std::vector<uint8_t>(mem, mem + bytes) : out[k].data);
      types.push_back(out[k].tensor.v1.dataType);
    }
    compareOutputs(c, a.outputs, got, types);
  }
  return rc;
}

bool Replayer::onGraphCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::graphCreate> a(c);
  OwnedConfigs<QnnGraph_Config_t> cfg;
  configs(a.config, cfg);
  void* g = nullptr;
  *rc = api_.graphCreate(live(a.context), a.graphName.s.c_str(), cfg.get(), &g);
  if (*rc == QNN_SUCCESS && present(a.graph)) bind(a.graph, g);
  return true;
}

bool Replayer::onGraphSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::graphSetConfig> a(c);
  OwnedConfigs<QnnGraph_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.graphSetConfig(live(a.graph), cfg.get());
  return true;
}

bool Replayer::onGraphRetrieve(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::graphRetrieve> a(c);
  void* g = nullptr;
  *rc = api_.graphRetrieve(live(a.context), a.graphName.s.c_str(), &g);
  if (*rc == QNN_SUCCESS && present(a.graph)) bind(a.graph, g);
  return true;
}

template <trace::Call C>
bool Replayer::onTensorCreateGraphTensor(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<C> a(c);
  OwnedTensor t;
  buildTensor(a.tensor, trace_, true, false, t);
  attachMemory(t, true);
  if constexpr (C == Call::tensorCreateGraphTensor)
    *rc = api_.tensorCreateGraphTensor(live(a.graph), &t.tensor);
  else
    *rc = api_.tensorCreateContextTensor(live(a.context), &t.tensor);
  // Later calls name tensors by their recorded ids: the backend must assign the same.
  if (*rc == QNN_SUCCESS && present(a.id) && t.tensor.v1.id != a.id.u)
    throw ToolError("call #" + std::to_string(c.seq) + ": backend assigned tensor id " +
                    std::to_string(t.tensor.v1.id) + ", recorded " + std::to_string(a.id.u));
  return true;
}

template <trace::Call C>
bool Replayer::onGraphAddNode(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<C> a(c);
  OwnedOp op;
  buildOp(a.opConfig, trace_, op);
  if constexpr (C == Call::graphAddNode)
    *rc = api_.graphAddNode(live(a.graph), op.op);
  else
    *rc = api_.backendValidateOpConfig(live(a.backend), op.op);
  return true;
}

bool Replayer::onGraphFinalize(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::graphFinalize> a(c);
  *rc = api_.graphFinalize(live(a.graph), live(a.profile), live(a.signal));
  return true;
}

template <trace::Call C>
bool Replayer::onGraphExecute(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  *rc = execute<C>(c);
  return true;
}

void Replayer::addGraphHandlers(trace::PerCall<Handler>& h) {
  h.graphCreate = &Replayer::onGraphCreate;
  h.graphSetConfig = &Replayer::onGraphSetConfig;
  h.graphRetrieve = &Replayer::onGraphRetrieve;
  h.tensorCreateGraphTensor = &Replayer::onTensorCreateGraphTensor<Call::tensorCreateGraphTensor>;
  h.tensorCreateContextTensor = &Replayer::onTensorCreateGraphTensor<Call::tensorCreateContextTensor>;
  h.graphAddNode = &Replayer::onGraphAddNode<Call::graphAddNode>;
  h.backendValidateOpConfig = &Replayer::onGraphAddNode<Call::backendValidateOpConfig>;
  h.graphFinalize = &Replayer::onGraphFinalize;
  h.graphExecute = &Replayer::onGraphExecute<Call::graphExecute>;
  h.graphExecuteAsync = &Replayer::onGraphExecute<Call::graphExecuteAsync>;
}

bool Replayer::onContextCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextCreate> a(c);
  OwnedConfigs<QnnContext_Config_t> cfg;
  configs(a.config, cfg);
  void* x = nullptr;
  *rc = api_.contextCreate(live(a.backend), live(a.device), cfg.get(), &x);
  if (*rc == QNN_SUCCESS && present(a.context)) bind(a.context, x);
  return true;
}

bool Replayer::onContextSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextSetConfig> a(c);
  OwnedConfigs<QnnContext_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.contextSetConfig(live(a.context), cfg.get());
  return true;
}

bool Replayer::onContextGetBinarySize(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextGetBinarySize> a(c);
  Qnn_ContextBinarySize_t size = 0;
  *rc = api_.contextGetBinarySize(live(a.context), &size);
  return true;
}

bool Replayer::onContextGetBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextGetBinary> a(c);
  Qnn_ContextBinarySize_t size = 0, written = 0;
  void* ctx = live(a.context);
  *rc = api_.contextGetBinarySize(ctx, &size);
  std::vector<uint8_t> bin(size);
  if (*rc == QNN_SUCCESS) *rc = api_.contextGetBinary(ctx, bin.data(), size, &written);
  bin.resize(written);
  if (*rc == QNN_SUCCESS && present(a.binary)) liveBinaries_[a.binary.u] = std::move(bin);
  return true;
}

template <trace::Call C>
bool Replayer::onContextCreateFromBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<C> a(c);
  const std::vector<uint8_t>* bin = binaryOf(a.binary);
  if (!bin) throw ToolError("call #" + std::to_string(c.seq) + ": context binary blob missing");
  OwnedConfigs<QnnContext_Config_t> cfg;
  configs(a.config, cfg);
  void* x = nullptr;
  if constexpr (C == Call::contextCreateFromBinary) {
    *rc = api_.contextCreateFromBinary(live(a.backend), live(a.device), cfg.get(), bin->data(),
                                       bin->size(), &x, live(a.profile));
  } else {
    // The recorded client's callback is gone: one that serves ranges of the binary stands in.
    Qnn_ContextBinaryCallback_t cb = binaryRangeCallback(bin);
    *rc = api_.contextCreateFromBinaryWithCallback(live(a.backend), live(a.device), cfg.get(),
                                                   &cb, bin->data(), bin->size(), &x, live(a.profile),
                                                   live(a.signal));
  }
  if (*rc == QNN_SUCCESS && present(a.context)) bind(a.context, x);
  return true;
}

bool Replayer::onContextCreateFromBinaryListAsync(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  *rc = listAsync(c);
  return true;
}

bool Replayer::onContextFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextFree> a(c);
  *rc = api_.contextFree(live(a.context), live(a.profile));
  return true;
}

bool Replayer::onMemRegister(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::memRegister> a(c);
  const Value& descriptors = a.memDescriptors;
  std::vector<Qnn_MemDescriptor_t> desc(descriptors.items.size(), Qnn_MemDescriptor_t QNN_MEM_DESCRIPTOR_INIT);
  std::vector<std::vector<uint32_t>> dims(desc.size());
  for (size_t k = 0; k < desc.size(); ++k) {
    const Value& d = descriptors.items[k];
    // ION and dma-buf memory are fds the replay stands in for with its own; a
    // backend's custom memory was recorded without its descriptor.
    const uint64_t type = field(d, "memType").u;
    if (type != QNN_MEM_TYPE_ION && type != QNN_MEM_TYPE_DMA_BUF) return false;
    for (const Value& x : field(d, "dims").items) dims[k].push_back(uint32_t(x.u));
    desc[k].memShape = {uint32_t(dims[k].size()), dims[k].data(), nullptr};
    desc[k].dataType = Qnn_DataType_t(field(d, "dataType").u);
    desc[k].memType = QNN_MEM_TYPE_ION;
    desc[k].ionInfo.fd = memory_.create(bufferBytes(d));
  }
  std::vector<Qnn_MemHandle_t> handles(desc.size(), nullptr);
  *rc = api_.memRegister(live(a.context), desc.data(), uint32_t(desc.size()), handles.data());
  if (*rc == QNN_SUCCESS)
    for (size_t k = 0; k < desc.size(); ++k) {
      memory_.bind(handles[k], desc[k].ionInfo.fd);
      bind(a.memHandles.items.at(k), handles[k]);
    }
  return true;
}

bool Replayer::onMemDeRegister(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::memDeRegister> a(c);
  std::vector<Qnn_MemHandle_t> handles;
  for (const Value& h : a.memHandles.items) handles.push_back(live(h));
  *rc = api_.memDeRegister(handles.data(), uint32_t(handles.size()));
  if (*rc == QNN_SUCCESS)
    for (void* h : handles) memory_.release(h);
  return true;
}

void Replayer::addContextHandlers(trace::PerCall<Handler>& h) {
  h.contextCreate = &Replayer::onContextCreate;
  h.contextSetConfig = &Replayer::onContextSetConfig;
  h.contextGetBinarySize = &Replayer::onContextGetBinarySize;
  h.contextGetBinary = &Replayer::onContextGetBinary;
  h.contextCreateFromBinary = &Replayer::onContextCreateFromBinary<Call::contextCreateFromBinary>;
  h.contextCreateFromBinaryWithCallback = &Replayer::onContextCreateFromBinary<Call::contextCreateFromBinaryWithCallback>;
  h.contextCreateFromBinaryListAsync = &Replayer::onContextCreateFromBinaryListAsync;
  h.contextFree = &Replayer::onContextFree;
  h.memRegister = &Replayer::onMemRegister;
  h.memDeRegister = &Replayer::onMemDeRegister;
}

bool Replayer::onBackendCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::backendCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnBackend_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.backendCreate(live(a.logger), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.backend)) bind(a.backend, created);
  return true;
}

bool Replayer::onBackendFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::backendFree> a(c);
  *rc = api_.backendFree(live(a.backend));
  return true;
}

bool Replayer::onLogCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::logCreate> a(c);
  void* created = nullptr;
  // Recorded messages are not replayed: the backend's own go to a sink.
  static const QnnLog_Callback_t sink = [](const char*, QnnLog_Level_t, uint64_t, va_list) {};
  *rc = api_.logCreate(a.hasCallback.u ? sink : nullptr, QnnLog_Level_t(a.maxLogLevel.u),
                       &created);
  if (*rc == QNN_SUCCESS && present(a.logger)) bind(a.logger, created);
  return true;
}

bool Replayer::onLogSetLogLevel(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::logSetLogLevel> a(c);
  *rc = api_.logSetLogLevel(live(a.logger), QnnLog_Level_t(a.maxLogLevel.u));
  return true;
}

bool Replayer::onLogFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::logFree> a(c);
  *rc = api_.logFree(live(a.logger));
  return true;
}

bool Replayer::onProfileCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileCreate> a(c);
  void* created = nullptr;
  *rc = api_.profileCreate(live(a.backend), QnnProfile_Level_t(a.level.u), &created);
  if (*rc == QNN_SUCCESS && present(a.profile)) bind(a.profile, created);
  return true;
}

bool Replayer::onProfileGetEvents(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileGetEvents> a(c);
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t n = 0;
  *rc = api_.profileGetEvents(live(a.profile), &events, &n);
  return true;
}

bool Replayer::onProfileFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileFree> a(c);
  *rc = api_.profileFree(live(a.profile));
  return true;
}

bool Replayer::onProfileSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileSetConfig> a(c);
  std::vector<QnnProfile_Config_t> cfgs;
  for (const trace::Value& c : a.config.items) {
    QnnProfile_Config_t cfg = QNN_PROFILE_CONFIG_INIT;
    cfg.option = QnnProfile_ConfigOption_t(field(c, "option").u);
    if (const trace::Value* n = c.field("numMaxEvents")) cfg.numMaxEvents = n->u;
    if (const trace::Value* o = c.field("enableOptrace")) cfg.enableOptrace = uint8_t(o->u);
    cfgs.push_back(cfg);
  }
  std::vector<const QnnProfile_Config_t*> list;
  for (const QnnProfile_Config_t& c : cfgs) list.push_back(&c);
  list.push_back(nullptr);
  *rc = api_.profileSetConfig(live(a.profile), cfgs.empty() ? nullptr : list.data());
  return true;
}

bool Replayer::onGlobalConfigSet(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::globalConfigSet> a(c);
  std::vector<QnnGlobalConfig_t> cfgs;
  for (const trace::Value& c : a.config.items) {
    QnnGlobalConfig_t cfg = QNN_GLOBAL_CONFIG_INIT;
    cfg.option = QnnGlobalConfig_ConfigOption_t(field(c, "option").u);
    if (const trace::Value* soc = c.field("socModel")) cfg.socModel = Qnn_SocModel_t(soc->u);
    cfgs.push_back(cfg);
  }
  std::vector<const QnnGlobalConfig_t*> list;
  for (const QnnGlobalConfig_t& c : cfgs) list.push_back(&c);
  list.push_back(nullptr);
  *rc = api_.globalConfigSet(cfgs.empty() ? nullptr : list.data());
  return true;
}

bool Replayer::onSignalCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnSignal_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.signalCreate(live(a.backend), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.signal)) bind(a.signal, created);
  return true;
}

bool Replayer::onSignalSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalSetConfig> a(c);
  OwnedConfigs<QnnSignal_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.signalSetConfig(live(a.signal), cfg.get());
  return true;
}

bool Replayer::onSignalTrigger(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalTrigger> a(c);
  *rc = api_.signalTrigger(live(a.signal));
  return true;
}

bool Replayer::onSignalFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalFree> a(c);
  *rc = api_.signalFree(live(a.signal));
  return true;
}

bool Replayer::onDeviceCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnDevice_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.deviceCreate(live(a.logger), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.device)) bind(a.device, created);
  return true;
}

bool Replayer::onDeviceFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceFree> a(c);
  *rc = api_.deviceFree(live(a.device));
  return true;
}

bool Replayer::onDeviceGetPlatformInfo(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceGetPlatformInfo> a(c);
  *rc = api_.deviceGetPlatformInfo(live(a.logger), &platformInfo_);
  return true;
}

bool Replayer::onDeviceFreePlatformInfo(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceFreePlatformInfo> a(c);
  if (!platformInfo_) return false;  // nothing of this replay's to free
  *rc = api_.deviceFreePlatformInfo(live(a.logger), platformInfo_);
  platformInfo_ = nullptr;
  return true;
}

void Replayer::addObjectHandlers(trace::PerCall<Handler>& h) {
  h.backendCreate = &Replayer::onBackendCreate;
  h.backendFree = &Replayer::onBackendFree;
  h.logCreate = &Replayer::onLogCreate;
  h.logSetLogLevel = &Replayer::onLogSetLogLevel;
  h.logFree = &Replayer::onLogFree;
  h.profileCreate = &Replayer::onProfileCreate;
  h.profileGetEvents = &Replayer::onProfileGetEvents;
  h.profileFree = &Replayer::onProfileFree;
  h.profileSetConfig = &Replayer::onProfileSetConfig;
  h.globalConfigSet = &Replayer::onGlobalConfigSet;
  h.signalCreate = &Replayer::onSignalCreate;
  h.signalSetConfig = &Replayer::onSignalSetConfig;
  h.signalTrigger = &Replayer::onSignalTrigger;
  h.signalFree = &Replayer::onSignalFree;
  h.deviceCreate = &Replayer::onDeviceCreate;
  h.deviceFree = &Replayer::onDeviceFree;
  h.deviceGetPlatformInfo = &Replayer::onDeviceGetPlatformInfo;
  h.deviceFreePlatformInfo = &Replayer::onDeviceFreePlatformInfo;
}

}  // namespace qnn::replay
