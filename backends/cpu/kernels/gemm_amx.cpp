// bf16x6 products on the AMX tile unit (see gemm_amx.h for the arithmetic).
//
// Layout: a 32 x 32 block of C is four 16 x 16 float tiles (registers 0-3) fed by two tiles of A rows
// (4-5) and two of B columns (6-7), each 16 rows of 32 bfloat16 (1 KiB). A step of K (32 values)
// needs, for a pair of row tiles and a pair of column tiles, three parts of each: six tiles of A and
// six of B, stored together (6 KiB) in the order part 0 top/left, part 0 bottom/right, part 1 ...:
//   packed B: [column pair][K step][part][left, right][16 rows: K pairs][16 columns x 2 (the pair)]
//   packed A: [row pair][K step][part][top, bottom][16 rows][32 K values], formed per call
// The tile unit multiplies a row of A's tile by a column of B's as 16 pairs of values, so B's tile
// row r holds rows 2r and 2r + 1 of the step interleaved.
#include "cpu/kernels/gemm_amx.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/gemm.h"
#include "cpu/kernels/kernel_util.h"
#include "cpu/kernels/x86_simd.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#define QNN_GEMM_HAVE_AMX 1
#endif

namespace qnn::cpu::gemm {
namespace {

constexpr size_t kTileRows = 16;
constexpr size_t kStepK = 32;                 // K values of one tile row
constexpr size_t kTileElems = kTileRows * kStepK;  // bfloat16 values in a tile
constexpr size_t kParts = 3;
constexpr size_t kStepElems = kParts * 2 * kTileElems;  // one K step of a row or column pair
constexpr size_t kPair = 2 * kTileRows;            // rows (columns) of a pair of tiles
constexpr size_t kMaxK = 8192;
// A's parts formed in one round (all of a 1024 x 1024 A's: 6 MiB), and a block of them (in L2
// while every column pair of B passes).
constexpr size_t kMaxRoundBytes = size_t(16) << 20;
constexpr size_t kABlockBytes = size_t(768) << 10;
constexpr size_t kMaxBlockPairs = 8;
constexpr size_t kMinParallelWork = size_t(1) << 18;

// The largest finite bfloat16 (0x7F7F): a float beyond it rounds to infinity.
constexpr float kBf16Max = 3.3895313892515355e38f;

size_t roundUp(size_t v, size_t to) { return (v + to - 1) / to * to; }

// Round to nearest even, for finite values (no flush: B's parts keep their subnormals, which the
// fallback rows use).
uint16_t toBf16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}

float fromBf16(uint16_t h) {
  const uint32_t u = uint32_t(h) << 16;
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

void splitBf16(float x, uint16_t (&parts)[kParts]) {
  parts[0] = toBf16(x);
  const float r1 = x - fromBf16(parts[0]);
  parts[1] = toBf16(r1);
  parts[2] = toBf16(r1 - fromBf16(parts[1]));
}

size_t packedBElems(size_t K, size_t N) { return roundUp(N, kPair) / kPair * (roundUp(K, kStepK) / kStepK) * kStepElems; }

// Element (k, j) of B from its packed parts (their float sum, exact).
float packedBAt(const uint16_t* packed, size_t steps, size_t k, size_t j) {
  const size_t pair = j / kPair, half = j % kPair / kTileRows, col = j % kTileRows;
  const size_t step = k / kStepK, row = k % kStepK / 2, lane = k % 2;
  const uint16_t* tile = packed + (pair * steps + step) * kStepElems + half * kTileElems;
  float sum = 0.f;
  for (size_t p = kParts; p-- > 0;) sum += fromBf16(tile[p * 2 * kTileElems + row * kStepK + col * 2 + lane]);
  return sum;
}

#ifdef QNN_GEMM_HAVE_AMX
constexpr long kArchReqXcompPerm = 0x1023;  // arch_prctl: ask for an XSAVE feature's state
constexpr long kXfeatureXtiledata = 18;

bool detectAmx() {
  if (cpuIsa() != Isa::kAvx512) return false;
  const char* env = std::getenv("QNN_CPU_AMX");  // opt-in: see gemm_amx.h
  if (!env || std::strcmp(env, "1") != 0) return false;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool tile = (d & (1u << 24)) != 0, amxBf16 = (d & (1u << 22)) != 0;
  if (!__get_cpuid_count(7, 1, &a, &b, &c, &d)) return false;
  const bool avx512Bf16 = (a & (1u << 5)) != 0;
  if (!tile || !amxBf16 || !avx512Bf16) return false;
  // The OS saves the tile state (XCR0 bits 17 and 18) and lends it to this process (Linux 5.16+).
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & (3u << 17)) != (3u << 17)) return false;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
}

