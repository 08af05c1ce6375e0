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

Qnn_ErrorHandle_t Replayer::execute(const trace::CallRecord& c) {
  const Value& a = c.args;
  std::vector<OwnedTensor> in(field(a, "inputs").items.size()), out(field(a, "outputs").items.size());
  std::vector<Qnn_Tensor_t> ins, outs;
  for (size_t k = 0; k < in.size(); ++k) {
    buildTensor(field(a, "inputs").items[k], trace_, true, false, in[k]);
    attachMemory(in[k], true);
    ins.push_back(in[k].tensor);
  }
  for (size_t k = 0; k < out.size(); ++k) {
    buildTensor(field(a, "outputs").items[k], trace_, false, true, out[k]);
    attachMemory(out[k], false);
    outs.push_back(out[k].tensor);
  }
  Qnn_ErrorHandle_t rc;
  if (c.call() == trace::Call::graphExecuteAsync) {
    // Awaited here: the next call may use the outputs.
    std::promise<Qnn_ErrorHandle_t> notified;
    auto notify = [](void* param, Qnn_NotifyStatus_t status) {
      static_cast<std::promise<Qnn_ErrorHandle_t>*>(param)->set_value(status.error);
    };
    rc = api_.graphExecuteAsync(live(field(a, "graph")), ins.data(), uint32_t(ins.size()), outs.data(),
                                uint32_t(outs.size()), live(field(a, "profile")), live(field(a, "signal")), notify,
                                &notified);
    if (rc == QNN_SUCCESS) rc = notified.get_future().get();
  } else {
    rc = api_.graphExecute(live(field(a, "graph")), ins.data(), uint32_t(ins.size()), outs.data(),
                           uint32_t(outs.size()), live(field(a, "profile")), live(field(a, "signal")));
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
    compareOutputs(c, field(a, "outputs"), got, types);
  }
  return rc;
}

bool Replayer::onGraphCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  OwnedConfigs<QnnGraph_Config_t> cfg;
  configs(field(a, "config"), cfg);
  void* g = nullptr;
  *rc = api_.graphCreate(live(field(a, "context")), field(a, "graphName").s.c_str(), cfg.get(), &g);
  if (*rc == QNN_SUCCESS && a.field("graph")) bind(field(a, "graph"), g);
  return true;
}

bool Replayer::onGraphSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  OwnedConfigs<QnnGraph_Config_t> cfg;
  configs(field(a, "config"), cfg);
  *rc = api_.graphSetConfig(live(field(a, "graph")), cfg.get());
  return true;
}

bool Replayer::onGraphRetrieve(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  void* g = nullptr;
  *rc = api_.graphRetrieve(live(field(a, "context")), field(a, "graphName").s.c_str(), &g);
  if (*rc == QNN_SUCCESS && a.field("graph")) bind(field(a, "graph"), g);
  return true;
}

bool Replayer::onTensorCreateGraphTensor(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Call m = c.call();
  const Value& a = c.args;
  OwnedTensor t;
  buildTensor(field(a, "tensor"), trace_, true, false, t);
  attachMemory(t, true);
  *rc = m == Call::tensorCreateGraphTensor ? api_.tensorCreateGraphTensor(live(field(a, "graph")), &t.tensor)
                                       : api_.tensorCreateContextTensor(live(field(a, "context")), &t.tensor);
  // Later calls name tensors by their recorded ids: the backend must assign the same.
  if (*rc == QNN_SUCCESS && a.field("id") && t.tensor.v1.id != field(a, "id").u)
    throw ToolError("call #" + std::to_string(c.seq) + ": backend assigned tensor id " +
                    std::to_string(t.tensor.v1.id) + ", recorded " + std::to_string(field(a, "id").u));
  return true;
}

bool Replayer::onGraphAddNode(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Call m = c.call();
  const Value& a = c.args;
  OwnedOp op;
  buildOp(field(a, "opConfig"), trace_, op);
  *rc = m == Call::graphAddNode ? api_.graphAddNode(live(field(a, "graph")), op.op)
                            : api_.backendValidateOpConfig(live(field(a, "backend")), op.op);
  return true;
}

bool Replayer::onGraphFinalize(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.graphFinalize(live(field(a, "graph")), live(field(a, "profile")), live(field(a, "signal")));
  return true;
}

bool Replayer::onGraphExecute(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  *rc = execute(c);
  return true;
}

