// Float depthwise convolution (channel multiplier 1) over NHWC, one output row
// per call: DepthWiseConv2d's fast path. Channels are the vector lanes; the
// interior of a row is computed four pixels at a time so each filter tap is
// loaded once per four outputs, the edges one pixel at a time with bounds
// checks. An AVX-512 kernel where the CPU has it (chosen at run time), else a
// portable loop the compiler vectorizes (cloned for AVX2+FMA). On AVX-512, 3x3
// filters (stride 1 or 2, whole 16-channel blocks: every MobileNet depthwise
// layer) take a kernel of their own: eight pixels at a time, each input pixel
// loaded once per filter row, the nine weights in registers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace qnn::cpu::depthwise {

struct Geometry {
  int64_t inH = 0, inW = 0, channels = 0, fh = 0, fw = 0;
  int64_t strideH = 1, strideW = 1, dilH = 1, dilW = 1, padTop = 0, padLeft = 0;
  int64_t outW = 0;
};

// out[ow][c] = clamp(bias[c] + sum over in-bounds taps of image[ih][iw][c] *
// filter[kh][kw][c]) for output row oh of one image [inH, inW, channels]; the
// filter is [fh, fw, channels], bias may be null, clamp only when `clamped`
// (bounds lo, hi).
void convolveRow(const Geometry& g, const float* image, const float* filter, const float* bias, float* out,
                 int64_t oh, bool clamped, float lo, float hi);

// Output rows oh and oh + 1 (into out and out + outW * channels): bit for bit two convolveRow
// calls. For a 3x3 filter of stride 1 or 2 over whole 16-channel blocks on AVX-512 the two rows
// are computed together from the input rows they read, each loaded once (stride 1: four rows
// where two single rows load six; stride 2: five).
void convolveRowPair(const Geometry& g, const float* image, const float* filter, const float* bias, float* out,
                     int64_t oh, bool clamped, float lo, float hi);

}  // namespace qnn::cpu::depthwise
