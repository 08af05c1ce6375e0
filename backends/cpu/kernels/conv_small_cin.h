// Direct Conv2d for inputs of 1-4 channels (the RGB stems of image models),
// one output row per call, on AVX-512: six output pixels at a time, their
// output channels in up to four registers each; every filter tap is one
// broadcast input value per pixel times one load of the tap's weights per
// 16 channels. im2col would copy rows of a few floats per tap and hand the
// GEMM a K too short for its blocking.
#pragma once

#include <cstddef>
#include <cstdint>

namespace qnn::cpu::smallcin {

struct Geometry {
  int64_t cin = 0, cout = 0, fh = 0, fw = 0;
  int64_t strideH = 1, strideW = 1, dilH = 1, dilW = 1;
  int64_t paddedW = 0;  // the zero-padded input's width: output pixel ow reads columns ow * strideW + kw * dilW
  int64_t outW = 0;
};

// Whether this path can run the layer here: AVX-512 chosen (cpu_isa.h), 1-4
// input channels, 16-64 output channels in whole registers, one group.
bool supported(int64_t cin, int64_t cout, uint32_t groups);

// out[ow][co] = clamp(bias[co] + sum over kh, kw, ci of padded[oh * strideH + kh * dilH][ow * strideW +
// kw * dilW][ci] * filter[kh][kw][ci][co]) for one output row; `padded` is the zero-padded image
// [rows][paddedW][cin], the filter HWIO, bias may be null, the clamp applies when `clamped`.
void convolveRow(const Geometry& g, const float* padded, const float* filter, const float* bias, float* out,
                 int64_t oh, bool clamped, float lo, float hi);

}  // namespace qnn::cpu::smallcin
