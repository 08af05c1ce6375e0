#include "cpu/kernels/winograd.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/kernel_util.h"

#if defined(__x86_64__)
#include "cpu/kernels/x86_simd.h"
#endif

namespace qnn::cpu::winograd {
namespace {

constexpr size_t kPositionsF2 = 16;  // F(2x2, 3x3): 4x4 transform positions
constexpr size_t kPositionsF4 = 36;  // F(4x4, 3x3): 6x6 transform positions

// Four streams of one transform step: (o0, o1, o2, o3) = (a0 - a2, a1 + a2,
// a2 - a1, a1 - a3), element-wise over n channels. __restrict parameters (GCC
// ignores restrict on locals) let the loop vectorize without alias checks; the
// callers pass disjoint rows, or the same rows in place (each element read
// before written).
QNN_CPU_ALWAYS_INLINE void btStep(const float* __restrict a0, const float* __restrict a1,
                                  const float* __restrict a2, const float* __restrict a3, float* __restrict o0,
                                  float* __restrict o1, float* __restrict o2, float* __restrict o3, size_t n) {
  for (size_t c = 0; c < n; ++c) {
    const float x0 = a0[c], x1 = a1[c], x2 = a2[c], x3 = a3[c];
    o0[c] = x0 - x2, o1[c] = x1 + x2, o2[c] = x2 - x1, o3[c] = x1 - x3;
  }
}

// V[k][c] = (B^T d B)[k] for one 4x4 input tile d (rows rowStride apart,
// columns cin apart, channel c contiguous); B^T = [1 0 -1 0; 0 1 1 0;
// 0 -1 1 0; 0 1 0 -1]. V's positions are kStride apart.
QNN_CPU_ALWAYS_INLINE void inputTransformBody(const float* d, size_t rowStride, size_t cin, float* v,
                                              size_t kStride) {
  for (size_t j = 0; j < 4; ++j)  // columns of B^T d, into V rows j, 4 + j, 8 + j, 12 + j
    btStep(d + j * cin, d + rowStride + j * cin, d + 2 * rowStride + j * cin, d + 3 * rowStride + j * cin,
           v + j * kStride, v + (4 + j) * kStride, v + (8 + j) * kStride, v + (12 + j) * kStride, cin);
  alignas(64) float tmp[4][256];
  for (size_t i = 0; i < 4; ++i) {  // rows times B, in place (through a copy: restrict forbids aliasing)
    float* t = v + 4 * i * kStride;
    for (size_t c0 = 0; c0 < cin; c0 += 256) {
      const size_t n = std::min<size_t>(256, cin - c0);
      for (size_t j = 0; j < 4; ++j) std::memcpy(tmp[j], t + j * kStride + c0, n * sizeof(float));
      btStep(tmp[0], tmp[1], tmp[2], tmp[3], t + c0, t + kStride + c0, t + 2 * kStride + c0, t + 3 * kStride + c0,
             n);
    }
  }
}

// Y = A^T M A for one tile, A^T = [1 1 1 0; 0 1 -1 -1]: m[k] are the 16
// product rows, out the 2x2 output rows; bias added, clamped into [lo, hi]
// (+-inf when no activation is fused, which changes no value).
QNN_CPU_ALWAYS_INLINE void atStep(const float* __restrict m0, const float* __restrict m1,
                                  const float* __restrict m2, const float* __restrict m3, float* __restrict r0,
                                  float* __restrict r1, size_t n) {
  for (size_t c = 0; c < n; ++c) r0[c] = m0[c] + m1[c] + m2[c], r1[c] = m1[c] - m2[c] - m3[c];
}
QNN_CPU_ALWAYS_INLINE void finishStep(const float* __restrict r0, const float* __restrict r1,
                                      const float* __restrict r2, const float* __restrict r3,
                                      const float* __restrict bias, float* __restrict y0, float* __restrict y1,
                                      size_t n, float lo, float hi) {
  for (size_t c = 0; c < n; ++c) {
    const float b = bias ? bias[c] : 0.f;
    y0[c] = std::min(std::max(r0[c] + r1[c] + r2[c] + b, lo), hi);
    y1[c] = std::min(std::max(r1[c] - r2[c] - r3[c] + b, lo), hi);
  }
}
QNN_CPU_ALWAYS_INLINE void outputTransformBody(const float* m, size_t kStride, size_t cout, const float* bias,
                                               float* const* out, float lo, float hi) {
  alignas(64) float r[2][4][256];
  for (size_t c0 = 0; c0 < cout; c0 += 256) {
    const size_t n = std::min<size_t>(256, cout - c0);
    for (size_t j = 0; j < 4; ++j)  // columns j: rows of A^T M
      atStep(m + j * kStride + c0, m + (4 + j) * kStride + c0, m + (8 + j) * kStride + c0,
             m + (12 + j) * kStride + c0, r[0][j], r[1][j], n);
    const float* b = bias ? bias + c0 : nullptr;
    for (size_t i = 0; i < 2; ++i)
      finishStep(r[i][0], r[i][1], r[i][2], r[i][3], b, out[i * 2] + c0, out[i * 2 + 1] + c0, n, lo, hi);
  }
}

using InputFn = void (*)(const float*, size_t, size_t, float*, size_t);
using OutputFn = void (*)(const float*, size_t, size_t, const float*, float* const*, float, float);

#if defined(__x86_64__)
// The same transforms in explicit AVX-512, 16 channels per pass with the whole
// 4x4 tile in registers: one read of the tile and one write of V (the body
// above passes over V twice through a copy). Same operations in the same
// order: bit-identical results.
QNN_CPU_TARGET_AVX512 inline __mmask16 laneMask(size_t left) {
  return left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1);
}
QNN_CPU_TARGET_AVX512 void inputAvx512(const float* d, size_t rs, size_t cin, float* v, size_t ks) {
  for (size_t c0 = 0; c0 < cin; c0 += 16) {
    const __mmask16 m = laneMask(cin - c0);
    __m512 t[4][4];  // B^T d: t[row][col]
    for (size_t j = 0; j < 4; ++j) {
      const float* col = d + j * cin + c0;
      const __m512 x0 = _mm512_maskz_loadu_ps(m, col), x1 = _mm512_maskz_loadu_ps(m, col + rs);
      const __m512 x2 = _mm512_maskz_loadu_ps(m, col + 2 * rs), x3 = _mm512_maskz_loadu_ps(m, col + 3 * rs);
      t[0][j] = _mm512_sub_ps(x0, x2), t[1][j] = _mm512_add_ps(x1, x2);
      t[2][j] = _mm512_sub_ps(x2, x1), t[3][j] = _mm512_sub_ps(x1, x3);
    }
    for (size_t i = 0; i < 4; ++i) {  // rows times B
      float* row = v + 4 * i * ks + c0;
      _mm512_mask_storeu_ps(row, m, _mm512_sub_ps(t[i][0], t[i][2]));
      _mm512_mask_storeu_ps(row + ks, m, _mm512_add_ps(t[i][1], t[i][2]));
      _mm512_mask_storeu_ps(row + 2 * ks, m, _mm512_sub_ps(t[i][2], t[i][1]));
      _mm512_mask_storeu_ps(row + 3 * ks, m, _mm512_sub_ps(t[i][1], t[i][3]));
    }
  }
}
#else
void inputAvx512(const float* d, size_t rs, size_t cin, float* v, size_t ks) { inputTransformBody(d, rs, cin, v, ks); }
#endif
#if defined(__x86_64__)
// AVX2: the same in 8-channel registers, the last channels (under 8) scalar.
QNN_CPU_TARGET_AVX2 void inputAvx2(const float* d, size_t rs, size_t cin, float* v, size_t ks) {
  const size_t body = cin / 8 * 8;
  for (size_t c0 = 0; c0 < body; c0 += 8) {
    __m256 t[4][4];
    for (size_t j = 0; j < 4; ++j) {
      const float* col = d + j * cin + c0;
      const __m256 x0 = _mm256_loadu_ps(col), x1 = _mm256_loadu_ps(col + rs);
      const __m256 x2 = _mm256_loadu_ps(col + 2 * rs), x3 = _mm256_loadu_ps(col + 3 * rs);
      t[0][j] = _mm256_sub_ps(x0, x2), t[1][j] = _mm256_add_ps(x1, x2);
      t[2][j] = _mm256_sub_ps(x2, x1), t[3][j] = _mm256_sub_ps(x1, x3);
    }
    for (size_t i = 0; i < 4; ++i) {
      float* row = v + 4 * i * ks + c0;
      _mm256_storeu_ps(row, _mm256_sub_ps(t[i][0], t[i][2]));
      _mm256_storeu_ps(row + ks, _mm256_add_ps(t[i][1], t[i][2]));
      _mm256_storeu_ps(row + 2 * ks, _mm256_sub_ps(t[i][2], t[i][1]));
      _mm256_storeu_ps(row + 3 * ks, _mm256_sub_ps(t[i][1], t[i][3]));
    }
  }
  for (size_t c = body; c < cin; ++c) {
    float t[4][4];
    for (size_t j = 0; j < 4; ++j) {
      const float* col = d + j * cin + c;
      const float x0 = col[0], x1 = col[rs], x2 = col[2 * rs], x3 = col[3 * rs];
      t[0][j] = x0 - x2, t[1][j] = x1 + x2, t[2][j] = x2 - x1, t[3][j] = x1 - x3;
    }
    for (size_t i = 0; i < 4; ++i) {
      float* row = v + 4 * i * ks + c;
      row[0] = t[i][0] - t[i][2], row[ks] = t[i][1] + t[i][2], row[2 * ks] = t[i][2] - t[i][1];
      row[3 * ks] = t[i][1] - t[i][3];
    }
  }
}
#else
void inputAvx2(const float* d, size_t rs, size_t cin, float* v, size_t ks) { inputTransformBody(d, rs, cin, v, ks); }
#endif
void inputPortable(const float* d, size_t rs, size_t cin, float* v, size_t ks) {
  inputTransformBody(d, rs, cin, v, ks);
}
#if defined(__x86_64__)
QNN_CPU_TARGET_AVX512 void outputAvx512(const float* m, size_t ks, size_t cout, const float* bias, float* const* out,
                                        float lo, float hi) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (size_t c0 = 0; c0 < cout; c0 += 16) {
    const __mmask16 k = laneMask(cout - c0);
    __m512 r[2][4];  // A^T M: r[row][col]
    for (size_t j = 0; j < 4; ++j) {
      const __m512 m0 = _mm512_maskz_loadu_ps(k, m + j * ks + c0), m1 = _mm512_maskz_loadu_ps(k, m + (4 + j) * ks + c0);
      const __m512 m2 = _mm512_maskz_loadu_ps(k, m + (8 + j) * ks + c0);
      const __m512 m3 = _mm512_maskz_loadu_ps(k, m + (12 + j) * ks + c0);
      r[0][j] = _mm512_add_ps(_mm512_add_ps(m0, m1), m2);
      r[1][j] = _mm512_sub_ps(_mm512_sub_ps(m1, m2), m3);
    }
    const __m512 b = bias ? _mm512_maskz_loadu_ps(k, bias + c0) : _mm512_setzero_ps();
    for (size_t i = 0; i < 2; ++i) {
      // std::min(std::max(v, lo), hi) of the body above: max(lo, v) and
      // min(hi, v) return v when v is NaN (or both are zeros), as it does.
      const __m512 y0 = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(r[i][0], r[i][1]), r[i][2]), b);
      const __m512 y1 = _mm512_add_ps(_mm512_sub_ps(_mm512_sub_ps(r[i][1], r[i][2]), r[i][3]), b);
      _mm512_mask_storeu_ps(out[i * 2] + c0, k, _mm512_min_ps(vhi, _mm512_max_ps(vlo, y0)));
      _mm512_mask_storeu_ps(out[i * 2 + 1] + c0, k, _mm512_min_ps(vhi, _mm512_max_ps(vlo, y1)));
    }
  }
}
#else
void outputAvx512(const float* m, size_t ks, size_t cout, const float* bias, float* const* out, float lo, float hi) {
  outputTransformBody(m, ks, cout, bias, out, lo, hi);
}
#endif
QNN_CPU_TARGET_AVX2 void outputAvx2(const float* m, size_t ks, size_t cout, const float* bias, float* const* out,
                                    float lo, float hi) {
  outputTransformBody(m, ks, cout, bias, out, lo, hi);
}
void outputPortable(const float* m, size_t ks, size_t cout, const float* bias, float* const* out, float lo,
                    float hi) {
  outputTransformBody(m, ks, cout, bias, out, lo, hi);
}


