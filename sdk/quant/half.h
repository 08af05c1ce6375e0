// IEEE 754 binary16 ("half", fp16) conversions: the one rounding rule of the
// HTP simulator's fp16 mode. float -> half rounds to nearest, ties to even
// (the IEEE default, what the NPU's fp16 units do on conversion): values that
// round past 65504 become +-infinity, values below the smallest subnormal
// (2^-24) round to a signed zero or to the subnormal grid, NaN stays NaN.
// half -> float is exact.
#pragma once

#include <cstdint>

namespace qnn::sdk::quant {

// Bits of the binary16 nearest to f (ties to even).
uint16_t floatToHalfBits(float f);
// The float value of binary16 bits h (exact).
float halfBitsToFloat(uint16_t h);
// f rounded to the nearest binary16 value, returned as float.
inline float roundToHalf(float f) { return halfBitsToFloat(floatToHalfBits(f)); }

}  // namespace qnn::sdk::quant
