// Graph and tensor entries. Without pass-through the Saver assigns tensor ids
// itself (clients need them for execute) and leaves execute outputs untouched.
#include <vector>

#include "adapters/client_interface.h"
#include "saver/saver_api.h"
#include "saver/saver_forward.h"
#include "saver/saver_log.h"
#include "saver/saver_notify.h"

namespace qnn::saver {

using trace::Value;

namespace {

// Copies client tensors and swaps Saver mem handles for the backend's.
bool mapTensors(const Qnn_Tensor_t* tensors, uint32_t n, std::vector<Qnn_Tensor_t>& out) {
  out.assign(tensors, tensors + n);
  for (Qnn_Tensor_t& t : out)
    if ((t.version == QNN_TENSOR_VERSION_1 || t.version == QNN_TENSOR_VERSION_2) &&
        t.v1.memType == QNN_TENSORMEMTYPE_MEMHANDLE) {
      void* real = nullptr;
      if (!handles().find(t.v1.memHandle, Kind::Mem, &real)) return false;
      t.v1.memHandle = real;
    }
  return true;
}

// The buffers a backend handed out for POPULATE_CLIENT_BUFS, into the client's tensors.
void copyBackPopulated(const std::vector<Qnn_Tensor_t>& mapped, Qnn_Tensor_t* client) {
  for (size_t k = 0; k < mapped.size(); ++k) {
    client[k].v1.memType = mapped[k].v1.memType;
    client[k].v1.clientBuf = mapped[k].v1.clientBuf;
  }
}

// The backend may update an output's dataSize (and, for v2, isProduced): copy back.
void copyBackOutputs(const std::vector<Qnn_Tensor_t>& mapped, Qnn_Tensor_t* outputs) {
  for (size_t k = 0; k < mapped.size(); ++k) {
    if (mapped[k].v1.memType == QNN_TENSORMEMTYPE_RAW) outputs[k].v1.clientBuf.dataSize = mapped[k].v1.clientBuf.dataSize;
    if (mapped[k].version == QNN_TENSOR_VERSION_2) outputs[k].v2.isProduced = mapped[k].v2.isProduced;
  }
}

template <typename CreateFn>
Qnn_ErrorHandle_t createTensor(Value& a, CreateFn fn, void* realParent, Qnn_Tensor_t* tensor) {
  if (!tensor || (tensor->version != QNN_TENSOR_VERSION_1 && tensor->version != QNN_TENSOR_VERSION_2))
    return QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM;
  a.add("tensor", tensorValue(tensor, true));
  Qnn_ErrorHandle_t rc = QNN_SUCCESS;
  if (pass()) {
    std::vector<Qnn_Tensor_t> mapped;
    if (!mapTensors(tensor, 1, mapped)) return QNN_MEM_ERROR_INVALID_HANDLE;
    rc = forward(fn, realParent, &mapped[0]);
    tensor->v1.id = mapped[0].v1.id;
  } else {
    tensor->v1.id = SaverState::get().nextTensorId();
  }
  if (rc == QNN_SUCCESS) a.add("id", Value::uint(tensor->v1.id));
  return rc;
}

}  // namespace

Qnn_ErrorHandle_t graphCreate(Qnn_ContextHandle_t context, const char* name, const QnnGraph_Config_t** config,
                              Qnn_GraphHandle_t* graph) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    a.add("graphName", Value::str(name));
    a.add("config", configListValue(config));
    if (!name || !graph) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    GraphConfigCopy copy;
    const QnnGraph_Config_t** mapped = nullptr;
    if (!mapGraphConfig(config, copy, &mapped)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    void* rg = nullptr;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->graphCreate, real, name, mapped, &rg) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "graph", Kind::Graph, rg, graph, context);
    return rc;
  });
}

Qnn_ErrorHandle_t graphCreateSubgraph(Qnn_GraphHandle_t graph, const char* name, Qnn_GraphHandle_t* subgraph) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    a.add("graphName", Value::str(name));
    if (!subgraph) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    if (!name || !*name) return QNN_GRAPH_ERROR_INVALID_NAME;
    void* rs = nullptr;
    Qnn_ErrorHandle_t rc =
        pass() ? forward(pass()->graphCreateSubgraph, real, name, &rs)
               : Qnn_ErrorHandle_t(QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE);
    if (rc == QNN_SUCCESS) created(a, "subgraph", Kind::Graph, rs, subgraph, graph);
    return rc;
  });
}