void Replayer::addGraphHandlers(trace::PerCall<Handler>& h) {
  h.graphCreate = &Replayer::onGraphCreate;
  h.graphSetConfig = &Replayer::onGraphSetConfig;
  h.graphRetrieve = &Replayer::onGraphRetrieve;
  h.tensorCreateGraphTensor = &Replayer::onTensorCreateGraphTensor;
  h.tensorCreateContextTensor = &Replayer::onTensorCreateGraphTensor;
  h.graphAddNode = &Replayer::onGraphAddNode;
  h.backendValidateOpConfig = &Replayer::onGraphAddNode;
  h.graphFinalize = &Replayer::onGraphFinalize;
  h.graphExecute = &Replayer::onGraphExecute;
  h.graphExecuteAsync = &Replayer::onGraphExecute;
}

bool Replayer::onContextCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  OwnedConfigs<QnnContext_Config_t> cfg;
  configs(field(a, "config"), cfg);
  void* x = nullptr;
  *rc = api_.contextCreate(live(field(a, "backend")), live(field(a, "device")), cfg.get(), &x);
  if (*rc == QNN_SUCCESS && a.field("context")) bind(field(a, "context"), x);
  return true;
}

bool Replayer::onContextSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  OwnedConfigs<QnnContext_Config_t> cfg;
  configs(field(a, "config"), cfg);
  *rc = api_.contextSetConfig(live(field(a, "context")), cfg.get());
  return true;
}

bool Replayer::onContextGetBinarySize(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  Qnn_ContextBinarySize_t size = 0;
  *rc = api_.contextGetBinarySize(live(field(a, "context")), &size);
  return true;
}

bool Replayer::onContextGetBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  Qnn_ContextBinarySize_t size = 0, written = 0;
  void* ctx = live(field(a, "context"));
  *rc = api_.contextGetBinarySize(ctx, &size);
  std::vector<uint8_t> bin(size);
  if (*rc == QNN_SUCCESS) *rc = api_.contextGetBinary(ctx, bin.data(), size, &written);
  bin.resize(written);
  if (*rc == QNN_SUCCESS && a.field("binary")) liveBinaries_[field(a, "binary").u] = std::move(bin);
  return true;
}

bool Replayer::onContextCreateFromBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Call m = c.call();
  const Value& a = c.args;
  const std::vector<uint8_t>* bin = binaryOf(field(a, "binary"));
  if (!bin) throw ToolError("call #" + std::to_string(c.seq) + ": context binary blob missing");
  OwnedConfigs<QnnContext_Config_t> cfg;
  configs(field(a, "config"), cfg);
  void* x = nullptr;
  if (m == Call::contextCreateFromBinary) {
    *rc = api_.contextCreateFromBinary(live(field(a, "backend")), live(field(a, "device")), cfg.get(), bin->data(),
                                       bin->size(), &x, live(field(a, "profile")));
  } else {
    // The recorded client's callback is gone: one that serves ranges of the binary stands in.
    Qnn_ContextBinaryCallback_t cb = binaryRangeCallback(bin);
    *rc = api_.contextCreateFromBinaryWithCallback(live(field(a, "backend")), live(field(a, "device")), cfg.get(),
                                                   &cb, bin->data(), bin->size(), &x, live(field(a, "profile")),
                                                   live(field(a, "signal")));
  }
  if (*rc == QNN_SUCCESS && a.field("context")) bind(field(a, "context"), x);
  return true;
}

bool Replayer::onContextCreateFromBinaryListAsync(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  *rc = listAsync(c);
  return true;
}

bool Replayer::onContextFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.contextFree(live(field(a, "context")), live(field(a, "profile")));
  return true;
}

bool Replayer::onMemRegister(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  const Value& descriptors = field(a, "memDescriptors");
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
  *rc = api_.memRegister(live(field(a, "context")), desc.data(), uint32_t(desc.size()), handles.data());
  if (*rc == QNN_SUCCESS)
    for (size_t k = 0; k < desc.size(); ++k) {
      memory_.bind(handles[k], desc[k].ionInfo.fd);
      bind(field(a, "memHandles").items.at(k), handles[k]);
    }
  return true;
}

bool Replayer::onMemDeRegister(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  std::vector<Qnn_MemHandle_t> handles;
  for (const Value& h : field(a, "memHandles").items) handles.push_back(live(h));
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
  h.contextCreateFromBinary = &Replayer::onContextCreateFromBinary;
  h.contextCreateFromBinaryWithCallback = &Replayer::onContextCreateFromBinary;
  h.contextCreateFromBinaryListAsync = &Replayer::onContextCreateFromBinaryListAsync;
  h.contextFree = &Replayer::onContextFree;
  h.memRegister = &Replayer::onMemRegister;
  h.memDeRegister = &Replayer::onMemDeRegister;
}

