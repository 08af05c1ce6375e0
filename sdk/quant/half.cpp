#include "quant/half.h"

#include <cmath>
#include <cstring>

namespace qnn::sdk::quant {

uint16_t floatToHalfBits(float f) {
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

float halfBitsToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  const uint32_t bits = exp == 31 ? (sign | 0x7f800000u | (mant << 13)) : (sign | ((exp + 112) << 23) | (mant << 13));
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

}  // namespace qnn::sdk::quant
