// backends/cpu/kernels/depthwise.*: convolveRowPair is bit for bit two convolveRow calls (on AVX-512
// the 3x3 rows of stride 1 or 2 are computed together from their shared input rows), and convolveRow agrees
// with a double-precision reference, over rows at the top and bottom edges (missing filter rows),
// widths that take every group size and both edge columns, asymmetric padding, channels in one to
// three 16-lane blocks, bias or none, a clamp or none, strides 1 and 2; dilated filters take the
// two single rows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tests/conformance/kernel_test_values.h"
#include "cpu/kernels/depthwise.h"

namespace qnn::cpu::depthwise {
namespace {

std::vector<float> values(size_t n, uint32_t seed) { return test::kernelTestValues(n, seed); }

struct Case {
  int64_t inH, inW, channels, stride, dil, padTop, padLeft, padRight;
  bool bias, clamp;
};

std::string name(const Case& c) {
  return std::to_string(c.inH) + "x" + std::to_string(c.inW) + "x" + std::to_string(c.channels) + " s" +
         std::to_string(c.stride) + " d" + std::to_string(c.dil) + " pad " + std::to_string(c.padTop) + "," +
         std::to_string(c.padLeft) + "," + std::to_string(c.padRight) + (c.bias ? " bias" : "") +
         (c.clamp ? " clamp" : "");
}

void check(const Case& c) {
  Geometry g;
  g.inH = c.inH, g.inW = c.inW, g.channels = c.channels, g.fh = 3, g.fw = 3;
  g.strideH = g.strideW = c.stride, g.dilH = g.dilW = c.dil, g.padTop = c.padTop, g.padLeft = c.padLeft;
  g.outW = (c.inW + c.padLeft + c.padRight - (2 * c.dil + 1)) / c.stride + 1;
  const int64_t outH = (c.inH + 2 * c.padTop - (2 * c.dil + 1)) / c.stride + 1;
  const std::vector<float> image = values(size_t(c.inH * c.inW * c.channels), 1);
  const std::vector<float> filter = values(size_t(9 * c.channels), 2), bias = values(size_t(c.channels), 3);
  const float lo = -0.5f, hi = 0.75f;
  const size_t rowFloats = size_t(g.outW * c.channels);
  for (int64_t oh = 0; oh + 1 < outH; ++oh) {
    std::vector<float> pair(2 * rowFloats, 99.f), single(2 * rowFloats, 99.f);
    convolveRowPair(g, image.data(), filter.data(), c.bias ? bias.data() : nullptr, pair.data(), oh, c.clamp, lo, hi);
    convolveRow(g, image.data(), filter.data(), c.bias ? bias.data() : nullptr, single.data(), oh, c.clamp, lo, hi);
    convolveRow(g, image.data(), filter.data(), c.bias ? bias.data() : nullptr, single.data() + rowFloats, oh + 1,
                c.clamp, lo, hi);
    ASSERT_EQ(std::memcmp(pair.data(), single.data(), pair.size() * sizeof(float)), 0) << name(c) << " rows " << oh;
    for (int64_t r = 0; r < 2; ++r)  // the single rows against double
      for (int64_t ow = 0; ow < g.outW; ++ow)
        for (int64_t ch = 0; ch < c.channels; ++ch) {
          double acc = c.bias ? bias[size_t(ch)] : 0.0;
          for (int64_t kh = 0; kh < 3; ++kh)
            for (int64_t kw = 0; kw < 3; ++kw) {
              const int64_t ih = (oh + r) * c.stride - c.padTop + kh * c.dil, iw = ow * c.stride - c.padLeft + kw * c.dil;
              if (ih < 0 || iw < 0 || ih >= c.inH || iw >= c.inW) continue;
              acc += double(image[size_t((ih * c.inW + iw) * c.channels + ch)]) * filter[size_t((kh * 3 + kw) * c.channels + ch)];
            }
          if (c.clamp) acc = std::min(std::max(acc, double(lo)), double(hi));
          ASSERT_NEAR(single[size_t(r) * rowFloats + size_t(ow * c.channels + ch)], acc, 1e-5)
              << name(c) << " row " << oh + r << " pixel " << ow << " channel " << ch;
        }
  }
}

TEST(Depthwise, RowPairIsTwoRows) {
  for (int64_t w : {1, 3, 5, 7, 11, 14, 15, 16, 27, 56})
    for (int64_t channels : {16, 48}) {
      check({6, w, channels, 1, 1, 1, 1, 1, true, true});
      check({5, w, channels, 1, 1, 0, 0, 2, false, false});
    }
  check({9, 20, 32, 1, 1, 2, 2, 0, true, false});  // padding 2 on top: two missing filter rows at the edge
  check({7, 13, 20, 1, 1, 1, 1, 1, true, true});   // channels off the 16-lane blocks: the general kernel
  for (int64_t w : {3, 5, 13, 15, 17, 27, 31, 56}) {  // stride 2: rows of 2-28 pixels, groups of 1-8
    check({9, w, 32, 2, 1, 1, 1, 1, true, true});
    check({8, w, 16, 2, 1, 0, 0, 1, false, false});  // MobileNet's (0, 1) padding
  }
  check({9, 17, 16, 1, 2, 2, 2, 2, false, true});  // dilation 2
}

}  // namespace
}  // namespace qnn::cpu::depthwise