struct alignas(64) TileConfig {
  uint8_t palette = 1, startRow = 0;
  uint8_t reserved[14] = {};
  uint16_t colsBytes[16] = {};
  uint8_t rows[16] = {};
};

TileConfig fullTiles() {
  TileConfig cfg;
  for (int t = 0; t < 8; ++t) cfg.colsBytes[t] = kStepK * 2, cfg.rows[t] = kTileRows;
  return cfg;
}

#define QNN_AMX_TARGET __attribute__((target("amx-tile,amx-bf16,avx512f,avx512bw,avx512bf16")))

// The tile registers' shapes are the calling thread's state: set before its first tile product,
// given back after its last (the kernel then stops saving them at every switch).
QNN_AMX_TARGET void configureTiles() {
  static const TileConfig config = fullTiles();
  _tile_loadconfig(&config);
}
QNN_AMX_TARGET void releaseTiles() { _tile_release(); }

// One K step of a 32 x 32 block: the six products of parts, 24 tile products.
#define QNN_AMX_FOUR() \
  _tile_dpbf16ps(0, 4, 6); \
  _tile_dpbf16ps(1, 4, 7); \
  _tile_dpbf16ps(2, 5, 6); \
  _tile_dpbf16ps(3, 5, 7)

// A 32 x 32 block of C over every K step, stored to `out` (32 floats a row). `fetch` lines (64
// bytes) from `fetchFrom` are fetched into L2 a step: the next column pair's B, spread over this one's
// blocks (in a model the weights come from L3 or memory, and the tile unit leaves the load ports
// idle most of its cycles).
QNN_AMX_TARGET void blockProduct(size_t steps, const uint16_t* a, const uint16_t* b, float* out, const char* fetchFrom,
                                 size_t fetch) {
  constexpr long kStride = kStepK * 2;
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (size_t s = 0; s < steps; ++s, a += kStepElems, b += kStepElems) {
    for (size_t l = 0; l < fetch; ++l, fetchFrom += 64) _mm_prefetch(fetchFrom, _MM_HINT_T1);
    _tile_loadd(4, a, kStride);  // A part 0 with B parts 0 and 1
    _tile_loadd(5, a + kTileElems, kStride);
    _tile_loadd(6, b, kStride);
    _tile_loadd(7, b + kTileElems, kStride);
    QNN_AMX_FOUR();
    _tile_loadd(6, b + 2 * kTileElems, kStride);
    _tile_loadd(7, b + 3 * kTileElems, kStride);
    QNN_AMX_FOUR();
    _tile_loadd(4, a + 2 * kTileElems, kStride);  // A part 1 with B parts 1 and 0
    _tile_loadd(5, a + 3 * kTileElems, kStride);
    QNN_AMX_FOUR();
    _tile_loadd(6, b, kStride);
    _tile_loadd(7, b + kTileElems, kStride);
    QNN_AMX_FOUR();
    _tile_loadd(4, a + 4 * kTileElems, kStride);  // A part 2 with B part 0
    _tile_loadd(5, a + 5 * kTileElems, kStride);
    QNN_AMX_FOUR();
    _tile_loadd(4, a, kStride);  // A part 0 with B part 2
    _tile_loadd(5, a + kTileElems, kStride);
    _tile_loadd(6, b + 4 * kTileElems, kStride);
    _tile_loadd(7, b + 5 * kTileElems, kStride);
    QNN_AMX_FOUR();
  }
  constexpr long kOutStride = kPair * sizeof(float);
  _tile_stored(0, out, kOutStride);
  _tile_stored(1, out + kTileRows, kOutStride);
  _tile_stored(2, out + kTileRows * kPair, kOutStride);
  _tile_stored(3, out + kTileRows * kPair + kTileRows, kOutStride);
}