// ---- F(4x4, 3x3): 6x6 input tiles, 4x4 output tiles, 36 products per (in, out) channel pair
// where direct convolution needs 144 (F(2x2) 64 for the same 16 outputs). B^T, G, A^T as in Lavin and
// Gray, "Fast Algorithms for Convolutional Neural Networks" (2016):
//   B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0; 0 -2 -1 2 1 0; 0 2 -1 -2 1 0; 0 4 0 -5 0 1]
//   A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1]
// The 1-D steps below apply them along one axis, element-wise over n channels; a tile goes through
// them in 64-channel chunks so the intermediate 6x6 rows stay in L1.
constexpr size_t kChunk = 64;

// y = B^T x along one axis: x_k = x + k * xs, y_k = y + k * ys.
QNN_CPU_ALWAYS_INLINE void bt6(const float* __restrict x, size_t xs, float* __restrict y, size_t ys, size_t n) {
  for (size_t c = 0; c < n; ++c) {
    const float x0 = x[c], x1 = x[xs + c], x2 = x[2 * xs + c], x3 = x[3 * xs + c], x4 = x[4 * xs + c],
                x5 = x[5 * xs + c];
    y[c] = 4.f * x0 - 5.f * x2 + x4;
    y[ys + c] = x3 + x4 - 4.f * (x1 + x2);
    y[2 * ys + c] = 4.f * (x1 - x2) + x4 - x3;
    y[3 * ys + c] = 2.f * (x3 - x1) + x4 - x2;
    y[4 * ys + c] = 2.f * (x1 - x3) + x4 - x2;
    y[5 * ys + c] = 4.f * x1 - 5.f * x3 + x5;
  }
}

