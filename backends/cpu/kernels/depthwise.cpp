#include "cpu/kernels/depthwise.h"

#include "cpu/kernels/cpu_isa.h"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include "cpu/kernels/x86_simd.h"
#define QNN_DW_HAVE_X86 1
#endif

namespace qnn::cpu::depthwise {
namespace {

// Output pixels [owLo, owHi) read only in-bounds columns for every kw.
void interiorRange(const Geometry& g, int64_t* owLo, int64_t* owHi) {
  // iw0 = ow * strideW - padLeft >= 0 and iw0 + (fw - 1) * dilW <= inW - 1
  int64_t lo = (g.padLeft + g.strideW - 1) / g.strideW;
  const int64_t lastStart = g.inW - 1 - (g.fw - 1) * g.dilW + g.padLeft;  // ow * strideW <= lastStart
  int64_t hi = lastStart < 0 ? 0 : lastStart / g.strideW + 1;
  lo = std::min(lo, g.outW);
  hi = std::clamp(hi, lo, g.outW);
  *owLo = lo, *owHi = hi;
}

// Rows of the filter that land inside the image for output row oh.
void tapRows(const Geometry& g, int64_t oh, int64_t* khLo, int64_t* khHi) {
  const int64_t ih0 = oh * g.strideH - g.padTop;
  int64_t lo = 0, hi = g.fh;
  while (lo < hi && ih0 + lo * g.dilH < 0) ++lo;
  while (hi > lo && ih0 + (hi - 1) * g.dilH >= g.inH) --hi;
  *khLo = lo, *khHi = hi;
}

// Blocks of 16 channels in a loop the compiler vectorizes; compiled for AVX2
// and for the portable baseline below.
QNN_CPU_ALWAYS_INLINE void convolveRowVectorized(const Geometry& g, const float* image, const float* filter,
                                                 const float* bias, float* out, int64_t oh, bool clamped, float lo,
                                                 float hi) {
  constexpr int64_t kBlock = 16;
  const int64_t C = g.channels, ih0 = oh * g.strideH - g.padTop;
  int64_t khLo, khHi;
  tapRows(g, oh, &khLo, &khHi);
  for (int64_t ow = 0; ow < g.outW; ++ow) {
    const int64_t iw0 = ow * g.strideW - g.padLeft;
    float* dst = out + ow * C;
    for (int64_t c0 = 0; c0 < C; c0 += kBlock) {
      const int64_t n = std::min(kBlock, C - c0);
      float acc[kBlock];
      for (int64_t j = 0; j < kBlock; ++j) acc[j] = bias && j < n ? bias[c0 + j] : 0.f;
      for (int64_t kh = khLo; kh < khHi; ++kh) {
        const float* row = image + (ih0 + kh * g.dilH) * g.inW * C;
        for (int64_t kw = 0; kw < g.fw; ++kw) {
          const int64_t iw = iw0 + kw * g.dilW;
          if (iw < 0 || iw >= g.inW) continue;
          const float* px = row + iw * C + c0;
          const float* w = filter + (kh * g.fw + kw) * C + c0;
          if (n == kBlock) {
            for (int64_t j = 0; j < kBlock; ++j) acc[j] += px[j] * w[j];
          } else {
            for (int64_t j = 0; j < n; ++j) acc[j] += px[j] * w[j];
          }
        }
      }
      for (int64_t j = 0; j < n; ++j) dst[c0 + j] = clamped ? std::min(std::max(acc[j], lo), hi) : acc[j];
    }
  }
}

QNN_CPU_TARGET_AVX2 void convolveRowAvx2(const Geometry& g, const float* image, const float* filter,
                                          const float* bias, float* out, int64_t oh, bool clamped, float lo,
                                          float hi) {
  convolveRowVectorized(g, image, filter, bias, out, oh, clamped, lo, hi);
}
void convolveRowPortable(const Geometry& g, const float* image, const float* filter, const float* bias, float* out,
                         int64_t oh, bool clamped, float lo, float hi) {
  convolveRowVectorized(g, image, filter, bias, out, oh, clamped, lo, hi);
}

#ifdef QNN_DW_HAVE_X86
__attribute__((target("avx512f"))) inline __m512 finish512(__m512 v, bool clamped, __m512 lo, __m512 hi) {
  return clamped ? _mm512_min_ps(hi, _mm512_max_ps(lo, v)) : v;  // operand order keeps NaN
}

// One output pixel, taps bounds-checked (the edges of a row).
__attribute__((target("avx512f"))) inline void edgePixel512(const Geometry& g, const float* image,
                                                            const float* filter, __m512 b, __mmask16 m,
                                                            int64_t c0, int64_t ih0, int64_t khLo, int64_t khHi,
                                                            int64_t ow, float* out, bool clamped, __m512 lo,
                                                            __m512 hi) {
  const int64_t C = g.channels, iw0 = ow * g.strideW - g.padLeft;
  __m512 acc = b;
  for (int64_t kh = khLo; kh < khHi; ++kh) {
    const float* row = image + (ih0 + kh * g.dilH) * g.inW * C + c0;
    const float* w = filter + kh * g.fw * C + c0;
    for (int64_t kw = 0; kw < g.fw; ++kw) {
      const int64_t iw = iw0 + kw * g.dilW;
      if (iw < 0 || iw >= g.inW) continue;
      acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, row + iw * C), _mm512_maskz_loadu_ps(m, w + kw * C), acc);
    }
  }
  _mm512_mask_storeu_ps(out + ow * C + c0, m, finish512(acc, clamped, lo, hi));
}

