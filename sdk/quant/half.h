// IEEE 754 binary16 ("half", fp16) conversions: the one rounding rule of the
// HTP simulator's fp16 mode. float -> half rounds to nearest, ties to even
// (the IEEE default, what the NPU's fp16 units do on conversion): values that
// round past 65504 become +-infinity, values below the smallest subnormal
// (2^-24) round to a signed zero or to the subnormal grid, NaN stays NaN.
// half -> float is exact.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace qnn::sdk::quant {

// Inline: the fp16 kernels convert every element they load and store.
// Bits of the binary16 nearest to f (ties to even).
inline uint16_t floatToHalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
  // 65520 (0x477ff000) is halfway between 65504 and 2^16 and ties to the even
  // neighbour 2^16, which is out of range: infinity.
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (absx < 0x38800000u) {  // below 2^-14: the subnormal grid of step 2^-24
    float a;
    std::memcpy(&a, &absx, 4);
    // a * 2^24 is exact in float; nearbyint rounds ties to even in the default mode.
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f)));
  }
  // Normal: drop 13 mantissa bits, rounding to nearest even, and rebias the
  // exponent (127 -> 15); a mantissa carry correctly bumps the exponent.
  const uint32_t rounded = absx + 0xfffu + ((absx >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

// The float value of binary16 bits h (exact).
inline float halfBitsToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    // mant * 2^-24 is exact in float (a normal float32); a multiplication, not ldexp.
    const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  const uint32_t bits = exp == 31 ? (sign | 0x7f800000u | (mant << 13)) : (sign | ((exp + 112) << 23) | (mant << 13));
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

// f rounded to the nearest binary16 value, returned as float.
inline float roundToHalf(float f) { return halfBitsToFloat(floatToHalfBits(f)); }

}  // namespace qnn::sdk::quant
