// QnnCpuGraph_CustomConfig_t: the CPU backend's graph custom configs.
#pragma once

#include "graph/graph_ir.h"
#include "runtime/backend_hooks.h"

namespace qnn::cpu {

// OP_DEBUG_CALLBACK installs (or, with a null callback, removes) the client's
// callback, called after each op with the op's output tensors (QnnCpuGraph.h);
// USE_QMX is accepted and not applied (QMX is an Arm extension; a warning says
// so when asked for). Anything else is refused.
sdk::Status applyCpuGraphCustomConfig(const void* custom, sdk::GraphIR* graph, sdk::ConfigWarnings* warnings);

}  // namespace qnn::cpu
