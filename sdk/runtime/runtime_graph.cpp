// QnnGraph entry points: build, finalize, retrieve, execute.
#include "runtime/runtime.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "opdefs/op_catalog.h"
#include "runtime/context_configs.h"
#include "adapters/client_datatypes.h"
#include "runtime/qnn_convert.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {

// Finds a tensor a node or execute refers to: the graph's own, else a context
// tensor (copied into the graph's IR on first use).
const TensorInfo* resolveTensor(GraphObject& g, ContextObject* ctx, uint32_t id) {
  if (const TensorInfo* t = g.ir.findTensor(id)) return t;
  if (!ctx) return nullptr;
  std::lock_guard<std::mutex> lock(ctx->mutex);
  auto it = ctx->contextTensors.find(id);
  if (it == ctx->contextTensors.end()) return nullptr;
  return &(g.ir.tensors[id] = it->second);
}

// Checks that every node's inputs are available when it runs and that no tensor
// is produced twice; nodes were added in a valid order, so a forward pass is enough.
Status checkConnectivity(const GraphIR& ir) {
  std::set<uint32_t> available;
  for (auto& [id, t] : ir.tensors)
    if (t.isGraphInput() || t.kind == TensorKind::kStatic || t.kind == TensorKind::kNull) available.insert(id);
  for (const NodeInfo& n : ir.nodes) {
    for (uint32_t in : n.inputIds)
      if (!available.count(in))
        return {StatusCode::kInvalidTensor, "node '" + n.name + "' reads tensor '" + ir.tensors.at(in).name +
                                                "' before any node produces it"};
    for (uint32_t out : n.outputIds) available.insert(out);
  }
  for (auto& [id, t] : ir.tensors)
    if (t.isGraphOutput() && !available.count(id))
      return {StatusCode::kInvalidTensor, "graph output '" + t.name + "' is not produced by any node"};
  return Status::ok();
}

}  // namespace

// Applies graph configs. The profile binding is made only once every config
// was accepted, so a refused list binds nothing.
static Status applyGraphConfig(GraphObject& g, const QnnGraph_Config_t** config, ConfigWarnings* warnings) {
  if (!config) return Status::ok();
  bool rebind = false;
  std::shared_ptr<ProfileObject> profile;
  for (size_t i = 0; config[i]; ++i) {
    switch (config[i]->option) {
      case QNN_GRAPH_CONFIG_OPTION_CUSTOM:
        if (config[i]->customConfig)
          QNN_SDK_RETURN_IF_ERROR(
              g.backend->engine->applyGraphCustomConfig(config[i]->customConfig, &g.ir, g.executed.load(), warnings));
        break;
      case QNN_GRAPH_CONFIG_OPTION_PRIORITY:
        // API 2.39's scale: LOWEST 0 .. CRITICAL_PLUS 500 = HIGHEST.
        if (config[i]->priority > QNN_PRIORITY_HIGHEST)
          return invalidArgument("graph priority " + std::to_string(config[i]->priority) +
                                 " is above QNN_PRIORITY_HIGHEST (" + std::to_string(QNN_PRIORITY_HIGHEST) + ")");
        g.ir.priority = config[i]->priority;
        break;
      case QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE:
        profile = nullptr;
        if (config[i]->profileHandle &&
            !(profile = handles().get<ProfileObject>(config[i]->profileHandle, HandleKind::kProfile)))
          return {StatusCode::kInvalidHandle, "graph config names an invalid profile handle"};
        if (profile && profile->boundGraph.load() && profile->boundGraph.load() != &g)
          return invalidArgument("the profile handle is already bound to another graph");
        rebind = true;
        break;
      case QNN_GRAPH_CONFIG_OPTION_SET_PROFILING_STATE:
        if (config[i]->profilingState != QNN_GRAPH_PROFILING_STATE_ENABLED &&
            config[i]->profilingState != QNN_GRAPH_PROFILING_STATE_DISABLED)
          return invalidArgument("unknown graph profiling state " + std::to_string(config[i]->profilingState));
        g.profilingEnabled = config[i]->profilingState == QNN_GRAPH_PROFILING_STATE_ENABLED;
        break;
      case QNN_GRAPH_CONFIG_OPTION_SET_PROFILING_NUM_EXECUTIONS:
        g.maxProfiledExecutions = config[i]->numProfilingExecutions;
        g.profiledExecutions = 0;
        break;
      case QNN_GRAPH_CONFIG_OPTION_ENABLE_BINARY_SECTION_WEIGHTS_UPDATES:
        g.sectionWeightsUpdatable = config[i]->enableBinarySectionWeightsUpdates != 0;
        break;
      default: return invalidArgument("unknown graph config option " + std::to_string(config[i]->option));
    }
  }
  if (rebind && g.boundProfile != profile) {
    if (g.boundProfile) g.boundProfile->boundGraph = nullptr;
    const void* expected = nullptr;
    if (profile && !profile->boundGraph.compare_exchange_strong(expected, &g))
      return invalidArgument("the profile handle is already bound to another graph");
    g.boundProfile = std::move(profile);
  }
  return Status::ok();
}

