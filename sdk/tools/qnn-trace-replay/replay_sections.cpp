// Replay of the entries the 2.32 table adds: tensor updates, binary sections,
// execution environments, context finalize and incremental binaries. A section this replay
// produced (contextGetBinarySection) stands in for the recorded bytes wherever
// the trace applies the same blob, as context binaries do; buffers made by
// contextGetBinarySectionUpdate are found again by their recorded address.
#include <algorithm>
#include <cstring>

#include "tools/common/tool_error.h"
#include "tools/qnn-trace-replay/replayer.h"

namespace qnn::replay {

using tools::ToolError;
using trace::Call;
using trace::Value;

namespace {

QnnContext_Buffer_t rawBuffer(const std::vector<uint8_t>& bytes) {
  QnnContext_Buffer_t b{};
  b.version = QNN_CONTEXT_BUFFER_VERSION_1;
  b.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
  b.v1.binaryBuf.data = const_cast<uint8_t*>(bytes.data());
  b.v1.binaryBuf.dataSize = bytes.size();
  return b;
}

}  // namespace

const std::vector<uint8_t>& Replayer::sectionBytes(const trace::CallRecord& c, const Value& ref) const {
  auto it = liveBinaries_.find(ref.u);
  if (it != liveBinaries_.end()) return it->second;
  const std::vector<uint8_t>* bytes = trace_.blob(ref);
  if (!bytes) throw ToolError("call #" + std::to_string(c.seq) + ": binary section blob missing");
  return *bytes;
}

// Prepared environments are kept with the tensors the backend filled in; a
// release hands back the environment prepared with the same option and tensors.
template <trace::Call C>
Qnn_ErrorHandle_t Replayer::environments(const trace::CallRecord& c) {
  const trace::Args<C> a(c);
  constexpr bool prepare = C == Call::graphPrepareExecutionEnvironment;
  void* graph = live(a.graph);
  std::vector<LiveEnvironment> built;
  for (const Value& e : a.environments.items) {
    LiveEnvironment env;
    env.option = uint32_t(field(e, "option").u);
    env.storage = std::make_shared<std::deque<OwnedTensor>>();
    for (int input = 1; input >= 0; --input)
      for (const Value& t : field(e, input ? "inputs" : "outputs").items) {
        OwnedTensor& owned = env.storage->emplace_back();
        buildTensor(t, trace_, false, false, owned);
        attachMemory(owned, false);
        env.ids.push_back(owned.tensor.v1.id);
        (input ? env.inputs : env.outputs).push_back(owned.tensor);
      }
    built.push_back(std::move(env));
  }
  std::vector<QnnGraph_ExecuteEnvironment_t> structs(built.size());
  auto fill = [&](size_t k, LiveEnvironment& env) {
    std::memset(&structs[k], 0, sizeof structs[k]);
    structs[k].option = QnnGraph_ExecuteEnvironmentOption_t(env.option);
    structs[k].tensorSet.version = QNN_TENSOR_SET_VERSION_1;
    structs[k].tensorSet.v1 = {uint32_t(env.inputs.size()), env.inputs.data(), uint32_t(env.outputs.size()),
                               env.outputs.data()};
  };
  if (prepare) {
    std::vector<QnnGraph_ExecuteEnvironment_t*> pointers;
    for (size_t k = 0; k < built.size(); ++k) {
      fill(k, built[k]);
      pointers.push_back(&structs[k]);
    }
    Qnn_ErrorHandle_t r = api_.graphPrepareExecutionEnvironment(graph, pointers.data(), uint32_t(pointers.size()));
    if (r == QNN_SUCCESS)
      for (auto& env : built) liveEnvironments_[graph].push_back(std::move(env));
    return r;
  }
  std::vector<LiveEnvironment>& prepared = liveEnvironments_[graph];
  std::vector<const QnnGraph_ExecuteEnvironment_t*> pointers;
  std::vector<size_t> used;
  for (size_t k = 0; k < built.size(); ++k) {
    size_t j = 0;
    while (j < prepared.size() && (prepared[j].option != built[k].option || prepared[j].ids != built[k].ids ||
                                   std::count(used.begin(), used.end(), j)))
      ++j;
    if (j == prepared.size()) throw ToolError("call #" + std::to_string(c.seq) + ": releases an environment this replay did not prepare");
    used.push_back(j);
    fill(k, prepared[j]);
    pointers.push_back(&structs[k]);
  }
  Qnn_ErrorHandle_t r = api_.graphReleaseExecutionEnvironment(graph, pointers.data(), uint32_t(pointers.size()));
  if (r == QNN_SUCCESS) {
    std::sort(used.rbegin(), used.rend());
    for (size_t j : used) prepared.erase(prepared.begin() + long(j));
  }
  return r;
}

template <trace::Call C>
bool Replayer::updateTensors(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<C> a(c);
  const Value& list = a.tensors;
  std::vector<OwnedTensor> owned(list.items.size());
  std::vector<const Qnn_Tensor_t*> ptrs;
  for (size_t k = 0; k < owned.size(); ++k) {
    buildTensor(list.items[k], trace_, true, false, owned[k]);
    ptrs.push_back(&owned[k].tensor);
  }
  if constexpr (C == Call::tensorUpdateGraphTensors) {
    *rc = api_.tensorUpdateGraphTensors(live(a.graph), ptrs.data(), ptrs.size());
  } else if constexpr (C == Call::tensorUpdateContextTensors) {
    *rc = api_.tensorUpdateContextTensors(live(a.context), ptrs.data(), ptrs.size());
  } else {
    QnnContext_Buffer_t in = rawBuffer(sectionBytes(c, a.binarySection)), out{};
    *rc = api_.contextGetBinarySectionUpdate(&in, nullptr, ptrs.data(), ptrs.size(),
                                             uint8_t(a.keepUpdatable.u), live(a.logger),
                                             live(a.profile), live(a.signal), &out);
    if (*rc == QNN_SUCCESS && present(a.update)) liveUpdates_[a.update.u] = out;
  }
  return true;
}

template <>
bool Replayer::on<Call::contextGetBinarySectionSize>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextGetBinarySectionSize> a(c);
  auto section = [&] { return QnnContext_SectionType_t(a.section.u); };
  Qnn_ContextBinarySize_t size = 0;
  *rc = api_.contextGetBinarySectionSize(live(a.context), live(a.graph), section(), &size);
  return true;
}

