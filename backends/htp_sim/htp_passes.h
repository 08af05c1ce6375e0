// The graph passes graphFinalize runs, as an NPU compiler does: constant
// folding of static subgraphs, requantize folding, conv+activation fusion and
// the layout/tiling decision of every node within the graph's VTCM budget. The
// finalize optimization mode chooses which passes run; each pass records what it
// did (profiling events and debug log). The result is what a context binary stores.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/op_kernel.h"
#include "core/status.h"
#include "graph/graph_ir.h"
#include "htp_sim/htp_options.h"

namespace qnn::htp {

// An activation folded into its producer: the producer's output, already in the
// activation's encoding, is clamped to [lo, hi] in the quantized domain.
struct FusedClamp {
  bool active = false;
  int32_t lo = 0, hi = 0;
  std::string activation;  // the folded node's op type
};

struct NodePlan {
  FusedClamp clamp;
  uint32_t tiles = 1;       // 1: inputs, weights and outputs resident in VTCM together
  std::string layout;       // data layout chosen for the node's activations
  uint64_t cycles = 0;      // cost-model estimate per execution
  bool onHmx = false;
};

struct PassRecord {
  std::string pass;
  uint32_t changes = 0;
  std::string detail;
};

struct PreparedPlan {
  sdk::GraphIR graph;            // the transformed graph
  std::vector<NodePlan> plans;   // one per graph.nodes entry
  std::vector<PassRecord> passes;
};

// Runs the passes of options.optMode on a copy of `graph`.
sdk::Status runPasses(const sdk::GraphIR& graph, const GraphOptions& options, PreparedPlan* out);

// Quantized value of `real` in tensor t's encoding, saturated to t's datatype.
int32_t quantizeScalar(const sdk::TensorInfo& t, double real);

// The fused work of a node as the kernel interface's Epilogue, for the kernel (set before its
// prepare): the plan's clamp [lo, hi], quantized in out0's scale/offset encoding, as real bounds.
// They are the dequantized lo and hi, which quantize back to lo and hi exactly; a bound at the end
// of the dtype's range is open (+-inf). Empty without a clamp.
sdk::Epilogue fusedEpilogue(const NodePlan& plan, const sdk::TensorInfo& out0);

}  // namespace qnn::htp
