// Activations over contiguous float ranges, compiled per ISA, shared by their op kernels and the
// products that fold them (gemm::Clamp::gelu): a folded activation gives the values the op gives.
#pragma once

#include <cstddef>

namespace qnn::cpu {

// y[i] = Gelu(x[i]) = 0.5 x (1 + erf(x / sqrt 2)), i < n; y may be x. An element's value does not
// depend on where it sits in the range.
void geluRange(const float* x, float* y, size_t n);

}  // namespace qnn::cpu