__attribute__((target("avx512f"))) inline __m512 bias512(const float* bias, int64_t c0) {
  return bias ? _mm512_loadu_ps(bias + c0) : _mm512_setzero_ps();
}

// kPixels output pixels of one 16-channel block of a 3x3 filter (width
// dilation 1): the nine tap weights sit in registers, each input pixel of a
// filter row is loaded once and feeds every output it overlaps. With
// kCheckColumns (a block touching the left or right edge), input columns
// outside [0, inW) read as zeros (rows[] then point at column iw0, which may
// lie outside the row: those columns are loaded with an empty mask, which
// reads nothing).
// Input column iw0 + i of a filter row; with kCheckColumns a column outside
// [0, inW) is a masked load (no branch): masked-off lanes read as zero and
// never fault.
template <bool kCheckColumns>
__attribute__((target("avx512f"))) QNN_CPU_ALWAYS_INLINE __m512 loadInput(const float* row, int i, int64_t C,
                                                                        int64_t iw0, int64_t inW) {
  if constexpr (kCheckColumns) {
    const __mmask16 inside = uint64_t(iw0 + i) < uint64_t(inW) ? __mmask16(0xFFFF) : __mmask16(0);
    return _mm512_maskz_loadu_ps(inside, row + i * C);
  }
  return _mm512_loadu_ps(row + i * C);
}

template <int kStride, int kPixels, bool kCheckColumns>
__attribute__((target("avx512f"))) QNN_CPU_ALWAYS_INLINE void pixels3x3(const float* const rows[3],
                                                                      const bool valid[3], const __m512 w[9],
                                                                      __m512 b, int64_t C, int64_t iw0, int64_t inW,
                                                                      float* dst, bool clamped, __m512 lo,
                                                                      __m512 hi) {
  constexpr int kInputs = (kPixels - 1) * kStride + 3;
  __m512 acc[kPixels];
  for (int p = 0; p < kPixels; ++p) acc[p] = b;
  for (int kh = 0; kh < 3; ++kh) {
    if (!valid[kh]) continue;
    if constexpr (kStride == 1) {  // each input feeds up to three outputs: load them all once
      __m512 x[kInputs];
      for (int i = 0; i < kInputs; ++i) x[i] = loadInput<kCheckColumns>(rows[kh], i, C, iw0, inW);
      for (int p = 0; p < kPixels; ++p)
        for (int kw = 0; kw < 3; ++kw) acc[p] = _mm512_fmadd_ps(x[p + kw], w[kh * 3 + kw], acc[p]);
    } else {
      // Input by input, each feeding its (one or two) outputs right away:
      // eight stride-2 outputs read 17 inputs, which held all at once beside
      // 8 sums and 9 weights spilled to the stack (now 25-34 % faster).
#pragma GCC unroll 17
      for (int i = 0; i < kInputs; ++i) {
        const __m512 x = loadInput<kCheckColumns>(rows[kh], i, C, iw0, inW);
#pragma GCC unroll 3
        for (int kw = 0; kw < 3; ++kw) {
          const int p = (i - kw) / kStride;  // output p reads input p * kStride + kw
          if (i - kw >= 0 && (i - kw) % kStride == 0 && p < kPixels) acc[p] = _mm512_fmadd_ps(x, w[kh * 3 + kw], acc[p]);
        }
      }
    }
  }
  for (int p = 0; p < kPixels; ++p) _mm512_storeu_ps(dst + p * C, finish512(acc[p], clamped, lo, hi));
}