// Everything applyGraphConfig may change but the profile binding (made only on
// success), so that a refused QnnGraph_setConfig can put it back.
struct GraphConfigState {
  BackendSettings settings;
  uint32_t priority = 0, precision = 0;
  std::function<void(const GraphIR&, const NodeInfo&, const std::vector<void*>&)> afterNode;
  bool profilingEnabled = true;
  uint32_t maxProfiledExecutions = 0, profiledExecutions = 0;
  bool sectionWeightsUpdatable = false;

  static GraphConfigState of(const GraphObject& g) {
    return {g.ir.backendConfig, g.ir.priority, g.ir.precision, g.ir.afterNode,
            g.profilingEnabled, g.maxProfiledExecutions, g.profiledExecutions, g.sectionWeightsUpdatable};
  }
  void restore(GraphObject& g) const {
    g.ir.backendConfig = settings;
    g.ir.priority = priority;
    g.ir.precision = precision;
    g.ir.afterNode = afterNode;
    g.profilingEnabled = profilingEnabled;
    g.maxProfiledExecutions = maxProfiledExecutions;
    g.profiledExecutions = profiledExecutions;
    g.sectionWeightsUpdatable = sectionWeightsUpdatable;
  }
};

// The profile a finalize/execute records into: the call's own, or with none the
// graph's continuously bound one (while enabled and, for executes, within the
// configured count). QnnGraph.h calls both at once an invalid argument, but the
// vendor's own qnn-throughput-net-run (2.25) binds one and passes one per call
// and runs on the vendor's backends: the call's own profile is used then.
static Status profileForCall(GraphObject& g, bool execute, std::shared_ptr<ProfileObject>* prof) {
  std::lock_guard<std::mutex> lock(g.mutex);
  if (!g.boundProfile || *prof) return Status::ok();
  if (!g.profilingEnabled) return Status::ok();
  if (execute) {
    if (g.profiledExecutions >= g.maxProfiledExecutions) return Status::ok();
    ++g.profiledExecutions;
  }
  *prof = g.boundProfile;
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::graphCreate(Qnn_ContextHandle_t context, const char* name,
                                       const QnnGraph_Config_t** config, Qnn_GraphHandle_t* graph) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return refuse(nullptr, "QnnGraph_create", "context is not a live context handle", QNN_CONTEXT_ERROR_INVALID_HANDLE);
    if (!name || !*name)
      return refuse(loggerOf(ctx->backend), "QnnGraph_create", std::string("graphName is ") + (name ? "empty" : "null"),
                    QNN_GRAPH_ERROR_INVALID_NAME);
    if (!graph) return refuse(loggerOf(ctx->backend), "QnnGraph_create", "graph (the handle out) is null", QNN_GRAPH_ERROR_INVALID_ARGUMENT);
    auto g = std::make_shared<GraphObject>();
    g->context = ctx;
    g->backend = ctx->backend;
    g->ir.name = name;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      g->ir.backendConfig = ctx->settings;
    }
    ConfigWarnings warnings;
    Status st = applyGraphConfig(*g, config, &warnings);
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kGraph, "QnnGraph_create", st);
    logConfigWarnings(loggerOf(ctx->backend), "QnnGraph_create", warnings);
    std::lock_guard<std::mutex> lock(ctx->mutex);
    if (ctx->graphsByName.count(name)) {
      logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                 std::string("QnnGraph_create: a graph named '") + name + "' already exists in this context");
      return QNN_GRAPH_ERROR_INVALID_NAME;
    }
    void* h = handles().add(g);
    ctx->graphsByName[name] = h;
    *graph = h;
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphSetConfig(Qnn_GraphHandle_t graph, const QnnGraph_Config_t** config) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    std::lock_guard<std::mutex> lock(g->mutex);
    // A finalized graph may be executing: configs change between executions only.
    std::unique_lock<std::mutex> exec(g->execMutex, std::defer_lock);
    if (g->state == GraphObject::State::kFinalized) exec.lock();
    // Like addNode, a failed call leaves the graph's configuration as it was.
    const GraphConfigState before = GraphConfigState::of(*g);
    ConfigWarnings warnings;
    Status st = applyGraphConfig(*g, config, &warnings);
    if (!st.isOk()) {
      before.restore(*g);
      return fail(loggerOf(g->backend), ApiGroup::kGraph, "QnnGraph_setConfig", st);
    }
    logConfigWarnings(loggerOf(g->backend), "QnnGraph_setConfig", warnings);
    if (g->state == GraphObject::State::kFinalized && g->prepared && !g->executed.load())
      g->prepared->applySettingsBeforeFirstExecute(g->ir.backendConfig);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphAddNode(Qnn_GraphHandle_t graph, Qnn_OpConfig_t opConfig) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    auto ctx = g->context.lock();
    const Logger* log = loggerOf(g->backend);
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kBuilding) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_addNode: graph '" + g->ir.name + "' is already finalized");
      return QNN_GRAPH_ERROR_GRAPH_FINALIZED;
    }
    NodeInfo node;
    Status st = readNode(opConfig, *g->backend->opPackages, &node);
    if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
    // Qnn_OpConfigV1_t's name is "human-readable": nothing asks it to be unique,
    // and clients repeat names (ggml truncates its names). Nodes are told apart by position.
    if (g->nodeNames.count(node.name))
      logMessage(log, QNN_LOG_LEVEL_WARN,
                 "QnnGraph_addNode: a node named '" + node.name + "' already exists in graph '" + g->ir.name + "'");
    std::vector<const TensorInfo*> ins, outs;
    auto lookup = [&](const Qnn_Tensor_t& t, const char* role, uint32_t idx, const TensorInfo** out) -> Status {
      if (!tensorVersionSupported(t)) return invalidTensor("unsupported tensor version");
      const Qnn_TensorV1_t& v = tensorFields(t);
      const TensorInfo* info = resolveTensor(*g, ctx.get(), v.id);
      if (!info)
        return invalidTensor("node '" + node.name + "' " + role + " " + std::to_string(idx) + " (id " +
                             std::to_string(v.id) + (v.name ? ", '" + std::string(v.name) + "'" : std::string()) +
                             ") was not created in this graph or context");
      if (v.name && info->name != v.name)
        return invalidTensor("node '" + node.name + "' " + role + " " + std::to_string(idx) + ": id " +
                             std::to_string(v.id) + " belongs to tensor '" + info->name + "', not '" + v.name + "'");
      *out = info;
      return Status::ok();
    };
    for (uint32_t i = 0; i < opConfig.v1.numOfInputs; ++i) {
      const TensorInfo* t = nullptr;
      st = lookup(opConfig.v1.inputTensors[i], "input", i, &t);
      if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
      ins.push_back(t);
      node.inputIds.push_back(t->id);
    }
    for (uint32_t i = 0; i < opConfig.v1.numOfOutputs; ++i) {
      const TensorInfo* t = nullptr;
      st = lookup(opConfig.v1.outputTensors[i], "output", i, &t);
      if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
      if (t->kind == TensorKind::kStatic || t->kind == TensorKind::kAppWrite || t->kind == TensorKind::kNull)
        return fail(log, ApiGroup::kGraph, "QnnGraph_addNode",
                    invalidTensor("node '" + node.name + "' output '" + t->name + "' is a static, input or null tensor"));
      for (auto& n : g->ir.nodes)
        if (std::find(n.outputIds.begin(), n.outputIds.end(), t->id) != n.outputIds.end())
          return fail(log, ApiGroup::kGraph, "QnnGraph_addNode",
                      invalidTensor("tensor '" + t->name + "' is already produced by node '" + n.name + "'"));
      outs.push_back(t);
      node.outputIds.push_back(t->id);
    }
    st = checkOmittedInputs(node, ins);
    if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
    dropTrailingOmittedInputs(&ins, &node.inputIds);
    st = g->backend->engine->validateNodeInGraph(g->ir, node, ins, outs);
    if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
    g->nodeNames.insert(node.name);
    g->ir.nodes.push_back(std::move(node));
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphFinalize(Qnn_GraphHandle_t graph, Qnn_ProfileHandle_t profile,
                                         Qnn_SignalHandle_t signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    std::shared_ptr<ProfileObject> prof;
    std::shared_ptr<SignalObject> sig;
    if (!lookupOptional(profile, HandleKind::kProfile, &prof) || !lookupOptional(signal, HandleKind::kSignal, &sig))
      return QNN_GRAPH_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(g->backend);
    if (Status pst = profileForCall(*g, false, &prof); !pst.isOk())
      return fail(log, ApiGroup::kGraph, "QnnGraph_finalize", pst);
    SignalHold signalHold(sig.get());
    if (signalHold.busy()) return QNN_GRAPH_ERROR_SIGNAL_IN_USE;
    const uint64_t called = nowMicros();
    // Abort (QnnSignal_trigger) and timeout, checked between the steps of the finalize.
    auto interrupted = [&]() -> Qnn_ErrorHandle_t {
      switch (sig ? sig->stopFor(called) : SignalObject::Stop::kNone) {
        case SignalObject::Stop::kAborted: return QNN_GRAPH_ERROR_ABORTED;
        case SignalObject::Stop::kTimedOut: return QNN_GRAPH_ERROR_TIMED_OUT;
        case SignalObject::Stop::kNone: break;
      }
      return QNN_SUCCESS;
    };
    std::lock_guard<std::mutex> lock(g->mutex);
    // Tensor updates "will not take effect until QnnGraph_finalize() is called" (QnnTensor.h).
    if (g->state == GraphObject::State::kFinalized && !g->pendingUpdates.empty()) {
      if (Qnn_ErrorHandle_t stop = interrupted()) return stop;
      uint64_t start = nowMicros();
      TensorUpdates updates = std::move(g->pendingUpdates);
      g->pendingUpdates.clear();
      Status st = applyGraphUpdates(*g, updates, nullptr);
      if (!st.isOk()) {
        logMessage(log, QNN_LOG_LEVEL_ERROR,
                   "QnnGraph_finalize: applying the tensor updates of graph '" + g->ir.name + "' failed (the graph keeps its previous values): " + st.message());
        return st.code() == StatusCode::kOutOfMemory ? QNN_GRAPH_ERROR_MEM_ALLOC : QNN_GRAPH_ERROR_FINALIZE_FAILED;
      }
      logMessage(log, QNN_LOG_LEVEL_DEBUG,
                 "QnnGraph_finalize: applied " + std::to_string(updates.size()) + " tensor update(s) to graph '" + g->ir.name + "'");
      if (prof)
        prof->addEvent(0, QNN_PROFILE_EVENTTYPE_FINALIZE, QNN_PROFILE_EVENTUNIT_MICROSEC, nowMicros() - start,
                       "graph finalize (tensor updates): " + g->ir.name);
      return QNN_SUCCESS;
    }
    // "Some runtimes may require that this function is called before execution of a
    // graph retrieved from a context binary" (QnnGraph.h): clients do, so it succeeds.
    if (g->state == GraphObject::State::kFinalized && g->fromBinary) return QNN_SUCCESS;
    if (g->state == GraphObject::State::kFinalized) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_finalize: graph '" + g->ir.name + "' is already finalized");
      return QNN_GRAPH_ERROR_GRAPH_FINALIZED;
    }
    if (Qnn_ErrorHandle_t stop = interrupted()) return stop;
    uint64_t start = nowMicros();
    Status st = checkConnectivity(g->ir);
    if (!st.isOk()) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_finalize: " + st.message());
      return QNN_GRAPH_ERROR_UNCONNECTED_NODE;
    }
    if (Qnn_ErrorHandle_t stop = interrupted()) return stop;
    st = g->backend->engine->prepare(g->ir, &g->prepared);
    if (!st.isOk()) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_finalize: " + st.message());
      return st.code() == StatusCode::kOutOfMemory ? QNN_GRAPH_ERROR_MEM_ALLOC : QNN_GRAPH_ERROR_FINALIZE_FAILED;
    }
    // A trigger or the timeout during the preparation: the graph stays unfinalized (the call can be repeated).
    if (Qnn_ErrorHandle_t stop = interrupted()) {
      g->prepared.reset();
      logMessage(log, QNN_LOG_LEVEL_ERROR,
                 std::string("QnnGraph_finalize: ") +
                     (stop == QNN_GRAPH_ERROR_ABORTED ? "aborted by the signal" : "the signal's timeout expired"));
      return stop;
    }
    g->state = GraphObject::State::kFinalized;
    if (prof) {
      // The backend's own top-level events first, the finalize event last (as the vendor's HTP lists them).
      auto top = prof->addEvent(0, QNN_PROFILE_EVENTTYPE_FINALIZE, QNN_PROFILE_EVENTUNIT_MICROSEC,
                                nowMicros() - start, kFinalizeEventIdentifier, start, /*publish=*/false);
      std::vector<ProfileExtraEvent> extra;
      g->prepared->finalizeEvents(&extra);
      std::vector<QnnProfile_EventId_t> published;
      addExtraEvents(*prof, top, extra, &published);
      published.push_back(top);
      prof->publish(published);
    }
    return QNN_SUCCESS;
  });
}

