#include "htp_sim/kernels/binary_wide.h"

// GCC 12 reports its own AVX-512 intrinsic headers as maybe-uninitialized under -O2: false positives.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <type_traits>

#include "htp_sim/kernels/quant_gemm.h"

namespace qnn::htp {
namespace {

template <typename TA, typename TB, typename TO, bool kMultiply>
void wideScalar(const WideBinary& w, const TA* a, const TB* b, TO* out, size_t n) {
  const int64_t mantOut = w.mantOut, halfOut = w.halfOut, outOffset = w.outOffset, lo = w.lo, hi = w.hi;
  const int shiftLow = w.shiftOut - 16;
  for (size_t i = 0; i < n; ++i) {
    int64_t x = int64_t(a[i]) + w.offA, y = int64_t(b[i]) + w.offB, s;
    if constexpr (kMultiply) {
      s = x * y;
    } else {
      const int64_t px = x * w.mantA, py = y * w.mantB;
      x = (px + w.halfA - (px < 0)) >> w.shiftA;
      y = (py + w.halfB - (py < 0)) >> w.shiftB;
      s = w.subtract ? x - y : x + y;
    }
    const int64_t low = (s & 0xffff) * mantOut + halfOut - (s < 0);
    int64_t v = (((s >> 16) * mantOut + (low >> 16)) >> shiftLow) - outOffset;
    v = v < lo ? lo : v;
    out[i] = TO(v > hi ? hi : v);
  }
}

template <typename T>
__attribute__((target("avx512f"))) inline __m512i load8(const T* p) {
  if constexpr (sizeof(T) == 1) {
    const __m128i raw = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    return std::is_signed_v<T> ? _mm512_cvtepi8_epi64(raw) : _mm512_cvtepu8_epi64(raw);
  } else {
    const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return std::is_signed_v<T> ? _mm512_cvtepi16_epi64(raw) : _mm512_cvtepu16_epi64(raw);
  }
}

// round_half_away(x * mant / 2^shift) on int64 lanes whose x fits int32.
__attribute__((target("avx512f"))) inline __m512i roundedProduct(__m512i x, __m512i mant, __m512i half, __m128i shift) {
  const __m512i p = _mm512_mul_epi32(x, mant);
  return _mm512_sra_epi64(_mm512_sub_epi64(_mm512_add_epi64(p, half), _mm512_srli_epi64(p, 63)), shift);
}

template <typename TA, typename TB, typename TO, bool kMultiply>
__attribute__((target("avx512f"))) size_t wideAvx512(const WideBinary& w, const TA* a, const TB* b, TO* out,
                                                     size_t n) {
  const __m512i offA = _mm512_set1_epi64(w.offA), offB = _mm512_set1_epi64(w.offB);
  const __m512i mantA = _mm512_set1_epi64(w.mantA), halfA = _mm512_set1_epi64(w.halfA);
  const __m512i mantB = _mm512_set1_epi64(w.mantB), halfB = _mm512_set1_epi64(w.halfB);
  const __m128i shiftA = _mm_cvtsi32_si128(w.shiftA), shiftB = _mm_cvtsi32_si128(w.shiftB);
  const __m512i mantOut = _mm512_set1_epi64(w.mantOut), halfOut = _mm512_set1_epi64(w.halfOut);
  const __m512i outOffset = _mm512_set1_epi64(w.outOffset), lo = _mm512_set1_epi64(w.lo), hi = _mm512_set1_epi64(w.hi);
  const __m512i lowMask = _mm512_set1_epi64(0xffff);
  const __m128i shiftLow = _mm_cvtsi32_si128(w.shiftOut - 16);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m512i x = _mm512_add_epi64(load8(a + i), offA), y = _mm512_add_epi64(load8(b + i), offB), s;
    if constexpr (kMultiply) {
      s = _mm512_mul_epi32(x, y);
    } else {
      x = roundedProduct(x, mantA, halfA, shiftA);
      y = roundedProduct(y, mantB, halfB, shiftB);
      s = w.subtract ? _mm512_sub_epi64(x, y) : _mm512_add_epi64(x, y);
    }
    __m512i low = _mm512_mul_epi32(_mm512_and_si512(s, lowMask), mantOut);
    low = _mm512_sub_epi64(_mm512_add_epi64(low, halfOut), _mm512_srli_epi64(s, 63));
    const __m512i high = _mm512_mul_epi32(_mm512_srai_epi64(s, 16), mantOut);
    __m512i v = _mm512_sra_epi64(_mm512_add_epi64(high, _mm512_srai_epi64(low, 16)), shiftLow);
    v = _mm512_min_epi64(_mm512_max_epi64(_mm512_sub_epi64(v, outOffset), lo), hi);
    if constexpr (sizeof(TO) == 1) _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), _mm512_cvtepi64_epi8(v));
    else _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm512_cvtepi64_epi16(v));
  }
  return i;
}

template <typename TA, typename TB, typename TO, bool kMultiply>
void wideLoop(const WideBinary& w, const void* a, const void* b, void* out, size_t n) {
  const TA* pa = static_cast<const TA*>(a);
  const TB* pb = static_cast<const TB*>(b);
  TO* po = static_cast<TO*>(out);
  static const bool vector = vnniAvailable();
  const size_t done = vector ? wideAvx512<TA, TB, TO, kMultiply>(w, pa, pb, po, n) : 0;
  wideScalar<TA, TB, TO, kMultiply>(w, pa + done, pb + done, po + done, n - done);
}

// Resolves one dtype at a time into the template arguments.
template <typename... T>
struct Typed {};

template <bool kMultiply, typename... Done>
WideBinaryLoop pick(Typed<Done...>) {
  return &wideLoop<Done..., kMultiply>;
}

template <bool kMultiply, typename... Done, typename... Rest>
WideBinaryLoop pick(Typed<Done...>, DType t, Rest... rest) {
  switch (t) {
    case DType::kUFixed8: return pick<kMultiply>(Typed<Done..., uint8_t>{}, rest...);
    case DType::kSFixed8: return pick<kMultiply>(Typed<Done..., int8_t>{}, rest...);
    case DType::kUFixed16: return pick<kMultiply>(Typed<Done..., uint16_t>{}, rest...);
    case DType::kSFixed16: return pick<kMultiply>(Typed<Done..., int16_t>{}, rest...);
    default: return nullptr;
  }
}

}  // namespace

WideBinaryLoop wideBinaryLoop(DType a, DType b, DType out, bool multiply) {
  return multiply ? pick<true>(Typed<>{}, a, b, out) : pick<false>(Typed<>{}, a, b, out);
}

}  // namespace qnn::htp
