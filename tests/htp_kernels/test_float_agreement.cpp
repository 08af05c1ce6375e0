// The integer kernels approximate the float ops they stand for: dequantized
// outputs within a couple of output steps of a double computation on the
// dequantized inputs. (Bit-exactness against the integer rule is the
// conformance suite's job; this catches a rule that is exact but wrong.)
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "htp_sim/kernels/htp_kernel.h"
#include "tests/htp_kernels/quant_views.h"

namespace qnn::htp {
namespace {

using sdk::DType;
using testing::pattern;
constexpr auto view = testing::quantView;

void run(const char* op, const sdk::OpParams& params, const std::vector<TensorView>& in,
         const std::vector<TensorView>& out) {
  auto kernel = findKernel(op)(op);
  ASSERT_TRUE(kernel->init(params).isOk());
  auto st = kernel->prepare(in, out);
  ASSERT_TRUE(st.isOk()) << st.message();
  ASSERT_TRUE(kernel->execute(in, out).isOk());
}

TEST(FloatAgreement, LayerNormIsNormalizeScaleShift) {
  const size_t rows = 4, n = 32;
  std::vector<uint8_t> x = pattern<uint8_t>(rows * n, 1), gamma = pattern<uint8_t>(n, 2), beta = pattern<uint8_t>(n, 3), y(rows * n);
  const float sx = 0.05f, sg = 1.f / 128, sb = 1.f / 64, sy = 4.f / 255;
  const int32_t ox = -100, og = -64, ob = -128, oy = -128;
  sdk::OpParams p;
  p.set("axes", sdk::tensorU32({1}, {1}));
  p.set("epsilon", sdk::scalarF32(1e-3f));
  run("LayerNorm", p,
      {view(DType::kUFixed8, {uint32_t(rows), uint32_t(n)}, x.data(), sx, ox),
       view(DType::kUFixed8, {uint32_t(n)}, gamma.data(), sg, og), view(DType::kUFixed8, {uint32_t(n)}, beta.data(), sb, ob)},
      {view(DType::kUFixed8, {uint32_t(rows), uint32_t(n)}, y.data(), sy, oy)});
  for (size_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (size_t i = 0; i < n; ++i) mean += sx * (x[r * n + i] + ox);
    mean /= n;
    for (size_t i = 0; i < n; ++i) var += std::pow(sx * (x[r * n + i] + ox) - mean, 2);
    var /= n;
    for (size_t i = 0; i < n; ++i) {
      double want = (sx * (x[r * n + i] + ox) - mean) / std::sqrt(var + 1e-3) * sg * (gamma[i] + og) + sb * (beta[i] + ob);
      want = std::min(std::max(want, sy * (0.0 + oy)), sy * (255.0 + oy));
      // One output step of rounding plus the Q16 normalization error.
      EXPECT_NEAR(sy * (y[r * n + i] + oy), want, 1.01 * sy) << r << "," << i;
    }
  }
}

TEST(FloatAgreement, SoftmaxSumsToOne) {
  const size_t n = 10;
  std::vector<uint8_t> x = pattern<uint8_t>(3 * n, 4), y(3 * n);
  const float sx = 0.04f;
  run("Softmax", sdk::OpParams{}, {view(DType::kUFixed8, {3, uint32_t(n)}, x.data(), sx, -128)},
      {view(DType::kUFixed8, {3, uint32_t(n)}, y.data(), 1.f / 256, 0)});
  for (size_t r = 0; r < 3; ++r) {
    double denom = 0;
    for (size_t i = 0; i < n; ++i) denom += std::exp(sx * (x[r * n + i] - 128.0));
    for (size_t i = 0; i < n; ++i)
      EXPECT_NEAR(y[r * n + i] / 256.0, std::exp(sx * (x[r * n + i] - 128.0)) / denom, 0.5 / 256 + 1e-6);
  }
}

TEST(FloatAgreement, AddOfDifferentScales) {
  std::vector<uint8_t> a = pattern<uint8_t>(64, 5), b = pattern<uint8_t>(64, 6), y(64);
  const float sa = 0.03f, sb = 0.011f, sy = 0.05f;
  run("ElementWiseAdd", sdk::OpParams{},
      {view(DType::kUFixed8, {64}, a.data(), sa, -120), view(DType::kUFixed8, {64}, b.data(), sb, -10)},
      {view(DType::kUFixed8, {64}, y.data(), sy, -90)});
  for (size_t i = 0; i < 64; ++i) {
    double want = sa * (a[i] - 120.0) + sb * (b[i] - 10.0);
    want = std::min(std::max(want, sy * -90.0), sy * 165.0);
    EXPECT_NEAR(sy * (y[i] - 90.0), want, 0.5 * sy + 1e-6) << i;
  }
}

TEST(FloatAgreement, Conv2dPerChannel) {
  const uint32_t h = 5, w = 5, c = 8, o = 4;
  std::vector<uint8_t> x = pattern<uint8_t>(h * w * c, 7), y(h * w * o);
  std::vector<uint8_t> wraw = pattern<uint8_t>(9 * c * o, 8);
  std::vector<int8_t> wt(wraw.begin(), wraw.end());
  const float sx = 0.02f, sy = 0.2f;
  TensorView filter = view(DType::kSFixed8, {3, 3, c, o}, wt.data(), 0, 0);
  filter.quant = QuantInfo{};
  filter.quant.kind = QuantInfo::Kind::kAxisScaleOffset;
  filter.quant.axis = 3;
  filter.quant.scales = {0.01f, 0.02f, 0.005f, 0.03f};
  filter.quant.offsets = {0, 0, 0, 0};
  sdk::OpParams p;
  p.set("stride", sdk::tensorU32({2}, {1, 1}));
  p.set("pad_amount", sdk::tensorU32({2, 2}, {1, 1, 1, 1}));
  run("Conv2d", p, {view(DType::kUFixed8, {1, h, w, c}, x.data(), sx, -128), filter},
      {view(DType::kUFixed8, {1, h, w, o}, y.data(), sy, -128)});
  for (uint32_t yy = 0; yy < h; ++yy)
    for (uint32_t xx = 0; xx < w; ++xx)
      for (uint32_t k = 0; k < o; ++k) {
        double acc = 0;
        for (int kh = 0; kh < 3; ++kh)
          for (int kw = 0; kw < 3; ++kw) {
            const int iy = int(yy) + kh - 1, ix = int(xx) + kw - 1;
            if (iy < 0 || iy >= int(h) || ix < 0 || ix >= int(w)) continue;
            for (uint32_t ci = 0; ci < c; ++ci)
              acc += sx * (x[(iy * w + ix) * c + ci] - 128.0) * filter.quant.scales[k] * wt[((kh * 3 + kw) * c + ci) * o + k];
          }
        acc = std::min(std::max(acc, sy * -128.0), sy * 127.0);
        EXPECT_NEAR(sy * (y[(yy * w + xx) * o + k] - 128.0), acc, 0.5 * sy + 1e-6);
      }
}

}  // namespace
}  // namespace qnn::htp
