// Small builders for the HTP kernel unit tests: per-tensor quantized views and
// deterministic byte patterns.
#pragma once

#include <cstdint>
#include <vector>

#include "htp_sim/kernels/htp_kernel.h"

namespace qnn::htp::testing {

// A SCALE_OFFSET view of data (borrowed).
inline TensorView quantView(sdk::DType t, std::vector<uint32_t> dims, void* data, float scale, int32_t offset) {
  TensorView v;
  v.dtype = t;
  v.dims = std::move(dims);
  v.data = data;
  v.quant.kind = QuantInfo::Kind::kScaleOffset;
  v.quant.scale = scale;
  v.quant.offset = offset;
  return v;
}

// n values from a linear congruential sequence (the top bits), the same on every machine.
template <typename T>
std::vector<T> pattern(size_t n, uint32_t seed) {
  std::vector<T> v(n);
  for (auto& x : v) x = T((seed = seed * 1664525u + 1013904223u) >> (sizeof(T) == 1 ? 24 : 16));
  return v;
}

}  // namespace qnn::htp::testing
