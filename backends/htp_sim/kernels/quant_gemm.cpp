#include "quant_gemm.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace qnn::htp {

bool vnniAvailable() {
  static const bool available = [] {
    const char* portable = std::getenv("QNN_HTP_PORTABLE_KERNELS");
    if (portable && std::strcmp(portable, "1") == 0) return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
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

// MR rows x NB blocks of 16 columns; accumulators stay in registers.
template <int MR, int NB>
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void vnniTile(const uint8_t* a, size_t lda, size_t k,
                                                                      const int8_t* packed, size_t kQuads,
                                                                      size_t nb0, size_t n, int32_t* c) {
  __m512i acc[MR][NB];
  for (int r = 0; r < MR; ++r)
    for (int j = 0; j < NB; ++j) acc[r][j] = _mm512_setzero_si512();
  const size_t fullQuads = k / 4;
  for (size_t kq = 0; kq < kQuads; ++kq) {
    __m512i b[NB];
    for (int j = 0; j < NB; ++j)
      b[j] = _mm512_loadu_si512(packed + ((nb0 + j) * kQuads + kq) * kLanes * 4);
    for (int r = 0; r < MR; ++r) {
      const uint8_t* row = a + r * lda;
      int32_t quad;
      if (kq < fullQuads) std::memcpy(&quad, row + kq * 4, 4);
      else quad = quadAt(row, kq, k);
      const __m512i av = _mm512_set1_epi32(quad);
      for (int j = 0; j < NB; ++j) acc[r][j] = _mm512_dpbusd_epi32(acc[r][j], av, b[j]);
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int j = 0; j < NB; ++j) {
      const size_t col = (nb0 + j) * kLanes;
      if (col + kLanes <= n) {
        _mm512_storeu_si512(c + r * n + col, acc[r][j]);
      } else {
        alignas(64) int32_t tmp[kLanes];
        _mm512_store_si512(tmp, acc[r][j]);
        std::memcpy(c + r * n + col, tmp, (n - col) * sizeof(int32_t));
      }
    }
}

template <int MR>
void vnniRows(const uint8_t* a, size_t lda, size_t k, const int8_t* packed, size_t kQuads, size_t n, int32_t* c) {
  const size_t blocks = (n + kLanes - 1) / kLanes;
  size_t nb = 0;
  for (; nb + 4 <= blocks; nb += 4) vnniTile<MR, 4>(a, lda, k, packed, kQuads, nb, n, c);
  switch (blocks - nb) {
    case 3: vnniTile<MR, 3>(a, lda, k, packed, kQuads, nb, n, c); break;
    case 2: vnniTile<MR, 2>(a, lda, k, packed, kQuads, nb, n, c); break;
    case 1: vnniTile<MR, 1>(a, lda, k, packed, kQuads, nb, n, c); break;
    default: break;
  }
}

template <typename TA, typename TAcc>
void portableMultiply(const TA* a, size_t rows, size_t lda, const int32_t* b, size_t k, size_t n, TAcc* c) {
  for (size_t m = 0; m < rows; ++m) {
    TAcc* __restrict out = c + m * n;
    std::fill(out, out + n, TAcc(0));
    const TA* row = a + m * lda;
    for (size_t kk = 0; kk < k; ++kk) {
      const TAcc av = TAcc(row[kk]);
      if (av == 0) continue;
      const int32_t* __restrict brow = b + kk * n;
      for (size_t j = 0; j < n; ++j) out[j] += av * TAcc(brow[j]);
    }
  }
}

}  // namespace

bool QuantGemm::pack(const int32_t* b, size_t k, size_t n, bool narrowA, bool allowVnni) {
  k_ = k, n_ = n;
  rowMajor_.assign(b, b + k * n);
  colSums_.assign(n, 0);
  int64_t maxAbs = 0;
  bool fitsInt8 = true;
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) {
      const int64_t v = b[kk * n + j];
      colSums_[j] += v;
      maxAbs = std::max<int64_t>(maxAbs, v < 0 ? -v : v);
      fitsInt8 = fitsInt8 && v >= -128 && v <= 127;
    }
  narrow_ = narrowA && narrowIsExact(k, maxAbs);
  vnni_ = narrow_ && fitsInt8 && allowVnni && vnniAvailable();
  vnniPacked_.clear();
  if (vnni_) {
    const size_t kQuads = (k + 3) / 4, blocks = (n + kLanes - 1) / kLanes;
    vnniPacked_.assign(blocks * kQuads * kLanes * 4, 0);
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j)
        vnniPacked_[((j / kLanes) * kQuads + kk / 4) * kLanes * 4 + (j % kLanes) * 4 + kk % 4] =
            int8_t(b[kk * n + j]);
  }
  return narrow_ || !narrowA;
}

void QuantGemm::multiply(const uint8_t* a, size_t rows, size_t lda, int32_t* c) const {
  if (!vnni_) {
    portableMultiply<uint8_t, int32_t>(a, rows, lda, rowMajor_.data(), k_, n_, c);
    return;
  }
  const size_t kQuads = (k_ + 3) / 4;
  size_t m = 0;
  for (; m + 4 <= rows; m += 4) vnniRows<4>(a + m * lda, lda, k_, vnniPacked_.data(), kQuads, n_, c + m * n_);
  for (; m < rows; ++m) vnniRows<1>(a + m * lda, lda, k_, vnniPacked_.data(), kQuads, n_, c + m * n_);
}

void QuantGemm::multiply(const uint16_t* a, size_t rows, size_t lda, int64_t* c) const {
  portableMultiply<uint16_t, int64_t>(a, rows, lda, rowMajor_.data(), k_, n_, c);
}

}  // namespace qnn::htp