QNN_AMX_TARGET void storeBlock(const float* out, size_t rows, size_t cols, const float* bias, const float* residual,
                               float* c, size_t ldc, const Clamp* clamp) {
  const __m512 lo = _mm512_set1_ps(clamp ? clamp->lo : -std::numeric_limits<float>::infinity());
  const __m512 hi = _mm512_set1_ps(clamp ? clamp->hi : std::numeric_limits<float>::infinity());
  for (size_t h = 0; h < 2 && h * kTileRows < cols; ++h) {
    const size_t n = std::min(kTileRows, cols - h * kTileRows);
    const __mmask16 mask = n == kTileRows ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
    const __m512 biasRow = bias ? _mm512_maskz_loadu_ps(mask, bias + h * kTileRows) : _mm512_setzero_ps();
    for (size_t r = 0; r < rows; ++r) {
      __m512 sum = _mm512_add_ps(_mm512_load_ps(out + r * kPair + h * kTileRows), biasRow);
      if (residual) sum = _mm512_add_ps(sum, _mm512_maskz_loadu_ps(mask, residual + r * ldc + h * kTileRows));
      if (clamp) sum = _mm512_min_ps(hi, _mm512_max_ps(lo, sum));  // operand order keeps NaN
      _mm512_mask_storeu_ps(c + r * ldc + h * kTileRows, mask, sum);
    }
  }
}

// The parts of the pair of row tiles A[i0, i0 + 32) (rows past M as zeros) for every K step, into
// `dst`; marks in `bad` (one flag a row) the rows with a value the split cannot carry.
QNN_AMX_TARGET void packA(const float* A, size_t lda, size_t M, size_t K, size_t i0, uint16_t* dst, uint8_t* bad) {
  const size_t steps = roundUp(K, kStepK) / kStepK;
  const __m512i exponent = _mm512_set1_epi16(0x7F80);
  for (size_t r = 0; r < kPair; ++r) {
    uint16_t* rowAt = dst + (r / kTileRows) * kTileElems + (r % kTileRows) * kStepK;
    const size_t i = i0 + r;
    if (i >= M) {
      bad[r] = 0;
      for (size_t s = 0; s < steps; ++s)
        for (size_t p = 0; p < kParts; ++p)
          _mm512_storeu_si512(rowAt + s * kStepElems + p * 2 * kTileElems, _mm512_setzero_si512());
      continue;
    }
    const float* src = A + i * lda;
    __mmask32 nonFinite = 0;
    for (size_t s = 0; s < steps; ++s) {
      const size_t k0 = s * kStepK;
      const size_t n0 = std::min<size_t>(16, K > k0 ? K - k0 : 0), n1 = std::min<size_t>(16, K > k0 + 16 ? K - k0 - 16 : 0);
      const __m512 x0 = _mm512_maskz_loadu_ps(n0 == 16 ? __mmask16(0xFFFF) : __mmask16((1u << n0) - 1), src + k0);
      const __m512 x1 =
          _mm512_maskz_loadu_ps(n1 == 16 ? __mmask16(0xFFFF) : __mmask16((1u << n1) - 1), src + k0 + 16);
      __m512 r0 = x0, r1 = x1;
      uint16_t* out = rowAt + s * kStepElems;
      for (size_t p = 0; p < kParts; ++p) {
        const __m512i part = (__m512i)_mm512_cvtne2ps_pbh(r1, r0);  // values 0-15 from r0, 16-31 from r1
        _mm512_storeu_si512(out + p * 2 * kTileElems, part);
        if (p == 0) nonFinite |= _mm512_cmpeq_epi16_mask(_mm512_and_si512(part, exponent), exponent);
        if (p + 1 < kParts) {
          const __m512 f0 = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(part)), 16));
          const __m512 f1 =
              _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(part, 1)), 16));
          r0 = _mm512_sub_ps(r0, f0);
          r1 = _mm512_sub_ps(r1, f1);
        }
      }
    }
    bad[r] = nonFinite != 0;
  }
}