template <>
bool Replayer::on<Call::contextGetBinarySection>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextGetBinarySection> a(c);
  auto section = [&] { return QnnContext_SectionType_t(a.section.u); };
  void *ctx = live(a.context), *graph = live(a.graph);
  Qnn_ContextBinarySize_t size = 0, written = 0;
  *rc = api_.contextGetBinarySectionSize(ctx, graph, section(), &size);
  std::vector<uint8_t> bytes(size);
  QnnContext_Buffer_t out = rawBuffer(bytes);
  if (*rc == QNN_SUCCESS)
    *rc = api_.contextGetBinarySection(ctx, graph, section(), &out, &written, live(a.profile),
                                       live(a.signal));
  bytes.resize(written);
  if (*rc == QNN_SUCCESS && present(a.binarySection)) liveBinaries_[a.binarySection.u] = std::move(bytes);
  return true;
}

template <>
bool Replayer::on<Call::contextApplyBinarySection>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextApplyBinarySection> a(c);
  auto section = [&] { return QnnContext_SectionType_t(a.section.u); };
  QnnContext_Buffer_t in = rawBuffer(sectionBytes(c, a.binarySection));
  *rc = api_.contextApplyBinarySection(live(a.context), live(a.graph), section(), &in,
                                       live(a.profile), live(a.signal));
  return true;
}

template <>
bool Replayer::on<Call::contextFreeBinarySectionUpdate>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextFreeBinarySectionUpdate> a(c);
  auto it = liveUpdates_.find(a.update.u);
  if (it == liveUpdates_.end()) return false;  // its update was not replayed
  *rc = api_.contextFreeBinarySectionUpdate(it->second, live(a.logger));
  liveUpdates_.erase(it);
  return true;
}

template <trace::Call C>
bool Replayer::prepareOrReleaseEnvironments(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  *rc = environments<C>(c);
  return true;
}

template <>
bool Replayer::on<Call::contextGetIncrementalBinary>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextGetIncrementalBinary> a(c);
  const void* piece = nullptr;
  Qnn_ContextBinarySize_t offset = 0, written = 0;
  *rc = api_.contextGetIncrementalBinary(live(a.context), &piece, &offset, &written);
  if (*rc == QNN_SUCCESS && piece) livePieces_[offset] = piece;
  return true;
}

template <>
bool Replayer::on<Call::contextReleaseIncrementalBinary>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::contextReleaseIncrementalBinary> a(c);
  auto it = livePieces_.find(a.startOffset.u);
  if (it == livePieces_.end()) return false;  // its piece was not replayed
  *rc = api_.contextReleaseIncrementalBinary(live(a.context), it->second, it->first);
  livePieces_.erase(it);
  return true;
}

// Calls sharing a handler.
QNN_REPLAY_SHARED_HANDLER(tensorUpdateGraphTensors, updateTensors)
QNN_REPLAY_SHARED_HANDLER(tensorUpdateContextTensors, updateTensors)
QNN_REPLAY_SHARED_HANDLER(contextGetBinarySectionUpdate, updateTensors)
QNN_REPLAY_SHARED_HANDLER(graphPrepareExecutionEnvironment, prepareOrReleaseEnvironments)
QNN_REPLAY_SHARED_HANDLER(graphReleaseExecutionEnvironment, prepareOrReleaseEnvironments)

}  // namespace qnn::replay
