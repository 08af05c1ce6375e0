// The one fixed-point requantization rule every quantized kernel uses
// (docs/htp-fixed-point.md is the specification; tests re-derive it independently).
//
// Encodings follow QNN: real = scale * (q + offset), offset = -zero_point.
// A real multiplier M > 0 (e.g. s_in * s_w / s_out, computed in double from the
// float scales) is stored as a Q31 integer m in [2^30, 2^31) and an exponent e:
//     M ~= m * 2^(e - 31)
// Applying it to an integer accumulator `acc` yields
//     round_half_away_from_zero(acc * m / 2^(31 - e))
// computed exactly (int64, or 128-bit when acc does not fit in int32): one
// rounding of the exact product, symmetric for positive and negative values.
// The result is then shifted by the output offset and saturated to the output
// type's range.
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>

#include "core/dtype.h"

namespace qnn::sdk::quant {

// A real multiplier as Q31 mantissa and power-of-two exponent. Zero means M == 0.
struct FixedPointMultiplier {
  int32_t mantissa = 0;  // in [2^30, 2^31) unless the multiplier is zero
  int32_t exponent = 0;  // M ~= mantissa * 2^(exponent - 31)
};

// Decomposes a finite real multiplier >= 0: mantissa = round_half_away(frac * 2^31)
// where real = frac * 2^exponent, frac in [0.5, 1) (a mantissa that rounds up to
// 2^31 is halved and the exponent incremented). Returns false for negative,
// non-finite or too large (>= 2^31) multipliers; multipliers below 2^-62 become zero.
bool decomposeMultiplier(double real, FixedPointMultiplier* out);

// round_half_away_from_zero(acc * m.mantissa / 2^(31 - m.exponent)), saturated to int64.
// Inline and branch-free in the common case (int32 accumulator): it runs once
// per output element of every quantized kernel.
int64_t applyMultiplierWide(int64_t acc, FixedPointMultiplier m);
inline int64_t applyMultiplier(int64_t acc, FixedPointMultiplier m) {
  const int shift = 31 - m.exponent;  // 0..93 for a decomposed multiplier
  if (__builtin_expect(acc >= INT32_MIN && acc <= INT32_MAX && shift >= 1 && shift <= 62, 1)) {
    const int64_t p = acc * int64_t(m.mantissa);  // |p| < 2^62
    // (p + half) >> shift rounds half up; subtracting 1 for negative p makes
    // it half away from zero (arithmetic shift = floor).
    return (p + (int64_t(1) << (shift - 1)) - (p < 0)) >> shift;
  }
  if (__builtin_expect(shift >= 1 && shift <= 62, 1)) {
    // The same rounding in 128 bits, inline (e.g. Add's sums at a 2^20-finer
    // common scale): |p| < 2^94, the result saturated to int64.
    __extension__ typedef __int128 Wide;
    const Wide p = Wide(acc) * m.mantissa;
    const Wide r = (p + (Wide(1) << (shift - 1)) - (p < 0)) >> shift;
    return r > INT64_MAX ? INT64_MAX : (r < INT64_MIN ? INT64_MIN : int64_t(r));
  }
  return applyMultiplierWide(acc, m);
}

// Inclusive range of the stored integer values of a fixed-point / integer dtype:
// UFIXED_POINT_8 0..255, SFIXED_POINT_8 -128..127, UFIXED_POINT_16 0..65535,
// SFIXED_POINT_16 -32768..32767, 32-bit types their full range. `bitwidth` (0 =
// the dtype's width) narrows the range for e.g. 4-bit values stored in 8 bits.
struct QuantRange {
  int64_t lo = 0, hi = 0;
};
QuantRange quantRange(DType t, uint32_t bitwidth = 0);

inline int64_t saturate(int64_t v, QuantRange r) { return v < r.lo ? r.lo : (v > r.hi ? r.hi : v); }

// The whole requantization of an accumulator into an output value:
// saturate(applyMultiplier(acc, m) - outOffset, range).
inline int64_t requantize(int64_t acc, FixedPointMultiplier m, int32_t outOffset, QuantRange range) {
  return saturate(applyMultiplier(acc, m) - outOffset, range);
}

static_assert(FLT_EVAL_METHOD == 0, "float32QuotientStep needs float32 arithmetic without excess precision");

// round(x / scale), half to even, of the float32 quotient: how ONNX Runtime's
// QuantizeLinear (and HVX float -> int conversion) turn a float into a step count,
// so a quotient that is a tie in float32 but not in double rounds as the tie
// (20.f / (200.f / 255.f) is 25.5f -> 26; in double 25.4999999 -> 25). `wide`
// (outputs of more than 16 bits, whose steps float32 cannot hold): the quotient
// in double, rounded half to even.
inline double float32QuotientStep(float x, float scale, bool wide) {
  if (wide) return std::nearbyint(static_cast<double>(x) / static_cast<double>(scale));
  const float quotient = x / scale;  // a float32 division (FLT_EVAL_METHOD 0 on x86-64 and AArch64)
  return std::nearbyint(quotient);
}

// real -> stored value (float to fixed point):
// saturate(nearbyint(float(real) / float(scale)) - offset), the quotient in float32
// (float32QuotientStep); ranges wider than 16 bits (e.g. int32) divide
// double(real) / double(scale) instead. NaN maps to the value of real 0,
// infinities and reals beyond float's range saturate.
int64_t quantizeValue(double real, float scale, int32_t offset, QuantRange range);
// stored value -> real, in float arithmetic: scale * float(q + offset).
inline float dequantizeValue(int64_t q, float scale, int32_t offset) {
  return scale * static_cast<float>(q + offset);
}

// round_half_away_from_zero(num / den) for den > 0, exact for all int64 num.
int64_t roundedDivide(int64_t num, int64_t den);

}  // namespace qnn::sdk::quant
