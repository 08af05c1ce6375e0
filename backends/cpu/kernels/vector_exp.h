// sdk::expApprox (core/vector_math.h) on 16 / 8 floats at once, for kernels
// whose loops GCC leaves (partly) scalar: the same range reduction, Cephes
// polynomial and special cases (0 below -87.3, saturation above 88.3, NaN
// kept), so values match the scalar function to the last bit or two; and erf
// on 16 floats (tests/conformance/kernel_vector_exp_test.cpp checks them
// against double exp and erf). Include only from files that pick functions
// per ISA (cpu_isa.h).
#pragma once

#if defined(__x86_64__)
#include "cpu/kernels/x86_simd.h"

#include <cstdint>

#include "cpu/kernels/cpu_isa.h"

namespace qnn::cpu::vexp {

// The shared core of exp512 and expNonPositive512: n = round(x / ln 2) (by the shift trick) and
// e^(x - n ln 2) on the Cephes polynomial; e^x = result * 2^n.
QNN_CPU_TARGET_AVX512 inline __m512 expReduced512(__m512 x, __m512* n) {
  const __m512 shift = _mm512_set1_ps(12582912.f);
  *n = _mm512_sub_ps(_mm512_fmadd_ps(x, _mm512_set1_ps(1.44269504088896341f), shift), shift);
  const __m512 r = _mm512_fnmadd_ps(*n, _mm512_set1_ps(-2.12194440e-4f),
                                    _mm512_fnmadd_ps(*n, _mm512_set1_ps(0.693359375f), x));
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  return _mm512_add_ps(_mm512_fmadd_ps(_mm512_mul_ps(p, r), r, r), _mm512_set1_ps(1.f));
}

QNN_CPU_TARGET_AVX512 inline __m512 exp512(__m512 x) {
  const __m512 in = x;
  const __mmask16 underflow = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.3f), _CMP_LT_OQ);
  const __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
  x = _mm512_min_ps(x, _mm512_set1_ps(88.3f));
  x = _mm512_max_ps(x, _mm512_set1_ps(-87.3f));
  x = _mm512_mask_mov_ps(x, nan, _mm512_setzero_ps());
  __m512 n;
  const __m512 er = expReduced512(x, &n);
  const __m512i bits = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
  __m512 result = _mm512_mul_ps(er, _mm512_castsi512_ps(bits));
  result = _mm512_mask_mov_ps(result, underflow, _mm512_setzero_ps());
  return _mm512_mask_mov_ps(result, nan, in);
}

// exp512 for x <= 0 (and NaN, -inf): a softmax's exp(beta * x - max). Bit-identical to exp512
// there, in 15 operations instead of 23: no saturation above (nothing to saturate), 2^n applied by
// scalef (exact for the normal results; the lanes below -87.3 go to 0 as in exp512, including
// -inf, whose reduction is NaN), NaN through the arithmetic. A tiny positive x (the rounding of
// beta * x - max) is exact too.
QNN_CPU_TARGET_AVX512 inline __m512 expNonPositive512(__m512 x) {
  const __mmask16 underflow = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.3f), _CMP_LT_OQ);
  __m512 n;
  const __m512 er = expReduced512(x, &n);
  return _mm512_maskz_mov_ps(__mmask16(~underflow), _mm512_scalef_ps(er, n));
}

QNN_CPU_TARGET_AVX2 inline __m256 exp256(__m256 x) {
  const __m256 in = x;
  const __m256 underflow = _mm256_cmp_ps(x, _mm256_set1_ps(-87.3f), _CMP_LT_OQ);
  const __m256 nan = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
  x = _mm256_min_ps(x, _mm256_set1_ps(88.3f));
  x = _mm256_max_ps(x, _mm256_set1_ps(-87.3f));
  x = _mm256_andnot_ps(nan, x);
  const __m256 shift = _mm256_set1_ps(12582912.f);
  const __m256 n = _mm256_sub_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(1.44269504088896341f), shift), shift);
  const __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f),
                                    _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x));
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  const __m256 er = _mm256_add_ps(_mm256_fmadd_ps(_mm256_mul_ps(p, r), r, r), _mm256_set1_ps(1.f));
  const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  __m256 result = _mm256_mul_ps(er, _mm256_castsi256_ps(bits));
  result = _mm256_andnot_ps(underflow, result);
  return _mm256_blendv_ps(result, in, nan);
}

// erf for |x| <= 2: x P(x^2) / Q(x^2), a rational fit made for this file
// (weighted least squares toward minimax against mpmath's erf on [0, 2], then
// each coefficient nudged by a few float ulps to cut the float32 rounding):
// within 2.2e-7 absolute there, 8e-9 before rounding, and relative to erf
// near 0 (where the erfc form below loses to cancellation). Nine FMAs and a
// division, against a division, ten FMAs and an exp for the erfc form.
QNN_CPU_TARGET_AVX512 inline __m512 erfNear512(__m512 x) {
  const __m512 t = _mm512_mul_ps(x, x);
  __m512 p = _mm512_set1_ps(2.386186861e-05f);
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-2.376004704e-04f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(3.499991447e-02f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.048868448e-01f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.128379226e+00f));
  __m512 q = _mm512_set1_ps(5.351501517e-03f);
  q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(7.310840487e-02f));
  q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(4.262880087e-01f));
  q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(1.f));
  return _mm512_div_ps(_mm512_mul_ps(x, p), q);
}

// sdk::erfApprox (erfc's Chebyshev fit, reflected for negative x) on 16
// floats: accurate to a few 1e-8 in the tails, where erf is near +-1.
QNN_CPU_TARGET_AVX512 inline __m512 erfFar512(__m512 x) {
  const __m512 z = _mm512_abs_ps(x);
  const __m512 t = _mm512_div_ps(_mm512_set1_ps(1.f), _mm512_fmadd_ps(_mm512_set1_ps(0.5f), z, _mm512_set1_ps(1.f)));
  __m512 p = _mm512_set1_ps(0.17087277f);
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-0.82215223f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.48851587f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-1.13520398f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.27886807f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-0.18628806f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.09678418f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.37409196f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.00002368f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-1.26551223f));
  const __m512 erfcz = _mm512_mul_ps(t, exp512(_mm512_fnmadd_ps(z, z, p)));
  const __m512 magnitude = _mm512_sub_ps(_mm512_set1_ps(1.f), erfcz);
  // copysign(magnitude, x): the sign bit of x on |magnitude|.
  const __m512i sign = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(int32_t(0x80000000u)));
  return _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(_mm512_abs_ps(magnitude)), sign));
}

// erf on 16 floats, each lane from its own value alone: erfNear512 where
// |x| <= 2, erfFar512 elsewhere (and for NaN). A vector with no lane beyond 2
// skips the erfc form, four times as costly: a transformer's Gelu spent 36
// cycles per vector on it, 10 on the rational form.
QNN_CPU_TARGET_AVX512 inline __m512 erf512(__m512 x) {
  const __mmask16 far = _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(2.f), _CMP_NLE_UQ);
  const __m512 near = erfNear512(x);
  return far == 0 ? near : _mm512_mask_blend_ps(far, near, erfFar512(x));
}

}  // namespace qnn::cpu::vexp
#endif
