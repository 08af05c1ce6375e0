// QnnTensor_updateGraphTensors / QnnTensor_updateContextTensors, and applying
// tensor updates to a finalized graph. The vendor's flow (QnnTensor.h and the
// LoRA tutorial): tensors created UPDATEABLE_*, the graph finalized, updates
// given "multiple calls ... but the updates will not take effect until
// QnnGraph_finalize() is called", then QnnGraph_finalize again.
#include <algorithm>

#include "runtime/qnn_convert.h"
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {

// Reads a client's array of updates against `lookup(id)` (null: no such tensor).
// Nothing is kept unless every entry is valid.
template <typename Lookup>
Status readUpdateArray(const Qnn_Tensor_t** tensors, uint64_t numTensors, const std::string& where, Lookup lookup,
                       TensorUpdates* out) {
  if (!tensors || numTensors == 0) return invalidTensor("no tensors to update");
  TensorUpdates batch;
  for (uint64_t i = 0; i < numTensors; ++i) {
    if (!tensors[i]) return invalidTensor("tensor " + std::to_string(i) + " is null");
    if (!tensorVersionSupported(*tensors[i]))
      return invalidTensor("tensor " + std::to_string(i) + " has an unsupported Qnn_Tensor_t version");
    const uint32_t id = tensorFields(*tensors[i]).id;
    const TensorInfo* target = lookup(id);
    if (!target) return invalidTensor("tensor " + std::to_string(i) + ": no tensor with id " + std::to_string(id) + " in " + where);
    TensorUpdate u;
    QNN_SDK_RETURN_IF_ERROR(readTensorUpdate(*target, *tensors[i], &u));
    mergeTensorUpdates(batch, {{id, std::move(u)}});
  }
  *out = std::move(batch);
  return Status::ok();
}

}  // namespace

namespace rt {

Status applyGraphUpdates(GraphObject& g, const TensorUpdates& updates, GraphUpdateUndo* undo) {
  QNN_SDK_RETURN_IF_ERROR(initializeGraph(g));  // a deferred graph: its prepared form is what a rollback restores
  std::lock_guard<std::mutex> exec(g.execMutex);
  TensorUpdates previous;
  applyTensorUpdates(g.ir, updates, &previous);
  std::set<uint32_t> ids;
  for (const auto& [id, u] : updates) ids.insert(id);
  // Cheapest first: the backend refreshes only what reads or writes the tensors
  // (switching LoRA adapters then costs the adapter's nodes, not a prepare).
  // The updates are in new buffers (SharedBytes): a prepared form that points
  // into g.ir must refresh, or be replaced, before it executes again.
  Status refreshed = g.prepared ? g.prepared->refreshTensors(g.ir, ids) : notSupported("not prepared");
  if (refreshed.isOk()) {
    if (undo) {
      undo->previous = std::move(previous);
      undo->refreshed = std::move(ids);
    }
    return Status::ok();
  }
  std::unique_ptr<PreparedGraph> fresh;
  Status st = g.prepared ? g.prepared->prepareAgain(g.ir, &fresh) : notSupported("not prepared");
  if (st.code() == StatusCode::kNotSupported) st = g.backend->engine->prepare(g.ir, &fresh);
  if (!st.isOk()) {
    applyTensorUpdates(g.ir, previous, nullptr);
    // A refresh that failed half way is taken back the same way.
    if (refreshed.code() != StatusCode::kNotSupported && g.prepared) (void)g.prepared->refreshTensors(g.ir, ids);
    return st;
  }
  std::swap(g.prepared, fresh);
  if (undo) {
    undo->previous = std::move(previous);
    undo->prepared = std::move(fresh);
    undo->refreshed = std::move(ids);
  }
  return Status::ok();
}

void rollbackGraphUpdates(GraphObject& g, GraphUpdateUndo& undo) {
  std::lock_guard<std::mutex> exec(g.execMutex);
  applyTensorUpdates(g.ir, undo.previous, nullptr);
  if (undo.prepared) std::swap(g.prepared, undo.prepared);
  // The restored values are in new buffers too: a form pointing into g.ir follows them.
  if (!undo.refreshed.empty() && g.prepared) (void)g.prepared->refreshTensors(g.ir, undo.refreshed);
}

}  // namespace rt

Qnn_ErrorHandle_t Runtime::tensorUpdateGraphTensors(Qnn_GraphHandle_t graph, const Qnn_Tensor_t** tensors,
                                                    uint64_t numTensors) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(g->backend);
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kFinalized) {
      logMessage(log, QNN_LOG_LEVEL_ERROR,
                 "QnnTensor_updateGraphTensors: graph '" + g->ir.name + "' must be finalized before its tensors are updated");
      return QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED;
    }
    TensorUpdates batch;
    Status st = readUpdateArray(tensors, numTensors, "graph '" + g->ir.name + "'",
                                [&](uint32_t id) { return g->ir.findTensor(id); }, &batch);
    if (!st.isOk()) return fail(log, ApiGroup::kTensor, "QnnTensor_updateGraphTensors", st);
    mergeTensorUpdates(g->pendingUpdates, batch);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::tensorUpdateContextTensors(Qnn_ContextHandle_t context, const Qnn_Tensor_t** tensors,
                                                      uint64_t numTensors) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(ctx->backend);
    TensorUpdates batch;
    std::vector<void*> graphs;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      Status st = readUpdateArray(tensors, numTensors, "the context's tensors",
                                  [&](uint32_t id) -> const TensorInfo* {
                                    auto it = ctx->contextTensors.find(id);
                                    return it == ctx->contextTensors.end() ? nullptr : &it->second;
                                  },
                                  &batch);
      if (!st.isOk()) return fail(log, ApiGroup::kTensor, "QnnTensor_updateContextTensors", st);
      // The context's own record: graphs that start using the tensor later see the update.
      GraphIR master;
      master.tensors.swap(ctx->contextTensors);
      applyTensorUpdates(master, batch, nullptr);
      master.tensors.swap(ctx->contextTensors);
      for (auto& [name, handle] : ctx->graphsByName) graphs.push_back(handle);
    }
    // Graphs already using the tensors: a graph still being built takes the
    // update now; a finalized one at its next QnnGraph_finalize.
    for (void* handle : graphs) {
      auto g = handles().get<GraphObject>(handle, HandleKind::kGraph);
      if (!g) continue;
      std::lock_guard<std::mutex> lock(g->mutex);
      TensorUpdates mine;
      for (auto& [id, u] : batch)
        if (g->ir.findTensor(id)) mine[id] = u;
      if (mine.empty()) continue;
      if (g->state == GraphObject::State::kBuilding)
        applyTensorUpdates(g->ir, mine, nullptr);
      else
        mergeTensorUpdates(g->pendingUpdates, mine);
    }
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::sdk
