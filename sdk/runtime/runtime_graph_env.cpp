// QnnGraph_prepareExecutionEnvironment / releaseExecutionEnvironment
// (QnnGraph.h). BIND_MEM_HANDLES: the client's registered memory for a set of
// graph inputs/outputs is checked once and bound to the graph; executes with
// those tensors read and write the memory in place, as every mem-handle
// execute here does. POPULATE_CLIENT_BUFS: the backend allocates a buffer per
// tensor of the set and writes it into the client's tensor (RAW memType, data
// pointer, size), so the client fills inputs and reads outputs in the memory
// the graph executes on. Environments are released by the release call or with
// the graph.
#include <algorithm>
#include <cstring>

#include "runtime/qnn_convert.h"
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {

// The graph input/output a set's tensor names (by id, else by name).
const TensorInfo* setTensor(const GraphObject& g, const Qnn_Tensor_t& t, bool input) {
  if (!tensorVersionSupported(t)) return nullptr;
  const Qnn_TensorV1_t& v = tensorFields(t);
  const TensorInfo* info = g.ir.findTensor(v.id);
  if (!info && v.name)
    for (auto& [id, candidate] : g.ir.tensors)
      if (candidate.name == v.name) info = &candidate;
  if (!info || (input ? !info->isGraphInput() : !info->isGraphOutput())) return nullptr;
  return info;
}

struct SetEntry {
  Qnn_Tensor_t* tensor;
  const TensorInfo* info;
};

// The tensors of an environment's set, checked against the graph.
Status readSet(const GraphObject& g, const QnnGraph_ExecuteEnvironment_t& env, std::vector<SetEntry>* out) {
  if (env.tensorSet.version != QNN_TENSOR_SET_VERSION_1)
    return invalidArgument("unknown Qnn_TensorSet_t version " + std::to_string(env.tensorSet.version));
  const Qnn_TensorSetV1_t& set = env.tensorSet.v1;
  if ((set.numInputs && !set.inputs) || (set.numOutputs && !set.outputs) || set.numInputs + set.numOutputs == 0)
    return invalidArgument("the tensor set is empty or names tensors it does not hold");
  for (int input = 1; input >= 0; --input) {
    uint32_t n = input ? set.numInputs : set.numOutputs;
    Qnn_Tensor_t* tensors = input ? set.inputs : set.outputs;
    for (uint32_t k = 0; k < n; ++k) {
      const TensorInfo* info = setTensor(g, tensors[k], input);
      if (!info)
        return invalidArgument(std::string(input ? "input " : "output ") + std::to_string(k) +
                               " of the set is not a graph " + (input ? "input" : "output") + " of '" + g.ir.name + "'");
      out->push_back({&tensors[k], info});
    }
  }
  return Status::ok();
}

Status checkBinding(const GraphObject& g, const SetEntry& e, void** handle) {
  const Qnn_TensorV1_t& v = tensorFields(*e.tensor);
  if (v.memType != QNN_TENSORMEMTYPE_MEMHANDLE)
    return invalidArgument("tensor '" + e.info->name + "' of a BIND_MEM_HANDLES set has no mem handle");
  auto mem = handles().get<MemObject>(v.memHandle, HandleKind::kMem);
  auto ctx = g.context.lock();
  if (!mem || mem->context.lock() != ctx)
    return invalidArgument("tensor '" + e.info->name + "': the mem handle is not registered with the graph's context");
  if (mem->size < e.info->byteSize())
    return invalidArgument("tensor '" + e.info->name + "': the registered memory holds " + std::to_string(mem->size) +
                           " bytes, the tensor needs " + std::to_string(e.info->byteSize()));
  *handle = v.memHandle;
  return Status::ok();
}

}  // namespace