// V[k] = (B^T d B)[k] for one 6x6 input tile d (rows rowStride apart, columns cin apart); V's 36
// positions are kStride apart.
QNN_CPU_ALWAYS_INLINE void inputF4Body(const float* d, size_t rowStride, size_t cin, float* v, size_t kStride) {
  alignas(64) float t[36][kChunk];  // B^T d: t[row * 6 + col]
  for (size_t c0 = 0; c0 < cin; c0 += kChunk) {
    const size_t n = std::min(kChunk, cin - c0);
    for (size_t j = 0; j < 6; ++j) bt6(d + j * cin + c0, rowStride, t[j], 6 * kChunk, n);
    for (size_t i = 0; i < 6; ++i) bt6(t[i * 6], kChunk, v + i * 6 * kStride + c0, kStride, n);
  }
}

// r = A^T m along one axis (4 of 6): m_k = m + k * ms, r_k = r + k * rs.
QNN_CPU_ALWAYS_INLINE void at6(const float* __restrict m, size_t ms, float* __restrict r, size_t rs, size_t n) {
  for (size_t c = 0; c < n; ++c) {
    const float m0 = m[c], m1 = m[ms + c], m2 = m[2 * ms + c], m3 = m[3 * ms + c], m4 = m[4 * ms + c],
                m5 = m[5 * ms + c];
    const float s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4;
    r[c] = m0 + s12 + s34;
    r[rs + c] = d12 + 2.f * d34;
    r[2 * rs + c] = s12 + 4.f * s34;
    r[3 * rs + c] = d12 + 8.f * d34 + m5;
  }
}

