// Conformance cases of ImageProjectionTransform (identity and a whole-pixel
// translation checked by shifting the image, then a projective warp against a
// double-precision reference listing each sample's four neighbours) and
// Nv12ToRgb / Nv21ToRgb (frames packed here from separate Y and U/V planes, the
// BT.601 video-range matrix evaluated in double, black and white by hand).
#include <algorithm>
#include <cmath>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Dims = std::vector<uint32_t>;

void projectionCases(std::vector<OpCase>& c) {
  CaseRng rng(2101);
  const uint32_t b = 2, h = 5, w = 6, ch = 2;
  auto img = rng.floats(size_t(b) * h * w * ch);
  c.push_back(makeCase("ImageProjectionTransform_identity", "ImageProjectionTransform",
                       {f32Tensor({b, h, w, ch}, img), f32Tensor({1, 8}, {1, 0, 0, 0, 1, 0, 0, 0})},
                       {f32Tensor({b, h, w, ch}, img)}, {}, 1e-6, 1e-6));
  // Output (x, y) reads input (x - 1, y - 2): the image moved right 1 and down 2, zeros entering.
  std::vector<float> shifted(img.size(), 0.f);
  for (uint32_t n = 0; n < b; ++n)
    for (uint32_t y = 2; y < h; ++y)
      for (uint32_t x = 1; x < w; ++x)
        for (uint32_t k = 0; k < ch; ++k)
          shifted[((n * h + y) * w + x) * ch + k] = img[((n * h + y - 2) * w + x - 1) * ch + k];
  for (uint32_t mode = 0; mode < 2; ++mode)
    c.push_back(makeCase(mode ? "ImageProjectionTransform_translate_nearest" : "ImageProjectionTransform_translate_bilinear",
                         "ImageProjectionTransform",
                         {f32Tensor({b, h, w, ch}, img), f32Tensor({8}, {1, 0, -1, 0, 1, -2, 0, 0})},
                         {f32Tensor({b, h, w, ch}, shifted)}, {{"interpolation_mode", sdk::scalarU32(mode)}}, 1e-6, 1e-6));
  // A projective warp per image.
  const std::vector<float> mats{0.9f, 0.1f, 0.3f, -0.05f, 0.8f, 0.6f, 0.02f, -0.03f,
                                1.1f, -0.2f, -0.4f, 0.15f, 1.05f, -0.2f, -0.01f, 0.04f};
  for (uint32_t mode = 0; mode < 2; ++mode) {
    std::vector<float> want;
    for (uint32_t n = 0; n < b; ++n) {
      const float* t = &mats[n * 8];
      auto at = [&](double yy, double xx, uint32_t k) {
        if (yy < 0 || yy > h - 1 || xx < 0 || xx > w - 1) return 0.0;
        return double(img[((n * h + size_t(yy)) * w + size_t(xx)) * ch + k]);
      };
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
          const double kk = t[6] * x + t[7] * y + 1.0;
          const double sx = (t[0] * x + t[1] * y + t[2]) / kk, sy = (t[3] * x + t[4] * y + t[5]) / kk;
          for (uint32_t k = 0; k < ch; ++k) {
            if (mode == 1) {
              want.push_back(float(at(std::round(sy), std::round(sx), k)));
              continue;
            }
            const double y0 = std::floor(sy), x0 = std::floor(sx), fy = sy - y0, fx = sx - x0;
            const std::pair<double, double> nb[4] = {{y0, x0}, {y0, x0 + 1}, {y0 + 1, x0}, {y0 + 1, x0 + 1}};
            const double wt[4] = {(1 - fy) * (1 - fx), (1 - fy) * fx, fy * (1 - fx), fy * fx};
            double v = 0;
            for (int q = 0; q < 4; ++q) v += wt[q] * at(nb[q].first, nb[q].second, k);
            want.push_back(float(v));
          }
        }
    }
    c.push_back(makeCase(mode ? "ImageProjectionTransform_projective_nearest" : "ImageProjectionTransform_projective_bilinear",
                         "ImageProjectionTransform", {f32Tensor({b, h, w, ch}, img), f32Tensor({b, 8}, mats)},
                         {f32Tensor({b, h, w, ch}, want)}, {{"interpolation_mode", sdk::scalarU32(mode)}}, 1e-5, 1e-5));
  }
}

void yuvCases(std::vector<OpCase>& c) {
  // Black (Y 16) and white (Y 235) with neutral chroma, by hand: 0 and 1.164 * 219.
  c.push_back(makeCase("Nv12ToRgb_black_white_by_hand", "Nv12ToRgb",
                       {f32Tensor({1, 6}, {16, 235, 16, 235, 128, 128})},
                       {f32Tensor({1, 2, 2, 3}, {0, 0, 0, 254.916f, 254.916f, 254.916f, 0, 0, 0, 254.916f, 254.916f, 254.916f})},
                       {{"output_order", sdk::scalarI32(0)}}, 1e-3, 1e-5));
  CaseRng rng(2201);
  const uint32_t b = 2, h = 4, w = 6;
  for (int nv21 = 0; nv21 < 2; ++nv21)
    for (int bgr = 0; bgr < 2; ++bgr) {
      std::vector<float> frame, want;
      for (uint32_t n = 0; n < b; ++n) {
        std::vector<float> yp(h * w), up(h * w / 4), vp(h * w / 4);
        for (auto& v : yp) v = float(rng.next() % 256);
        for (auto& v : up) v = float(rng.next() % 256);
        for (auto& v : vp) v = float(rng.next() % 256);
        frame.insert(frame.end(), yp.begin(), yp.end());
        for (size_t i = 0; i < up.size(); ++i) {
          frame.push_back(nv21 ? vp[i] : up[i]);
          frame.push_back(nv21 ? up[i] : vp[i]);
        }
        for (uint32_t y = 0; y < h; ++y)
          for (uint32_t x = 0; x < w; ++x) {
            const double Y = yp[y * w + x], U = up[(y / 2) * (w / 2) + x / 2], V = vp[(y / 2) * (w / 2) + x / 2];
            double rgb[3] = {1.164 * (Y - 16) + 1.596 * (V - 128), 1.164 * (Y - 16) - 0.813 * (V - 128) - 0.391 * (U - 128),
                             1.164 * (Y - 16) + 2.018 * (U - 128)};
            for (double& v : rgb) v = std::min(255.0, std::max(0.0, v));
            if (bgr) std::swap(rgb[0], rgb[2]);
            for (double v : rgb) want.push_back(float(v));
          }
      }
      c.push_back(makeCase(std::string(nv21 ? "Nv21ToRgb" : "Nv12ToRgb") + (bgr ? "_bgr" : "_rgb") + "_random",
                           nv21 ? "Nv21ToRgb" : "Nv12ToRgb", {f32Tensor({b, h * w * 3 / 2}, frame)},
                           {f32Tensor({b, h, w, 3}, want)}, {{"output_order", sdk::scalarI32(bgr)}}, 1e-3, 1e-5));
    }
}

std::vector<OpCase> imageTransformCases() {
  std::vector<OpCase> c;
  projectionCases(c);
  yuvCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("image_transform", qnn::conformance::imageTransformCases);
