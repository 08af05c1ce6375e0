// What a graph needs in memory, read from its IR: the bytes of its own static
// tensors (the weights a backend keeps resident; context tensors are the
// context's, counted once there) and the peak bytes of its
// intermediate tensors when each lives from the node that produces it to the
// last node that reads it, in node order (the scratch, or "spill-fill", arena a
// backend needs to run it). Each tensor is rounded up to `alignment` bytes.
#pragma once

#include <cstdint>

#include "graph/graph_ir.h"

namespace qnn::sdk {

struct GraphMemoryNeeds {
  uint64_t staticBytes = 0;
  uint64_t peakNativeBytes = 0;
};

// alignment: a power of two >= 1.
uint64_t alignedBytes(uint64_t bytes, uint64_t alignment);
GraphMemoryNeeds graphMemoryNeeds(const GraphIR& ir, uint64_t alignment);

}  // namespace qnn::sdk