// The last step along the other axis, into four output pixels, with bias and clamp.
QNN_CPU_ALWAYS_INLINE void at6Finish(const float* __restrict m, size_t ms, const float* __restrict bias,
                                     float* __restrict y0, float* __restrict y1, float* __restrict y2,
                                     float* __restrict y3, size_t n, float lo, float hi) {
  for (size_t c = 0; c < n; ++c) {
    const float m0 = m[c], m1 = m[ms + c], m2 = m[2 * ms + c], m3 = m[3 * ms + c], m4 = m[4 * ms + c],
                m5 = m[5 * ms + c];
    const float s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4;
    const float b = bias ? bias[c] : 0.f;
    y0[c] = std::min(std::max(m0 + s12 + s34 + b, lo), hi);
    y1[c] = std::min(std::max(d12 + 2.f * d34 + b, lo), hi);
    y2[c] = std::min(std::max(s12 + 4.f * s34 + b, lo), hi);
    y3[c] = std::min(std::max(d12 + 8.f * d34 + m5 + b, lo), hi);
  }
}

// The 4x4 outputs out[i * 4 + j] = (A^T M A)[i][j] + bias, clamped, from the 36 product rows m[k].
QNN_CPU_ALWAYS_INLINE void outputF4Body(const float* m, size_t kStride, size_t cout, const float* bias,
                                        float* const* out, float lo, float hi) {
  alignas(64) float r[24][kChunk];  // A^T M: r[row * 6 + col], 4 rows
  for (size_t c0 = 0; c0 < cout; c0 += kChunk) {
    const size_t n = std::min(kChunk, cout - c0);
    for (size_t j = 0; j < 6; ++j) at6(m + j * kStride + c0, 6 * kStride, r[j], 6 * kChunk, n);
    const float* b = bias ? bias + c0 : nullptr;
    for (size_t i = 0; i < 4; ++i)
      at6Finish(r[i * 6], kChunk, b, out[i * 4] + c0, out[i * 4 + 1] + c0, out[i * 4 + 2] + c0,
                out[i * 4 + 3] + c0, n, lo, hi);
  }
}

