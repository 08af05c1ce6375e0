// Goto/BLIS-style GEMM: B packed into NR-wide column panels over the full K,
// A packed per (MC x KC) block into MR-tall row panels, and an MR x NR register
// tile micro-kernel. The micro-kernel is chosen at run time: AVX-512 (14 x 16,
// one zmm per row), AVX2/FMA (6 x 16), or plain loops the compiler vectorizes
// for the baseline ISA. MR depends on the kernel; NR is 16 for all of them, so
// packed weights do not depend on the machine.
#include "cpu/kernels/gemm.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/kernel_util.h"
#include "cpu/kernels/vector_activation.h"

#if defined(__x86_64__) || defined(__i386__)
#include "cpu/kernels/x86_simd.h"
#define QNN_GEMM_HAVE_X86 1
#endif

namespace qnn::cpu::gemm {
namespace {

constexpr size_t kMR = 6;        // AVX2/portable: 6 x 16 accumulators = 12 ymm registers of 16
constexpr size_t kMRAvx512 = 14;  // 14 zmm accumulators keep both FMA ports busy
constexpr size_t kMaxMR = kMRAvx512;
constexpr size_t kNR = 16;
constexpr size_t kKC = 256;  // A block of MC x KC floats = 84 KiB: stays in L2
// The direct-A tiles' K blocks: K whole up to this, else equal blocks within it. Their A is read
// in place (no packed block to keep in L2), so K blocks only cost: every block after the first
// reloads and stores the tile's sums, each block walks the task's panels again, and K = 960 went
// 256 + 256 + 256 + 192, K = 320 256 + 64. 1024 against 256 (qnn-net-run alternating): the
// 1024^3 MatMul 5.9 % faster at 1 thread and 5.1 % at 2, ResNet-18 2.6 % at 1, the transformer
// 0.9 % at 1, the rest level.
constexpr size_t kKCDirect = 1024;
constexpr size_t kMC = 84;   // multiple of every MR (6 and 14)
// Rows of a direct-A tile whose rows are 4 KiB apart (multiplyImpl).
constexpr size_t kMRAliased = 11;
// Below this many multiply-adds a product runs on the calling thread: waking
// the pool costs more than it saves.
constexpr size_t kMinParallelWork = size_t(1) << 18;
// Fewest rows of a block when the rows are split among threads (below, the columns are).
constexpr size_t kMinRowsPerBlock = 8;

using MicroKernel = void (*)(size_t kc, const float* a, const float* b, float* c, size_t ldc, size_t mr,
                             size_t nr, const float* bias, bool first);

// Writes an MR x NR tile held in `tile` to C: on the first K block it replaces
// C (adding the bias), on later blocks it accumulates.
inline void storeTile(const float* tile, float* c, size_t ldc, size_t mr, size_t nr, const float* bias,
                      bool first) {
  // tile rows are kNR floats apart.
  for (size_t i = 0; i < mr; ++i) {
    float* row = c + i * ldc;
    const float* t = tile + i * kNR;
    if (first) {
      for (size_t j = 0; j < nr; ++j) row[j] = t[j] + (bias ? bias[j] : 0.f);
    } else {
      for (size_t j = 0; j < nr; ++j) row[j] += t[j];
    }
  }
}

void microKernelPortable(size_t kc, const float* a, const float* b, float* c, size_t ldc, size_t mr, size_t nr,
                         const float* bias, bool first) {
  float acc[kMR * kNR] = {};
  for (size_t k = 0; k < kc; ++k, a += kMR, b += kNR) {
    for (size_t i = 0; i < kMR; ++i) {
      const float ai = a[i];
      for (size_t j = 0; j < kNR; ++j) acc[i * kNR + j] += ai * b[j];
    }
  }
  storeTile(acc, c, ldc, mr, nr, bias, first);
}

#ifdef QNN_GEMM_HAVE_X86
__attribute__((target("avx2,fma"))) void microKernelAvx2(size_t kc, const float* a, const float* b, float* c,
                                                         size_t ldc, size_t mr, size_t nr, const float* bias,
                                                         bool first) {
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();
  __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
  __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();
  __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
  __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();
  __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
  for (size_t k = 0; k < kc; ++k, a += kMR, b += kNR) {
    const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    __m256 ai = _mm256_broadcast_ss(a + 0);
    c00 = _mm256_fmadd_ps(ai, b0, c00), c01 = _mm256_fmadd_ps(ai, b1, c01);
    ai = _mm256_broadcast_ss(a + 1);
    c10 = _mm256_fmadd_ps(ai, b0, c10), c11 = _mm256_fmadd_ps(ai, b1, c11);
    ai = _mm256_broadcast_ss(a + 2);
    c20 = _mm256_fmadd_ps(ai, b0, c20), c21 = _mm256_fmadd_ps(ai, b1, c21);
    ai = _mm256_broadcast_ss(a + 3);
    c30 = _mm256_fmadd_ps(ai, b0, c30), c31 = _mm256_fmadd_ps(ai, b1, c31);
    ai = _mm256_broadcast_ss(a + 4);
    c40 = _mm256_fmadd_ps(ai, b0, c40), c41 = _mm256_fmadd_ps(ai, b1, c41);
    ai = _mm256_broadcast_ss(a + 5);
    c50 = _mm256_fmadd_ps(ai, b0, c50), c51 = _mm256_fmadd_ps(ai, b1, c51);
  }
  const __m256 rows[kMR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
  if (mr == kMR && nr == kNR) {
    __m256 bias0 = _mm256_setzero_ps(), bias1 = _mm256_setzero_ps();
    if (first && bias) bias0 = _mm256_loadu_ps(bias), bias1 = _mm256_loadu_ps(bias + 8);
    for (size_t i = 0; i < kMR; ++i) {
      float* row = c + i * ldc;
      if (first) {
        _mm256_storeu_ps(row, _mm256_add_ps(rows[i][0], bias0));
        _mm256_storeu_ps(row + 8, _mm256_add_ps(rows[i][1], bias1));
      } else {
        _mm256_storeu_ps(row, _mm256_add_ps(rows[i][0], _mm256_loadu_ps(row)));
        _mm256_storeu_ps(row + 8, _mm256_add_ps(rows[i][1], _mm256_loadu_ps(row + 8)));
      }
    }
    return;
  }
  alignas(32) float tile[kMR * kNR];
  for (size_t i = 0; i < kMR; ++i) {
    _mm256_store_ps(tile + i * kNR, rows[i][0]);
    _mm256_store_ps(tile + i * kNR + 8, rows[i][1]);
  }
  storeTile(tile, c, ldc, mr, nr, bias, first);
}
#endif

#ifdef QNN_GEMM_HAVE_X86
__attribute__((target("avx512f"))) void microKernelAvx512(size_t kc, const float* a, const float* b, float* c,
                                                          size_t ldc, size_t mr, size_t nr, const float* bias,
                                                          bool first) {
  __m512 acc[kMRAvx512];
  for (size_t i = 0; i < kMRAvx512; ++i) acc[i] = _mm512_setzero_ps();
  for (size_t k = 0; k < kc; ++k, a += kMRAvx512, b += kNR) {
    const __m512 bk = _mm512_loadu_ps(b);
    for (size_t i = 0; i < kMRAvx512; ++i) acc[i] = _mm512_fmadd_ps(_mm512_set1_ps(a[i]), bk, acc[i]);
  }
  const __mmask16 mask = nr == kNR ? __mmask16(0xFFFF) : __mmask16((1u << nr) - 1);
  const __m512 biasRow = first && bias ? _mm512_maskz_loadu_ps(mask, bias) : _mm512_setzero_ps();
  for (size_t i = 0; i < mr; ++i) {
    float* row = c + i * ldc;
    const __m512 prev = first ? biasRow : _mm512_maskz_loadu_ps(mask, row);
    _mm512_mask_storeu_ps(row, mask, _mm512_add_ps(acc[i], prev));
  }
}
#endif

#ifdef QNN_GEMM_HAVE_X86
// The AVX-512 tile reading A's rows in place (row stride lda) instead of from
// a packed block: A's panel packing is a transposing scatter that cost about
// as much as the FMAs when N is small (conv layers with 64-256 output
// channels). MR rows (1..14, so a ragged bottom tile wastes no FMAs) times NV
// column panels (1 or 2, the second bStride floats after the first). Two
// panels (28 accumulators) need 16 loads per 28 FMAs, where one panel needs
// 15 per 14 and is bound by the two load ports instead of the FMA units.
// Rows are addressed from two bases 7 rows apart, each broadcast one base +
// index * scale operand. nr counts the valid columns over all NV panels.
// B rows prefetched ahead (4 KiB per panel). With K = 64-256 (the Winograd products of ResNet-18) this
// reaches into the next panels, whose first rows otherwise come from memory on demand: 64 rows measured
// best of 32 / 48 / 64 / 96 / 128 (ResNet-18 -3.4 % at 2 threads, -1.9 % at 1 against 32; the MatMul,
// transformer and MobileNetV2 unchanged).
constexpr size_t kPrefetchK = 64;

// kPackedB: B's rows are kNR floats apart (packed panels; bRow is ignored so
// the step stays a constant: a run-time step cost the packed products ~1 %).
// Otherwise B is row-major, read in place, rows bRow floats apart.
// The K loop of the direct-A tiles: acc[v][i] = sum over k < kc of A[i][k] * B[k][panel v]
// (kAccumulate: acc[v][i] += that sum).
template <size_t MR, size_t NV, bool kPackedB, bool kAccumulate = false>
__attribute__((target("avx512f"), always_inline)) inline void directATileSums(size_t kc, const float* a, size_t lda,
                                                                               const float* b, size_t bStride,
                                                                               size_t bRowIn, __m512 (&acc)[NV][MR],
                                                                               const char* ahead = nullptr,
                                                                               size_t aheadLines = 0) {
  const size_t bRow = kPackedB ? kNR : bRowIn;
  // Every loop over the accumulators is unrolled: a loop GCC leaves rolled
  // indexes acc[] at run time and so keeps it in memory (it stored all 28
  // registers to the stack after the K loop and loaded them back in the
  // store loop, a fifth of a tile's time when K = 16-24 as in MobileNet's
  // 1x1 convolutions).
  constexpr size_t kLow = MR < 7 ? MR : 7;
  if constexpr (!kAccumulate) {
#pragma GCC unroll 2
    for (size_t v = 0; v < NV; ++v)
#pragma GCC unroll 14
      for (size_t i = 0; i < MR; ++i) acc[v][i] = _mm512_setzero_ps();
  }
  const float* a0 = a;
  const float* a7 = a + (MR > 7 ? 7 * lda : 0);
  for (size_t k = 0; k < kc; ++k, ++a0, ++a7, b += bRow) {
    __m512 bk[NV];
#pragma GCC unroll 2
    for (size_t v = 0; v < NV; ++v) {
      bk[v] = _mm512_loadu_ps(b + v * bStride);
      _mm_prefetch(reinterpret_cast<const char*>(b + v * bStride + kPrefetchK * bRow), _MM_HINT_T0);
    }
    if (aheadLines != 0) {
      _mm_prefetch(ahead, _MM_HINT_T1);
      ahead += 64, --aheadLines;
    }
#pragma GCC unroll 7
    for (size_t i = 0; i < kLow; ++i) {
      const __m512 lo = _mm512_set1_ps(a0[i * lda]);
#pragma GCC unroll 2
      for (size_t v = 0; v < NV; ++v) acc[v][i] = _mm512_fmadd_ps(lo, bk[v], acc[v][i]);
      if (i + 7 < MR) {
        const __m512 hi = _mm512_set1_ps(a7[i * lda]);
#pragma GCC unroll 2
        for (size_t v = 0; v < NV; ++v) acc[v][7 + i] = _mm512_fmadd_ps(hi, bk[v], acc[v][7 + i]);
      }
    }
  }
}

// kResidual: the store adds `residual` (rows ldc apart, as C) before the clamp; an instantiation of
// its own, so the others' stores stay as they were (a run-time test per row cost the short
// products, K = 16-24, 4-5 %).
template <size_t MR, size_t NV, bool kPackedB, bool kResidual>
__attribute__((target("avx512f"))) void microKernelAvx512DirectA(size_t kc, const float* a, size_t lda,
                                                                 const float* b, size_t bStride, size_t bRowIn,
                                                                 float* c, size_t ldc, size_t nr,
                                                                 const float* bias, bool first,
                                                                 const Clamp* clamp, const float* residual,
                                                                 const char* ahead, size_t aheadLines) {
  __m512 acc[NV][MR];
  directATileSums<MR, NV, kPackedB>(kc, a, lda, b, bStride, bRowIn, acc, ahead, aheadLines);
  // The clamp bounds are +-inf without a fused activation: one store path.
  const __m512 lo = _mm512_set1_ps(clamp ? clamp->lo : -std::numeric_limits<float>::infinity());
  const __m512 hi = _mm512_set1_ps(clamp ? clamp->hi : std::numeric_limits<float>::infinity());
#pragma GCC unroll 2
  for (size_t v = 0; v < NV; ++v) {
    const size_t cols = std::min(kNR, nr - v * kNR);
    const __mmask16 mask = cols == kNR ? __mmask16(0xFFFF) : __mmask16((1u << cols) - 1);
    const __m512 biasRow = first && bias ? _mm512_maskz_loadu_ps(mask, bias + v * kNR) : _mm512_setzero_ps();
#pragma GCC unroll 14
    for (size_t i = 0; i < MR; ++i) {
      float* row = c + i * ldc + v * kNR;
      const __m512 prev = first ? biasRow : _mm512_maskz_loadu_ps(mask, row);
      __m512 sum = _mm512_add_ps(acc[v][i], prev);
      if constexpr (kResidual) sum = _mm512_add_ps(sum, _mm512_maskz_loadu_ps(mask, residual + i * ldc + v * kNR));
      if (clamp) sum = _mm512_min_ps(hi, _mm512_max_ps(lo, sum));  // operand order keeps NaN
      _mm512_mask_storeu_ps(row, mask, sum);
    }
  }
}
#endif

#ifdef QNN_GEMM_HAVE_X86
// N = 24 or 40 (16 q + 8 columns) in dense rows (ldc == N): two rows' 2N
// outputs are 2N / 16 whole vectors, so a pair of rows takes NVP vectors
// where two rows on their own take 2 (q + 1) with a half-empty last panel
// (MobileNetV2's projections to 24 channels spent a quarter of their FMAs on
// zero columns). The vector that straddles the two rows (vector q) takes row
// 2j's A in its low 8 lanes and row 2j + 1's in its high 8. B is packed per
// k as [B[k][0:N], B[k][0:N]] (pairedB, 2N floats a row), the bias likewise
// (biasPair, 2N floats, or null). P pairs of rows per call.
template <size_t P, size_t NVP, bool kResidual>
__attribute__((target("avx512f"))) void microKernelAvx512PairedRows(size_t kc, const float* a, size_t lda,
                                                                    const float* pairedB, float* c,
                                                                    const float* biasPair, bool first,
                                                                    const Clamp* clamp, const float* residual) {
  constexpr size_t kN = NVP * kNR / 2, kMixed = kN / kNR;  // columns per row; the straddling vector
  __m512 acc[P][NVP];
#pragma GCC unroll 8
  for (size_t j = 0; j < P; ++j)
#pragma GCC unroll 5
    for (size_t v = 0; v < NVP; ++v)
      acc[j][v] = first ? (biasPair ? _mm512_loadu_ps(biasPair + v * kNR) : _mm512_setzero_ps())
                        : _mm512_loadu_ps(c + j * 2 * kN + v * kNR);
  // Rows from bases four rows apart, each row one base + offset operand.
  const float* base[(2 * P + 3) / 4];
#pragma GCC unroll 4
  for (size_t q = 0; q < (2 * P + 3) / 4; ++q) base[q] = a + 4 * q * lda;
  const float* b = pairedB;
  for (size_t k = 0; k < kc; ++k, b += 2 * kN) {
    __m512 bk[NVP];
#pragma GCC unroll 5
    for (size_t v = 0; v < NVP; ++v) bk[v] = _mm512_loadu_ps(b + v * kNR);
#pragma GCC unroll 8
    for (size_t j = 0; j < P; ++j) {
      const size_t r0 = 2 * j, r1 = 2 * j + 1;
      const __m512 even = _mm512_set1_ps(base[r0 / 4][(r0 % 4) * lda + k]);
      const __m512 odd = _mm512_set1_ps(base[r1 / 4][(r1 % 4) * lda + k]);
      const __m512 mixed = _mm512_mask_blend_ps(__mmask16(0xFF00), even, odd);
#pragma GCC unroll 5
      for (size_t v = 0; v < NVP; ++v)
        acc[j][v] = _mm512_fmadd_ps(v < kMixed ? even : v == kMixed ? mixed : odd, bk[v], acc[j][v]);
    }
  }
  const __m512 lo = _mm512_set1_ps(clamp ? clamp->lo : -std::numeric_limits<float>::infinity());
  const __m512 hi = _mm512_set1_ps(clamp ? clamp->hi : std::numeric_limits<float>::infinity());
#pragma GCC unroll 8
  for (size_t j = 0; j < P; ++j)
#pragma GCC unroll 5
    for (size_t v = 0; v < NVP; ++v) {
      __m512 sum = acc[j][v];
      if constexpr (kResidual) sum = _mm512_add_ps(sum, _mm512_loadu_ps(residual + j * 2 * kN + v * kNR));
      if (clamp) sum = _mm512_min_ps(hi, _mm512_max_ps(lo, sum));  // operand order keeps NaN
      _mm512_storeu_ps(c + j * 2 * kN + v * kNR, sum);
    }
}

using PairedRowsKernel = void (*)(size_t kc, const float* a, size_t lda, const float* pairedB, float* c,
                                  const float* biasPair, bool first, const Clamp* clamp, const float* residual);
constexpr size_t kPairsMax = 8;
template <size_t NVP, bool kResidual, size_t... I>
constexpr std::array<PairedRowsKernel, sizeof...(I)> pairedRowsKernels(std::index_sequence<I...>) {
  return {&microKernelAvx512PairedRows<I + 1, NVP, kResidual>...};
}
// [with a residual][pairs - 1] for N = 24 (3 vectors a pair, up to 8 pairs: 24 sums) and
// N = 40 (5 vectors, up to 5 pairs: 25 sums).
constexpr std::array<std::array<PairedRowsKernel, kPairsMax>, 2> kPaired24 = {
    pairedRowsKernels<3, false>(std::make_index_sequence<8>()), pairedRowsKernels<3, true>(std::make_index_sequence<8>())};
constexpr std::array<std::array<PairedRowsKernel, 5>, 2> kPaired40 = {
    pairedRowsKernels<5, false>(std::make_index_sequence<5>()), pairedRowsKernels<5, true>(std::make_index_sequence<5>())};
#endif

// ahead: aheadLines cache lines fetched into L2 one per step of K (the next panels' share of this
// tile), or none.
using DirectAMicroKernel = void (*)(size_t kc, const float* a, size_t lda, const float* b, size_t bStride,
                                    size_t bRow, float* c, size_t ldc, size_t nr, const float* bias, bool first,
                                    const Clamp* clamp, const float* residual, const char* ahead,
                                    size_t aheadLines);

#ifdef QNN_GEMM_HAVE_X86
// Direct-A kernels indexed by [panels - 1][rows - 1].
template <size_t NV, bool kPackedB, bool kResidual, size_t... I>
constexpr std::array<DirectAMicroKernel, sizeof...(I)> directAKernels(std::index_sequence<I...>) {
  return {&microKernelAvx512DirectA<I + 1, NV, kPackedB, kResidual>...};
}
constexpr std::array<std::array<DirectAMicroKernel, kMRAvx512>, 2> kAvx512DirectA = {
    directAKernels<1, true, false>(std::make_index_sequence<kMRAvx512>()),
    directAKernels<2, true, false>(std::make_index_sequence<kMRAvx512>())};
// The packed-B tiles whose store adds a residual (the last K block of a product with one).
constexpr std::array<std::array<DirectAMicroKernel, kMRAvx512>, 2> kAvx512DirectAResidual = {
    directAKernels<1, true, true>(std::make_index_sequence<kMRAvx512>()),
    directAKernels<2, true, true>(std::make_index_sequence<kMRAvx512>())};
constexpr std::array<std::array<DirectAMicroKernel, kMRAvx512>, 2> kAvx512DirectAUnpackedB = {
    directAKernels<1, false, false>(std::make_index_sequence<kMRAvx512>()),
    directAKernels<2, false, false>(std::make_index_sequence<kMRAvx512>())};
#endif

// One register tile of a chain of Strassen-Winograd products (multiplyStrassen): the tile's sums
// over one or two segments (A operand x B operand, kc steps each, the second adding to the first),
// each followed by stores of the running sum into up to three quadrants of C: the first write of a
// quadrant replaces it (plus the bias), later ones add, and the last one clamps.
struct WinogradSegment {
  const float* a;  // the tile's first row of the A operand, rows lda apart
  size_t lda;
  const float* b;  // the first panel of the B operand at this K block
  float* c[3];     // the tile's top-left in each quadrant it is stored into; null: fewer
  bool first[3], last[3];
  const float* bias[3];  // the tile's columns of the bias for a first write, or null
};

using WinogradMicroKernel = void (*)(size_t kc, const WinogradSegment* seg, size_t segments, size_t bStride,
                                     size_t ldc, size_t nr, const Clamp* clamp);

#ifdef QNN_GEMM_HAVE_X86
template <size_t MR, size_t NV>
__attribute__((target("avx512f"), always_inline)) inline void winogradStores(const WinogradSegment& s,
                                                                              __m512 (&acc)[NV][MR], size_t ldc,
                                                                              size_t nr, const Clamp* clamp) {
  const __m512 lo = _mm512_set1_ps(clamp ? clamp->lo : -std::numeric_limits<float>::infinity());
  const __m512 hi = _mm512_set1_ps(clamp ? clamp->hi : std::numeric_limits<float>::infinity());
  for (size_t d = 0; d < 3 && s.c[d]; ++d) {
    const bool first = s.first[d], clamps = clamp && s.last[d];
#pragma GCC unroll 2
    for (size_t v = 0; v < NV; ++v) {
      const size_t cols = std::min(kNR, nr - v * kNR);
      const __mmask16 mask = cols == kNR ? __mmask16(0xFFFF) : __mmask16((1u << cols) - 1);
      const __m512 biasRow =
          first && s.bias[d] ? _mm512_maskz_loadu_ps(mask, s.bias[d] + v * kNR) : _mm512_setzero_ps();
#pragma GCC unroll 14
      for (size_t i = 0; i < MR; ++i) {
        float* row = s.c[d] + i * ldc + v * kNR;
        __m512 sum = _mm512_add_ps(acc[v][i], first ? biasRow : _mm512_maskz_loadu_ps(mask, row));
        if (clamps) sum = _mm512_min_ps(hi, _mm512_max_ps(lo, sum));  // operand order keeps NaN
        _mm512_mask_storeu_ps(row, mask, sum);
      }
    }
  }
}

// The rows of C a segment adds to, fetched during the last kTail steps of its K loop (fetched
// before it, B's panels streaming through L1 evicted them again).
template <size_t MR, size_t NV>
__attribute__((target("avx512f"), always_inline)) inline void prefetchDestinations(const WinogradSegment& s,
                                                                                    size_t ldc) {
  for (size_t d = 0; d < 3 && s.c[d]; ++d)
    if (!s.first[d])
#pragma GCC unroll 14
      for (size_t i = 0; i < MR; ++i)
#pragma GCC unroll 2
        for (size_t v = 0; v < NV; ++v)
          _mm_prefetch(reinterpret_cast<const char*>(s.c[d] + i * ldc + v * kNR), _MM_HINT_T0);
}

template <size_t MR, size_t NV>
__attribute__((target("avx512f"))) void microKernelAvx512Winograd(size_t kc, const WinogradSegment* seg,
                                                                  size_t segments, size_t bStride, size_t ldc,
                                                                  size_t nr, const Clamp* clamp) {
  constexpr size_t kTail = 32;
  const size_t head = kc > kTail ? kc - kTail : 0;
  __m512 acc[NV][MR];
#pragma GCC unroll 2
  for (size_t v = 0; v < NV; ++v)
#pragma GCC unroll 14
    for (size_t i = 0; i < MR; ++i) acc[v][i] = _mm512_setzero_ps();
  for (size_t n = 0; n < segments; ++n) {
    const WinogradSegment& s = seg[n];
    directATileSums<MR, NV, true, true>(head, s.a, s.lda, s.b, bStride, kNR, acc);
    prefetchDestinations<MR, NV>(s, ldc);
    directATileSums<MR, NV, true, true>(kc - head, s.a + head, s.lda, s.b + head * kNR, bStride, kNR, acc);
    winogradStores<MR, NV>(s, acc, ldc, nr, clamp);
  }
}

// A's seven operands of a block of its quadrants (rows lda apart), rows x cols each, rows ld apart,
// 'stride' floats from one operand to the next, from one read of the quadrants: copies of A11, A12
// and A22, then S1 = A21 + A22, S2 = S1 - A11, S3 = A11 - A21, S4 = A12 - S2.
__attribute__((target("avx512f"))) void winogradOperandsA(const float* const (&q)[4], size_t lda, size_t rows,
                                                          size_t cols, float* dst, size_t ld, size_t stride) {
  for (size_t i = 0; i < rows; ++i) {
    const size_t in = i * lda;
    float* out = dst + i * ld;
    for (size_t k = 0; k < cols; k += kNR) {
      const __mmask16 mask = cols - k >= kNR ? __mmask16(0xFFFF) : __mmask16((1u << (cols - k)) - 1);
      const __m512 a11 = _mm512_maskz_loadu_ps(mask, q[0] + in + k), a12 = _mm512_maskz_loadu_ps(mask, q[1] + in + k);
      const __m512 a21 = _mm512_maskz_loadu_ps(mask, q[2] + in + k), a22 = _mm512_maskz_loadu_ps(mask, q[3] + in + k);
      const __m512 s1 = _mm512_add_ps(a21, a22), s2 = _mm512_sub_ps(s1, a11);
      _mm512_mask_storeu_ps(out + k, mask, a11);
      _mm512_mask_storeu_ps(out + stride + k, mask, a12);
      _mm512_mask_storeu_ps(out + 2 * stride + k, mask, a22);
      _mm512_mask_storeu_ps(out + 3 * stride + k, mask, s1);
      _mm512_mask_storeu_ps(out + 4 * stride + k, mask, s2);
      _mm512_mask_storeu_ps(out + 5 * stride + k, mask, _mm512_sub_ps(a11, a21));
      _mm512_mask_storeu_ps(out + 6 * stride + k, mask, _mm512_sub_ps(a12, s2));
    }
  }
}

template <size_t NV, size_t... I>
constexpr std::array<WinogradMicroKernel, sizeof...(I)> winogradKernels(std::index_sequence<I...>) {
  return {&microKernelAvx512Winograd<I + 1, NV>...};
}
// [panels - 1][rows - 1]
constexpr std::array<std::array<WinogradMicroKernel, kMRAvx512>, 2> kAvx512Winograd = {
    winogradKernels<1>(std::make_index_sequence<kMRAvx512>()),
    winogradKernels<2>(std::make_index_sequence<kMRAvx512>())};
#endif

struct MicroKernelInfo {
  MicroKernel run;
  size_t mr;
  // [panels - 1][rows - 1] for a non-transposed A; null: always pack A.
  const std::array<std::array<DirectAMicroKernel, kMRAvx512>, 2>* directA;
  // The same reading a row-major B in place (multiplyUnpackedB).
  const std::array<std::array<DirectAMicroKernel, kMRAvx512>, 2>* directAUnpackedB;
  // The packed-B ones adding a residual in their store.
  const std::array<std::array<DirectAMicroKernel, kMRAvx512>, 2>* directAResidual;
};

MicroKernelInfo selectMicroKernel() {
#ifdef QNN_GEMM_HAVE_X86
  if (cpuIsa() == Isa::kAvx512)
    return {microKernelAvx512, kMRAvx512, &kAvx512DirectA, &kAvx512DirectAUnpackedB, &kAvx512DirectAResidual};
  if (cpuIsa() == Isa::kAvx2) return {microKernelAvx2, kMR, nullptr, nullptr, nullptr};
#endif
  return {microKernelPortable, kMR, nullptr, nullptr, nullptr};
}

// Packs rows [i0, i0+mc) x cols [k0, k0+kc) of op(A) into MR-tall panels,
// k-major inside a panel; rows past M are zero so the micro-kernel needs no
// row bounds.
void packA(const float* A, size_t lda, bool transA, size_t M, size_t i0, size_t mc, size_t k0, size_t kc,
           size_t mr, float* dst) {
  for (size_t ip = 0; ip < mc; ip += mr) {
    const size_t rows = std::min(mr, M - (i0 + ip));
    if (!transA) {
      for (size_t ii = 0; ii < mr; ++ii) {
        if (ii < rows) {
          const float* src = A + (i0 + ip + ii) * lda + k0;
          for (size_t k = 0; k < kc; ++k) dst[k * mr + ii] = src[k];
        } else {
          for (size_t k = 0; k < kc; ++k) dst[k * mr + ii] = 0.f;
        }
      }
    } else {
      for (size_t k = 0; k < kc; ++k) {
        const float* src = A + (k0 + k) * lda + i0 + ip;
        for (size_t ii = 0; ii < mr; ++ii) dst[k * mr + ii] = ii < rows ? src[ii] : 0.f;
      }
    }
    dst += kc * mr;
  }
}

}  // namespace

namespace {
// N = 24 or 40: packB also writes B's rows twice over ([B[k][0:N], B[k][0:N]])
// after the panels, for the paired-rows kernels (read when C's rows are dense).
bool pairedRows(size_t N) { return N == 24 || N == 40; }
size_t panelsSize(size_t K, size_t N) { return K * ((N + kNR - 1) / kNR) * kNR; }
}  // namespace

size_t packedBSize(size_t K, size_t N) { return panelsSize(K, N) + (pairedRows(N) ? K * 2 * N : 0); }

namespace {
// Writes the K x N matrix whose element (k, j) is at(k, j) as packB's column panels.
template <typename At>
void packPanels(size_t K, size_t N, float* packed, const At& at) {
  for (size_t j0 = 0; j0 < N; j0 += kNR) {
    const size_t cols = std::min(kNR, N - j0);
    float* panel = packed + j0 * K;  // panel j0/kNR starts at (j0/kNR) * K * kNR
    for (size_t k = 0; k < K; ++k) {
      float* dst = panel + k * kNR;
      for (size_t j = 0; j < cols; ++j) dst[j] = at(k, j0 + j);
      for (size_t j = cols; j < kNR; ++j) dst[j] = 0.f;
    }
  }
}
}  // namespace

void packB(const float* B, size_t ldb, bool transB, size_t K, size_t N, float* packed) {
  if (pairedRows(N)) {
    float* paired = packed + panelsSize(K, N);
    for (size_t k = 0; k < K; ++k)
      for (size_t j = 0; j < N; ++j)
        paired[k * 2 * N + j] = paired[k * 2 * N + N + j] = transB ? B[j * ldb + k] : B[k * ldb + j];
  }
  if (!transB)
    packPanels(K, N, packed, [&](size_t k, size_t j) { return B[k * ldb + j]; });
  else
    packPanels(K, N, packed, [&](size_t k, size_t j) { return B[j * ldb + k]; });
}

void clampBlock(float* C, size_t rows, size_t cols, size_t ldc, const Clamp& clamp) {
  const float lo = clamp.lo, hi = clamp.hi;
  for (size_t i = 0; i < rows; ++i) {
    float* row = C + i * ldc;
    for (size_t j = 0; j < cols; ++j) row[j] = std::min(std::max(row[j], lo), hi);
  }
}

namespace {

// Where B's panels are: packed (panel p at p * K * kNR, rows kNR apart) or a
// row-major B read in place (panel p at p * kNR, rows ldb apart).
struct BLayout {
  const float* data;
  size_t panelStep, rowStep;
  bool packed;
  const float* paired;  // B's rows twice over (packB, N = 24 or 40), or null
};

// Gelu over C rows [i0, i0 + rows) x columns [j0, j1).
void geluBlock(float* C, size_t ldc, size_t i0, size_t rows, size_t j0, size_t j1) {
  for (size_t i = i0; i < i0 + rows; ++i) geluRange(C + i * ldc + j0, C + i * ldc + j0, j1 - j0);
}

// C rows [i0, i0 + rows) x columns [j0, j1) += the same block of R (rows ldc apart, as C).
void addResidualBlock(float* C, const float* R, size_t ldc, size_t i0, size_t rows, size_t j0, size_t j1) {
  for (size_t i = i0; i < i0 + rows; ++i)
    for (size_t j = j0; j < j1; ++j) C[i * ldc + j] += R[i * ldc + j];
}

void multiplyImpl(size_t M, size_t N, size_t K, const float* A, size_t lda, bool transA, const BLayout& B,
                  const float* bias, float* C, size_t ldc, bool parallel, const Clamp* clamp, bool accumulate,
                  const float* residual) {
  if (M == 0 || N == 0) return;
  if (K == 0) {  // an empty sum: C is the bias (or stays)
    if (!accumulate)
      for (size_t i = 0; i < M; ++i)
        for (size_t j = 0; j < N; ++j) C[i * ldc + j] = bias ? bias[j] : 0.f;
    if (residual) addResidualBlock(C, residual, ldc, 0, M, 0, N);
    if (clamp) clampBlock(C, M, N, ldc, *clamp);
    if (clamp && clamp->gelu) geluBlock(C, ldc, 0, M, 0, N);
    return;
  }
  if (accumulate) bias = nullptr;
  // A folded Gelu: on each task's block of C after its last K block (the block is in L1 or L2).
  const bool gelu = clamp && clamp->gelu;
  static const MicroKernelInfo micro = selectMicroKernel();
  const size_t mrK = micro.mr;
  // Rows 4 KiB apart (K a multiple of 1024: a transformer's FFN down
  // projection, a 1024^3 MatMul) all fall into one L1 set (48 KiB, 12 ways):
  // the 14 rows of a tile thrash it. Their tiles take at most 11 rows, which
  // leave a way of the set to B; read in place they run as fast as the
  // 14-row tiles did on a copy of A with longer rows (the 1024^3 MatMul
  // +0.3 %, the FFN projection 2.6 % faster), and no copy of A (up to 64 MiB
  // per thread) is kept. Between two FullyConnected nodes the CPU engine pads
  // such rows instead (engine/pad_row_pitch.cpp): 14-row tiles again.
  const bool useDirectA = !transA && micro.directA != nullptr;
  const auto* directA = B.packed ? micro.directA : micro.directAUnpackedB;
  const size_t directRows = lda % 1024 == 0 ? kMRAliased : mrK;

  // Tasks are (row block x column block) tiles; split columns too when there
  // are few row blocks (e.g. a fully connected layer with batch 1: on one
  // thread too, its weights then stream panel group by panel group). A
  // task's panels are an even number where they can be, so the direct-A
  // kernels take two at a time (one broadcast of A feeds 32 columns instead
  // of 16; a single panel is bound by its loads): 96 columns split in two
  // had a third of MobileNetV2's 1x1 products run one panel at a time.
  const bool worthSplitting = parallel && M * N * K >= kMinParallelWork;
  size_t mTiles = (M + kMC - 1) / kMC;
  const size_t nPanels = (N + kNR - 1) / kNR;
#ifdef QNN_GEMM_HAVE_X86
  // Pairs of dense rows of 24 or 40 columns in whole vectors (the paired-
  // rows kernels): each task then covers every column of its rows.
  const bool paired = useDirectA && B.paired != nullptr && ldc == N && M >= 2;
#else
  const bool paired = false;
#endif
  // Rows belong to threads: with few row blocks and B no larger than A and C (or within 1 MiB),
  // the rows go in a multiple of the thread count of equal blocks, so each thread's contiguous
  // range of tasks (the pool hands them out that way) is whole row blocks, the rows the
  // element-wise ops after it (split by rows too) take on the same thread; split by columns, the
  // next op read half its input from the other core's cache. A larger B (ResNet-18's last
  // layers: 4.7 MB of filter for 49 rows) keeps the split by columns: each thread then reads
  // only its half of B.
  const size_t threads = worthSplitting ? workerThreads() : 1;
  bool equalRowBlocks = false;
  const bool rowsOwned = K * N * sizeof(float) <= (size_t(1) << 20) || K * N <= M * (K + N);
  if (threads > 1 && mTiles < 4 * threads && rowsOwned) {  // many blocks: ranges are mostly whole blocks
    const size_t blocks = (mTiles + threads - 1) / threads * threads;
    if (M / blocks >= kMinRowsPerBlock) mTiles = blocks, equalRowBlocks = true;
  }
  const size_t nSplit = worthSplitting && !paired
                            ? std::min(nPanels, std::max<size_t>(1, (16 + mTiles - 1) / mTiles))
                            : size_t(1);
  size_t panelsPerTile = (nPanels + nSplit - 1) / nSplit;
  if (useDirectA && panelsPerTile % 2 == 1 && panelsPerTile < nPanels) ++panelsPerTile;
  size_t nTiles = (nPanels + panelsPerTile - 1) / panelsPerTile;
  // A few tasks that do not divide among the threads (a 7x7 layer's 49 rows
  // by 5 pairs of panels: 5 tasks, 3 on one thread of 2) leave a thread idle
  // for a task's time. Then the columns go in more panels per task where
  // that divides them evenly (60 panels: 10 tasks of 6, not 15 of 4), else
  // the rows in more, equal blocks of at least a tile's rows (49 rows in 2).
  if (worthSplitting && !equalRowBlocks) {
    if (threads > 1 && (mTiles * nTiles) % threads != 0 && mTiles * nTiles < 8 * threads) {
      size_t ppt = panelsPerTile;
      while (!paired && ppt < nPanels && !(nPanels % ppt == 0 && (mTiles * (nPanels / ppt)) % threads == 0))
        ppt += useDirectA ? 2 - ppt % 2 : 1;
      if (!paired && ppt < nPanels && nPanels % ppt == 0 && (mTiles * (nPanels / ppt)) % threads == 0) {
        panelsPerTile = ppt, nTiles = nPanels / ppt;
      } else {
        const size_t maxBlocks = std::max<size_t>(1, M / directRows);
        size_t blocks = mTiles;
        while (blocks < maxBlocks && (blocks * nTiles) % threads != 0) ++blocks;
        if ((blocks * nTiles) % threads == 0) mTiles = blocks, equalRowBlocks = true;
      }
    }
  }
  const size_t numTasks = mTiles * nTiles;
  const size_t mBase = M / mTiles, mExtra = M % mTiles;

#ifdef QNN_GEMM_HAVE_X86
  // Rows [i0, i0 + mc) in pairs by the paired-rows kernels (an odd last row by
  // the one-row direct-A tiles), every column.
  float biasPair[2 * 40];
  if (paired && bias)
    for (size_t j = 0; j < 2 * N; ++j) biasPair[j] = bias[j % N];
  auto runPairedRows = [&](size_t i0, size_t mc) {
    const size_t pairs = mc / 2, maxPairs = N == 24 ? kPaired24[0].size() : kPaired40[0].size();
    const size_t tiles = (pairs + maxPairs - 1) / maxPairs;
    for (size_t k0 = 0; k0 < K; k0 += kKC) {
      const size_t kc = std::min(kKC, K - k0);
      const bool first = k0 == 0 && !accumulate;
      const Clamp* lastClamp = k0 + kc == K ? clamp : nullptr;
      const float* lastResidual = k0 + kc == K ? residual : nullptr;
      if (pairs > 0) {
        const size_t base = pairs / tiles, extra = pairs % tiles;
        for (size_t t = 0, jp = 0; t < tiles; ++t) {
          const size_t n = base + (t < extra ? 1 : 0);
          const bool r = lastResidual != nullptr;
          const PairedRowsKernel run = N == 24 ? kPaired24[r][n - 1] : kPaired40[r][n - 1];
          run(kc, A + (i0 + 2 * jp) * lda + k0, lda, B.paired + k0 * 2 * N, C + (i0 + 2 * jp) * ldc,
              bias ? biasPair : nullptr, first, lastClamp, lastResidual ? lastResidual + (i0 + 2 * jp) * ldc : nullptr);
          jp += n;
        }
      }
      if (mc % 2 == 1) {  // the last row alone
        const size_t row = i0 + mc - 1;
        for (size_t p = 0; p < nPanels; p += 2) {
          const size_t panels = p + 1 < nPanels ? 2 : 1, j0 = p * kNR, nr = std::min(panels * kNR, N - j0);
          const auto* tiles = lastResidual ? micro.directAResidual : directA;
          (*tiles)[panels - 1][0](kc, A + row * lda + k0, lda, B.data + p * B.panelStep + k0 * B.rowStep,
                                    B.panelStep, B.rowStep, C + row * ldc + j0, ldc, nr,
                                    bias ? bias + j0 : nullptr, first, lastClamp,
                                    lastResidual ? lastResidual + row * ldc + j0 : nullptr, nullptr, 0);
        }
      }
    }
  };
#endif
  auto runTasks = [&](size_t taskBegin, size_t taskEnd) {
    // kMC is a multiple of every MR, so a block's last panel is never padded
    // beyond kMC rows except at the matrix's bottom edge (kMC + kMaxMR rows).
    alignas(64) float aBlock[(kMC + kMaxMR) * kKC];
    for (size_t t = taskBegin; t < taskEnd; ++t) {
      const size_t block = t / nTiles, columnTile = t % nTiles;
      const size_t i0 = equalRowBlocks ? block * mBase + std::min(block, mExtra) : block * kMC;
      const size_t mc = equalRowBlocks ? mBase + (block < mExtra ? 1 : 0) : std::min(kMC, M - i0);
      const size_t p0 = columnTile * panelsPerTile, p1 = std::min(nPanels, p0 + panelsPerTile);
#ifdef QNN_GEMM_HAVE_X86
      if (paired) {
        runPairedRows(i0, mc);
        if (gelu) geluBlock(C, ldc, i0, mc, 0, N);
        continue;
      }
#endif
      const size_t kBlockMax = useDirectA ? kKCDirect : kKC, kBlocks = (K + kBlockMax - 1) / kBlockMax;
      for (size_t kb = 0; kb < kBlocks; ++kb) {
        const size_t k0 = useDirectA ? kb * K / kBlocks : kb * kKC;
        const size_t kc = useDirectA ? (kb + 1) * K / kBlocks - k0 : std::min(kKC, K - k0);
        if (!useDirectA) packA(A, lda, transA, M, i0, mc, k0, kc, mrK, aBlock);
        for (size_t p = p0; p < p1;) {
          // Direct-A tiles take two panels at a time while the task has two left.
          const size_t panels = useDirectA && p + 1 < p1 ? 2 : 1;
          const size_t j0 = p * kNR, nr = std::min(panels * kNR, N - j0);
          const float* bPanel = B.data + p * B.panelStep + k0 * B.rowStep;
          const float* biasJ = bias ? bias + j0 : nullptr;
          if (useDirectA) {
            // The block's rows split evenly over its tiles (44 rows: 4 x 11,
            // not 3 x 14 + 2): a tile of a few rows is bound by its loads,
            // not its FMAs (a transformer's 128-row products spent 2.8 % of
            // their time in 2-row tiles).
            const size_t tiles = (mc + directRows - 1) / directRows, base = mc / tiles, extra = mc % tiles;
            // The task's next two panels (contiguous when this K block is all of K) come into L2
            // while this pair's tiles run, a share per tile, a line per step of K. In a model the
            // weights wait in L3 (the others' since the last inference), and the first tile of each
            // pair read them on demand: the transformer's products called with their weights in L3
            // took 4-10 % longer than called again at once, 2-6 % with this; the model 1-1.5 %
            // faster in lockstep (1 and 2 threads), MobileNetV2 and ResNet-18 level. (An earlier
            // try, not kept, measured slower: docs/benchmarks.md. This one issues its lines inside
            // the tiles' K loops, one per step, behind the FMAs.)
            const bool fetchAhead = B.packed && kc == K && p + panels < p1 && tiles > 1;
            const size_t nextPanels = std::min<size_t>(2, p1 - p - panels);
            const char* next = reinterpret_cast<const char*>(B.data + (p + panels) * B.panelStep);
            const size_t nextLines = fetchAhead ? nextPanels * K * kNR * sizeof(float) / 64 : 0;
            const size_t share = (nextLines + tiles - 1) / tiles;
            for (size_t t = 0, ip = 0; t < tiles; ++t) {
              const size_t rows = base + (t < extra ? 1 : 0);
              const bool addsResidual = residual && k0 + kc == K;
              const size_t from = std::min(nextLines, t * share);
              const size_t lines = std::min(nextLines - from, std::min(share, kc));
              (*(addsResidual ? micro.directAResidual : directA))[panels - 1][rows - 1](
                                                     kc, A + (i0 + ip) * lda + k0, lda, bPanel, B.panelStep,
                                                     B.rowStep, C + (i0 + ip) * ldc + j0, ldc, nr, biasJ,
                                                     k0 == 0 && !accumulate, k0 + kc == K ? clamp : nullptr,
                                                     addsResidual ? residual + (i0 + ip) * ldc + j0 : nullptr,
                                                     next + from * 64, lines);
              ip += rows;
            }
          } else {
            for (size_t ip = 0; ip < mc; ip += mrK)
              micro.run(kc, aBlock + ip * kc, bPanel, C + (i0 + ip) * ldc + j0, ldc, std::min(mrK, mc - ip), nr,
                        biasJ, k0 == 0 && !accumulate);
          }
          p += panels;
        }
      }
      // The direct-A kernels added the residual and clamped in their last store.
      if (residual && !useDirectA) addResidualBlock(C, residual, ldc, i0, mc, p0 * kNR, std::min(N, p1 * kNR));
      if (clamp && !useDirectA)
        clampBlock(C + i0 * ldc + p0 * kNR, mc, std::min(N, p1 * kNR) - p0 * kNR, ldc, *clamp);
      if (gelu) geluBlock(C, ldc, i0, mc, p0 * kNR, std::min(N, p1 * kNR));
    }
  };
  if (worthSplitting)
    parallelFor(numTasks, 1, runTasks);
  else
    runTasks(0, numTasks);
}

}  // namespace

void multiply(size_t M, size_t N, size_t K, const float* A, size_t lda, bool transA, const float* packedB,
              const float* bias, float* C, size_t ldc, bool parallel, const Clamp* clamp, bool accumulate,
              const float* residual) {
  multiplyImpl(M, N, K, A, lda, transA,
               BLayout{packedB, K * kNR, kNR, true, pairedRows(N) ? packedB + panelsSize(K, N) : nullptr}, bias, C,
               ldc, parallel, clamp, accumulate, residual);
}

bool unpackedBSupported(size_t N, bool transA) {
  static const MicroKernelInfo micro = selectMicroKernel();
  return micro.directA != nullptr && !transA && N % kNR == 0;
}

void multiplyUnpackedB(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* B, size_t ldb,
                       const float* bias, float* C, size_t ldc, bool parallel, const Clamp* clamp) {
  multiplyImpl(M, N, K, A, lda, false, BLayout{B, kNR, ldb, false, nullptr}, bias, C, ldc, parallel, clamp, false,
               nullptr);
}

// One level of Strassen's algorithm in Winograd's form: seven half-size products instead of eight,
//   S1 = A21 + A22   S2 = S1 - A11   S3 = A11 - A21   S4 = A12 - S2
//   T1 = B12 - B11   T2 = B22 - T1   T3 = B22 - B12   T4 = T2 - B21
//   M1 = A11 B11   M2 = A12 B21   M3 = S4 B22   M4 = A22 T4   M5 = S1 T1   M6 = S2 T2   M7 = S3 T3
//   C11 = M1 + M2   C12 = M1 + M6 + M5 + M3   C21 = M1 + M6 + M7 - M4   C22 = M1 + M6 + M7 + M5
// The products run as four chains, each a register tile carried from one product to the next:
//   M1 -> C11 (first write), + M6 -> C12, C21, C22 (first writes);   M2 -> C11;
//   M7 -> C22, + (-M4) -> C21;   M5 -> C22, + M3 -> C12
// so C takes 4 first writes and 5 read-modify-writes (Strassen's own form: 4 and 8), C needs no
// zeroing and no product is kept. B's operands are packed at prepare in the chains' order (T4
// negated); A's seven operands are formed per block of rows in one pass, copies of A11, A12, A22
// included: with every operand's rows kStrassenLd apart, tiles take 14 rows even where A's rows are
// 4 KiB apart (read in place, 11-row tiles: the 1024^3 product ~3 % slower).
// Quadrants are numbered 0 = 11, 1 = 12, 2 = 21, 3 = 22.
namespace {
// A's operands, as winogradOperandsA stores them: 0 A11, 1 A12, 2 A22, 3..6 S1..S4.
struct WinogradStep {
  int a;         // A's operand
  int dest[3];   // quadrants the running sum is stored into after this product, -1: fewer
};
struct WinogradChain {
  WinogradStep step[3];
  int steps;
};
constexpr WinogradChain kChains[4] = {{{{0, {0, -1, -1}}, {4, {1, -1, -1}}, {5, {2, 3, -1}}}, 3},  // M1, M6, M7
                                      {{{1, {0, -1, -1}}}, 1},                                       // M2
                                      {{{2, {2, -1, -1}}}, 1},                                       // -M4
                                      {{{3, {3, -1, -1}}, {6, {1, -1, -1}}}, 2}};                    // M5, M3
// Element (k, j) of B's operand number p (the products in the chains' order: B11, T2, B21, T3,
// -T4, T1, B22) from B's quadrants b(q, k, j).
template <typename B>
float winogradOperandB(int p, const B& b, size_t k, size_t j) {
  const float b11 = b(0, k, j), b12 = b(1, k, j), b21 = b(2, k, j), b22 = b(3, k, j);
  const float t1 = b12 - b11, t2 = b22 - t1;
  switch (p) {
    case 0: return b11;
    case 1: return t2;
    case 2: return b22 - b12;
    case 3: return b21;
    case 4: return -(t2 - b21);
    case 5: return t1;
    default: return b22;
  }
}
// Whether the chain step (c, s) is the first (last) to write quadrant q.
bool writesQuadrant(size_t c, int s, int q) {
  const WinogradStep& st = kChains[c].step[s];
  return s < kChains[c].steps && (st.dest[0] == q || st.dest[1] == q || st.dest[2] == q);
}
bool firstWriter(size_t c, int s, int q) {
  for (size_t e = 0; e < 4; ++e)
    for (int f = 0; f < 3; ++f)
      if ((e < c || (e == c && f < s)) && writesQuadrant(e, f, q)) return false;
  return true;
}
bool lastWriter(size_t c, int s, int q) {
  for (size_t e = 0; e < 4; ++e)
    for (int f = 0; f < 3; ++f)
      if ((e > c || (e == c && f > s)) && writesQuadrant(e, f, q)) return false;
  return true;
}
// Blocks of at most kStrassenMC rows of the quadrants and kStrassenKC columns of A's (A's operands of
// a block, 7 x 14 x 528 floats, stay in L2), C's columns kStrassenNC at a time (all chains then
// write those tiles of C while they are in cache).
// One tile of 14 rows: A's seven operands of a block then take 207 KiB of L2, not 620 (three tiles).
// B's operands stream from L3 once per block either way; with the core's twin hardware thread busy
// (its tenant sharing L2), the 1024^3 product ran 2-2.5 % faster in median (lockstep against 42 rows,
// 100-200 pairs: two runs at 1 thread, one at 2), as fast with the core to itself.
constexpr size_t kStrassenMC = 14;
constexpr size_t kStrassenKC = 512;
constexpr size_t kStrassenNC = 4 * kNR;
constexpr size_t kStrassenLd = kStrassenKC + 16;  // rows of an A operand off 4 KiB strides
// Products at least this large in each of M, N, K take useStrassen() (512^3: 0.96 of the classic time).
constexpr size_t kStrassenMin = 512;

bool strassenEnabled() {
  const char* env = std::getenv("QNN_CPU_STRASSEN");
  return !(env && std::strcmp(env, "0") == 0);
}
}  // namespace

bool strassenSupported(size_t M, size_t N, size_t K, bool transA) {
  static const MicroKernelInfo micro = selectMicroKernel();
  return micro.directA != nullptr && !transA && M % 2 == 0 && N % 2 == 0 && K % 2 == 0 && M > 0 && N > 0 && K > 0;
}

bool useStrassen(size_t M, size_t N, size_t K, bool transA) {
  static const bool enabled = strassenEnabled();
  // K / 2 beyond one K block (kStrassenKC) adds C updates per block: 2048^3 measured no faster.
  return enabled && M >= kStrassenMin && N >= kStrassenMin && K >= kStrassenMin && K / 2 <= kStrassenKC &&
         strassenSupported(M, N, K, transA);
}

size_t strassenPackedBSize(size_t K, size_t N) { return 7 * panelsSize(K / 2, N / 2); }

void packBStrassen(const float* B, size_t ldb, bool transB, size_t K, size_t N, float* packed) {
  const size_t k2 = K / 2, n2 = N / 2;
  // Element (k, j) of quadrant q of B.
  auto quadrant = [&](int q, size_t k, size_t j) {
    k += q >= 2 ? k2 : 0, j += q % 2 == 1 ? n2 : 0;
    return transB ? B[j * ldb + k] : B[k * ldb + j];
  };
  for (int p = 0; p < 7; ++p) {
    packPanels(k2, n2, packed, [&](size_t k, size_t j) { return winogradOperandB(p, quadrant, k, j); });
    packed += panelsSize(k2, n2);
  }
}

void multiplyStrassen(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* packedB,
                      const float* bias, float* C, size_t ldc, bool parallel, const Clamp* clamp) {
#ifdef QNN_GEMM_HAVE_X86
  const size_t m2 = M / 2, n2 = N / 2, k2 = K / 2;
  const float* aQuadrant[4] = {A, A + k2, A + m2 * lda, A + m2 * lda + k2};
  float* cQuadrant[4] = {C, C + n2, C + m2 * ldc, C + m2 * ldc + n2};
  const float* biasOf[4] = {bias, bias ? bias + n2 : nullptr, bias, bias ? bias + n2 : nullptr};
  const size_t operandSize = panelsSize(k2, n2);
  const size_t kBlocks = (k2 + kStrassenKC - 1) / kStrassenKC;
  constexpr size_t maxRows = kMRAvx512;
  // Tasks are blocks of the quadrants' rows, each running the chains over every column: a block of
  // rows of C is then written by one thread only, in the chains' order. Equal blocks of at most
  // kStrassenMC rows, a multiple of the thread count of them.
  const bool worthSplitting = parallel && m2 * n2 * k2 >= kMinParallelWork;
  const size_t threads = worthSplitting ? workerThreads() : 1;
  const size_t blocks = ((m2 + kStrassenMC - 1) / kStrassenMC + threads - 1) / threads * threads;
  const size_t mBase = m2 / blocks, mExtra = m2 % blocks;
  constexpr size_t kOperandsA = 7, kOperandFloats = kStrassenMC * kStrassenLd;
  // Rows [i0, i0 + mc) of the quadrants, A's operands formed in `operands` (7 of them, `stride`
  // floats apart). The rows of the next block (nextMc of them from nextI0; 0: none) are fetched into
  // L2 a few cache lines per tile, the first K block's columns: forming the operands then reads them
  // from there, not from memory (forming S1..S4 took 2.6 % of the 1024^3 product's time, with this 1.9 %).
  const size_t rowLines = (k2 / kBlocks + kNR - 1) / kNR;  // lines of one quadrant's row
  auto runRows = [&](size_t i0, size_t mc, float* operands, size_t stride, size_t nextI0, size_t nextMc) {
    const size_t tiles = (mc + maxRows - 1) / maxRows, tileBase = mc / tiles, tileExtra = mc % tiles;
    const size_t calls = kBlocks * 4 * tiles * ((n2 + 2 * kNR - 1) / (2 * kNR));
    const size_t toFetch = 4 * nextMc * rowLines, perCall = (toFetch + calls - 1) / calls;
    size_t fetched = 0, row = 0, q = 0, line = 0;
    auto fetchNext = [&] {
      for (size_t end = std::min(toFetch, fetched + perCall); fetched < end; ++fetched) {
        _mm_prefetch(reinterpret_cast<const char*>(aQuadrant[q] + (nextI0 + row) * lda + line * kNR), _MM_HINT_T1);
        if (++line == rowLines) {
          line = 0;
          if (++q == 4) q = 0, ++row;
        }
      }
    };
    for (size_t kb = 0; kb < kBlocks; ++kb) {
      const size_t k0 = kb * k2 / kBlocks, kc = (kb + 1) * k2 / kBlocks - k0;
      const float* const rowsAt[4] = {aQuadrant[0] + i0 * lda + k0, aQuadrant[1] + i0 * lda + k0,
                                      aQuadrant[2] + i0 * lda + k0, aQuadrant[3] + i0 * lda + k0};
      winogradOperandsA(rowsAt, lda, mc, kc, operands, kStrassenLd, stride);
      for (size_t c0 = 0; c0 < n2; c0 += kStrassenNC) {
        const size_t pEnd = (std::min(n2, c0 + kStrassenNC) + kNR - 1) / kNR;
        for (size_t ch = 0, product = 0; ch < 4; product += size_t(kChains[ch].steps), ++ch) {
          const WinogradChain& chain = kChains[ch];
          WinogradSegment seg[3]{};
          for (int s = 0; s < chain.steps; ++s)
            for (int d = 0; d < 3 && chain.step[s].dest[d] >= 0; ++d) {
              const int q = chain.step[s].dest[d];
              seg[s].first[d] = kb == 0 && firstWriter(ch, s, q);
              seg[s].last[d] = kb + 1 == kBlocks && lastWriter(ch, s, q);
            }
          for (size_t pp = c0 / kNR; pp < pEnd;) {
            const size_t panels = pp + 1 < pEnd ? 2 : 1, j0 = pp * kNR, nr = std::min(panels * kNR, n2 - j0);
            for (size_t t = 0, ip = 0; t < tiles; ++t) {
              const size_t rows = tileBase + (t < tileExtra ? 1 : 0);
              for (int s = 0; s < chain.steps; ++s) {
                const WinogradStep& st = chain.step[s];
                seg[s].a = operands + size_t(st.a) * stride + ip * kStrassenLd, seg[s].lda = kStrassenLd;
                seg[s].b = packedB + (product + size_t(s)) * operandSize + pp * k2 * kNR + k0 * kNR;
                for (int d = 0; d < 3; ++d) {
                  const int q = st.dest[d];
                  seg[s].c[d] = q < 0 ? nullptr : cQuadrant[q] + (i0 + ip) * ldc + j0;
                  seg[s].bias[d] = q >= 0 && seg[s].first[d] && biasOf[q] ? biasOf[q] + j0 : nullptr;
                }
              }
              kAvx512Winograd[panels - 1][rows - 1](kc, seg, size_t(chain.steps), k2 * kNR, ldc, nr, clamp);
              fetchNext();
              ip += rows;
            }
            pp += panels;
          }
        }
      }
    }
  };
  auto runBlocks = [&](size_t begin, size_t end) {
    // A's operands of a block in this thread's scratch; without the memory for them, the block runs
    // a few rows at a time, their operands on the stack.
    float* operands = threadScratch(kOperandsA * kOperandFloats);
    for (size_t block = begin; block < end; ++block) {
      const size_t i0 = block * mBase + std::min(block, mExtra), mc = mBase + (block < mExtra ? 1 : 0);
      if (operands) {
        const size_t next = block + 1 < end ? block + 1 : block;
        const size_t nextI0 = next * mBase + std::min(next, mExtra);
        const size_t nextMc = next == block ? 0 : mBase + (next < mExtra ? 1 : 0);
        if (mc > 0) runRows(i0, mc, operands, kOperandFloats, nextI0, nextMc);
        continue;
      }
      // Half tiles: the seven operands of 7 rows take 101 KiB of the stack (the caller's thread's at 1 thread).
      constexpr size_t kSmallRows = kMRAvx512 / 2;
      alignas(64) float small[kOperandsA * kStrassenLd * kSmallRows];
      for (size_t r = 0; r < mc; r += kSmallRows)
        runRows(i0 + r, std::min(kSmallRows, mc - r), small, kStrassenLd * kSmallRows, 0, 0);
    }
  };
  if (worthSplitting)
    parallelFor(blocks, 1, runBlocks);
  else
    runBlocks(0, blocks);
#else
  (void)M, (void)N, (void)K, (void)A, (void)lda, (void)packedB, (void)bias, (void)C, (void)ldc, (void)parallel,
      (void)clamp;
#endif
}

}  // namespace qnn::cpu::gemm
