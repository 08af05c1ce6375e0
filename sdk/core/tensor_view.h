// TensorView: what a kernel sees of a tensor. It never owns the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dtype.h"

namespace qnn::sdk {

// Quantization of a fixed-point tensor: real = scale * (q + offset), the QNN
// convention (offset is the negated zero point).
struct QuantInfo {
  enum class Kind { kNone, kScaleOffset, kAxisScaleOffset };
  Kind kind = Kind::kNone;
  float scale = 0.f;  // kScaleOffset
  int32_t offset = 0;
  int32_t axis = 0;             // kAxisScaleOffset: the channel axis
  std::vector<float> scales;    // kAxisScaleOffset: one per channel
  std::vector<int32_t> offsets; // kAxisScaleOffset: one per channel
  uint32_t bitwidth = 0;        // 0 = the width of the dtype

  bool operator==(const QuantInfo& o) const {
    return kind == o.kind && scale == o.scale && offset == o.offset && axis == o.axis &&
           scales == o.scales && offsets == o.offsets && bitwidth == o.bitwidth;
  }
};

struct TensorView {
  void* data = nullptr;  // borrowed; valid for the duration of the call
  DType dtype = DType::kUndefined;
  std::vector<uint32_t> dims;
  QuantInfo quant;

  size_t rank() const { return dims.size(); }
  size_t numElements() const {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return n;
  }
  size_t byteSize() const { return numElements() * dtypeSize(dtype); }
  template <typename T>
  T* as() const { return static_cast<T*>(data); }
};

}  // namespace qnn::sdk