Qnn_ErrorHandle_t Runtime::graphPrepareExecutionEnvironment(Qnn_GraphHandle_t graph,
                                                            QnnGraph_ExecuteEnvironment_t** envs, uint32_t envSize) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(g->backend);
    const char* api = "QnnGraph_prepareExecutionEnvironment";
    if (!envs || envSize == 0) return fail(log, ApiGroup::kGraph, api, invalidArgument("no environments"));
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kFinalized)
      return fail(log, ApiGroup::kGraph, api, invalidArgument("graph '" + g->ir.name + "' is not finalized"));
    // Checked whole first: nothing is bound or written unless every environment is fine.
    std::vector<std::vector<SetEntry>> sets(envSize);
    std::vector<ExecEnvironment> made(envSize);
    for (uint32_t i = 0; i < envSize; ++i) {
      if (!envs[i]) return fail(log, ApiGroup::kGraph, api, invalidArgument("environment " + std::to_string(i) + " is null"));
      const uint32_t option = envs[i]->option;
      if (option != QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_BIND_MEM_HANDLES &&
          option != QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_POPULATE_CLIENT_BUFS) {
        logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": environment option " + std::to_string(option) + " is not supported");
        return QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE;
      }
      Status st = readSet(*g, *envs[i], &sets[i]);
      made[i].option = option;
      for (const SetEntry& e : sets[i]) {
        if (!st.isOk()) break;
        made[i].tensorIds.push_back(e.info->id);
        if (option == QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_BIND_MEM_HANDLES) {
          void* handle = nullptr;
          st = checkBinding(*g, e, &handle);
          made[i].memHandles.push_back(handle);
        } else {
          made[i].owned.emplace_back(new uint8_t[std::max<size_t>(e.info->byteSize(), 1)]());
        }
      }
      if (!st.isOk()) return fail(log, ApiGroup::kGraph, api, st);
    }
    for (uint32_t i = 0; i < envSize; ++i) {
      if (made[i].option == QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_POPULATE_CLIENT_BUFS)
        for (size_t k = 0; k < sets[i].size(); ++k) {
          Qnn_TensorV1_t& v = tensorFields(*sets[i][k].tensor);
          v.memType = QNN_TENSORMEMTYPE_RAW;
          v.clientBuf.data = made[i].owned[k].get();
          v.clientBuf.dataSize = static_cast<uint32_t>(sets[i][k].info->byteSize());
        }
      g->environments.push_back(std::move(made[i]));
    }
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphReleaseExecutionEnvironment(Qnn_GraphHandle_t graph,
                                                            const QnnGraph_ExecuteEnvironment_t** envs,
                                                            uint32_t envSize) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(g->backend);
    const char* api = "QnnGraph_releaseExecutionEnvironment";
    if (!envs || envSize == 0) return fail(log, ApiGroup::kGraph, api, invalidArgument("no environments"));
    std::lock_guard<std::mutex> lock(g->mutex);
    // Each environment is found by what it bound: its mem handles, or the buffers it handed out.
    std::vector<size_t> found;
    for (uint32_t i = 0; i < envSize; ++i) {
      std::vector<SetEntry> set;
      Status st = envs[i] ? readSet(*g, *envs[i], &set) : invalidArgument("environment " + std::to_string(i) + " is null");
      if (!st.isOk()) return fail(log, ApiGroup::kGraph, api, st);
      auto matches = [&](const ExecEnvironment& env) {
        if (env.option != envs[i]->option || env.tensorIds.size() != set.size()) return false;
        for (size_t k = 0; k < set.size(); ++k) {
          const Qnn_TensorV1_t& v = tensorFields(*set[k].tensor);
          if (env.tensorIds[k] != set[k].info->id) return false;
          if (env.option == QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_BIND_MEM_HANDLES ? v.memHandle != env.memHandles[k]
                                                                                    : v.clientBuf.data != env.owned[k].get())
            return false;
        }
        return true;
      };
      size_t k = 0;
      while (k < g->environments.size() &&
             (!matches(g->environments[k]) || std::find(found.begin(), found.end(), k) != found.end()))
        ++k;
      if (k == g->environments.size())
        return fail(log, ApiGroup::kGraph, api,
                    invalidArgument("environment " + std::to_string(i) + " was not prepared on graph '" + g->ir.name + "'"));
      found.push_back(k);
    }
    std::sort(found.rbegin(), found.rend());
    for (size_t k : found) g->environments.erase(g->environments.begin() + static_cast<long>(k));
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::sdk
