// The part of a backend that differs between backends: which ops it accepts and
// how it turns a GraphIR into something executable. Everything else of the API
// (handles, validation, contexts, binaries, profiling, signals) is shared and
// lives in runtime.cpp. Modelled on ggml's per-backend function table.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "QnnOpPackage.h"
#include "core/status.h"
#include "graph/graph_ir.h"
#include "runtime/backend_hooks.h"

namespace qnn::sdk {

class OpPackageSet;  // runtime/op_package_registry.h

// Where the data of one graph input/output lives for one execute call.
struct TensorBinding {
  uint32_t tensorId = 0;
  void* data = nullptr;
  size_t size = 0;
};

// A backend-specific profiling event (e.g. estimated accelerator cycles); type
// and unit are QnnProfile_EventType_t / QnnProfile_EventUnit_t values.
struct ProfileExtraEvent {
  uint32_t type = 0;
  uint32_t unit = 0;
  uint64_t value = 0;
  std::string identifier;
  // When the event began, microseconds of the steady clock (0: when it was recorded).
  uint64_t startMicros = 0;
  // Reported as a top-level event of its own, listed before the call's event
  // (finalize, execute), not as its sub-event: the vendor's HTP backend reports
  // its RPC and accelerator times so, and its qnn-profile-viewer prints each
  // top-level event as a "Backend (...)" line. Where the call has no such list
  // (context load), the event stays a sub-event.
  bool topLevel = false;
};

// Per-node timing reported to the profiler at the detailed level.
struct NodeTiming {
  std::string nodeName;
  std::string opType;
  uint64_t micros = 0;
  std::vector<ProfileExtraEvent> extra{};  // sub-events of the node's event
  // When the node began: microseconds of the steady clock since its epoch (0: not known).
  uint64_t startMicros = 0;
  static uint64_t steadyMicros(std::chrono::steady_clock::time_point t) {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count());
  }
};

// Options of one execute call. checkCancel is polled between nodes; it returns
// kAborted/kTimedOut when a signal fired.
struct ExecuteOptions {
  bool collectNodeTimings = false;
  std::function<Status()> checkCancel;
  // Set when profiling at any level: backend events to put under the execute event.
  std::vector<ProfileExtraEvent>* graphEvents = nullptr;
  // A detailed profile with op trace enabled (QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE): the
  // backend adds one QNN_PROFILE_EVENTTYPE_TRACE event per node to graphEvents.
  bool opTrace = false;
};

class PreparedGraph {
 public:
  virtual ~PreparedGraph() = default;
  // Runs the graph. Inputs and outputs are complete and size-checked by the
  // caller. Called by one thread at a time per graph.
  virtual Status execute(const std::vector<TensorBinding>& inputs, const std::vector<TensorBinding>& outputs,
                         const ExecuteOptions& options, std::vector<NodeTiming>* timings) = 0;
  // Backend events to put under the finalize (or load-from-binary) event, e.g.
  // what the optimization passes did. Default: none.
  virtual void finalizeEvents(std::vector<ProfileExtraEvent>*) const {}
  // The backend's prepared form for the context binary (ExecutionEngine::restore
  // reads it back with the same `source`, the graph it was prepared from, which
  // the binary stores too); false when the backend re-prepares from the GraphIR instead.
  virtual bool serialize(const GraphIR& /*source*/, std::vector<uint8_t>*) const { return false; }
  // QnnGraph_setConfig on a finalized graph that has not run yet: the graph's
  // settings now (GraphIR::backendConfig); the backend takes those that may
  // still change before the first execution. Default: none may.
  virtual void applySettingsBeforeFirstExecute(const BackendSettings&) {}
  // Tensor updates (QnnTensor_update*, binary sections) changed the data or
  // encodings of `ids` in `source` (the graph this was prepared from): refresh
  // only what depends on them, without the rest of a prepare. kNotSupported:
  // the runtime prepares the graph again instead; another failure may leave
  // this graph part refreshed (the runtime then prepares anew or refreshes back).
  virtual Status refreshTensors(const GraphIR& /*source*/, const std::set<uint32_t>& /*ids*/) {
    return {StatusCode::kNotSupported, "this backend prepares the graph again"};
  }
  // When refreshTensors did not: `source` prepared again with the options this
  // form was prepared with. For a graph restored from a context binary those are
  // the binary's (e.g. the HTP's fp16 precision), which the loading context's
  // settings in source.backendConfig do not hold. kNotSupported: the runtime calls
  // ExecutionEngine::prepare(source).
  virtual Status prepareAgain(const GraphIR& /*source*/, std::unique_ptr<PreparedGraph>* /*out*/) const {
    return {StatusCode::kNotSupported, "prepared from the graph's settings"};
  }
};