// Sub-graphs exist for ops that take graphs (the 2.32 op set's If); neither
// backend has such an op, and how an op config names a sub-graph is not
// established from the headers. The arguments are checked as QnnGraph.h lists
// them, then the call answers QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE ("this API is
// not yet supported"), with QNN_PROPERTY_GRAPH_SUPPORT_SUBGRAPH not supported.
Qnn_ErrorHandle_t Runtime::graphCreateSubgraph(Qnn_GraphHandle_t graph, const char* name, Qnn_GraphHandle_t* subgraph) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    if (!subgraph) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    auto ctx = g->context.lock();
    if (!name || !*name) return QNN_GRAPH_ERROR_INVALID_NAME;
    if (ctx) {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      if (ctx->graphsByName.count(name)) return QNN_GRAPH_ERROR_INVALID_NAME;
      if (ctx->fromBinary) return QNN_COMMON_ERROR_OPERATION_NOT_PERMITTED;
    }
    logMessage(loggerOf(g->backend), QNN_LOG_LEVEL_ERROR,
               "QnnGraph_createSubgraph: sub-graphs are not supported by this backend (no op of it takes a graph)");
    return QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE;
  });
}

Qnn_ErrorHandle_t Runtime::graphRetrieve(Qnn_ContextHandle_t context, const char* name, Qnn_GraphHandle_t* graph) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!name || !graph)
      return refuse(loggerOf(ctx->backend), "QnnGraph_retrieve",
                    !name ? "graphName is null" : "graph (the handle out) is null", QNN_GRAPH_ERROR_INVALID_ARGUMENT);
    void* handle = nullptr;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      auto it = ctx->graphsByName.find(name);
      if (it == ctx->graphsByName.end()) {
        logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                   std::string("QnnGraph_retrieve: no graph named '") + name + "' in this context");
        return QNN_GRAPH_ERROR_GRAPH_DOES_NOT_EXIST;
      }
      handle = it->second;
    }
    // DEFER_GRAPH_INIT: "defer graph deserialization till first graph retrieval" (QnnContext.h).
    if (auto g = handles().get<GraphObject>(handle, HandleKind::kGraph)) {
      std::lock_guard<std::mutex> lock(g->mutex);
      Status st = initializeGraph(*g);
      if (!st.isOk()) {
        logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                   std::string("QnnGraph_retrieve: initializing graph '") + name + "' failed: " + st.message());
        return QNN_GRAPH_ERROR_GENERAL;
      }
    }
    *graph = handle;
    return QNN_SUCCESS;
  });
}

