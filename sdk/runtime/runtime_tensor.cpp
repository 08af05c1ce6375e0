// QnnTensor entry points: graph and context tensors.
#include "runtime/runtime.h"

#include "adapters/client_interface.h"
#include "runtime/qnn_convert.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

Qnn_ErrorHandle_t Runtime::tensorCreateGraphTensor(Qnn_GraphHandle_t graph, Qnn_Tensor_t* tensor) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return refuse(nullptr, "QnnTensor_createGraphTensor", "graph is not a live graph handle", QNN_TENSOR_ERROR_INVALID_HANDLE);
    if (!tensor) return refuse(loggerOf(g->backend), "QnnTensor_createGraphTensor", "tensor is null", QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
    auto ctx = g->context.lock();
    if (!ctx) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    TensorInfo info;
    Status st = readTensorInfo(*tensor, TensorUse::kCreate, &info);
    if (st.isOk()) st = g->backend->engine->acceptTensor(info);
    if (!st.isOk()) return fail(loggerOf(g->backend), ApiGroup::kTensor, "QnnTensor_createGraphTensor", st);
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kBuilding) {
      logMessage(loggerOf(g->backend), QNN_LOG_LEVEL_ERROR, "QnnTensor_createGraphTensor: graph is finalized");
      return QNN_GRAPH_ERROR_GRAPH_FINALIZED;
    }
    std::lock_guard<std::mutex> clock(ctx->mutex);
    // The 2.32 headers deprecate QNN_TENSOR_ERROR_ALREADY_EXISTS and leave a
    // repeated name undefined; clients do repeat names (ggml truncates its
    // tensor names), and everything here tells graph tensors apart by id.
    bool duplicate = ctx->tensorNames.count(info.name) != 0;
    for (auto& [id, t] : g->ir.tensors) duplicate = duplicate || t.name == info.name;
    if (duplicate)
      logMessage(loggerOf(g->backend), QNN_LOG_LEVEL_WARN,
                 "QnnTensor_createGraphTensor: a tensor named '" + info.name +
                     "' already exists; the new one is told apart by its id only");
    info.id = ctx->nextTensorId++;
    tensorFields(*tensor).id = info.id;
    g->ir.tensors[info.id] = std::move(info);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::tensorCreateContextTensor(Qnn_ContextHandle_t context, Qnn_Tensor_t* tensor) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx && adapters::olderClientCalledLogCreate(tensor)) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    if (!ctx) return refuse(nullptr, "QnnTensor_createContextTensor", "context is not a live context handle", QNN_TENSOR_ERROR_INVALID_HANDLE);
    if (!tensor) return refuse(loggerOf(ctx->backend), "QnnTensor_createContextTensor", "tensor is null", QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
    TensorInfo info;
    Status st = readTensorInfo(*tensor, TensorUse::kCreate, &info);
    if (st.isOk()) st = ctx->backend->engine->acceptTensor(info);
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kTensor, "QnnTensor_createContextTensor", st);
    std::lock_guard<std::mutex> lock(ctx->mutex);
    if (ctx->tensorNames.count(info.name)) return QNN_TENSOR_ERROR_ALREADY_EXISTS;
    info.isContextTensor = true;
    info.id = ctx->nextTensorId++;
    tensorFields(*tensor).id = info.id;
    ctx->tensorNames.insert(info.name);
    ctx->contextTensors[info.id] = std::move(info);
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::sdk