// One body, compiled for each ISA (the channel loops vectorize to its width).
#define QNN_WINOGRAD_ISA_CLONES(name, body, params, args) \
  QNN_CPU_TARGET_AVX512 void name##Avx512 params { body args; } \
  QNN_CPU_TARGET_AVX2 void name##Avx2 params { body args; } \
  void name##Portable params { body args; }
QNN_WINOGRAD_ISA_CLONES(inputF4, inputF4Body, (const float* d, size_t rs, size_t cin, float* v, size_t ks),
                        (d, rs, cin, v, ks))
QNN_WINOGRAD_ISA_CLONES(outputF4, outputF4Body,
                        (const float* m, size_t ks, size_t cout, const float* bias, float* const* out, float lo,
                         float hi),
                        (m, ks, cout, bias, out, lo, hi))
#undef QNN_WINOGRAD_ISA_CLONES

}  // namespace

bool worthwhile(uint32_t fh, uint32_t fw, int64_t strideH, int64_t strideW, int64_t dilH, int64_t dilW,
                uint32_t groups, uint32_t cin, uint32_t cout, uint32_t batch, int64_t outH, int64_t outW) {
  const int64_t tiles = int64_t(batch) * ((outH + 1) / 2) * ((outW + 1) / 2);
  return fh == 3 && fw == 3 && strideH == 1 && strideW == 1 && dilH == 1 && dilW == 1 && groups == 1 &&
         cin >= 32 && cout >= 32 && cin % 1024 != 0 && tiles >= 32;
}

Tile chooseTile(uint32_t cin, uint32_t cout, int64_t outH, int64_t outW) {
  // F(4x4) multiplies 2.25 times per output where F(2x2) needs 4, but its transformed filter is 36/9 of the
  // filter (F(2x2): 16/9), read at every block; with partial tiles on small maps the saving goes to padding.
  const bool smallMap = outH < 8 || outW < 8;
  const bool filterFits = uint64_t(cin) * cout * kPositionsF4 * sizeof(float) <= (uint64_t(4) << 20);
  return !smallMap && filterFits ? Tile::k4x4 : Tile::k2x2;
}

void Conv3x3::prepare(uint32_t batch, uint32_t inH, uint32_t inW, uint32_t cin, uint32_t cout, int64_t padTop,
                      int64_t padLeft, int64_t outH, int64_t outW, size_t threads, Tile tile) {
  batch_ = batch, inH_ = inH, inW_ = inW, cin_ = cin, cout_ = cout;
  padTop_ = padTop, padLeft_ = padLeft, outH_ = outH, outW_ = outW;
  tile_ = tile;
  m_ = tile == Tile::k4x4 ? 4 : 2;
  positions_ = tile == Tile::k4x4 ? kPositionsF4 : kPositionsF2;
  tilesH_ = size_t(outH + m_ - 1) / m_, tilesW_ = size_t(outW + m_ - 1) / m_;
  // A block's V and M (positions x tiles x (cin + cout) floats) within ~384 KiB of L2 on one thread,
  // ~1.5 MiB on several. Every block reads the whole transformed filter: on one thread smaller blocks
  // keep V, M and the filter's panels in L2 (ResNet-18's 28x28x128 and 14x14x256 layers 12 % faster,
  // the model 2.4 %); on two threads both cores pull the filter from L3 or memory for every block, so
  // fewer, larger blocks win since a thread's scratch stays in its L2 from layer to layer (ResNet-18 at
  // 2 threads 3.6 % faster than with ~768 KiB, 2 % slower with ~384 KiB; ~3 MiB the same as 1.5).
  const size_t budgetFloats = threads > 1 ? 393216 : 98304;
  const size_t maxTiles = std::clamp<size_t>(budgetFloats / positions_ / (size_t(cin) + cout), 8, 128);
  const size_t tiles = size_t(batch) * tilesH_ * tilesW_;
  // Block count a multiple of the thread count and blocks of near-equal size,
  // so the threads get equal work; they take blocks as they finish one (run()),
  // so a thread slowed by the host does less.
  size_t blocks = (tiles + maxTiles - 1) / maxTiles;
  if (threads > 1) blocks = std::min(tiles, (blocks + threads - 1) / threads * threads);
  tilesPerBlock_ = (tiles + blocks - 1) / blocks;
  numBlocks_ = (tiles + tilesPerBlock_ - 1) / tilesPerBlock_;
  slots_ = std::max<size_t>(1, std::min(threads, numBlocks_));
  cursors_.reset(new BlockCursor[slots_]);
  packedSize_ = gemm::packedBSize(cin, cout);
  packedU_.assign(positions_ * packedSize_, 0.f);
  const size_t n = m_ + 2;
  slotFloats_ = positions_ * tilesPerBlock_ * (size_t(cin) + cout) + m_ * m_ * size_t(cout) + n * n * size_t(cin);
  scratch_ = sdk::allocateLargeArray<float>(slots_ * slotFloats_);
}