// Resolves the client's execute tensors to graph tensors and their memory.
static Status bindTensors(GraphObject& g, const Qnn_Tensor_t* tensors, uint32_t count, bool inputs,
                          std::vector<TensorBinding>* out) {
  const char* role = inputs ? "input" : "output";
  if (count && !tensors) return invalidArgument(std::string("null ") + role + " array");
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < count; ++i) {
    if (!tensorVersionSupported(tensors[i])) return invalidTensor(std::string(role) + " has an unsupported version");
    const Qnn_TensorV1_t& v = tensorFields(tensors[i]);
    const TensorInfo* info = g.ir.findTensor(v.id);
    if (!info && v.name) {
      for (auto& [id, t] : g.ir.tensors)
        if (t.name == v.name) info = &t;
    }
    if (!info)
      return invalidTensor(std::string(role) + " " + std::to_string(i) + " (id " + std::to_string(v.id) +
                           ") is not a tensor of graph '" + g.ir.name + "'");
    if (inputs ? !info->isGraphInput() : !info->isGraphOutput())
      return invalidTensor("tensor '" + info->name + "' is not a graph " + role);
    if (!seen.insert(info->id).second) return invalidTensor("tensor '" + info->name + "' given twice");
    TensorBinding b;
    b.tensorId = info->id;
    size_t need = info->byteSize();
    if (v.memType == QNN_TENSORMEMTYPE_RAW) {
      if (!v.clientBuf.data) return invalidTensor(std::string(role) + " '" + info->name + "' has no data buffer");
      b.data = v.clientBuf.data;
      b.size = v.clientBuf.dataSize;
    } else if (v.memType == QNN_TENSORMEMTYPE_MEMHANDLE) {
      auto mem = handles().get<MemObject>(v.memHandle, HandleKind::kMem);
      if (!mem) return invalidTensor(std::string(role) + " '" + info->name + "' has an invalid mem handle");
      b.data = mem->data;
      b.size = mem->size;
    } else {
      return invalidTensor(std::string(role) + " '" + info->name + "' has an unknown memory type");
    }
    if (b.size < need)
      return invalidTensor(std::string(role) + " '" + info->name + "' buffer is " + std::to_string(b.size) +
                           " bytes, the tensor needs " + std::to_string(need));
    if (static_cast<DType>(v.dataType) != info->dtype)
      return invalidTensor(std::string(role) + " '" + info->name + "' has datatype " +
                           qnnDatatypeName(v.dataType) + ", the graph expects " + dtypeName(info->dtype));
    out->push_back(b);
  }
  const size_t expected = inputs ? g.numInputs : g.numOutputs;
  if (out->size() != expected)
    return invalidTensor(std::string("graph '") + g.ir.name + "' has " + std::to_string(expected) + " " + role +
                         "s, got " + std::to_string(out->size()));
  return Status::ok();
}