// Rows of C whose row of A the split cannot carry, in float32 from B's parts: products and sums
// as IEEE arithmetic gives them (an infinity or a NaN where the classic product has one).
void exactRow(const float* a, size_t K, const uint16_t* packedB, size_t steps, size_t j0, size_t j1,
              const float* bias, const float* residual, float* c, const Clamp* clamp) {
  for (size_t j = j0; j < j1; ++j) {
    float sum = bias ? bias[j] : 0.f;
    for (size_t k = 0; k < K; ++k) sum = std::fma(a[k], packedBAt(packedB, steps, k, j), sum);
    if (residual) sum += residual[j];
    if (clamp) sum = std::min(clamp->hi, std::max(clamp->lo, sum));
    c[j] = sum;
  }
}

// multiplyAmx split over the worker threads: tasks of whole row pairs, each forming its rows' parts
// on its own thread (in that thread's scratch) and meeting every column pair of B with them, in one
// pass. The split before (all of A's parts formed in a first parallel pass, then the column pairs
// shared out: parts read from the other core's cache, two waits on the pool) ran the transformer's
// 128-row products at 2 threads in 0.86-1.19x the AVX-512 FMA products' time; this one in 0.64-0.97x
// (median of per-call ratios, two runs per shape, docs/benchmarks.md). Tasks of up to blockPairs row
// pairs, two per thread where the rows allow: one per thread was faster still while both tile units
// ran free (0.58-0.76x) but up to 1.24x while one was shared with its twin hardware thread, the
// other thread then waiting with nothing to take from its range.
void multiplyAmxRowTasks(size_t M, size_t N, size_t K, const float* A, size_t lda, const uint16_t* packedB,
                         const float* bias, float* C, size_t ldc, const Clamp* clamp, const float* residual,
                         size_t blockPairs) {
  const size_t steps = roundUp(K, kStepK) / kStepK, pairElems = steps * kStepElems;
  const size_t rowPairs = roundUp(M, kPair) / kPair, colPairs = roundUp(N, kPair) / kPair;
  const size_t taskPairs = std::clamp<size_t>(rowPairs / (2 * workerThreads()), 1, blockPairs);
  const size_t tasks = (rowPairs + taskPairs - 1) / taskPairs;
  const size_t pairLines = pairElems * sizeof(uint16_t) / 64;
  parallelFor(tasks, 1, [&](size_t begin, size_t end) {
    const size_t partsFloats = (taskPairs * pairElems + 1) / 2;
    float* scratch = threadScratch(partsFloats + (taskPairs * kPair + 3) / 4);
    for (size_t task = begin; task < end; ++task) {
      const size_t p0 = task * taskPairs, p1 = std::min(rowPairs, p0 + taskPairs), i0 = p0 * kPair;
      const size_t rowsOfTask = std::min(M, p1 * kPair) - i0;
      if (!scratch) {  // no memory for the parts: the task's rows in float32 from B's parts
        for (size_t i = i0; i < i0 + rowsOfTask; ++i)
          exactRow(A + i * lda, K, packedB, steps, 0, N, bias, residual ? residual + i * ldc : nullptr, C + i * ldc,
                   clamp);
        continue;
      }
      auto* parts = reinterpret_cast<uint16_t*>(scratch);
      auto* bad = reinterpret_cast<uint8_t*>(scratch + partsFloats);
      for (size_t p = p0; p < p1; ++p) packA(A, lda, M, K, p * kPair, parts + (p - p0) * pairElems, bad + (p - p0) * kPair);
      configureTiles();
      alignas(64) float out[kPair * kPair];
      // The next column pair of B fetched into L2 a share a step, over this one's row pairs.
      const size_t fetch = (pairLines + (p1 - p0) * steps - 1) / ((p1 - p0) * steps);
      for (size_t cp = 0; cp < colPairs; ++cp) {
        const size_t j0 = cp * kPair, cols = std::min(kPair, N - j0);
        const char* next = reinterpret_cast<const char*>(packedB + (cp + 1) * pairElems);
        for (size_t p = p0; p < p1; ++p) {
          const size_t i = p * kPair, rows = std::min(kPair, M - i);
          blockProduct(steps, parts + (p - p0) * pairElems, packedB + cp * pairElems, out,
                       next + (p - p0) * steps * fetch * 64, cp + 1 < colPairs ? fetch : 0);
          storeBlock(out, rows, cols, bias ? bias + j0 : nullptr, residual ? residual + i * ldc + j0 : nullptr,
                     C + i * ldc + j0, ldc, clamp);
        }
      }
      releaseTiles();
      for (size_t r = 0; r < rowsOfTask; ++r)
        if (bad[r]) {
          const size_t i = i0 + r;
          exactRow(A + i * lda, K, packedB, steps, 0, N, bias, residual ? residual + i * ldc : nullptr, C + i * ldc,
                   clamp);
        }
    }
  });
}
#endif

}  // namespace

