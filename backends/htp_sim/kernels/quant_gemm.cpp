#include "htp_sim/kernels/quant_gemm.h"

// GCC 12 reports its own AVX-512 intrinsic headers (their _mm512_undefined_*
// placeholders) as maybe-uninitialized under -O2: false positives.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace qnn::htp {

bool vnniAvailable() {
  static const bool available = [] {
    const char* portable = std::getenv("QNN_HTP_PORTABLE_KERNELS");
    if (portable && std::strcmp(portable, "1") == 0) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512vnni");
  }();
  return available;
}

namespace {

constexpr size_t kLanes = 16;  // int32 lanes of a zmm register
// The largest sum of K products |a * b| with a <= 255 that stays below 2^31.
bool narrowIsExact(size_t k, int64_t maxAbsB) {
  return int64_t(k) * 255 * std::max<int64_t>(maxAbsB, 1) < (int64_t(1) << 31);
}

// Four consecutive A bytes of row r as one int32 (the tail quad zero padded).
inline int32_t quadAt(const uint8_t* row, size_t kq, size_t k) {
  int32_t v = 0;
  const size_t start = kq * 4;
  if (start + 4 <= k) std::memcpy(&v, row + start, 4);
  else std::memcpy(&v, row + start, k - start);
  return v;
}

// acc += a (unsigned bytes) . b (signed bytes) per int32 lane, in place. GCC 12
// models the intrinsic as non-destructive and copies every accumulator each
// iteration (twice the uops of the multiply-adds); the asm pins it to the register.
__attribute__((target("avx512f,avx512vnni"))) inline __m512i dpbusd(__m512i acc, __m512i a, __m512i b) {
  asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
  return acc;
}

// MR rows x NB blocks of 16 columns (block nb0..nb0+NB-1); accumulators stay
// in registers. c points at column col0 of row 0; columns >= colEnd are not stored.
template <int MR, int NB>
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void vnniTile(const uint8_t* a, size_t lda, size_t k,
                                                                      const int8_t* packed, size_t kQuads,
                                                                      size_t nb0, size_t col0, size_t colEnd,
                                                                      const int32_t* rowSums, const int32_t* colShift,
                                                                      int32_t* c, size_t ldc) {
  __m512i acc[MR][NB];
  for (int r = 0; r < MR; ++r)
    for (int j = 0; j < NB; ++j) acc[r][j] = _mm512_setzero_si512();
  const size_t fullQuads = k / 4;
  const int8_t* bBase = packed + nb0 * kQuads * kLanes * 4;
  const size_t bStride = kQuads * kLanes * 4;
  size_t kq = 0;
  for (; kq < fullQuads; ++kq) {
    __m512i b[NB];
    for (int j = 0; j < NB; ++j) b[j] = _mm512_loadu_si512(bBase + j * bStride + kq * kLanes * 4);
    for (int r = 0; r < MR; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + r * lda + kq * 4, 4);
      const __m512i av = _mm512_set1_epi32(quad);
      for (int j = 0; j < NB; ++j) acc[r][j] = dpbusd(acc[r][j], av, b[j]);
    }
  }
  if (kq < kQuads) {  // the zero-padded tail quad: never read past a row's k bytes
    __m512i b[NB];
    for (int j = 0; j < NB; ++j) b[j] = _mm512_loadu_si512(bBase + j * bStride + kq * kLanes * 4);
    for (int r = 0; r < MR; ++r) {
      const __m512i av = _mm512_set1_epi32(quadAt(a + r * lda, kq, k));
      for (int j = 0; j < NB; ++j) acc[r][j] = dpbusd(acc[r][j], av, b[j]);
    }
  }
  if (rowSums)  // shifted columns: + shift[j] * rowSum(r), wrapping (the exact sum fits int32)
    for (int j = 0; j < NB; ++j) {
      const __m512i shift = _mm512_loadu_si512(colShift + (nb0 + j) * kLanes);
      for (int r = 0; r < MR; ++r)
        acc[r][j] = _mm512_add_epi32(acc[r][j], _mm512_mullo_epi32(_mm512_set1_epi32(rowSums[r]), shift));
    }
  for (int r = 0; r < MR; ++r)
    for (int j = 0; j < NB; ++j) {
      const size_t col = (nb0 + j) * kLanes;
      int32_t* dst = c + r * ldc + (col - col0);
      if (col + kLanes <= colEnd) {
        _mm512_storeu_si512(dst, acc[r][j]);
      } else {
        const __mmask16 keep = __mmask16((1u << (colEnd - col)) - 1);
        _mm512_mask_storeu_epi32(dst, keep, acc[r][j]);
      }
    }
}