// Everything graphExecute checks before running: the handles, the graph's
// state, the profile and the tensors. graphExecuteAsync checks it before it
// queues, so a call that cannot run fails at once and is never notified.
static Qnn_ErrorHandle_t checkExecute(const std::shared_ptr<GraphObject>& g, const char* api,
                                      Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal,
                                      const Qnn_Tensor_t* inputs, uint32_t numInputs, const Qnn_Tensor_t* outputs,
                                      uint32_t numOutputs, std::vector<TensorBinding>* in,
                                      std::vector<TensorBinding>* out, std::shared_ptr<ProfileObject>* prof,
                                      std::shared_ptr<SignalObject>* sig) {
  const Logger* log = loggerOf(g->backend);
  if (!lookupOptional(profile, HandleKind::kProfile, prof) || !lookupOptional(signal, HandleKind::kSignal, sig))
    return QNN_GRAPH_ERROR_INVALID_HANDLE;
  {
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kFinalized) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": graph '" + g->ir.name + "' is not finalized");
      return QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED;
    }
    if (Status ist = initializeGraph(*g); !ist.isOk()) return fail(log, ApiGroup::kGraph, api, ist);
    if (!g->ioCounted) {
      g->numInputs = g->ir.inputs().size(), g->numOutputs = g->ir.outputs().size();
      g->ioCounted = true;
    }
  }
  if (Status pst = profileForCall(*g, true, prof); !pst.isOk()) return fail(log, ApiGroup::kGraph, api, pst);
  Status st = bindTensors(*g, inputs, numInputs, true, in);
  if (st.isOk()) st = bindTensors(*g, outputs, numOutputs, false, out);
  if (!st.isOk()) return fail(log, ApiGroup::kGraph, api, st);
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t Runtime::graphExecute(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs, uint32_t numInputs,
                                        Qnn_Tensor_t* outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profile,
                                        Qnn_SignalHandle_t signal) {
  return executeGraph(graph, inputs, numInputs, outputs, numOutputs, profile, signal, 0);
}