void Conv3x3::setFilter(const float* filter) {
  // U = G g G^T per (ci, co); U[k] is a [cin x cout] matrix, packed for the GEMM. F(2x2): G = [1 0 0;
  // 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1]; F(4x4): G = [1/4 0 0; -1/6 -1/6 -1/6; -1/6 1/6 -1/6;
  // 1/24 1/12 1/6; 1/24 -1/12 1/6; 0 0 1]. In double, rounded once.
  static const double kG2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  static const double kG4[6][3] = {{0.25, 0, 0},          {-1.0 / 6, -1.0 / 6, -1.0 / 6}, {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                   {1.0 / 24, 1.0 / 12, 1.0 / 6}, {1.0 / 24, -1.0 / 12, 1.0 / 6}, {0, 0, 1}};
  const size_t n = m_ + 2;  // transform size
  const double* G = tile_ == Tile::k4x4 ? &kG4[0][0] : &kG2[0][0];
  std::vector<float> u(positions_ * size_t(cin_) * cout_);
  const size_t plane = size_t(cin_) * cout_;
  for (size_t ci = 0; ci < cin_; ++ci)
    for (size_t co = 0; co < cout_; ++co) {
      double g[3][3], gg[6][3];
      for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) g[i][j] = filter[((i * 3 + j) * cin_ + ci) * cout_ + co];
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < 3; ++j) gg[i][j] = G[i * 3] * g[0][j] + G[i * 3 + 1] * g[1][j] + G[i * 3 + 2] * g[2][j];
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j)
          u[(i * n + j) * plane + ci * cout_ + co] =
              float(gg[i][0] * G[j * 3] + gg[i][1] * G[j * 3 + 1] + gg[i][2] * G[j * 3 + 2]);
    }
  for (size_t k = 0; k < positions_; ++k)
    gemm::packB(u.data() + k * plane, cout_, false, cin_, cout_, packedU_.data() + k * packedSize_);
}

void Conv3x3::run(const float* input, const float* bias, float* output, const gemm::Clamp* clamp) {
  // Slot s owns blocks [s * numBlocks / slots, (s + 1) * numBlocks / slots)
  // (the same image rows at every layer, so the same core's cache holds them),
  // takes them from the front, then helps with the other slots' blocks.
  for (size_t s = 0; s < slots_; ++s) {
    cursors_[s].next.store(numBlocks_ * s / slots_, std::memory_order_relaxed);
    cursors_[s].end = numBlocks_ * (s + 1) / slots_;
  }
  parallelFor(slots_, 1, [&](size_t s0, size_t s1) {
    for (size_t slot = s0; slot < s1; ++slot)
      for (size_t k = 0; k < slots_; ++k) {
        BlockCursor& c = cursors_[(slot + k) % slots_];
        for (size_t block = c.next++; block < c.end; block = c.next++)
          runBlock(input, block, slot, bias, output, clamp);
      }
  });
}