Qnn_ErrorHandle_t graphSetConfig(Qnn_GraphHandle_t graph, const QnnGraph_Config_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    GraphConfigCopy copy;
    const QnnGraph_Config_t** mapped = nullptr;
    if (!mapGraphConfig(config, copy, &mapped)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    return pass() ? forward(pass()->graphSetConfig, real, mapped) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t graphAddNode(Qnn_GraphHandle_t graph, Qnn_OpConfig_t op) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    a.add("opConfig", opConfigValue(op));
    return pass() ? forward(pass()->graphAddNode, real, op) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t graphFinalize(Qnn_GraphHandle_t graph, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *real = nullptr, *rp = nullptr, *rs = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    return pass() ? forward(pass()->graphFinalize, real, rp, rs) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t graphRetrieve(Qnn_ContextHandle_t context, const char* name, Qnn_GraphHandle_t* graph) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    a.add("graphName", Value::str(name));
    if (!name || !graph) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    void* rg = nullptr;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->graphRetrieve, real, name, &rg) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "graph", Kind::Graph, rg, graph, context);
    return rc;
  });
}

Qnn_ErrorHandle_t graphExecute(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs, uint32_t numInputs,
                               Qnn_Tensor_t* outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profile,
                               Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *real = nullptr, *rp = nullptr, *rs = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    a.add("inputs", tensorListValue(inputs, numInputs, true));
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if ((numInputs && !inputs) || (numOutputs && !outputs)) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) {
      std::vector<Qnn_Tensor_t> in, out;
      if (!mapTensors(inputs, numInputs, in) || !mapTensors(outputs, numOutputs, out)) return QNN_MEM_ERROR_INVALID_HANDLE;
      rc = forward(pass()->graphExecute, real, in.data(), numInputs, out.data(), numOutputs, rp, rs);
      copyBackOutputs(out, outputs);
    }
    // Outputs hold real results only after a forwarded, successful run.
    a.add("outputs", tensorListValue(outputs, numOutputs, pass() && rc == QNN_SUCCESS));
    return rc;
  });
}

Qnn_ErrorHandle_t graphExecuteAsync(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs, uint32_t numInputs,
                                    Qnn_Tensor_t* outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profile,
                                    Qnn_SignalHandle_t signal, Qnn_NotifyFn_t notifyFn, void* notifyParam) {
  bool notifyLater = false;  // record-only: the Saver's thread notifies once the call is recorded
  Qnn_ErrorHandle_t rc = recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *real = nullptr, *rp = nullptr, *rs = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    a.add("inputs", tensorListValue(inputs, numInputs, true));
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    a.add("hasNotifyFn", Value::uint(notifyFn != nullptr));
    // Outputs are written asynchronously: their data is not recorded.
    a.add("outputs", tensorListValue(outputs, numOutputs, false));
    if ((numInputs && !inputs) || (numOutputs && !outputs)) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    if (!pass()) {
      notifyLater = notifyFn != nullptr;
      return QNN_SUCCESS;
    }
    std::vector<Qnn_Tensor_t> in, out;
    if (!mapTensors(inputs, numInputs, in) || !mapTensors(outputs, numOutputs, out)) return QNN_MEM_ERROR_INVALID_HANDLE;
    return forward(pass()->graphExecuteAsync, real, in.data(), numInputs, out.data(), numOutputs, rp, rs, notifyFn,
                   notifyParam);
  });
  if (notifyLater && rc == QNN_SUCCESS) asyncNotifier().post(notifyFn, notifyParam, Qnn_NotifyStatus_t{QNN_SUCCESS});
  return rc;
}

Qnn_ErrorHandle_t tensorCreateContextTensor(Qnn_ContextHandle_t context, Qnn_Tensor_t* tensor) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    bool olderClient = adapters::olderClientCalledLogCreate(tensor);  // says which Saver serves it
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (olderClient) return QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM;
    return createTensor(a, pass() ? pass()->tensorCreateContextTensor : nullptr, real, tensor);
  });
}

Qnn_ErrorHandle_t tensorCreateGraphTensor(Qnn_GraphHandle_t graph, Qnn_Tensor_t* tensor) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    return createTensor(a, pass() ? pass()->tensorCreateGraphTensor : nullptr, real, tensor);
  });
}

// Execution environments: the sets are recorded without data (BIND_MEM_HANDLES
// names registered memory, POPULATE_CLIENT_BUFS has none yet). The backend gets
// copies with its own mem handles; the buffers it hands out for
// POPULATE_CLIENT_BUFS are copied back into the client's tensors.
namespace {

struct EnvCopy {
  std::vector<QnnGraph_ExecuteEnvironment_t> envs;
  std::vector<std::vector<Qnn_Tensor_t>> inputs, outputs;
  std::vector<QnnGraph_ExecuteEnvironment_t*> pointers;
};

bool envValue(Value& a, const QnnGraph_ExecuteEnvironment_t* const* envs, uint32_t n, EnvCopy* copy) {
  if (!envs || n == 0) return false;
  Value list = Value::list();
  copy->envs.resize(n);
  copy->inputs.resize(n);
  copy->outputs.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!envs[i]) return false;
    const QnnGraph_ExecuteEnvironment_t& e = *envs[i];
    Value v = Value::record();
    v.add("option", Value::uint(uint32_t(e.option)));
    copy->envs[i] = e;
    if (e.tensorSet.version == QNN_TENSOR_SET_VERSION_1) {
      const Qnn_TensorSetV1_t& set = e.tensorSet.v1;
      if ((set.numInputs && !set.inputs) || (set.numOutputs && !set.outputs)) return false;
      Value ins = Value::list(), outs = Value::list();
      for (uint32_t k = 0; k < set.numInputs; ++k) ins.push(tensorValue(&set.inputs[k], false));
      for (uint32_t k = 0; k < set.numOutputs; ++k) outs.push(tensorValue(&set.outputs[k], false));
      v.add("inputs", std::move(ins));
      v.add("outputs", std::move(outs));
      if (!mapTensors(set.inputs, set.numInputs, copy->inputs[i]) ||
          !mapTensors(set.outputs, set.numOutputs, copy->outputs[i]))
        return false;
      copy->envs[i].tensorSet.v1.inputs = copy->inputs[i].data();
      copy->envs[i].tensorSet.v1.outputs = copy->outputs[i].data();
    }
    list.push(std::move(v));
    copy->pointers.push_back(&copy->envs[i]);
  }
  a.add("environments", std::move(list));
  return true;
}

}  // namespace