// The profile of one execution: the backend's own top-level events (the HTP's RPC and accelerator
// times), then the execute event, which spans the call (an asynchronous one from when it was queued)
// and holds one queue-wait sub-event (the time until the execution began: in the asynchronous
// queue and waiting for another execution of the graph), the op trace and, at the detailed level,
// one event per node. docs/profiling-log-format.md lists the shapes.
Qnn_ErrorHandle_t Runtime::executeGraph(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs, uint32_t numInputs,
                                        Qnn_Tensor_t* outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profile,
                                        Qnn_SignalHandle_t signal, uint64_t queuedMicros) {
  const uint64_t called = queuedMicros ? queuedMicros : nowMicros();
  return guarded("graphExecute", [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(g->backend);
    std::shared_ptr<ProfileObject> prof;
    std::shared_ptr<SignalObject> sig;
    std::vector<TensorBinding> in, out;
    if (Qnn_ErrorHandle_t rc = checkExecute(g, "QnnGraph_execute", profile, signal, inputs, numInputs, outputs,
                                            numOutputs, &in, &out, &prof, &sig))
      return rc;
    Status st;

    SignalHold signalHold(sig.get());
    if (signalHold.busy()) return QNN_GRAPH_ERROR_SIGNAL_IN_USE;
    struct ProfileUse {  // QnnProfile_setConfig refuses to reconfigure meanwhile
      ProfileObject* p;
      explicit ProfileUse(ProfileObject* profile) : p(profile) {
        if (p) ++p->users;
      }
      ~ProfileUse() {
        if (p) --p->users;
      }
    } profileUse{prof.get()};
    uint64_t start = nowMicros();
    ExecuteOptions options;
    options.collectNodeTimings = prof && prof->detailed();
    options.opTrace = prof && prof->traceOps();
    if (sig) {
      SignalObject* s = sig.get();
      options.checkCancel = [s, start]() -> Status {
        switch (s->stopFor(start)) {
          case SignalObject::Stop::kAborted: return {StatusCode::kAborted, "execution aborted by a signal"};
          case SignalObject::Stop::kTimedOut: return {StatusCode::kTimedOut, "execution timed out"};
          case SignalObject::Stop::kNone: break;
        }
        return Status::ok();
      };
    }
    std::vector<NodeTiming> timings;
    std::vector<ProfileExtraEvent> graphEvents;
    if (prof) options.graphEvents = &graphEvents;
    const uint64_t waitFrom = queuedMicros ? queuedMicros : nowMicros();
    uint64_t began = 0;
    {
      std::lock_guard<std::mutex> exec(g->execMutex);
      began = nowMicros();
      g->executed = true;
      st = g->prepared->execute(in, out, options, &timings);
    }
    // A trigger that QnnSignal_trigger reported as taken aborts the call, also one that came
    // after the last step's check: the client was told the execution stops.
    if (signalHold.release() && st.isOk()) st = {StatusCode::kAborted, "execution aborted by a signal"};
    if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_execute", st);
    if (prof) {
      const uint64_t ended = nowMicros();
      auto top = prof->addEvent(0, QNN_PROFILE_EVENTTYPE_EXECUTE, QNN_PROFILE_EVENTUNIT_MICROSEC, ended - called,
                                kExecuteEventIdentifier, called, /*publish=*/false);
      prof->addEvent(top, QNN_PROFILE_EVENTTYPE_EXECUTE_QUEUE_WAIT, QNN_PROFILE_EVENTUNIT_MICROSEC,
                     began >= waitFrom ? began - waitFrom : 0, kQueueWaitEventIdentifier, waitFrom);
      std::vector<QnnProfile_EventId_t> published;
      addExtraEvents(*prof, top, graphEvents, &published);
      for (auto& t : timings) {
        auto node = prof->addEvent(top, QNN_PROFILE_EVENTTYPE_NODE, QNN_PROFILE_EVENTUNIT_MICROSEC, t.micros,
                                   t.nodeName + " (" + t.opType + ")", t.startMicros);
        addExtraEvents(*prof, node, t.extra);
      }
      published.push_back(top);
      prof->publish(published);
    }
    // A debug line per execute (from whichever thread ran it: the client's, or the worker of an
    // asynchronous execute), built only when the client asked for that level.
    if (log && log->enabled(QNN_LOG_LEVEL_DEBUG))
      logMessage(log, QNN_LOG_LEVEL_DEBUG,
                 "QnnGraph_execute: graph '" + g->ir.name + "' ran in " + std::to_string(nowMicros() - start) + " us");
    return QNN_SUCCESS;
  });
}