class ExecutionEngine {
 public:
  virtual ~ExecutionEngine() = default;
  // Validates one node against this backend's kernels (op supported, datatypes,
  // shapes, params). The op definition has already been checked.
  virtual Status validateNode(const NodeInfo& node, const std::vector<const TensorInfo*>& inputs,
                              const std::vector<const TensorInfo*>& outputs) = 0;
  // A tensor being created (graph or context tensor, or an op config's input in
  // QnnBackend_validateOpConfig), read: a refusal fails the call. For datatypes and
  // encodings the backend does not take in any op (TensorInfo::clientDataType /
  // clientEncoding). Default: everything the runtime reads.
  virtual Status acceptTensor(const TensorInfo& /*tensor*/) { return Status::ok(); }
  // Turns a finalized graph into an executable one.
  virtual Status prepare(const GraphIR& graph, std::unique_ptr<PreparedGraph>* out) = 0;
  // Op types this backend runs, for getSupportedOperations.
  virtual std::vector<std::string> supportedOps() const = 0;
  // Op packages (only for backends whose descriptor sets opPackageInfrastructure):
  // called once right after the engine is created with the backend handle's set
  // of registered packages, which keeps growing as packages are registered. The
  // engine resolves nodes whose packageName is not the built-in one in it, in
  // validateNode and prepare; it may keep the set (shared ownership).
  virtual void setOpPackages(std::shared_ptr<const OpPackageSet> packages) { (void)packages; }
  // graphAddNode's check, which may depend on the graph's configs (e.g. a float
  // precision mode). Default: the graph-independent validateNode.
  virtual Status validateNodeInGraph(const GraphIR& /*graph*/, const NodeInfo& node,
                                     const std::vector<const TensorInfo*>& inputs,
                                     const std::vector<const TensorInfo*>& outputs) {
    return validateNode(node, inputs, outputs);
  }
  // QNN_GRAPH_CONFIG_OPTION_CUSTOM (custom never null): parse and validate the
  // backend's struct into graph->backendConfig / graph fields; what it accepts
  // but changes goes to `warnings`. `executed`: the graph has run at least once.
  // Default: ignored.
  virtual Status applyGraphCustomConfig(const void* /*custom*/, GraphIR* /*graph*/, bool /*executed*/,
                                        ConfigWarnings* /*warnings*/) {
    return Status::ok();
  }
  // Rebuilds a prepared graph from PreparedGraph::serialize's bytes without
  // preparing again; `graph` is the stored IR (its backendConfig holds the
  // loading context's settings). Default: not supported (the runtime prepares).
  virtual Status restore(const GraphIR& /*graph*/, const uint8_t* /*data*/, size_t /*size*/,
                         std::unique_ptr<PreparedGraph>* /*out*/) {
    return {StatusCode::kNotSupported, "this backend stores no prepared graphs"};
  }
};

// What a backend library tells the shared runtime about itself.
struct BackendDescriptor {
  uint32_t backendId = 0;
  const char* providerName = "";
  const char* buildId = "";
  uint32_t backendApiMajor = 0, backendApiMinor = 0, backendApiPatch = 0;
  // The backend API version of the release whose core API is 2.39 (the opt-in
  // 2.39 provider); zero: not known, the version above is reported.
  Qnn_Version_t backendApi2_39 = {0, 0, 0};
  std::function<std::unique_ptr<ExecutionEngine>()> createEngine;
  // Op packages: the backend-specific global infrastructure handed to a
  // package's init (e.g. a QnnCpuOpPackage_GlobalInfra_t*, owned by the backend
  // library and valid for the process). Null: QnnBackend_registerOpPackage
  // answers NOT_SUPPORTED.
  QnnOpPackage_GlobalInfrastructure_t opPackageInfrastructure = nullptr;
  // Accepted values of registerOpPackage's target (case-insensitive); a null or
  // empty target is always accepted.
  std::vector<std::string> opPackageTargets;
  // Whether the backend records op trace events (QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE;
  // ExecuteOptions::opTrace). False: the config is refused as unsupported.
  bool opTrace = false;
  // Device, property and custom-config answers; null: host-CPU defaults.
  std::shared_ptr<BackendHooks> hooks;
};

}  // namespace qnn::sdk
