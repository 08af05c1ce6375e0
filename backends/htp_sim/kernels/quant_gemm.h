// The integer matrix product under every quantized Conv2d / FullyConnected /
// MatMul: C[m][n] = sum_k A[m][k] * B[k][n], exact.
//  * A: unsigned stored activations (uint8 or uint16), row stride lda. Kernels
//    shift signed inputs by 128 / 32768 and fold every zero point into a
//    per-column correction, so A never needs widening per element.
//  * B: int32 values (weight + weight offset), packed once per weight tensor.
// The narrow path (8-bit A, |B| small enough that no int32 sum can overflow)
// accumulates in int32 and uses AVX-512 VNNI (vpdpbusd) when the CPU has it
// and every column of B spans at most 256 consecutive integers (int8 after a
// per-column shift, added back as shift * rowSum(A)); otherwise a portable
// loop computes the same exact integers. The wide path (16-bit A) accumulates in int64;
// on VNNI it multiplies A's two byte planes as narrow A (each plane's sums exact in
// int32 under the narrow bound on B) and combines them as 256 * hi + lo in int64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace qnn::htp {

// True when this CPU runs the VNNI code (AVX-512F/BW/DQ/VL + AVX512_VNNI; also
// gates the AVX-512 requantization epilogue) and the
// environment does not set QNN_HTP_PORTABLE_KERNELS=1.
bool vnniAvailable();

class QuantGemm {
 public:
  // Packs the K x N row-major matrix b (copied; b may be freed afterwards).
  // narrowA: A will be uint8. allowVnni: false forces the portable loop (tests,
  // benchmarks). Returns false when the narrow path cannot be exact (then call
  // again with narrowA = false and feed uint16 A).
  bool pack(const int32_t* b, size_t k, size_t n, bool narrowA, bool allowVnni);

  bool narrow() const { return narrow_; }
  bool usesVnni() const { return vnni_; }
  size_t k() const { return k_; }
  size_t n() const { return n_; }
  // Column sums of B, for the zero-point corrections.
  const std::vector<int64_t>& columnSums() const { return colSums_; }

  // c[m * n + j] = sum_k a[m * lda + k] * B[k][j] for m < rows. Narrow path only.
  void multiply(const uint8_t* a, size_t rows, size_t lda, int32_t* c) const;
  // The columns [col0, col0 + cols) only: c[m * ldc + (j - col0)]. col0 must be a
  // multiple of kPanelAlign. The loop keeps one 64-column panel of B hot in
  // cache while it walks all rows, so callers pass whole row tiles.
  void multiplyColumns(const uint8_t* a, size_t rows, size_t lda, size_t col0, size_t cols, int32_t* c,
                       size_t ldc) const;
  static constexpr size_t kPanelAlign = 16;
  // Wide path (also valid after a narrow pack).
  void multiply(const uint16_t* a, size_t rows, size_t lda, int64_t* c) const;

 private:
  size_t k_ = 0, n_ = 0;
  bool narrow_ = false, vnni_ = false;
  std::vector<int32_t> rowMajor_;    // K x N, portable paths
  std::vector<int8_t> vnniPacked_;   // b - colShift_[j] as [N/16][K/4][16][4], zero padded
  std::vector<int32_t> colShift_;    // per column, 0 unless the column leaves -128..127
  bool hasColShift_ = false;
  std::vector<int64_t> colSums_;
};

}  // namespace qnn::htp
