// QnnGraph_validate / QnnGraph_freeValidationResult (API 2.39): a graph being
// composed, checked node by node. Every node is checked again against the
// backend as graphAddNode checked it (op definition, kernels, the graph's
// configs as they are now), and against the graph's structure: an input no node
// produces, or one produced only by a node added later, makes the node
// unconnected (QNN_GRAPH_ERROR_UNCONNECTED_NODE: "node added before its
// dependent node(s)"); nodes that depend on themselves through other nodes are a
// cycle (QNN_GRAPH_ERROR_CYCLE_DETECTED). The result lists every node in the
// order added; the call returns its overall status (QNN_SUCCESS: the graph as
// composed is valid and runnable). Results are the backend's until freed.
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/error_map.h"
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {

// One handed-out result and the storage its pointers point into.
struct StoredResult {
  QnnGraph_ValidationResult_t result{};
  std::vector<QnnGraph_NodeValidationResult_t> nodes;
  std::vector<std::string> names, messages;  // sized before any c_str() is taken
};

std::mutex gResultsMutex;
std::map<const QnnGraph_ValidationResult_t*, std::unique_ptr<StoredResult>> gResults;

struct Verdict {
  Qnn_ErrorHandle_t code = QNN_SUCCESS;
  std::string message;
};

// True when node `start` depends on itself: some node it reads from (through
// the producers of their inputs, transitively) is `start`.
bool inCycle(size_t start, const std::vector<std::vector<size_t>>& producersOf) {
  std::vector<size_t> stack(producersOf[start].begin(), producersOf[start].end());
  std::vector<bool> seen(producersOf.size(), false);
  while (!stack.empty()) {
    size_t n = stack.back();
    stack.pop_back();
    if (n == start) return true;
    if (seen[n]) continue;
    seen[n] = true;
    stack.insert(stack.end(), producersOf[n].begin(), producersOf[n].end());
  }
  return false;
}

// The structural verdict of every node (the backend's is added by the caller).
std::vector<Verdict> structuralVerdicts(const GraphIR& ir) {
  const size_t n = ir.nodes.size();
  std::map<uint32_t, size_t> producer;
  for (size_t i = 0; i < n; ++i)
    for (uint32_t out : ir.nodes[i].outputIds) producer.emplace(out, i);
  std::vector<std::vector<size_t>> producersOf(n);
  for (size_t i = 0; i < n; ++i)
    for (uint32_t in : ir.nodes[i].inputIds) {
      auto p = producer.find(in);
      if (p != producer.end()) producersOf[i].push_back(p->second);
    }
  std::vector<Verdict> verdicts(n);
  for (size_t i = 0; i < n; ++i) {
    const NodeInfo& node = ir.nodes[i];
    for (uint32_t in : node.inputIds) {
      const TensorInfo* t = ir.findTensor(in);
      if (!t || t->isGraphInput() || t->kind == TensorKind::kStatic || t->kind == TensorKind::kNull) continue;
      auto p = producer.find(in);
      if (p == producer.end()) {
        verdicts[i] = {QNN_GRAPH_ERROR_UNCONNECTED_NODE, "input '" + t->name + "' is produced by no node"};
        break;
      }
      if (p->second > i) {
        verdicts[i] = inCycle(i, producersOf)
                          ? Verdict{QNN_GRAPH_ERROR_CYCLE_DETECTED,
                                    "input '" + t->name + "' depends on this node's own output (a cycle through '" +
                                        ir.nodes[p->second].name + "')"}
                          : Verdict{QNN_GRAPH_ERROR_UNCONNECTED_NODE, "input '" + t->name + "' is produced by node '" +
                                                                          ir.nodes[p->second].name + "', added after it"};
        break;
      }
    }
  }
  return verdicts;
}

}  // namespace

