// Replay of contexts and registered memory: create (from binaries too),
// configure, get binaries, free; memRegister backed by the replay's memfds.
#include "tools/common/tool_error.h"
#include "tools/qnn-trace-replay/replayer.h"
#include "trace/qnn_data_bytes.h"

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

template <>
bool Replayer::on<Call::contextGetBinarySize>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextGetBinarySize> a(c);
  Qnn_ContextBinarySize_t size = 0;
  *rc = api_.contextGetBinarySize(live(a.context), &size);
  return true;
}

template <>
bool Replayer::on<Call::contextGetBinary>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
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
bool Replayer::createContextFromBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
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

template <>
bool Replayer::on<Call::contextCreateFromBinaryListAsync>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  *rc = listAsync(c);
  return true;
}

template <>
bool Replayer::on<Call::memRegister>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
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

template <>
bool Replayer::on<Call::memDeRegister>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::memDeRegister> a(c);
  std::vector<Qnn_MemHandle_t> handles;
  for (const Value& h : a.memHandles.items) handles.push_back(live(h));
  *rc = api_.memDeRegister(handles.data(), uint32_t(handles.size()));
  if (*rc == QNN_SUCCESS)
    for (void* h : handles) memory_.release(h);
  return true;
}

// Calls sharing a handler.
QNN_REPLAY_SHARED_HANDLER(contextCreateFromBinary, createContextFromBinary)
QNN_REPLAY_SHARED_HANDLER(contextCreateFromBinaryWithCallback, createContextFromBinary)

}  // namespace qnn::replay
