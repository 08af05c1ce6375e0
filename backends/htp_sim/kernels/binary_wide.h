// Element-wise Add / Subtract / Multiply of two 8/16-bit fixed-point activations along
// contiguous runs (binary.cpp prepares the constants with its scalar rule and checks the
// bounds that keep every step below in int64; the loops give that rule's bits):
//   x = a + offA, y = b + offB
//   Add / Subtract: x = round_half_away(x * mantA / 2^shiftA) (same for y), s = x +- y
//   Multiply: s = x * y
//   out = saturate(round_half_away(s * mantOut / 2^shiftOut) - outOffset, [lo, hi]),
//   the product s * mantOut taken as (s >> 16) * mantOut * 2^16 + (s & 0xffff) * mantOut.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {

struct WideBinary;
using WideBinaryLoop = void (*)(const WideBinary& w, const void* a, const void* b, void* out, size_t n);

struct WideBinary {
  bool multiply = false, subtract = false;
  int64_t offA = 0, offB = 0;
  int64_t mantA = 0, halfA = 0, mantB = 0, halfB = 0;  // Add / Subtract
  int shiftA = 1, shiftB = 1;
  int64_t mantOut = 0, halfOut = 0, outOffset = 0, lo = 0, hi = 0;
  int shiftOut = 16;  // >= 16
  WideBinaryLoop loop = nullptr;
};

// The loop for these stored types (8/16-bit fixed point; AVX-512 unless
// QNN_HTP_PORTABLE_KERNELS=1 or the CPU lacks it), or nullptr for other dtypes.
WideBinaryLoop wideBinaryLoop(DType a, DType b, DType out, bool multiply);

// Tests: false makes binary kernels prepared afterwards take the per-element path.
extern std::atomic<bool> gBinaryWidePath;

}  // namespace qnn::htp