void Conv3x3::runBlock(const float* input, size_t block, size_t slot, const float* bias, float* output,
                       const gemm::Clamp* clamp) {
  static const InputFn inputF2 = pickForIsa<InputFn>(inputAvx512, inputAvx2, inputPortable);
  static const OutputFn outputF2 = pickForIsa<OutputFn>(outputAvx512, outputAvx2, outputPortable);
  static const InputFn inputF4 = pickForIsa<InputFn>(inputF4Avx512, inputF4Avx2, inputF4Portable);
  static const OutputFn outputF4 = pickForIsa<OutputFn>(outputF4Avx512, outputF4Avx2, outputF4Portable);
  const InputFn inputTransform = tile_ == Tile::k4x4 ? inputF4 : inputF2;
  const OutputFn outputTransform = tile_ == Tile::k4x4 ? outputF4 : outputF2;
  const size_t T = tilesPerBlock_, tilesPerImage = tilesH_ * tilesW_, P = positions_, m = m_;
  const size_t t0 = block * T, total = size_t(batch_) * tilesPerImage, nt = std::min(T, total - t0);
  float* v = threadScratch(slotFloats_);
  if (!v) v = scratch_.get() + slot * slotFloats_;
  float* mm = v + P * T * cin_;
  float* sink = mm + P * T * cout_;  // outputs past the image edge land here (a row each)
  float* edge = sink + m * m * cout_;  // an input tile that reaches past the image, zero-padded
  const size_t n = m + 2, inRow = size_t(inW_) * cin_, tileRow = n * cin_;
  for (size_t tt = 0; tt < nt; ++tt) {
    const size_t t = t0 + tt, b = t / tilesPerImage, ty = (t % tilesPerImage) / tilesW_, tx = t % tilesW_;
    // The tile's input window: rows y0.., columns x0.. of image b (padding outside it).
    const int64_t y0 = int64_t(m * ty) - padTop_, x0 = int64_t(m * tx) - padLeft_;
    const float* image = input + size_t(b) * inH_ * inRow;
    if (y0 >= 0 && x0 >= 0 && y0 + int64_t(n) <= int64_t(inH_) && x0 + int64_t(n) <= int64_t(inW_)) {
      inputTransform(image + size_t(y0) * inRow + size_t(x0) * cin_, inRow, cin_, v + tt * cin_, T * cin_);
      continue;
    }
    const int64_t xa = std::max<int64_t>(x0, 0), xb = std::min<int64_t>(x0 + int64_t(n), inW_);
    for (size_t i = 0; i < n; ++i) {
      float* dst = edge + i * tileRow;
      std::fill(dst, dst + tileRow, 0.f);
      const int64_t y = y0 + int64_t(i);
      if (y < 0 || y >= int64_t(inH_) || xb <= xa) continue;
      std::memcpy(dst + size_t(xa - x0) * cin_, image + size_t(y) * inRow + size_t(xa) * cin_,
                  size_t(xb - xa) * cin_ * sizeof(float));
    }
    inputTransform(edge, tileRow, cin_, v + tt * cin_, T * cin_);
  }
  for (size_t k = 0; k < P; ++k)
    gemm::multiply(nt, cout_, cin_, v + k * T * cin_, cin_, false, packedU_.data() + k * packedSize_, nullptr,
                   mm + k * T * cout_, cout_, false);
  // Without a fused activation the clamp is to +-inf, which changes no value (NaN included: std::max /
  // std::min return their first operand when the comparison is false).
  const float lo = clamp ? clamp->lo : -std::numeric_limits<float>::infinity();
  const float hi = clamp ? clamp->hi : std::numeric_limits<float>::infinity();
  for (size_t tt = 0; tt < nt; ++tt) {
    const size_t t = t0 + tt, b = t / tilesPerImage, ty = (t % tilesPerImage) / tilesW_, tx = t % tilesW_;
    float* out[16];
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < m; ++j) {
        const int64_t oy = int64_t(m * ty + i), ox = int64_t(m * tx + j);
        out[i * m + j] = oy < outH_ && ox < outW_
                             ? output + ((b * size_t(outH_) + size_t(oy)) * size_t(outW_) + size_t(ox)) * cout_
                             : sink + (i * m + j) * cout_;
      }
    outputTransform(mm + tt * cout_, T * cout_, cout_, bias, out, lo, hi);
  }
}

}  // namespace qnn::cpu::winograd
