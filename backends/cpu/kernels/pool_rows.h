// One output row of a float32 NHWC PoolMax2d / PoolAvg2d (pool2d.cpp's fast path), for kernels
// that pool rows they have just computed (a Conv2d with the max pool that reads it folded in).
#pragma once

#include <cstdint>

namespace qnn::cpu {

// inH/inW/channels: the image pooled; out row width outW; pads as the op's pad_amount. The window
// of output pixel (oh, ow) is clipped to the image; max pooling skips NaN inputs and a window
// wholly in padding gives 0.
struct PoolGeometry {
  int64_t inH, inW, channels, fh, fw, sh, sw, padTop, padLeft, padBottom, padRight, outW;
  bool isMax, countPad;
};

// Output row oh of the pool of `image` into `out` (outW x channels floats); ISA-dispatched.
void poolRow(const PoolGeometry& g, const float* image, float* out, int64_t oh);

}  // namespace qnn::cpu