Qnn_ErrorHandle_t Runtime::graphValidate(Qnn_GraphHandle_t graph, const QnnGraph_ValidateConfig_t** config,
                                         QnnGraph_ValidationResult_t** result) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    const char* api = "QnnGraph_validate";
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(g->backend);
    if (!result) return refuse(log, api, "validationResult (out) is null", QNN_GRAPH_ERROR_INVALID_ARGUMENT);
    // The one option of the API is the backend's custom config; neither backend defines one.
    for (size_t k = 0; config && config[k]; ++k)
      return refuse(log, api,
                    "config " + std::to_string(k) + ": option " + std::to_string(uint32_t(config[k]->option)) +
                        " is not supported (no backend of OpenQNN defines a custom validate config)",
                    QNN_GRAPH_ERROR_INVALID_ARGUMENT);
    auto ctx = g->context.lock();
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kBuilding)
      return refuse(log, api, "graph '" + g->ir.name + "' is already finalized", QNN_GRAPH_ERROR_GRAPH_FINALIZED);
    if (g->ir.nodes.empty())
      return refuse(log, api, "graph '" + g->ir.name + "' has no nodes", QNN_GRAPH_ERROR_INVALID_ARGUMENT);

    std::vector<Verdict> verdicts = structuralVerdicts(g->ir);
    for (size_t i = 0; i < g->ir.nodes.size(); ++i) {
      const NodeInfo& node = g->ir.nodes[i];
      std::vector<const TensorInfo*> ins, outs;
      for (uint32_t id : node.inputIds) ins.push_back(g->ir.findTensor(id));
      for (uint32_t id : node.outputIds) outs.push_back(g->ir.findTensor(id));
      bool complete = true;
      for (const TensorInfo* t : ins) complete = complete && t;
      for (const TensorInfo* t : outs) complete = complete && t;
      Status st = complete ? g->backend->engine->validateNodeInGraph(g->ir, node, ins, outs)
                           : Status(StatusCode::kInvalidTensor, "a tensor of the node is no longer in the graph");
      if (!st.isOk() && verdicts[i].code == QNN_SUCCESS)
        verdicts[i] = {toQnnError(ApiGroup::kGraph, st), st.message()};
    }

    auto stored = std::make_unique<StoredResult>();
    const size_t n = g->ir.nodes.size();
    stored->names.resize(n);
    stored->messages.resize(n);
    stored->nodes.resize(n);
    Qnn_ErrorHandle_t overall = QNN_SUCCESS;
    bool cycle = false;
    for (size_t i = 0; i < n; ++i) {
      stored->names[i] = g->ir.nodes[i].name;
      stored->messages[i] = verdicts[i].message;
      QnnGraph_NodeValidationResult_t& r = stored->nodes[i];
      r.nodeName = stored->names[i].c_str();
      r.status = verdicts[i].code == QNN_SUCCESS ? QNN_GRAPH_NODE_VALIDATION_STATUS_SUPPORTED
                                                 : QNN_GRAPH_NODE_VALIDATION_STATUS_UNSUPPORTED;
      r.errorCode = verdicts[i].code;
      r.errorMessage = verdicts[i].message.empty() ? nullptr : stored->messages[i].c_str();
      if (verdicts[i].code != QNN_SUCCESS) {
        logMessage(log, QNN_LOG_LEVEL_INFO,
                   std::string(api) + ": graph '" + g->ir.name + "' node '" + stored->names[i] + "': " +
                       verdicts[i].message);
        if (overall == QNN_SUCCESS) overall = verdicts[i].code;
        cycle = cycle || verdicts[i].code == QNN_GRAPH_ERROR_CYCLE_DETECTED;
      }
    }
    if (cycle) overall = QNN_GRAPH_ERROR_CYCLE_DETECTED;  // the graph-level finding outranks a node's
    stored->result.numResults = static_cast<uint32_t>(n);
    stored->result.results = stored->nodes.data();
    stored->result.overallStatus = overall;
    *result = &stored->result;
    {
      std::lock_guard<std::mutex> results(gResultsMutex);
      gResults.emplace(&stored->result, std::move(stored));
    }
    if (overall != QNN_SUCCESS)
      logMessage(log, QNN_LOG_LEVEL_ERROR,
                 std::string(api) + ": graph '" + g->ir.name + "' is not valid as composed (" +
                     errorMessage(overall) + "); the result names each node's reason");
    return overall;
  });
}

Qnn_ErrorHandle_t Runtime::graphFreeValidationResult(QnnGraph_ValidationResult_t* result) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    const char* api = "QnnGraph_freeValidationResult";
    if (!result) return refuse(nullptr, api, "validationResult is null", QNN_GRAPH_ERROR_INVALID_ARGUMENT);
    std::unique_ptr<StoredResult> freed;
    {
      std::lock_guard<std::mutex> lock(gResultsMutex);
      auto it = gResults.find(result);
      if (it != gResults.end()) {
        freed = std::move(it->second);
        gResults.erase(it);
      }
    }
    if (!freed)
      return refuse(nullptr, api,
                    "validationResult is not a result QnnGraph_validate of this backend handed out, or it was freed "
                    "already",
                    QNN_GRAPH_ERROR_INVALID_ARGUMENT);
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::sdk
