// Blockwise-expansion ("LPBQ") weights on the HTP: the NPU expands each low-bit weight by its
// block's integer multiplier into a wider integer with the channel's scale before the matrix unit
// reads it, so a blockwise weight runs as an exact per-channel weight: q' = (q + o) * m - o.
#pragma once

#include "core/status.h"
#include "graph/graph_ir.h"

namespace qnn::htp {

// Static tensor `in` with a blockwise-expansion encoding -> the per-channel tensor it expands to
// (same dtype, bitwidth of the dtype). Refused when an expanded value leaves the dtype's range or
// the tensor is not static. Other tensors are copied unchanged.
sdk::Status expandBlockwise(const sdk::TensorInfo& in, sdk::TensorInfo* out);

// Every blockwise static tensor of `graph` expanded in place; the number rewritten in *count.
sdk::Status expandBlockwiseTensors(sdk::GraphIR* graph, uint32_t* count);

}  // namespace qnn::htp