namespace {

// The library's asynchronous executes, run one after another by one worker thread in the order they
// were submitted (each notified when done). The worker is joined when the library is unloaded or the
// process exits, after the queue has drained: no thread outlives the code it runs (a detached thread
// per call did), and a notify callback may submit further executes (the queue's lock is not held
// while a job runs).
class AsyncQueue {
 public:
  ~AsyncQueue() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    ready_.notify_all();
    if (worker_.joinable()) worker_.join();
  }
  void push(std::function<void()> job) {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
    if (!worker_.joinable()) worker_ = std::thread([this] { run(); });
    ready_.notify_one();
  }
  // True on the worker, i.e. inside a notify callback.
  static bool onWorker() { return onWorker_; }

 private:
  void run() {
    onWorker_ = true;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ready_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and drained
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }
  static thread_local bool onWorker_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  std::thread worker_;
  bool stop_ = false;
};
thread_local bool AsyncQueue::onWorker_ = false;

// Made on the first asynchronous execute, so it is destroyed before the handle registry it uses.
AsyncQueue& asyncQueue() {
  static AsyncQueue queue;
  return queue;
}

// Set when QnnGraph_executeAsync is about to return: the notification of that
// call waits for it. A client may register the execution's record after the
// call returns (the vendor's qnn-net-run keeps its in-flight inferences in a map
// its callback looks up); a notification before the return would find none.
class ReturnGate {
 public:
  void open() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      open_ = true;
    }
    cv_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false;
};

