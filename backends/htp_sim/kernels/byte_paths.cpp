#include "htp_sim/kernels/byte_paths.h"

// GCC 12 reports its own AVX-512 intrinsic headers (their _mm512_undefined_*
// placeholders) as maybe-uninitialized under -O2: false positives.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace qnn::htp {

bool isByteActivation(const TensorView& t) {
  return (t.dtype == DType::kUFixed8 || t.dtype == DType::kSFixed8) && (t.quant.bitwidth == 0 || t.quant.bitwidth == 8);
}

int64_t byteValue(DType t, uint8_t byte) { return t == DType::kSFixed8 ? int64_t(int8_t(byte)) : int64_t(byte); }

ByteRequant byteRequant(fx::FixedPointMultiplier m, int32_t outOffset, fx::QuantRange range) {
  ByteRequant r;
  const int shift = 31 - m.exponent;
  r.usable = shift >= 1 && shift <= 62;
  r.shift = r.usable ? shift : 1;
  r.mantissa = m.mantissa;
  r.half = int64_t(1) << (r.shift - 1);
  r.outOffset = outOffset;
  r.lo = range.lo;
  r.hi = range.hi;
  return r;
}

namespace {

// QNN_HTP_PORTABLE_KERNELS=1 forces the portable loops (as for the VNNI code).
bool avx512Available() {
  static const bool available = [] {
    const char* portable = std::getenv("QNN_HTP_PORTABLE_KERNELS");
    if (portable && std::strcmp(portable, "1") == 0) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0;
  }();
  return available;
}

// The portable loop: fx::applyMultiplier's int32 branch, then fx::requantize's
// offset and saturation.
template <ByteCombine kHow>
void combineLoop(const int32_t* ta, const int32_t* tb, const ByteRequant& r, const uint8_t* a, const uint8_t* b,
                 uint8_t* out, size_t n) {
  const int64_t mant = r.mantissa, half = r.half, outOffset = r.outOffset, lo = r.lo, hi = r.hi;
  const int shift = r.shift;
  for (size_t i = 0; i < n; ++i) {
    const int32_t x = ta[a[i]], y = tb[b[i]];
    if constexpr (kHow == ByteCombine::kMax) {
      out[i] = uint8_t(x > y ? x : y);
    } else if constexpr (kHow == ByteCombine::kMin) {
      out[i] = uint8_t(x < y ? x : y);
    } else {
      const int64_t p = int64_t(kHow == ByteCombine::kSum ? x + y : x * y) * mant;
      int64_t v = ((p + half - (p < 0)) >> shift) - outOffset;
      v = v < lo ? lo : v;
      out[i] = uint8_t(v > hi ? hi : v);
    }
  }
}

// The same loop, 16 elements at a time: table gathers, the rounding on 2 x 8
// int64 lanes, saturation, then the low byte of each value is stored.
struct Avx512Requant {
  __m512i mant, half, outOffset, lo, hi;
  __m128i shift;
};

__attribute__((target("avx512f"))) inline __m512i requantizeLanes(__m512i s, const Avx512Requant& k) {
  __m512i p = _mm512_mul_epi32(s, k.mant);  // low 32 bits of each lane (sign-extended) times the mantissa
  p = _mm512_sub_epi64(_mm512_add_epi64(p, k.half), _mm512_srli_epi64(p, 63));
  __m512i v = _mm512_sub_epi64(_mm512_sra_epi64(p, k.shift), k.outOffset);
  return _mm512_min_epi64(_mm512_max_epi64(v, k.lo), k.hi);
}

template <ByteCombine kHow>
__attribute__((target("avx512f"))) void combineAvx512(const int32_t* ta, const int32_t* tb, const ByteRequant& r,
                                                       const uint8_t* a, const uint8_t* b, uint8_t* out, size_t n) {
  const Avx512Requant k{_mm512_set1_epi64(r.mantissa), _mm512_set1_epi64(r.half), _mm512_set1_epi64(r.outOffset),
                        _mm512_set1_epi64(r.lo),       _mm512_set1_epi64(r.hi),   _mm_cvtsi32_si128(r.shift)};
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i ia = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)));
    const __m512i ib = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
    const __m512i x = _mm512_i32gather_epi32(ia, ta, 4), y = _mm512_i32gather_epi32(ib, tb, 4);
    __m512i v;
    if constexpr (kHow == ByteCombine::kMax) {
      v = _mm512_max_epi32(x, y);
    } else if constexpr (kHow == ByteCombine::kMin) {
      v = _mm512_min_epi32(x, y);
    } else {
      const __m512i s = kHow == ByteCombine::kSum ? _mm512_add_epi32(x, y) : _mm512_mullo_epi32(x, y);
      // Lanes 0..7 and 8..15 as int64, requantized, back to int32.
      const __m512i lo = requantizeLanes(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(s)), k);
      const __m512i hi = requantizeLanes(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(s, 1)), k);
      v = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)), _mm512_cvtepi64_epi32(hi), 1);
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm512_cvtepi32_epi8(v));
  }
  combineLoop<kHow>(ta, tb, r, a + i, b + i, out + i, n - i);
}