Qnn_ErrorHandle_t graphPrepareExecutionEnvironment(Qnn_GraphHandle_t graph, QnnGraph_ExecuteEnvironment_t** envs,
                                                   uint32_t n) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    EnvCopy copy;
    if (!envValue(a, envs, n, &copy)) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    if (!pass()) return QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE;  // no backend to hand out or bind memory
    Qnn_ErrorHandle_t rc = forward(pass()->graphPrepareExecutionEnvironment, real, copy.pointers.data(), n);
    if (rc == QNN_SUCCESS)
      for (uint32_t i = 0; i < n; ++i) {
        if (envs[i]->option != QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_POPULATE_CLIENT_BUFS) continue;
        Qnn_TensorSetV1_t& set = envs[i]->tensorSet.v1;
        copyBackPopulated(copy.inputs[i], set.inputs);
        copyBackPopulated(copy.outputs[i], set.outputs);
      }
    return rc;
  });
}

Qnn_ErrorHandle_t graphReleaseExecutionEnvironment(Qnn_GraphHandle_t graph, const QnnGraph_ExecuteEnvironment_t** envs,
                                                   uint32_t n) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    EnvCopy copy;
    if (!envValue(a, envs, n, &copy)) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    if (!pass()) return QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE;
    std::vector<const QnnGraph_ExecuteEnvironment_t*> pointers(copy.pointers.begin(), copy.pointers.end());
    return forward(pass()->graphReleaseExecutionEnvironment, real, pointers.data(), n);
  });
}

// QnnGraph_validate: the configs' options (a custom config is the backend's
// opaque struct: not recorded) and, on success, the result the backend handed
// out: its address (the id graphFreeValidationResult names it by), the overall
// status and each node's name, status and code. Recording only: nothing
// validates, so the call is unsupported.
Qnn_ErrorHandle_t graphValidate(Qnn_GraphHandle_t graph, const QnnGraph_ValidateConfig_t** config,
                                QnnGraph_ValidationResult_t** result) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    Value options = Value::list();
    for (size_t k = 0; config && config[k]; ++k) options.push(Value::uint(uint32_t(config[k]->option)));
    a.add("config", std::move(options));
    if (!result) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    if (!pass()) {
      logError("QnnGraph_validate: recording only (no QNN_SAVER_BACKEND), nothing validates the graph");
      return QNN_COMMON_ERROR_NOT_SUPPORTED;
    }
    // The backend hands out a result also when it finds the graph invalid; the client's
    // out-pointer is written only when it did.
    QnnGraph_ValidationResult_t* got = nullptr;
    Qnn_ErrorHandle_t rc = forward(pass()->graphValidate, real, config, &got);
    if (got) {
      *result = got;
      const QnnGraph_ValidationResult_t& r = *got;
      Value v = Value::record();
      v.add("id", Value::uint(uint64_t(reinterpret_cast<uintptr_t>(got))));
      v.add("overallStatus", Value::uint(r.overallStatus));
      Value nodes = Value::list();
      for (uint32_t k = 0; k < r.numResults && r.results; ++k) {
        Value n = Value::record();
        n.add("nodeName", Value::str(r.results[k].nodeName));
        n.add("status", Value::uint(uint32_t(r.results[k].status)));
        n.add("errorCode", Value::uint(r.results[k].errorCode));
        nodes.push(std::move(n));
      }
      v.add("results", std::move(nodes));
      a.add("validationResult", std::move(v));
    }
    return rc;
  });
}

// QnnGraph_freeValidationResult: the result by the address graphValidate recorded.
Qnn_ErrorHandle_t graphFreeValidationResult(QnnGraph_ValidationResult_t* result) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("validationResult", Value::uint(uint64_t(reinterpret_cast<uintptr_t>(result))));
    if (!result) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    if (!pass()) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;  // recording only: no result was handed out
    return forward(pass()->graphFreeValidationResult, result);
  });
}

}  // namespace qnn::saver