uint32_t asyncQueueDepth(ContextObject& ctx) {
  std::lock_guard<std::mutex> lock(ctx.mutex);
  auto it = ctx.settings.find(kAsyncQueueDepthSetting);
  return it == ctx.settings.end() ? kDefaultAsyncQueueDepth : static_cast<uint32_t>(std::stoul(it->second));
}

}  // namespace

// The contract (QnnGraph.h, QnnContext.h): bad calls fail at once and are never
// notified; a good one is queued in FIFO order, blocking while the context's
// queue depth of executions is queued, running or being notified (never on the
// worker itself: a notify callback that submits cannot wait for the queue it
// holds up); notifyFn runs on the backend's worker thread, once per call, after
// the call has returned, in submission order. A client that sizes its pools by
// the queue depth never has more executions outstanding than that.
Qnn_ErrorHandle_t Runtime::graphExecuteAsync(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs,
                                             uint32_t numInputs, Qnn_Tensor_t* outputs, uint32_t numOutputs,
                                             Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal,
                                             Qnn_NotifyFn_t notifyFn, void* notifyParam) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    // The client keeps its tensor arrays and buffers alive until notified; the
    // arrays are copied so the call may return before execution starts.
    std::vector<Qnn_Tensor_t> in(inputs, inputs + (inputs ? numInputs : 0));
    std::vector<Qnn_Tensor_t> out(outputs, outputs + (outputs ? numOutputs : 0));
    if ((numInputs && !inputs) || (numOutputs && !outputs))
      return refuse(loggerOf(g->backend), "QnnGraph_executeAsync",
                    numInputs && !inputs ? "inputs is null with numInputs " + std::to_string(numInputs)
                                         : "outputs is null with numOutputs " + std::to_string(numOutputs),
                    QNN_GRAPH_ERROR_INVALID_ARGUMENT);
    {
      std::vector<TensorBinding> bound[2];
      std::shared_ptr<ProfileObject> prof;
      std::shared_ptr<SignalObject> sig;
      if (Qnn_ErrorHandle_t rc = checkExecute(g, "QnnGraph_executeAsync", profile, signal, inputs, numInputs, outputs,
                                              numOutputs, &bound[0], &bound[1], &prof, &sig))
        return rc;
    }
    std::shared_ptr<ContextObject> ctx = g->context.lock();
    if (!ctx) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    const uint32_t depth = asyncQueueDepth(*ctx);
    {
      std::unique_lock<std::mutex> lock(ctx->asyncMutex);
      if (!AsyncQueue::onWorker()) ctx->asyncSpace.wait(lock, [&] { return ctx->asyncPending < depth; });
      ++ctx->asyncPending;
    }
    auto gate = std::make_shared<ReturnGate>();
    auto freeSlot = [ctx] {
      {
        std::lock_guard<std::mutex> lock(ctx->asyncMutex);
        --ctx->asyncPending;
      }
      ctx->asyncSpace.notify_all();
    };
    try {
      const uint64_t queued = nowMicros();
      asyncQueue().push([this, graph, in = std::move(in), out = std::move(out), profile, signal, notifyFn,
                         notifyParam, freeSlot, gate, queued]() mutable {
        Qnn_NotifyStatus_t status;
        status.error = executeGraph(graph, in.data(), static_cast<uint32_t>(in.size()), out.data(),
                                    static_cast<uint32_t>(out.size()), profile, signal, queued);
        gate->wait();
        if (notifyFn) notifyFn(notifyParam, status);
        freeSlot();
      });
    } catch (...) {
      freeSlot();
      throw;
    }
    gate->open();
    return QNN_SUCCESS;
  });
}

// No backend of this project defines custom graph properties (the 2.32 headers
// give CPU and HTP none): a well-formed CUSTOM request is an unsupported feature.
Qnn_ErrorHandle_t Runtime::graphGetProperty(Qnn_GraphHandle_t graph, QnnGraph_Property_t** properties) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    Status st = checkPropertyList(properties, QNN_GRAPH_PROPERTY_OPTION_CUSTOM);
    if (!st.isOk()) return fail(loggerOf(g->backend), ApiGroup::kGraph, "QnnGraph_getProperty", st);
    if (!properties[0]) return QNN_SUCCESS;
    logMessage(loggerOf(g->backend), QNN_LOG_LEVEL_ERROR,
               std::string("QnnGraph_getProperty: the ") + desc_.providerName +
                   " backend defines no custom graph properties");
    return QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE;
  });
}

}  // namespace qnn::sdk