template <ByteCombine kHow>
void combineDispatch(const int32_t* ta, const int32_t* tb, const ByteRequant& r, const uint8_t* a, const uint8_t* b,
                     uint8_t* out, size_t n) {
  if (avx512Available()) combineAvx512<kHow>(ta, tb, r, a, b, out, n);
  else combineLoop<kHow>(ta, tb, r, a, b, out, n);
}

}  // namespace

void combineBytes(ByteCombine how, const int32_t* ta, const int32_t* tb, const ByteRequant& r, const uint8_t* a,
                  const uint8_t* b, uint8_t* out, size_t n) {
  switch (how) {
    case ByteCombine::kSum: combineDispatch<ByteCombine::kSum>(ta, tb, r, a, b, out, n); break;
    case ByteCombine::kProduct: combineDispatch<ByteCombine::kProduct>(ta, tb, r, a, b, out, n); break;
    case ByteCombine::kMax: combineDispatch<ByteCombine::kMax>(ta, tb, r, a, b, out, n); break;
    case ByteCombine::kMin: combineDispatch<ByteCombine::kMin>(ta, tb, r, a, b, out, n); break;
  }
}

namespace {
// Blocks of 64 channels in a local accumulator: fixed trip counts and no
// aliasing, so the byte max loops vectorize fully.
template <typename T>
inline __attribute__((always_inline)) void maxOfRowsTyped(const uint8_t* const* rows, size_t nRows, size_t c,
                                                          uint8_t* out) {
  constexpr size_t kBlock = 64;
  size_t j0 = 0;
  for (; j0 + kBlock <= c; j0 += kBlock) {
    T acc[kBlock];
    std::memcpy(acc, rows[0] + j0, kBlock);
    for (size_t r = 1; r < nRows; ++r) {
      T row[kBlock];
      std::memcpy(row, rows[r] + j0, kBlock);
      for (size_t j = 0; j < kBlock; ++j) acc[j] = acc[j] > row[j] ? acc[j] : row[j];
    }
    std::memcpy(out + j0, acc, kBlock);
  }
  for (size_t j = j0; j < c; ++j) {
    T m = T(rows[0][j]);
    for (size_t r = 1; r < nRows; ++r) m = std::max(m, T(rows[r][j]));
    out[j] = uint8_t(m);
  }
}
}  // namespace

__attribute__((target_clones("avx512f", "avx2", "default"))) void maxOfRows(const uint8_t* const* rows, size_t nRows,
                                                                              size_t c, bool isSigned, uint8_t* out) {
  if (isSigned) maxOfRowsTyped<int8_t>(rows, nRows, c, out);
  else maxOfRowsTyped<uint8_t>(rows, nRows, c, out);
}

namespace {
bool vbmiAvailable() {
  static const bool available = avx512Available() && __builtin_cpu_supports("avx512bw") &&
                                __builtin_cpu_supports("avx512vbmi");
  return available;
}

// 64 lookups at a time: the table's halves are 128-byte two-register tables
// for vpermi2b, selected by each index's top bit.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void lookupBytesVbmi(const uint8_t* table, const uint8_t* in,
                                                                              uint8_t* out, size_t n) {
  const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
  const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i idx = _mm512_loadu_si512(in + i);
    const __m512i low = _mm512_permutex2var_epi8(t0, idx, t1), high = _mm512_permutex2var_epi8(t2, idx, t3);
    _mm512_storeu_si512(out + i, _mm512_mask_blend_epi8(_mm512_movepi8_mask(idx), low, high));
  }
  for (; i < n; ++i) out[i] = table[in[i]];
}
}  // namespace

void lookupBytes(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t n) {
  if (vbmiAvailable()) {
    lookupBytesVbmi(table, in, out, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) out[i] = table[in[i]];
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void clampBytes(const uint8_t* in, uint8_t* out,
                                                                                size_t n, bool isSigned, int32_t lo,
                                                                                int32_t hi) {
  if (isSigned) {
    const int8_t l = int8_t(lo), h = int8_t(hi);
    const int8_t* s = reinterpret_cast<const int8_t*>(in);
    int8_t* d = reinterpret_cast<int8_t*>(out);
    for (size_t i = 0; i < n; ++i) d[i] = s[i] < l ? l : (s[i] > h ? h : s[i]);
  } else {
    const uint8_t l = uint8_t(lo), h = uint8_t(hi);
    for (size_t i = 0; i < n; ++i) out[i] = in[i] < l ? l : (in[i] > h ? h : in[i]);
  }
}

}  // namespace qnn::htp