bool amxSupported() {
#ifdef QNN_GEMM_HAVE_AMX
  static const bool supported = detectAmx();
  return supported;
#else
  return false;
#endif
}

bool useAmx(size_t M, size_t N, size_t K, bool transA) {
  return !transA && M >= kTileRows && N >= kTileRows && K >= kStepK && K <= kMaxK && amxSupported();
}

bool amxCarries(const float* values, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!(std::fabs(values[i]) <= kBf16Max)) return false;  // NaN compares false
  return true;
}

size_t amxPackedBSize(size_t K, size_t N) { return (packedBElems(K, N) + 1) / 2; }

void packBAmx(const float* B, size_t ldb, bool transB, size_t K, size_t N, float* packedFloats) {
  auto* packed = reinterpret_cast<uint16_t*>(packedFloats);
  const size_t steps = roundUp(K, kStepK) / kStepK;
  std::memset(packed, 0, packedBElems(K, N) * sizeof(uint16_t));
  for (size_t k = 0; k < K; ++k)
    for (size_t j = 0; j < N; ++j) {
      uint16_t parts[kParts];
      splitBf16(transB ? B[j * ldb + k] : B[k * ldb + j], parts);
      const size_t pair = j / kPair, half = j % kPair / kTileRows, col = j % kTileRows;
      uint16_t* tile = packed + (pair * steps + k / kStepK) * kStepElems + half * kTileElems;
      for (size_t p = 0; p < kParts; ++p) tile[p * 2 * kTileElems + (k % kStepK / 2) * kStepK + col * 2 + k % 2] = parts[p];
    }
}