bool Replayer::onBackendCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  void* created = nullptr;
  OwnedConfigs<QnnBackend_Config_t> cfg;
  configs(field(a, "config"), cfg);
  *rc = api_.backendCreate(live(field(a, "logger")), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && a.field("backend")) bind(field(a, "backend"), created);
  return true;
}

bool Replayer::onBackendFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.backendFree(live(field(a, "backend")));
  return true;
}

bool Replayer::onLogCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  void* created = nullptr;
  // Recorded messages are not replayed: the backend's own go to a sink.
  static const QnnLog_Callback_t sink = [](const char*, QnnLog_Level_t, uint64_t, va_list) {};
  *rc = api_.logCreate(field(a, "hasCallback").u ? sink : nullptr, QnnLog_Level_t(field(a, "maxLogLevel").u),
                       &created);
  if (*rc == QNN_SUCCESS && a.field("logger")) bind(field(a, "logger"), created);
  return true;
}

bool Replayer::onLogSetLogLevel(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.logSetLogLevel(live(field(a, "logger")), QnnLog_Level_t(field(a, "maxLogLevel").u));
  return true;
}

bool Replayer::onLogFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.logFree(live(field(a, "logger")));
  return true;
}

bool Replayer::onProfileCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  void* created = nullptr;
  *rc = api_.profileCreate(live(field(a, "backend")), QnnProfile_Level_t(field(a, "level").u), &created);
  if (*rc == QNN_SUCCESS && a.field("profile")) bind(field(a, "profile"), created);
  return true;
}

bool Replayer::onProfileGetEvents(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t n = 0;
  *rc = api_.profileGetEvents(live(field(a, "profile")), &events, &n);
  return true;
}

bool Replayer::onProfileFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.profileFree(live(field(a, "profile")));
  return true;
}

bool Replayer::onProfileSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  std::vector<QnnProfile_Config_t> cfgs;
  for (const trace::Value& c : field(a, "config").items) {
    QnnProfile_Config_t cfg = QNN_PROFILE_CONFIG_INIT;
    cfg.option = QnnProfile_ConfigOption_t(field(c, "option").u);
    if (const trace::Value* n = c.field("numMaxEvents")) cfg.numMaxEvents = n->u;
    if (const trace::Value* o = c.field("enableOptrace")) cfg.enableOptrace = uint8_t(o->u);
    cfgs.push_back(cfg);
  }
  std::vector<const QnnProfile_Config_t*> list;
  for (const QnnProfile_Config_t& c : cfgs) list.push_back(&c);
  list.push_back(nullptr);
  *rc = api_.profileSetConfig(live(field(a, "profile")), cfgs.empty() ? nullptr : list.data());
  return true;
}

bool Replayer::onGlobalConfigSet(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  std::vector<QnnGlobalConfig_t> cfgs;
  for (const trace::Value& c : field(a, "config").items) {
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
  const Value& a = c.args;
  void* created = nullptr;
  OwnedConfigs<QnnSignal_Config_t> cfg;
  configs(field(a, "config"), cfg);
  *rc = api_.signalCreate(live(field(a, "backend")), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && a.field("signal")) bind(field(a, "signal"), created);
  return true;
}

bool Replayer::onSignalSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  OwnedConfigs<QnnSignal_Config_t> cfg;
  configs(field(a, "config"), cfg);
  *rc = api_.signalSetConfig(live(field(a, "signal")), cfg.get());
  return true;
}

bool Replayer::onSignalTrigger(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.signalTrigger(live(field(a, "signal")));
  return true;
}

bool Replayer::onSignalFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.signalFree(live(field(a, "signal")));
  return true;
}

bool Replayer::onDeviceCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  void* created = nullptr;
  OwnedConfigs<QnnDevice_Config_t> cfg;
  configs(field(a, "config"), cfg);
  *rc = api_.deviceCreate(live(field(a, "logger")), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && a.field("device")) bind(field(a, "device"), created);
  return true;
}

bool Replayer::onDeviceFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.deviceFree(live(field(a, "device")));
  return true;
}

bool Replayer::onDeviceGetPlatformInfo(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  *rc = api_.deviceGetPlatformInfo(live(field(a, "logger")), &platformInfo_);
  return true;
}

bool Replayer::onDeviceFreePlatformInfo(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const Value& a = c.args;
  if (!platformInfo_) return false;  // nothing of this replay's to free
  *rc = api_.deviceFreePlatformInfo(live(field(a, "logger")), platformInfo_);
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
