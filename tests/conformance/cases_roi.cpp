// Conformance cases of RoiAlign and RoiPooling: hand-computed bins (a linear
// ramp, where every bilinear average is the ramp at the bin centre; quadrant
// maxima of a counting image), then random maps against a double-precision
// reference that lists each bin's sample points / pixels explicitly.
#include <algorithm>
#include <cmath>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Dims = std::vector<uint32_t>;
using Params = std::vector<std::pair<std::string, ParamValue>>;

CaseTensor idx(std::vector<int32_t> v) { return makeTensor(DType::kInt32, {uint32_t(v.size())}, v); }
ParamValue ratio(float h, float w) { return sdk::tensorF32({2}, {h, w}); }

void handCases(std::vector<OpCase>& c) {
  std::vector<float> ramp(16), count(16);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) ramp[y * 4 + x] = float(x + 10 * y), count[y * 4 + x] = float(y * 4 + x);
  // RoI (0.5, 0.5)-(2.5, 2.5), 2x2 bins of 1 pixel: centres (1, 1), (1, 2), (2, 1), (2, 2).
  c.push_back(makeCase("RoiAlign_ramp_bin_centres", "RoiAlign",
                       {f32Tensor({1, 4, 4, 1}, ramp), f32Tensor({1, 4}, {0.5f, 0.5f, 2.5f, 2.5f}), idx({0})},
                       {f32Tensor({1, 2, 2, 1}, {11, 12, 21, 22})},
                       {{"img_size_ratio", ratio(1, 1)}, {"num_samples_y", sdk::scalarI32(2)},
                        {"num_samples_x", sdk::scalarI32(2)}},
                       1e-5, 1e-6));
  // aligned: the same RoI at twice the image scale, shifted by half a pixel: centres (0.5 .. 1.5).
  c.push_back(makeCase("RoiAlign_ramp_aligned_ratio2", "RoiAlign",
                       {f32Tensor({1, 4, 4, 1}, ramp), f32Tensor({1, 4}, {1.f, 1.f, 5.f, 5.f}), idx({0})},
                       {f32Tensor({1, 2, 2, 1}, {5.5f, 6.5f, 15.5f, 16.5f})},
                       {{"img_size_ratio", ratio(2, 2)}, {"aligned", sdk::scalarBool(true)}}, 1e-5, 1e-6));
  c.push_back(makeCase("RoiPooling_quadrant_maxima", "RoiPooling",
                       {f32Tensor({1, 4, 4, 1}, count), f32Tensor({1, 4}, {0, 0, 3, 3}), idx({0})},
                       {f32Tensor({1, 2, 2, 1}, {5, 7, 13, 15})}, {{"img_size_ratio", ratio(1, 1)}}));
  // Ratio 2: (2,2)-(6,6) -> pixels 1..3, bins of 1.5: [1, 3) and [2, 4) per dim.
  c.push_back(makeCase("RoiPooling_ratio2_overlapping_bins", "RoiPooling",
                       {f32Tensor({1, 4, 4, 1}, count), f32Tensor({1, 4}, {2, 2, 6, 6}), idx({0})},
                       {f32Tensor({1, 2, 2, 1}, {10, 11, 14, 15})}, {{"img_size_ratio", ratio(2, 2)}}));
}

double sampleRef(const std::vector<float>& img, uint32_t h, uint32_t w, uint32_t ch, uint32_t k, double y, double x) {
  if (y < -1 || y > h || x < -1 || x > w) return 0;
  y = std::min(std::max(y, 0.0), double(h - 1));
  x = std::min(std::max(x, 0.0), double(w - 1));
  const int y0 = int(std::floor(y)), x0 = int(std::floor(x));
  const int y1 = std::min(y0 + 1, int(h) - 1), x1 = std::min(x0 + 1, int(w) - 1);
  const double fy = y - y0, fx = x - x0;
  auto at = [&](int yy, int xx) { return double(img[(size_t(yy) * w + xx) * ch + k]); };
  return (1 - fy) * (1 - fx) * at(y0, x0) + (1 - fy) * fx * at(y0, x1) + fy * (1 - fx) * at(y1, x0) + fy * fx * at(y1, x1);
}