// The three input rows of output pixel ow for channel block c0 (null where
// the filter row falls outside the image). The column offset goes through
// integers: iw0 may be -1 (the padding column), which blocks checking their
// columns never dereference.
template <int kStride>
__attribute__((target("avx512f"))) QNN_CPU_ALWAYS_INLINE void inputRows(const Geometry& g, const float* image,
                                                                      int64_t ih0, const bool valid[3], int64_t ow,
                                                                      int64_t c0, const float* rows[3]) {
  const int64_t C = g.channels, iw0 = ow * kStride - g.padLeft;
  for (int kh = 0; kh < 3; ++kh) {
    const int64_t offset = ((ih0 + kh * g.dilH) * g.inW + iw0) * C + c0;
    rows[kh] = valid[kh] ? reinterpret_cast<const float*>(reinterpret_cast<intptr_t>(image) +
                                                          intptr_t(offset * int64_t(sizeof(float))))
                         : nullptr;
  }
}

__attribute__((target("avx512f"))) QNN_CPU_ALWAYS_INLINE void tapWeights(const float* filter, int64_t C, int64_t c0,
                                                                       __m512 w[9]) {
  for (int t = 0; t < 9; ++t) w[t] = _mm512_loadu_ps(filter + t * C + c0);
}

// Output pixels [ow, ow + kPixels) of one channel block, weights in registers.
template <int kStride, int kPixels>
__attribute__((target("avx512f"))) QNN_CPU_ALWAYS_INLINE void group3x3(const Geometry& g, const float* image,
                                                                     const __m512 w[9], __m512 b, float* out,
                                                                     int64_t ih0, const bool valid[3], int64_t ow,
                                                                     int64_t c0, int64_t owLo, int64_t owHi,
                                                                     bool clamped, __m512 lo, __m512 hi) {
  const int64_t C = g.channels, iw0 = ow * kStride - g.padLeft;
  const float* rows[3];
  inputRows<kStride>(g, image, ih0, valid, ow, c0, rows);
  float* dst = out + ow * C + c0;
  if (ow >= owLo && ow + kPixels <= owHi)
    pixels3x3<kStride, kPixels, false>(rows, valid, w, b, C, iw0, g.inW, dst, clamped, lo, hi);
  else
    pixels3x3<kStride, kPixels, true>(rows, valid, w, b, C, iw0, g.inW, dst, clamped, lo, hi);
}

// Output pixels [ow, ow + n) of one channel block, 1 <= n <= 8.
template <int kStride>
__attribute__((target("avx512f"))) QNN_CPU_ALWAYS_INLINE void anyGroup3x3(int64_t n, const Geometry& g,
                                                                        const float* image, const __m512 w[9],
                                                                        __m512 b, float* out, int64_t ih0,
                                                                        const bool valid[3], int64_t ow, int64_t c0,
                                                                        int64_t owLo, int64_t owHi, bool clamped,
                                                                        __m512 lo, __m512 hi) {
  switch (n) {
#define QNN_DW_GROUP(P) \
  case P: group3x3<kStride, P>(g, image, w, b, out, ih0, valid, ow, c0, owLo, owHi, clamped, lo, hi); break;
    QNN_DW_GROUP(8) QNN_DW_GROUP(7) QNN_DW_GROUP(6) QNN_DW_GROUP(5)
    QNN_DW_GROUP(4) QNN_DW_GROUP(3) QNN_DW_GROUP(2) QNN_DW_GROUP(1)
#undef QNN_DW_GROUP
    default: break;
  }
}

