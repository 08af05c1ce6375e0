// exp and erf for float loops that the compiler vectorizes: branch-free, no
// libm calls, integer tricks through __builtin_bit_cast. std::exp / std::erf
// are scalar calls of a few nanoseconds each; in a loop compiled for AVX2 or
// AVX-512 these run 8 or 16 lanes per instruction. Accuracy (measured against
// double-precision libm by tests/unit/test_vector_math.cpp): expApprox within
// 2.5e-7 relative over its range, erfApprox within 3.5e-7 absolute.
#pragma once

#include <cmath>
#include <cstdint>

namespace qnn::sdk {

// e^x. Below -87.3 the result is 0 (the float range ends there), above 88.3 it
// saturates to e^88.3; NaN stays NaN.
inline float expApprox(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  const float in = x;
  const bool underflow = x < -87.3f;
  x = x > 88.3f ? 88.3f : x;
  x = x < -87.3f ? -87.3f : x;
  x = x != x ? 0.f : x;  // NaN: computed on 0, returned as NaN below
  // n = round(x / ln 2) by the 1.5 * 2^23 trick (round to nearest, no libm call)
  const float n = (x * kLog2e + 12582912.f) - 12582912.f;
  const float r = (x - n * kLn2Hi) - n * kLn2Lo;  // |r| <= ln2 / 2
  // Cephes expf polynomial: e^r = 1 + r + r^2 * p(r)
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float er = (p * r) * r + r + 1.f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;  // 2^n
  const float result = er * __builtin_bit_cast(float, bits);
  return in != in ? in : (underflow ? 0.f : result);
}

// erf(x) from erfc's Chebyshev fit (Numerical Recipes erfcc: fractional error
// below 1.2e-7), reflected for negative x; saturates to +-1 beyond |x| = 9.
inline float erfApprox(float x) {
  const float z = std::fabs(x);
  const float t = 1.f / (1.f + 0.5f * z);
  float p = 0.17087277f;
  p = p * t - 0.82215223f;
  p = p * t + 1.48851587f;
  p = p * t - 1.13520398f;
  p = p * t + 0.27886807f;
  p = p * t - 0.18628806f;
  p = p * t + 0.09678418f;
  p = p * t + 0.37409196f;
  p = p * t + 1.00002368f;
  p = p * t - 1.26551223f;
  const float erfcz = t * expApprox(-z * z + p);
  return std::copysign(1.f - erfcz, x);
}

}  // namespace qnn::sdk
