#include "cpu/kernels/conv_small_cin.h"

#include "cpu/kernels/cpu_isa.h"

#if defined(__x86_64__)
#include "cpu/kernels/x86_simd.h"
#define QNN_SMALLCIN_HAVE_X86 1
#endif

namespace qnn::cpu::smallcin {
namespace {

#ifdef QNN_SMALLCIN_HAVE_X86
// P output pixels x NV registers of 16 output channels, all taps. kTaps3x3x3:
// a 3x3 filter over 3 channels at dilation 1 (the RGB stem of MobileNet-like
// models), its 27 steps known at compile time and unrolled (with run-time
// bounds the loop control and addressing cost a quarter of the stem's time).
template <int P, int NV, bool kTaps3x3x3 = false>
__attribute__((target("avx512f"))) inline void pixels(const Geometry& g, const float* rowBase, const float* filter,
                                                      const float* bias, float* out, int64_t ow, bool clamped,
                                                      __m512 lo, __m512 hi) {
  __m512 acc[P][NV];
  for (int v = 0; v < NV; ++v) {
    const __m512 b = bias ? _mm512_loadu_ps(bias + 16 * v) : _mm512_setzero_ps();
    for (int p = 0; p < P; ++p) acc[p][v] = b;
  }
  const int64_t cin = kTaps3x3x3 ? 3 : g.cin, cout = g.cout, rowFloats = g.paddedW * cin;
  const int64_t fh = kTaps3x3x3 ? 3 : g.fh, fw = kTaps3x3x3 ? 3 : g.fw;
  const int64_t dilH = kTaps3x3x3 ? 1 : g.dilH, dilW = kTaps3x3x3 ? 1 : g.dilW;
  const int64_t pixelStep = g.strideW * cin;
#pragma GCC unroll 3
  for (int64_t kh = 0; kh < fh; ++kh) {
    const float* row = rowBase + kh * dilH * rowFloats + ow * pixelStep;
    const float* w = filter + kh * fw * cin * cout;
#pragma GCC unroll 3
    for (int64_t kw = 0; kw < fw; ++kw) {
      const float* x = row + kw * dilW * cin;
#pragma GCC unroll 3
      for (int64_t ci = 0; ci < cin; ++ci, w += cout) {
        __m512 wv[NV];
        for (int v = 0; v < NV; ++v) wv[v] = _mm512_loadu_ps(w + 16 * v);
        for (int p = 0; p < P; ++p) {
          const __m512 xb = _mm512_set1_ps(x[p * pixelStep + ci]);
          for (int v = 0; v < NV; ++v) acc[p][v] = _mm512_fmadd_ps(xb, wv[v], acc[p][v]);
        }
      }
    }
  }
  for (int p = 0; p < P; ++p)
    for (int v = 0; v < NV; ++v) {
      __m512 r = acc[p][v];
      if (clamped) r = _mm512_min_ps(hi, _mm512_max_ps(lo, r));  // operand order keeps NaN
      _mm512_storeu_ps(out + (ow + p) * cout + 16 * v, r);
    }
}

template <int NV>
__attribute__((target("avx512f"))) void rowAvx512(const Geometry& g, const float* padded, const float* filter,
                                                  const float* bias, float* out, int64_t oh, bool clamped, float lo,
                                                  float hi) {
  constexpr int kP = NV <= 2 ? 8 : 6;  // accumulators: 16 or 24 of the 32 registers
  const float* rowBase = padded + oh * g.strideH * g.paddedW * g.cin;
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  int64_t ow = 0;
  if (g.fh == 3 && g.fw == 3 && g.cin == 3 && g.dilH == 1 && g.dilW == 1) {
    for (; ow + kP <= g.outW; ow += kP) pixels<kP, NV, true>(g, rowBase, filter, bias, out, ow, clamped, vlo, vhi);
    for (; ow < g.outW; ++ow) pixels<1, NV, true>(g, rowBase, filter, bias, out, ow, clamped, vlo, vhi);
    return;
  }
  for (; ow + kP <= g.outW; ow += kP) pixels<kP, NV>(g, rowBase, filter, bias, out, ow, clamped, vlo, vhi);
  for (; ow < g.outW; ++ow) pixels<1, NV>(g, rowBase, filter, bias, out, ow, clamped, vlo, vhi);
}
#endif

}  // namespace

bool supported(int64_t cin, int64_t cout, uint32_t groups) {
#ifdef QNN_SMALLCIN_HAVE_X86
  return cpuIsa() == Isa::kAvx512 && groups == 1 && cin >= 1 && cin <= 4 && cout % 16 == 0 && cout >= 16 &&
         cout <= 64;
#else
  (void)cin, (void)cout, (void)groups;
  return false;
#endif
}

void convolveRow(const Geometry& g, const float* padded, const float* filter, const float* bias, float* out,
                 int64_t oh, bool clamped, float lo, float hi) {
#ifdef QNN_SMALLCIN_HAVE_X86
  switch (g.cout / 16) {
    case 1: return rowAvx512<1>(g, padded, filter, bias, out, oh, clamped, lo, hi);
    case 2: return rowAvx512<2>(g, padded, filter, bias, out, oh, clamped, lo, hi);
    case 3: return rowAvx512<3>(g, padded, filter, bias, out, oh, clamped, lo, hi);
    default: return rowAvx512<4>(g, padded, filter, bias, out, oh, clamped, lo, hi);
  }
#else
  (void)g, (void)padded, (void)filter, (void)bias, (void)out, (void)oh, (void)clamped, (void)lo, (void)hi;
#endif
}

}  // namespace qnn::cpu::smallcin