// A row of a 3x3 depthwise filter over whole 16-channel blocks, in groups of up to eight pixels
// of equal size (each pixel's sum is one FMA chain: a group of two or four left the FMA units
// waiting on their latency; 14 pixels go 7 + 7, not 8 + 4 + 2, and 28 go 4 x 7). Groups that
// reach past the left or right edge read the missing columns as zeros, so the edges of small maps
// (14 and 7 pixels wide in MobileNet, where they are a sixth to two sevenths of the row) no longer
// go one bounds-checked pixel at a time. Wide rows run their groups pixels outer, channels inside
// (the reads walk memory contiguously for the hardware prefetchers); rows under 16 pixels channels
// outer, so each channel block's weights are loaded once for all its groups.
template <int kStride>
__attribute__((target("avx512f"))) void convolveRow3x3Avx512(const Geometry& g, const float* image,
                                                             const float* filter, const float* bias, float* out,
                                                             int64_t oh, bool clamped, __m512 lo, __m512 hi) {
  const int64_t ih0 = oh * g.strideH - g.padTop;
  int64_t khLo, khHi, owLo, owHi;
  tapRows(g, oh, &khLo, &khHi);
  interiorRange(g, &owLo, &owHi);
  bool valid[3];
  for (int kh = 0; kh < 3; ++kh) valid[kh] = kh >= khLo && kh < khHi;
  const int64_t C = g.channels;
  const int64_t groups = (g.outW + 7) / 8, base = groups ? g.outW / groups : 0, extra = groups ? g.outW % groups : 0;
  if (g.outW >= 16) {
    for (int64_t i = 0, ow = 0; i < groups; ++i) {
      const int64_t n = base + (i < extra ? 1 : 0);
      for (int64_t c0 = 0; c0 < C; c0 += 16) {
        __m512 w[9];
        tapWeights(filter, C, c0, w);
        anyGroup3x3<kStride>(n, g, image, w, bias512(bias, c0), out, ih0, valid, ow, c0, owLo, owHi, clamped, lo, hi);
      }
      ow += n;
    }
    return;
  }
  for (int64_t c0 = 0; c0 < C; c0 += 16) {
    __m512 w[9];
    tapWeights(filter, C, c0, w);
    const __m512 b = bias512(bias, c0);
    for (int64_t i = 0, ow = 0; i < groups; ++i) {
      const int64_t n = base + (i < extra ? 1 : 0);
      anyGroup3x3<kStride>(n, g, image, w, b, out, ih0, valid, ow, c0, owLo, owHi, clamped, lo, hi);
      ow += n;
    }
  }
}

