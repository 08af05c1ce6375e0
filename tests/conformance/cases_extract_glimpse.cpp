// Conformance cases of ExtractGlimpse on a counting image (value = 10 y + x):
// window origins worked out by hand for each centered/normalized convention,
// truncation toward zero, zero fill outside the image, and the noise modes on a
// constant image (where uniform and gaussian noise can only be that constant).
#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Params = std::vector<std::pair<std::string, ParamValue>>;

Params glimpse(int h, int w, bool centered, bool normalized, int noise) {
  return {{"size", sdk::tensorI32({2}, {h, w})}, {"centered", sdk::scalarBool(centered)},
          {"normalized", sdk::scalarBool(normalized)}, {"noise", sdk::scalarI32(noise)}};
}

std::vector<OpCase> extractGlimpseCases() {
  std::vector<float> img(2 * 4 * 5);
  for (int b = 0; b < 2; ++b)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 5; ++x) img[(b * 4 + y) * 5 + x] = float(100 * b + 10 * y + x);
  const auto image = f32Tensor({2, 4, 5, 1}, img);
  std::vector<OpCase> c;
  // Centered + normalized (0, 0): y = 2 - 1 = 1, x = 2.5 - 1 = 1.5 -> 1. Batch 1 at (0.5, -0.4):
  // y = 0.25 * 4 + 2 - 1 = 2, x = -0.2 * 5 + 2.5 - 1 = 0.5 -> 0.
  c.push_back(makeCase("ExtractGlimpse_centered_normalized", "ExtractGlimpse",
                       {image, f32Tensor({2, 2}, {0, 0, 0.5f, -0.4f})},
                       {f32Tensor({2, 2, 2, 1}, {11, 12, 21, 22, 120, 121, 130, 131})}, glimpse(2, 2, true, true, 2)));
  // Pixel offsets: (1, 3) -> y 0, x 1.5 -> 1; (0.5, 4) -> y -0.5 -> 0 (toward zero), x 2.5 -> 2.
  c.push_back(makeCase("ExtractGlimpse_pixel_offsets_truncate_toward_zero", "ExtractGlimpse",
                       {image, f32Tensor({2, 2}, {1, 3, 0.5f, 4})},
                       {f32Tensor({2, 2, 3, 1}, {1, 2, 3, 11, 12, 13, 102, 103, 104, 112, 113, 114})},
                       glimpse(2, 3, false, false, 2)));
  // Leaving the image: (0, 5) -> y -1, x 4: only (0, 4) is inside; zeros elsewhere.
  // Centered pixel offsets (-2, 5), a 1 x 3 window: y = -1 + 2 - 0.5 -> 0, x = 2.5 + 2.5 - 1.5 = 3: cols 3..5.
  c.push_back(makeCase("ExtractGlimpse_zero_fill_outside", "ExtractGlimpse", {image, f32Tensor({2, 2}, {0, 5, 0, 5})},
                       {f32Tensor({2, 2, 2, 1}, {0, 0, 4, 0, 0, 0, 104, 0})}, glimpse(2, 2, false, false, 2)));
  c.push_back(makeCase("ExtractGlimpse_centered_pixel_offsets", "ExtractGlimpse",
                       {image, f32Tensor({2, 2}, {-2, 5, -2, 5})},
                       {f32Tensor({2, 1, 3, 1}, {3, 4, 0, 103, 104, 0})}, glimpse(1, 3, true, false, 2)));
  const auto flat = f32Tensor({1, 3, 3, 2}, std::vector<float>(18, 7.f));
  for (int noise : {0, 1})
    c.push_back(makeCase(noise ? "ExtractGlimpse_gaussian_noise_constant_image" : "ExtractGlimpse_uniform_noise_constant_image",
                         "ExtractGlimpse", {flat, f32Tensor({1, 2}, {-3, -3})},
                         {f32Tensor({1, 2, 2, 2}, std::vector<float>(8, 7.f))}, glimpse(2, 2, false, false, noise)));
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("extract_glimpse", qnn::conformance::extractGlimpseCases);
