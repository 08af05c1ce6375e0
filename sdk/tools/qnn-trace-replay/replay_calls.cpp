// Replay of graphs and tensors: create, configure, add nodes, finalize and
// execute (outputs compared with the recorded ones); the helpers the other
// groups share (binaries, memory-backed tensors).
#include <cstring>
#include <future>

#include "tools/common/tool_error.h"
#include "tools/qnn-trace-replay/replayer.h"
#include "tools/qnn-trace-replay/trace_configs.h"

namespace qnn::replay {

using tools::ToolError;
using trace::Call;
using trace::Value;

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

template <trace::Call C>
bool Replayer::createTensor(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
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
bool Replayer::addOrValidateOp(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<C> a(c);
  OwnedOp op;
  buildOp(a.opConfig, trace_, op);
  if constexpr (C == Call::graphAddNode)
    *rc = api_.graphAddNode(live(a.graph), op.op);
  else
    *rc = api_.backendValidateOpConfig(live(a.backend), op.op);
  return true;
}

template <trace::Call C>
bool Replayer::executeGraph(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  *rc = execute<C>(c);
  return true;
}

// API 2.39: the live result is kept under its recorded address for the free; its overall
// status and each node's must be the recorded ones.
template <>
bool Replayer::on<trace::Call::graphValidate>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<trace::Call::graphValidate> a(c);
  const Value* id = a.validationResult.field("id");
  if (!id) return false;
  QnnGraph_ValidationResult_t* result = nullptr;
  *rc = api_.graphValidate(live(a.graph), nullptr, &result);
  if (!result) return true;
  validationResults_[id->u] = result;
  const Value* nodes = a.validationResult.field("results");
  std::string diverged;
  if (result->overallStatus != field(a.validationResult, "overallStatus").u)
    diverged = "overall status " + std::to_string(result->overallStatus);
  else if (!nodes || nodes->items.size() != result->numResults)
    diverged = std::to_string(result->numResults) + " node results";
  else
    for (uint32_t k = 0; k < result->numResults && diverged.empty(); ++k)
      if (result->results[k].status != field(nodes->items[k], "status").u)
        diverged = "node '" + std::string(result->results[k].nodeName) + "' status " +
                   std::to_string(result->results[k].status);
  if (!diverged.empty() && report_.firstDivergence.empty())
    report_.firstDivergence = "call #" + std::to_string(c.seq) + " QnnGraph_validate: " + diverged + ", recorded otherwise";
  return true;
}

template <>
bool Replayer::on<trace::Call::graphFreeValidationResult>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<trace::Call::graphFreeValidationResult> a(c);
  auto it = validationResults_.find(a.validationResult.u);
  if (it == validationResults_.end()) return false;
  *rc = api_.graphFreeValidationResult(it->second);
  validationResults_.erase(it);
  return true;
}

// Calls sharing a handler.
QNN_REPLAY_SHARED_HANDLER(tensorCreateGraphTensor, createTensor)
QNN_REPLAY_SHARED_HANDLER(tensorCreateContextTensor, createTensor)
QNN_REPLAY_SHARED_HANDLER(graphAddNode, addOrValidateOp)
QNN_REPLAY_SHARED_HANDLER(backendValidateOpConfig, addOrValidateOp)
QNN_REPLAY_SHARED_HANDLER(graphExecute, executeGraph)
QNN_REPLAY_SHARED_HANDLER(graphExecuteAsync, executeGraph)

}  // namespace qnn::replay
