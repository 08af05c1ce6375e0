// Float32 products with a constant right-hand side on Intel AMX (Sapphire Rapids and later), at
// float32 accuracy: every operand is split into three bfloat16 parts, x = x1 + x2 + x3 exactly, and C
// is accumulated in float32 by the tile unit from the six products of parts whose size reaches
// 2^-16 of a term (x1y1, x1y2, x2y1, x2y2, x1y3, x3y1; "bf16x6", Henry, Tang and Heinecke, ARITH
// 2019). Each product of parts is exact in float32; the three left out are below 2^-26 of the term,
// under float32's own rounding of it (2^-24). Six tile products still run ~2x faster than the
// AVX-512 FMA loop does the one float32 product.
//
// What the tile unit does not carry, this path does not take: a B with a value that is not finite
// or beyond bfloat16's range (amxCarries: the caller keeps the classic product), and rows of A with
// one (their rows of C are computed from the split B again, in float32, after the tiles: IEEE
// infinities and NaNs as the classic product gives them). The tile unit reads values below 2^-126
// as zero and writes results below it as zero: parts of values under ~2^-100 are lost (a term
// ~2^-100 |b| is then exact to ~2^-8 of itself), far under any product's rounding error unless all
// of C is that small.
#pragma once

#include <cstddef>

namespace qnn::cpu::gemm {

struct Clamp;

// The environment variable QNN_CPU_AMX is "1", on an AVX-512 CPU with AMX-TILE, AMX-BF16 and
// AVX512-BF16 whose kernel lends this process the tile state (QNN_CPU_ISA not lowered).
//
// Opt-in: the tile unit belongs to a physical core, and where the core's other hardware thread
// runs tile products too (another tenant of a shared host) each gets half of it or less. Measured on
// such a host (docs/benchmarks.md): with the unit to itself the transformer's products ran 1.6-2.2x
// faster than the AVX-512 FMA loop; while the twin used it, 1.2-1.35x slower than that loop, and the
// FMA loop keeps its speed there. Where the cores are the process's own, QNN_CPU_AMX=1 is the fast
// path.
bool amxSupported();

// Whether a product should take the tile path: amxSupported, A not transposed, M and N at least 16
// (a tile's rows and columns) and K within 32..8192.
bool useAmx(size_t M, size_t N, size_t K, bool transA);

// Whether every one of the n values is finite and within bfloat16's range (the split needs both).
bool amxCarries(const float* values, size_t n);

// Floats packBAmx writes for a K x N matrix (bfloat16 parts, K and N rounded up to 32).
size_t amxPackedBSize(size_t K, size_t N);

// Packs B (K x N, or N x K when transB, rows ldb apart), all of whose values amxCarries, into the
// three parts in the tile layout. Give it 64-byte aligned memory (sdk::LargeVector): the tile rows
// are 64 bytes, and each one straddling two cache lines made the products ~35 % slower.
void packBAmx(const float* B, size_t ldb, bool transB, size_t K, size_t N, float* packed);

// C = A * B (+ bias) (+ residual, laid out as C), clamped, as gemm::multiply does (A not
// transposed, rows lda apart; C rows ldc apart), B packed by packBAmx; only where useAmx.
void multiplyAmx(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* packedB, const float* bias,
                 float* C, size_t ldc, bool parallel = true, const Clamp* clamp = nullptr,
                 const float* residual = nullptr);

}  // namespace qnn::cpu::gemm