// Output pixels [ow, ow + kPixels) of one channel block in two output rows (dilation 1). The
// input rows the two share are read once: stride 1 four rows for the two (six apart), each input
// row's inputs held and feeding the first row's sums as filter row i and the second's as filter row
// i - 1 (kPixels <= 6: 2 x 6 sums, 8 inputs and 9 weights fit the 32 registers); stride 2 five
// rows (six apart), inputs fed as loaded (as pixels3x3 does) to the first row as filter row i and
// the second as filter row i - 2 (kPixels <= 8). Every sum takes its taps in convolveRow's order.
template <int kStride, int kPixels, bool kCheckColumns>
__attribute__((target("avx512f"))) QNN_CPU_ALWAYS_INLINE void pairPixels3x3(const float* const rows[],
                                                                          const bool valid[], const __m512 w[9],
                                                                          __m512 b, int64_t C, int64_t iw0,
                                                                          int64_t inW, float* dst0, float* dst1,
                                                                          bool clamped, __m512 lo, __m512 hi) {
  constexpr int kInputs = (kPixels - 1) * kStride + 3, kRowsIn = kStride + 3;
  __m512 acc0[kPixels], acc1[kPixels];
  for (int p = 0; p < kPixels; ++p) acc0[p] = acc1[p] = b;
  for (int i = 0; i < kRowsIn; ++i) {
    if (!valid[i]) continue;
    if constexpr (kStride == 1) {
      __m512 x[kInputs];
      for (int j = 0; j < kInputs; ++j) x[j] = loadInput<kCheckColumns>(rows[i], j, C, iw0, inW);
      if (i <= 2)
        for (int p = 0; p < kPixels; ++p)
          for (int kw = 0; kw < 3; ++kw) acc0[p] = _mm512_fmadd_ps(x[p + kw], w[i * 3 + kw], acc0[p]);
      if (i >= 1)
        for (int p = 0; p < kPixels; ++p)
          for (int kw = 0; kw < 3; ++kw) acc1[p] = _mm512_fmadd_ps(x[p + kw], w[(i - 1) * 3 + kw], acc1[p]);
    } else {
#pragma GCC unroll 17
      for (int j = 0; j < kInputs; ++j) {
        const __m512 x = loadInput<kCheckColumns>(rows[i], j, C, iw0, inW);
#pragma GCC unroll 3
        for (int kw = 0; kw < 3; ++kw) {
          const int p = (j - kw) / kStride;  // output p reads input p * kStride + kw
          if (j - kw < 0 || (j - kw) % kStride != 0 || p >= kPixels) continue;
          if (i <= 2) acc0[p] = _mm512_fmadd_ps(x, w[i * 3 + kw], acc0[p]);
          if (i >= kStride) acc1[p] = _mm512_fmadd_ps(x, w[(i - kStride) * 3 + kw], acc1[p]);
        }
      }
    }
  }
  for (int p = 0; p < kPixels; ++p) {
    _mm512_storeu_ps(dst0 + p * C, finish512(acc0[p], clamped, lo, hi));
    _mm512_storeu_ps(dst1 + p * C, finish512(acc1[p], clamped, lo, hi));
  }
}

// The most pixels a row-pair group takes (the registers, above).
template <int kStride>
constexpr int64_t kPairGroupMax = kStride == 1 ? 6 : 8;

// Pixels [ow, ow + n) of one channel block in output rows oh (ih0 = oh * stride - padTop) and oh + 1.
template <int kStride>
__attribute__((target("avx512f"))) QNN_CPU_ALWAYS_INLINE void pairGroup3x3(int64_t n, const Geometry& g,
                                                                         const float* image, const __m512 w[9],
                                                                         __m512 b, float* out0, float* out1,
                                                                         int64_t ih0, const bool valid[], int64_t ow,
                                                                         int64_t c0, int64_t owLo, int64_t owHi,
                                                                         bool clamped, __m512 lo, __m512 hi) {
  constexpr int kRowsIn = kStride + 3;
  const int64_t C = g.channels, iw0 = ow * kStride - g.padLeft;
  const float* rows[kRowsIn];
  for (int i = 0; i < kRowsIn; ++i) {
    const int64_t offset = ((ih0 + i) * g.inW + iw0) * C + c0;
    rows[i] = valid[i] ? reinterpret_cast<const float*>(reinterpret_cast<intptr_t>(image) +
                                                        intptr_t(offset * int64_t(sizeof(float))))
                       : nullptr;
  }
  float* d0 = out0 + ow * C + c0;
  float* d1 = out1 + ow * C + c0;
  const bool inside = ow >= owLo && ow + n <= owHi;
  switch (n) {
#define QNN_DW_PAIR(P)                                                                                  \
  case P:                                                                                               \
    if constexpr (P <= kPairGroupMax<kStride>) {                                                        \
      if (inside)                                                                                       \
        pairPixels3x3<kStride, P, false>(rows, valid, w, b, C, iw0, g.inW, d0, d1, clamped, lo, hi);    \
      else                                                                                              \
        pairPixels3x3<kStride, P, true>(rows, valid, w, b, C, iw0, g.inW, d0, d1, clamped, lo, hi);     \
    }                                                                                                   \
    break;
    QNN_DW_PAIR(8) QNN_DW_PAIR(7) QNN_DW_PAIR(6) QNN_DW_PAIR(5)
    QNN_DW_PAIR(4) QNN_DW_PAIR(3) QNN_DW_PAIR(2) QNN_DW_PAIR(1)
#undef QNN_DW_PAIR
    default: break;
  }
}

