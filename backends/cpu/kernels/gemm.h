// Single-precision GEMM shared by the convolution and matrix-product kernels:
//   C[M,N] = op(A)[M,K] * B[K,N] (+ bias[N])
// B is packed once into column panels (packB) so static weights can be packed
// at prepare time and reused by every execute; A is packed per call in small
// cache-sized blocks on the stack, so multiply() never allocates.
#pragma once

#include <cstddef>

namespace qnn::cpu::gemm {

// Number of floats packB writes for a K x N matrix (N rounded up to a panel).
size_t packedBSize(size_t K, size_t N);

// Packs B (K x N, or N x K when transB, row stride ldb) into `packed`, which
// must hold packedBSize(K, N) floats.
void packB(const float* B, size_t ldb, bool transB, size_t K, size_t N, float* packed);

// Bounds every value of C is clamped into after the product (a fused Relu:
// {0, +inf}; ReluMinMax: {min, max}). With gelu, C = Gelu(value) instead, the values the Gelu op
// gives (a folded Gelu: each block of C while it is still in cache); the bounds are then
// -inf / +inf.
struct Clamp {
  float lo, hi;
  bool gelu = false;
};

// C = op(A) * packedB (+ bias). op(A) is A (M x K, row stride lda) or, when
// transA, the transpose of the K x M matrix A. bias may be null. C rows are
// ldc apart. With `parallel`, work is split over the backend's worker threads;
// callers that already parallelize over independent products pass false.
// clamp (may be null) is applied to each block of C right after its last
// K block, while the block is still in cache. With `accumulate`, C += op(A) *
// packedB instead (bias ignored): a product split along K over several calls.
// residual (may be null): a matrix laid out as C (rows ldc apart) added to the
// result before the clamp, in the same store (a residual connection's Add
// folded into its producer): C = clamp((op(A) * packedB + bias) + residual).
void multiply(size_t M, size_t N, size_t K, const float* A, size_t lda, bool transA,
              const float* packedB, const float* bias, float* C, size_t ldc, bool parallel = true,
              const Clamp* clamp = nullptr, bool accumulate = false, const float* residual = nullptr);

// Whether multiplyUnpackedB can run: an AVX-512 CPU, A not transposed, N a
// multiple of 16 (B's rows are read in whole 16-float vectors).
bool unpackedBSupported(size_t N, bool transA);

// C = A * B (+ bias) with B row-major (K x N, rows ldb apart) read in place
// instead of packed: for a right-hand side that changes at every call (the
// attention products of a transformer), where packing it cost as much as a
// tenth of the product. Only where unpackedBSupported(N, false).
void multiplyUnpackedB(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B, size_t ldb,
                       const float* bias, float* C, size_t ldc, bool parallel = true, const Clamp* clamp = nullptr);

// One level of Strassen's algorithm (Winograd's form) for a large product with a constant B: seven
// half-size products instead of eight (1/8 fewer multiply-adds; the sums of quadrants of A and B
// raise the rounding error 1-3x, see docs/cpu-ops.md). B is packed once by packBStrassen into
// seven operands (7/4 of packB's size).
// Whether multiplyStrassen can run: an AVX-512 CPU, A not transposed, M, N, K even.
bool strassenSupported(size_t M, size_t N, size_t K, bool transA);
// Whether a product should take it: strassenSupported, M, N, K each at least 512, and the
// environment variable QNN_CPU_STRASSEN is not "0".
bool useStrassen(size_t M, size_t N, size_t K, bool transA);
size_t strassenPackedBSize(size_t K, size_t N);
void packBStrassen(const float* B, size_t ldb, bool transB, size_t K, size_t N, float* packed);
// C = A * B (+ bias), clamped, as multiply() does, B packed by packBStrassen; only where
// strassenSupported(M, N, K, false).
void multiplyStrassen(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* packedB,
                      const float* bias, float* C, size_t ldc, bool parallel = true, const Clamp* clamp = nullptr);

// Clamps rows x cols of C (rows ldc apart) into [clamp.lo, clamp.hi].
void clampBlock(float* C, size_t rows, size_t cols, size_t ldc, const Clamp& clamp);

}  // namespace qnn::cpu::gemm