void multiplyAmx(size_t M, size_t N, size_t K, const float* A, size_t lda, const float* packedBFloats,
                 const float* bias, float* C, size_t ldc, bool parallel, const Clamp* clamp, const float* residual) {
#ifdef QNN_GEMM_HAVE_AMX
  const auto* packedB = reinterpret_cast<const uint16_t*>(packedBFloats);
  const size_t steps = roundUp(K, kStepK) / kStepK, pairElems = steps * kStepElems;
  const size_t rowPairs = roundUp(M, kPair) / kPair, colPairs = roundUp(N, kPair) / kPair;
  // On one thread: A's parts are formed for many rows at once (a round), then every block of rows
  // (its parts in L2) meets every column pair of B. Split over threads: multiplyAmxRowTasks.
  const size_t roundPairs = std::clamp<size_t>(kMaxRoundBytes / (pairElems * sizeof(uint16_t)), 1, rowPairs);
  const size_t blockPairs = std::clamp<size_t>(kABlockBytes / (pairElems * sizeof(uint16_t)), 1, kMaxBlockPairs);
  const bool split = parallel && M * N * K >= kMinParallelWork && workerThreads() > 1;
  if (split) {
    multiplyAmxRowTasks(M, N, K, A, lda, packedB, bias, C, ldc, clamp, residual, blockPairs);
    return;
  }
  const size_t partsFloats = (roundPairs * pairElems + 1) / 2;
  float* scratch = threadScratch(partsFloats + (roundPairs * kPair + 3) / 4);
  if (!scratch) {  // no memory for A's parts: every row in float32 from B's parts (slow, still right)
    for (size_t i = 0; i < M; ++i)
      exactRow(A + i * lda, K, packedB, steps, 0, N, bias, residual ? residual + i * ldc : nullptr, C + i * ldc, clamp);
    return;
  }
  auto* aParts = reinterpret_cast<uint16_t*>(scratch);
  auto* bad = reinterpret_cast<uint8_t*>(scratch + partsFloats);  // a flag a row of the round
  for (size_t r0 = 0; r0 < rowPairs; r0 += roundPairs) {
    const size_t pairs = std::min(roundPairs, rowPairs - r0), blocks = (pairs + blockPairs - 1) / blockPairs;
    auto pack = [&](size_t begin, size_t end) {
      for (size_t p = begin; p < end; ++p) packA(A, lda, M, K, (r0 + p) * kPair, aParts + p * pairElems, bad + p * kPair);
    };
    // Task t: block t / colPairs of the round's rows with column pair t % colPairs. A thread's
    // range of tasks is then a few blocks, each kept while B passes.
    auto compute = [&](size_t begin, size_t end) {
      configureTiles();
      alignas(64) float out[kPair * kPair];
      const size_t pairLines = pairElems * sizeof(uint16_t) / 64;
      for (size_t t = begin; t < end; ++t) {
        const size_t block = t / colPairs, cp = t % colPairs;
        const size_t p0 = block * blockPairs, p1 = std::min(pairs, p0 + blockPairs);
        const size_t j0 = cp * kPair, cols = std::min(kPair, N - j0);
        // The next task's column pair fetched a share a step (nothing after the range's last).
        const size_t fetch = t + 1 < end && cp + 1 < colPairs ? (pairLines + (p1 - p0) * steps - 1) / ((p1 - p0) * steps) : 0;
        const char* next = reinterpret_cast<const char*>(packedB + (cp + 1) * pairElems);
        for (size_t p = p0; p < p1; ++p) {
          const size_t i = (r0 + p) * kPair, rows = std::min(kPair, M - i);
          blockProduct(steps, aParts + p * pairElems, packedB + cp * pairElems, out,
                       next + (p - p0) * steps * fetch * 64, fetch);
          storeBlock(out, rows, cols, bias ? bias + j0 : nullptr, residual ? residual + i * ldc + j0 : nullptr,
                     C + i * ldc + j0, ldc, clamp);
        }
      }
      releaseTiles();
    };
    pack(0, pairs);
    compute(0, blocks * colPairs);
    for (size_t r = 0; r < pairs * kPair && r0 * kPair + r < M; ++r)
      if (bad[r]) {
        const size_t i = r0 * kPair + r;
        exactRow(A + i * lda, K, packedB, steps, 0, N, bias, residual ? residual + i * ldc : nullptr, C + i * ldc, clamp);
      }
  }
#else
  (void)M, (void)N, (void)K, (void)A, (void)lda, (void)packedBFloats, (void)bias, (void)C, (void)ldc, (void)parallel,
      (void)clamp, (void)residual;
#endif
}

}  // namespace qnn::cpu::gemm