// Rows [0, rows) x blocks [nb0, nb0 + NB): the row loop inside, so the NB
// blocks of B stay in L1/L2 while A streams.
template <int NB>
void vnniPanel(const uint8_t* a, size_t rows, size_t lda, size_t k, const int8_t* packed, size_t kQuads, size_t nb0,
               size_t col0, size_t colEnd, const int32_t* rowSums, const int32_t* colShift, int32_t* c, size_t ldc) {
  size_t m = 0;
  auto tile = [&](auto mr) {
    constexpr int MR = decltype(mr)::value;
    vnniTile<MR, NB>(a + m * lda, lda, k, packed, kQuads, nb0, col0, colEnd, rowSums ? rowSums + m : nullptr,
                     colShift, c + m * ldc, ldc);
    m += MR;
  };
  // 6 rows x 4 blocks = 24 accumulators + 4 B vectors + 1 broadcast: 29 of the 32 zmm registers.
  while (m + 6 <= rows) tile(std::integral_constant<int, 6>{});
  switch (rows - m) {
    case 5: tile(std::integral_constant<int, 5>{}); break;
    case 4: tile(std::integral_constant<int, 4>{}); break;
    case 3: tile(std::integral_constant<int, 3>{}); break;
    case 2: tile(std::integral_constant<int, 2>{}); break;
    case 1: tile(std::integral_constant<int, 1>{}); break;
    default: break;
  }
}

// Sum of the k bytes of each row (exact in int32: k * 255 < 2^31 on the narrow path).
__attribute__((target("avx512f,avx512bw"))) void rowByteSums(const uint8_t* a, size_t rows, size_t lda, size_t k,
                                                              int32_t* sums) {
  for (size_t r = 0; r < rows; ++r) {
    const uint8_t* row = a + r * lda;
    __m512i acc = _mm512_setzero_si512();
    for (size_t i = 0; i < k; i += 64) {
      const __mmask64 lanes = k - i >= 64 ? ~__mmask64(0) : (__mmask64(1) << (k - i)) - 1;
      acc = _mm512_add_epi64(acc, _mm512_sad_epu8(_mm512_maskz_loadu_epi8(lanes, row + i), _mm512_setzero_si512()));
    }
    sums[r] = int32_t(_mm512_reduce_add_epi64(acc));
  }
}

// Columns [col0, colEnd) of the K x N row-major b; c has row stride ldc.
template <typename TA, typename TAcc>
void portableMultiply(const TA* a, size_t rows, size_t lda, const int32_t* b, size_t k, size_t n, size_t col0,
                      size_t colEnd, TAcc* c, size_t ldc) {
  for (size_t m = 0; m < rows; ++m) {
    TAcc* __restrict out = c + m * ldc;
    std::fill(out, out + (colEnd - col0), TAcc(0));
    const TA* row = a + m * lda;
    for (size_t kk = 0; kk < k; ++kk) {
      const TAcc av = TAcc(row[kk]);
      if (av == 0) continue;
      const int32_t* __restrict brow = b + kk * n + col0;
      for (size_t j = 0; j < colEnd - col0; ++j) out[j] += av * TAcc(brow[j]);
    }
  }
}

}  // namespace

bool QuantGemm::pack(const int32_t* b, size_t k, size_t n, bool narrowA, bool allowVnni) {
  k_ = k, n_ = n;
  rowMajor_.assign(b, b + k * n);
  colSums_.assign(n, 0);
  std::vector<int32_t> colMin(n, INT32_MAX), colMax(n, INT32_MIN);
  int64_t maxAbs = 0;
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) {
      const int32_t v = b[kk * n + j];
      colSums_[j] += v;
      maxAbs = std::max<int64_t>(maxAbs, v < 0 ? -int64_t(v) : v);
      colMin[j] = std::min(colMin[j], v), colMax[j] = std::max(colMax[j], v);
    }
  // Each byte plane of a 16-bit A (A = 256 hi + lo) sums as an 8-bit A does, so VNNI also
  // serves the wide path when the narrow sums of B are exact.
  const bool byteSumsExact = narrowIsExact(k, maxAbs);
  narrow_ = narrowA && byteSumsExact;
  // VNNI multiplies by int8: a column whose values span at most 256 integers is
  // stored as b - shift[j] and the kernel adds shift[j] * rowSum(A) back
  // (asymmetric uint8 weights: b = w + offset spans 256 values but not -128..127).
  colShift_.assign(n, 0);
  bool spansFit = true;
  for (size_t j = 0; j < n && k > 0; ++j) {
    spansFit = spansFit && int64_t(colMax[j]) - colMin[j] <= 255;
    if (colMin[j] < -128 || colMax[j] > 127) colShift_[j] = colMax[j] > 127 ? colMax[j] - 127 : colMin[j] + 128;
  }
  hasColShift_ = std::any_of(colShift_.begin(), colShift_.end(), [](int32_t s) { return s != 0; });
  vnni_ = byteSumsExact && spansFit && narrowIsExact(k, 128) && allowVnni && vnniAvailable();
  vnniPacked_.clear();
  if (vnni_) {
    const size_t kQuads = (k + 3) / 4, blocks = (n + kLanes - 1) / kLanes;
    vnniPacked_.assign(blocks * kQuads * kLanes * 4, 0);
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j)
        vnniPacked_[((j / kLanes) * kQuads + kk / 4) * kLanes * 4 + (j % kLanes) * 4 + kk % 4] =
            int8_t(b[kk * n + j] - colShift_[j]);
    colShift_.resize(blocks * kLanes, 0);  // whole vectors for the kernel's loads
  }
  return narrow_ || !narrowA;
}

