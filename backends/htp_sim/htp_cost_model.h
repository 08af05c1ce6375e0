// The simulator's cost model: estimated HTP cycles of one node from its shapes,
// the architecture's HVX/HMX throughput, the HVX thread count and the node's
// tiling (VTCM residency). Documented in docs/htp-simulator.md.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/graph_ir.h"
#include "htp_sim/htp_options.h"

namespace qnn::htp {

struct NodeCost {
  uint64_t macs = 0;          // multiply-accumulates (matrix ops) or element operations
  uint64_t bytesMoved = 0;    // DDR <-> VTCM traffic
  uint64_t workingSet = 0;    // bytes one execution touches (inputs, weights, outputs)
  bool onHmx = false;         // runs on the matrix unit
  uint64_t cycles = 0;
};

// tiles: how many VTCM-sized pieces the node runs in (1: resident).
NodeCost estimateNodeCost(const sdk::NodeInfo& node, const std::vector<const sdk::TensorInfo*>& inputs,
                          const std::vector<const sdk::TensorInfo*>& outputs, const GraphOptions& options,
                          uint32_t tiles);

// Bytes a node touches in one execution.
uint64_t workingSetBytes(const std::vector<const sdk::TensorInfo*>& inputs,
                         const std::vector<const sdk::TensorInfo*>& outputs);

}  // namespace qnn::htp
