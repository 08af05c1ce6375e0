// Shared by the kernels that only move elements (shape ops, concat/split,
// slice/gather/pad): they work on raw bytes, so any dtype of a known size is
// fine as long as input and output agree, including their quantization.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/kernels/broadcast.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {

using sdk::checkSameElementType;
using sdk::checkOutputDimsAllowScalar;

// The bytes of one element holding real zero: all-zero bytes, or for fixed
// point the quantized zero (-offset), stored little-endian in the element's width.
inline std::vector<uint8_t> zeroElementBytes(const TensorView& t) {
  std::vector<uint8_t> bytes(sdk::dtypeSize(t.dtype), 0);
  if (sdk::dtypeIsFixedPoint(t.dtype)) {
    const int64_t q = -int64_t(t.quant.offset);
    for (size_t i = 0; i < bytes.size() && i < sizeof(q); ++i) bytes[i] = uint8_t(uint64_t(q) >> (8 * i));
  }
  return bytes;
}

// Row-major element strides of dims.
inline std::vector<size_t> rowMajorStrides(const std::vector<uint32_t>& dims) {
  std::vector<size_t> s(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) s[d - 1] = s[d] * dims[d];
  return s;
}

// Copies one element of `size` bytes; the switch lets the compiler use a
// single load/store for the common sizes.
inline void copyElement(uint8_t* dst, const uint8_t* src, size_t size) {
  switch (size) {
    case 1: *dst = *src; break;
    case 2: std::memcpy(dst, src, 2); break;
    case 4: std::memcpy(dst, src, 4); break;
    case 8: std::memcpy(dst, src, 8); break;
    default: std::memcpy(dst, src, size);
  }
}

// Writes the elements of a strided view of src contiguously to dst, in the
// view's row-major order: view element (i0..in) is at src + sum(i_d * steps[d])
// bytes (steps may be negative). Rows with a step of one element are memcpy'd.
inline void copyStridedView(const uint8_t* src, uint8_t* dst, const std::vector<size_t>& dims,
                            const std::vector<ptrdiff_t>& steps, size_t elementSize) {
  size_t total = 1;
  for (size_t d : dims) total *= d;
  if (total == 0) return;
  const size_t n = dims.size();
  const size_t rowLen = n ? dims[n - 1] : 1;
  const ptrdiff_t rowStep = n ? steps[n - 1] : 0;
  parallelFor(total / rowLen, std::max<size_t>(1, kElementwiseGrain / rowLen), [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      size_t rest = row;
      ptrdiff_t offset = 0;
      for (size_t d = n - 1; n > 0 && d-- > 0;) {
        offset += static_cast<ptrdiff_t>(rest % dims[d]) * steps[d];
        rest /= dims[d];
      }
      const uint8_t* s = src + offset;
      uint8_t* o = dst + row * rowLen * elementSize;
      if (rowStep == static_cast<ptrdiff_t>(elementSize)) {
        std::memcpy(o, s, rowLen * elementSize);
      } else {
        for (size_t i = 0; i < rowLen; ++i) copyElement(o + i * elementSize, s + i * rowStep, elementSize);
      }
    }
  });
}

}  // namespace qnn::cpu
