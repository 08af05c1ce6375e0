// The part of a backend that differs between backends: which ops it accepts and
// how it turns a GraphIR into something executable. Everything else of the API
// (handles, validation, contexts, binaries, profiling, signals) is shared and
// lives in runtime.cpp. Modelled on ggml's per-backend function table.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "graph/graph_ir.h"

namespace qnn::sdk {

// Where the data of one graph input/output lives for one execute call.
struct TensorBinding {
  uint32_t tensorId = 0;
  void* data = nullptr;
  size_t size = 0;
};

// Per-node timing reported to the profiler at the detailed level.
struct NodeTiming {
  std::string nodeName;
  std::string opType;
  uint64_t micros = 0;
};

// Options of one execute call. checkCancel is polled between nodes; it returns
// kAborted/kTimedOut when a signal fired.
struct ExecuteOptions {
  bool collectNodeTimings = false;
  std::function<Status()> checkCancel;
};

class PreparedGraph {
 public:
  virtual ~PreparedGraph() = default;
  // Runs the graph. Inputs and outputs are complete and size-checked by the
  // caller. Called by one thread at a time per graph.
  virtual Status execute(const std::vector<TensorBinding>& inputs, const std::vector<TensorBinding>& outputs,
                         const ExecuteOptions& options, std::vector<NodeTiming>* timings) = 0;
};

class ExecutionEngine {
 public:
  virtual ~ExecutionEngine() = default;
  // Validates one node against this backend's kernels (op supported, datatypes,
  // shapes, params). The op definition has already been checked.
  virtual Status validateNode(const NodeInfo& node, const std::vector<const TensorInfo*>& inputs,
                              const std::vector<const TensorInfo*>& outputs) = 0;
  // Turns a finalized graph into an executable one.
  virtual Status prepare(const GraphIR& graph, std::unique_ptr<PreparedGraph>* out) = 0;
  // Op types this backend runs, for getSupportedOperations.
  virtual std::vector<std::string> supportedOps() const = 0;
};

// What a backend library tells the shared runtime about itself.
struct BackendDescriptor {
  uint32_t backendId = 0;
  const char* providerName = "";
  const char* buildId = "";
  uint32_t backendApiMajor = 0, backendApiMinor = 0, backendApiPatch = 0;
  std::function<std::unique_ptr<ExecutionEngine>()> createEngine;
};

}  // namespace qnn::sdk