void QuantGemm::multiply(const uint8_t* a, size_t rows, size_t lda, int32_t* c) const {
  multiplyColumns(a, rows, lda, 0, n_, c, n_);
}

void QuantGemm::multiplyColumns(const uint8_t* a, size_t rows, size_t lda, size_t col0, size_t cols, int32_t* c,
                                size_t ldc) const {
  const size_t colEnd = std::min(n_, col0 + cols);
  if (!vnni_) {
    portableMultiply<uint8_t, int32_t>(a, rows, lda, rowMajor_.data(), k_, n_, col0, colEnd, c, ldc);
    return;
  }
  const size_t kQuads = (k_ + 3) / 4, blockEnd = (colEnd + kLanes - 1) / kLanes;
  std::vector<int32_t> rowSums;
  if (hasColShift_) {
    rowSums.resize(rows);
    rowByteSums(a, rows, lda, k_, rowSums.data());
  }
  const int32_t* sums = hasColShift_ ? rowSums.data() : nullptr;
  size_t nb = col0 / kLanes;
  auto panel = [&](auto nbCount) {
    constexpr int NB = decltype(nbCount)::value;
    vnniPanel<NB>(a, rows, lda, k_, vnniPacked_.data(), kQuads, nb, col0, colEnd, sums, colShift_.data(), c, ldc);
    nb += NB;
  };
  while (nb + 4 <= blockEnd) panel(std::integral_constant<int, 4>{});
  switch (blockEnd - nb) {
    case 3: panel(std::integral_constant<int, 3>{}); break;
    case 2: panel(std::integral_constant<int, 2>{}); break;
    case 1: panel(std::integral_constant<int, 1>{}); break;
    default: break;
  }
}

void QuantGemm::multiply(const uint16_t* a, size_t rows, size_t lda, int64_t* c) const {
  if (!vnni_) {
    portableMultiply<uint16_t, int64_t>(a, rows, lda, rowMajor_.data(), k_, n_, 0, n_, c, n_);
    return;
  }
  // sum a * b = 256 * sum hi * b + sum lo * b, each byte plane's sum exact in int32
  // (byteSumsExact at pack); combined in int64. The planes are rows 2r (lo) and 2r + 1 (hi)
  // of one product, so each block of B is loaded once for both.
  thread_local std::vector<uint8_t> planes;
  thread_local std::vector<int32_t> sums;
  planes.resize(2 * rows * k_);
  sums.resize(2 * rows * n_);
  for (size_t r = 0; r < rows; ++r) {
    uint8_t* lo = planes.data() + 2 * r * k_;
    uint8_t* hi = lo + k_;
    for (size_t kk = 0; kk < k_; ++kk) {
      const uint16_t v = a[r * lda + kk];
      lo[kk] = uint8_t(v), hi[kk] = uint8_t(v >> 8);
    }
  }
  multiplyColumns(planes.data(), 2 * rows, k_, 0, n_, sums.data(), n_);
  for (size_t r = 0; r < rows; ++r) {
    const int32_t* sumLo = sums.data() + 2 * r * n_;
    const int32_t* sumHi = sumLo + n_;
    int64_t* out = c + r * n_;
    for (size_t j = 0; j < n_; ++j) out[j] = int64_t(sumHi[j]) * 256 + sumLo[j];
  }
}

}  // namespace qnn::htp