// Output rows oh and oh + 1 of a 3x3 filter of stride 1 or 2 (dilation 1) over whole 16-channel
// blocks, in equal groups of up to kPairGroupMax pixels, pixels outer for rows of 16 or more (as
// convolveRow3x3Avx512).
template <int kStride>
__attribute__((target("avx512f"))) void convolveRowPair3x3Avx512(const Geometry& g, const float* image,
                                                                 const float* filter, const float* bias, float* out,
                                                                 int64_t oh, bool clamped, float loValue,
                                                                 float hiValue) {
  constexpr int kRowsIn = kStride + 3;
  constexpr int64_t kMaxGroup = kPairGroupMax<kStride>;
  const __m512 lo = _mm512_set1_ps(loValue), hi = _mm512_set1_ps(hiValue);
  const int64_t ih0 = oh * kStride - g.padTop;
  int64_t owLo, owHi;
  interiorRange(g, &owLo, &owHi);
  bool valid[kRowsIn];
  for (int i = 0; i < kRowsIn; ++i) valid[i] = ih0 + i >= 0 && ih0 + i < g.inH;
  const int64_t C = g.channels;
  float* out1 = out + g.outW * C;
  const int64_t groups = (g.outW + kMaxGroup - 1) / kMaxGroup;
  const int64_t base = groups ? g.outW / groups : 0, extra = groups ? g.outW % groups : 0;
  if (g.outW >= 16) {
    for (int64_t i = 0, ow = 0; i < groups; ++i) {
      const int64_t n = base + (i < extra ? 1 : 0);
      for (int64_t c0 = 0; c0 < C; c0 += 16) {
        __m512 w[9];
        tapWeights(filter, C, c0, w);
        pairGroup3x3<kStride>(n, g, image, w, bias512(bias, c0), out, out1, ih0, valid, ow, c0, owLo, owHi, clamped,
                              lo, hi);
      }
      ow += n;
    }
    return;
  }
  for (int64_t c0 = 0; c0 < C; c0 += 16) {
    __m512 w[9];
    tapWeights(filter, C, c0, w);
    const __m512 b = bias512(bias, c0);
    for (int64_t i = 0, ow = 0; i < groups; ++i) {
      const int64_t n = base + (i < extra ? 1 : 0);
      pairGroup3x3<kStride>(n, g, image, w, b, out, out1, ih0, valid, ow, c0, owLo, owHi, clamped, lo, hi);
      ow += n;
    }
  }
}

