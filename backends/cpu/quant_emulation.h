// Runs float kernels on fixed-point tensors (the CPU backend's int8 mode):
// inputs are dequantized, outputs quantized with the tensor's encoding.
// Rounding: round half to even (std::nearbyint), then saturate to the dtype.
#pragma once

#include "graph/graph_ir.h"

namespace qnn::cpu {

void dequantizeToFloat(const sdk::TensorInfo& t, const void* src, float* dst);
void quantizeFromFloat(const sdk::TensorInfo& t, const float* src, void* dst);

}  // namespace qnn::cpu
