// Fast loops for 8-bit fixed-point activations (UFIXED_POINT_8 / SFIXED_POINT_8),
// shared by the element-wise, activation and pooling kernels. They work on the
// stored bytes directly; every value that depends on the encodings comes from
// a table or constant the kernel computed at prepare with its scalar rule, so a
// fast path gives the same bits as the general per-element path.
#pragma once

#include <cstddef>
#include <cstdint>

#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {

// True for an 8-bit fixed-point tensor whose every byte is a valid stored value
// (no narrower bitwidth).
bool isByteActivation(const TensorView& t);
// The stored value a byte holds in an 8-bit tensor of dtype t (SFIXED: signed).
int64_t byteValue(DType t, uint8_t byte);

// out[i] = table[in[i]] for i < n (in == out allowed).
void lookupBytes(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t n);
// out[i] = clamp(in[i], lo, hi) on bytes read as uint8_t (isSigned false) or int8_t.
void clampBytes(const uint8_t* in, uint8_t* out, size_t n, bool isSigned, int32_t lo, int32_t hi);

// out[j] = max over r < nRows of rows[r][j], j < c, on bytes read as uint8_t
// (isSigned false) or int8_t; nRows >= 1. out may not overlap the rows.
void maxOfRows(const uint8_t* const* rows, size_t nRows, size_t c, bool isSigned, uint8_t* out);

// The requantization out = saturate(applyMultiplier(s, m) - outOffset, [lo, hi])
// unpacked for a vector loop; valid (usable()) when the multiplier's shift is in
// 1..62, so that for every int32 s it equals fx::requantize(s, m, outOffset, range).
struct ByteRequant {
  int64_t mantissa = 0, half = 0, outOffset = 0, lo = 0, hi = 0;
  int shift = 0;
  bool usable = false;
};
ByteRequant byteRequant(fx::FixedPointMultiplier m, int32_t outOffset, fx::QuantRange range);

// How an element-wise binary kernel combines its two per-byte table values
// before the requantization (kSum, kProduct) or instead of it (kMax, kMin: the
// tables already hold output values).
enum class ByteCombine { kSum, kProduct, kMax, kMin };
// out[i] = requantize(combine(ta[a[i]], tb[b[i]])) for i < n (r unused for kMax / kMin).
// The caller guarantees every combined value fits int32.
void combineBytes(ByteCombine how, const int32_t* ta, const int32_t* tb, const ByteRequant& r, const uint8_t* a,
                  const uint8_t* b, uint8_t* out, size_t n);

}  // namespace qnn::htp