// AVX-512: 16 channels per register. Interior pixels go four at a time (each
// tap's weights loaded once for the four); edge pixels one at a time.
__attribute__((target("avx512f"))) void convolveRowAvx512(const Geometry& g, const float* image,
                                                          const float* filter, const float* bias, float* out,
                                                          int64_t oh, bool clamped, float lo, float hi) {
  const int64_t C = g.channels, ih0 = oh * g.strideH - g.padTop;
  int64_t khLo, khHi, owLo, owHi;
  tapRows(g, oh, &khLo, &khHi);
  interiorRange(g, &owLo, &owHi);
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const int64_t rowStride = g.inW * C, colStep = g.strideW * C, tapStep = g.dilW * C;

  if (C % 16 == 0 && g.fh == 3 && g.fw == 3 && g.dilW == 1 && (g.strideW == 1 || g.strideW == 2)) {
    if (g.strideW == 1)
      convolveRow3x3Avx512<1>(g, image, filter, bias, out, oh, clamped, vlo, vhi);
    else
      convolveRow3x3Avx512<2>(g, image, filter, bias, out, oh, clamped, vlo, vhi);
    return;
  }

  for (int64_t c0 = 0; c0 < C; c0 += 16) {
    const __mmask16 m = C - c0 >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (C - c0)) - 1);
    const __m512 b = bias ? _mm512_maskz_loadu_ps(m, bias + c0) : _mm512_setzero_ps();
    for (int64_t ow = 0; ow < owLo; ++ow)
      edgePixel512(g, image, filter, b, m, c0, ih0, khLo, khHi, ow, out, clamped, vlo, vhi);
    int64_t ow = owLo;
    for (; ow + 4 <= owHi; ow += 4) {
      __m512 a0 = b, a1 = b, a2 = b, a3 = b;
      const int64_t iw0 = ow * g.strideW - g.padLeft;
      for (int64_t kh = khLo; kh < khHi; ++kh) {
        const float* px = image + (ih0 + kh * g.dilH) * rowStride + iw0 * C + c0;
        const float* w = filter + kh * g.fw * C + c0;
        for (int64_t kw = 0; kw < g.fw; ++kw, px += tapStep) {
          const __m512 wv = _mm512_maskz_loadu_ps(m, w + kw * C);
          a0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, px), wv, a0);
          a1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, px + colStep), wv, a1);
          a2 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, px + 2 * colStep), wv, a2);
          a3 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, px + 3 * colStep), wv, a3);
        }
      }
      float* dst = out + ow * C + c0;
      _mm512_mask_storeu_ps(dst, m, finish512(a0, clamped, vlo, vhi));
      _mm512_mask_storeu_ps(dst + C, m, finish512(a1, clamped, vlo, vhi));
      _mm512_mask_storeu_ps(dst + 2 * C, m, finish512(a2, clamped, vlo, vhi));
      _mm512_mask_storeu_ps(dst + 3 * C, m, finish512(a3, clamped, vlo, vhi));
    }
    for (; ow < g.outW; ++ow) edgePixel512(g, image, filter, b, m, c0, ih0, khLo, khHi, ow, out, clamped, vlo, vhi);
  }
}
#endif

using RowFn = void (*)(const Geometry&, const float*, const float*, const float*, float*, int64_t, bool, float, float);

RowFn selectRowKernel() {
#ifdef QNN_DW_HAVE_X86
  return pickForIsa<RowFn>(convolveRowAvx512, convolveRowAvx2, convolveRowPortable);
#else
  return convolveRowPortable;
#endif
}

}  // namespace

void convolveRow(const Geometry& g, const float* image, const float* filter, const float* bias, float* out,
                 int64_t oh, bool clamped, float lo, float hi) {
  static const RowFn kernel = selectRowKernel();
  kernel(g, image, filter, bias, out, oh, clamped, lo, hi);
}

void convolveRowPair(const Geometry& g, const float* image, const float* filter, const float* bias, float* out,
                     int64_t oh, bool clamped, float lo, float hi) {
#ifdef QNN_DW_HAVE_X86
  if (cpuIsa() == Isa::kAvx512 && g.channels % 16 == 0 && g.fh == 3 && g.fw == 3 && g.dilH == 1 && g.dilW == 1 &&
      g.strideH == g.strideW && (g.strideW == 1 || g.strideW == 2)) {
    if (g.strideW == 1)
      convolveRowPair3x3Avx512<1>(g, image, filter, bias, out, oh, clamped, lo, hi);
    else
      convolveRowPair3x3Avx512<2>(g, image, filter, bias, out, oh, clamped, lo, hi);
    return;
  }
#endif
  convolveRow(g, image, filter, bias, out, oh, clamped, lo, hi);
  convolveRow(g, image, filter, bias, out + g.outW * g.channels, oh + 1, clamped, lo, hi);
}

}  // namespace qnn::cpu::depthwise