void randomCases(std::vector<OpCase>& c) {
  CaseRng rng(1901);
  const uint32_t b = 2, h = 7, w = 9, ch = 3, oh = 3, ow = 2;
  const float rh = 2.f, rw = 1.5f;
  auto map = rng.floats(size_t(b) * h * w * ch);
  const std::vector<float> rois{0.f, 0.f, 12.f, 12.f, 3.f, 2.f, 7.f, 13.f, 5.5f, 4.f, 6.f, 4.5f};
  const std::vector<int32_t> bi{1, 0, 1};
  for (int aligned = 0; aligned < 2; ++aligned) {
    std::vector<float> want;
    for (size_t r = 0; r < 3; ++r) {
      std::vector<float> img(map.begin() + size_t(bi[r]) * h * w * ch, map.begin() + size_t(bi[r] + 1) * h * w * ch);
      const double s = aligned ? 0.5 : 0.0;
      const double xa = rois[r * 4] / rw - s, ya = rois[r * 4 + 1] / rh - s;
      double rwid = rois[r * 4 + 2] / rw - s - xa, rhei = rois[r * 4 + 3] / rh - s - ya;
      if (!aligned) rwid = std::max(rwid, 1.0), rhei = std::max(rhei, 1.0);
      const int ny = 2, nx = 3;
      for (uint32_t i = 0; i < oh; ++i)
        for (uint32_t j = 0; j < ow; ++j)
          for (uint32_t k = 0; k < ch; ++k) {
            double acc = 0;
            for (int a = 0; a < ny; ++a)
              for (int q = 0; q < nx; ++q)
                acc += sampleRef(img, h, w, ch, k, ya + rhei / oh * (i + (a + 0.5) / ny), xa + rwid / ow * (j + (q + 0.5) / nx));
            want.push_back(float(acc / (ny * nx)));
          }
    }
    c.push_back(makeCase(aligned ? "RoiAlign_random_aligned_samples2x3" : "RoiAlign_random_samples2x3", "RoiAlign",
                         {f32Tensor({b, h, w, ch}, map), f32Tensor({3, 4}, rois), idx(bi)}, {f32Tensor({3, oh, ow, ch}, want)},
                         {{"img_size_ratio", ratio(rh, rw)}, {"num_samples_y", sdk::scalarI32(2)},
                          {"num_samples_x", sdk::scalarI32(3)}, {"aligned", sdk::scalarBool(aligned)}},
                         1e-5, 1e-5));
  }
  // RoiPooling: bins [floor(start), ceil(end)) of the rounded, inclusive RoI.
  std::vector<float> want;
  for (size_t r = 0; r < 3; ++r) {
    const float* img = &map[size_t(bi[r]) * h * w * ch];
    const long x0 = std::lround(rois[r * 4] / rw), y0 = std::lround(rois[r * 4 + 1] / rh);
    const long x1 = std::lround(rois[r * 4 + 2] / rw), y1 = std::lround(rois[r * 4 + 3] / rh);
    const double bw = double(std::max(x1 - x0 + 1, 1L)) / ow, bh = double(std::max(y1 - y0 + 1, 1L)) / oh;
    for (uint32_t i = 0; i < oh; ++i)
      for (uint32_t j = 0; j < ow; ++j)
        for (uint32_t k = 0; k < ch; ++k) {
          std::vector<float> vals;
          for (long y = long(std::floor(bh * i + y0)); y < long(std::ceil(bh * (i + 1) + y0)); ++y)
            for (long x = long(std::floor(bw * j + x0)); x < long(std::ceil(bw * (j + 1) + x0)); ++x)
              if (y >= 0 && y < long(h) && x >= 0 && x < long(w)) vals.push_back(img[(size_t(y) * w + x) * ch + k]);
          want.push_back(vals.empty() ? 0.f : *std::max_element(vals.begin(), vals.end()));
        }
  }
  c.push_back(makeCase("RoiPooling_random_ratio2_by_1p5", "RoiPooling",
                       {f32Tensor({b, h, w, ch}, map), f32Tensor({3, 4}, rois), idx(bi)}, {f32Tensor({3, oh, ow, ch}, want)},
                       {{"img_size_ratio", ratio(rh, rw)}}));
}

std::vector<OpCase> roiCases() {
  std::vector<OpCase> c;
  handCases(c);
  randomCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("roi", qnn::conformance::roiCases);
