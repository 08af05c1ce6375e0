// GridSample on NHWC float32: out[b, y, x, :] samples in[b] at the point the
// grid [b, Ho, Wo, 2] gives in normalized coordinates (-1 left/top, +1
// right/bottom; grid[..., 0] is the width coordinate), as ONNX and PyTorch
// define it:
//   * the point is unnormalized: align_corners ? (g + 1) / 2 * (size - 1)
//     : ((g + 1) * size - 1) / 2;
//   * padding BORDER clamps it into the image, REFLECTION reflects it about the
//     image's borders (its pixel centres with align_corners, else its edges);
//   * NEAREST takes the pixel at the rounded point (halves to even), BILINEAR
//     blends the 4 around it; a pixel outside the image reads 0 (ZEROS), the
//     edge (BORDER) or its reflection (REFLECTION).
#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

enum class Padding { kZeros = 0, kBorder = 1, kReflection = 2 };

// Reflects x into [lo, hi] (repeatedly, as a mirror pair of walls).
double reflect(double x, double lo, double hi) {
  const double range = hi - lo;
  if (range <= 0) return lo;
  if (x < lo) {
    const double d = lo - x;
    const long n = long(d / range);
    const double r = d - double(n) * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const double d = x - hi;
    const long n = long(d / range);
    const double r = d - double(n) * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

class GridSampleKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    alignCorners_ = params.b("align_corners", false);
    const uint32_t mode = params.u32("mode", 0), padding = params.u32("padding_mode", 0);
    if (mode > 1) return sdk::invalidParam("GridSample: mode must be 0 (BILINEAR) or 1 (NEAREST)");
    if (padding > 2) return sdk::invalidParam("GridSample: padding_mode must be 0 (ZEROS), 1 (BORDER) or 2 (REFLECTION)");
    nearest_ = mode == 1;
    padding_ = Padding(padding);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "GridSample";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (grid)", in[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", in[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (grid)", in[1], 4));
    const auto &x = in[0].dims, &g = in[1].dims;
    if (g[0] != x[0] || g[3] != 2)
      return sdk::invalidTensor(std::string(op) + ": grid " + dimsToString(g) + " must be [" + std::to_string(x[0]) +
                                ", height, width, 2]");
    return checkOutputDims(op, out[0], {x[0], g[1], g[2], x[3]});
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const auto &xd = in[0].dims, &gd = in[1].dims;
    const size_t b = xd[0], h = xd[1], w = xd[2], c = xd[3], ho = gd[1], wo = gd[2];
    const float* image = in[0].as<const float>();
    const float* grid = in[1].as<const float>();
    float* y = out[0].as<float>();
    parallelFor(b * ho * wo, std::max<size_t>(1, 1024 / std::max<size_t>(c, 1)), [&](size_t p0, size_t p1) {
      for (size_t p = p0; p < p1; ++p) {
        const size_t n = p / (ho * wo);
        const float* img = image + n * h * w * c;
        float* dst = y + p * c;
        double px = unnormalize(grid[p * 2], w), py = unnormalize(grid[p * 2 + 1], h);
        if (padding_ == Padding::kBorder) {
          px = std::min(std::max(px, 0.0), double(w) - 1);
          py = std::min(std::max(py, 0.0), double(h) - 1);
        } else if (padding_ == Padding::kReflection) {
          px = reflect(px, lowBorder(), highBorder(w));
          py = reflect(py, lowBorder(), highBorder(h));
        }
        if (nearest_) {
          const float* src = pixel(img, std::nearbyint(py), std::nearbyint(px), h, w, c);
          for (size_t k = 0; k < c; ++k) dst[k] = src ? src[k] : 0.f;
          continue;
        }
        const double x0 = std::floor(px), y0 = std::floor(py);
        const double fx = px - x0, fy = py - y0;
        const float* taps[4] = {pixel(img, y0, x0, h, w, c), pixel(img, y0, x0 + 1, h, w, c),
                                pixel(img, y0 + 1, x0, h, w, c), pixel(img, y0 + 1, x0 + 1, h, w, c)};
        const double wt[4] = {(1 - fy) * (1 - fx), (1 - fy) * fx, fy * (1 - fx), fy * fx};
        for (size_t k = 0; k < c; ++k) {
          double v = 0;
          for (int t = 0; t < 4; ++t)
            if (taps[t]) v += wt[t] * taps[t][k];
          dst[k] = float(v);
        }
      }
    });
    return Status::ok();
  }

 private:
  double unnormalize(float g, size_t size) const {
    return alignCorners_ ? (double(g) + 1) / 2 * (double(size) - 1) : ((double(g) + 1) * double(size) - 1) / 2;
  }
  double lowBorder() const { return alignCorners_ ? 0.0 : -0.5; }
  double highBorder(size_t size) const { return alignCorners_ ? double(size) - 1 : double(size) - 0.5; }

  // The pixel (row r, column q) under the padding mode; nullptr reads as zeros.
  const float* pixel(const float* img, double r, double q, size_t h, size_t w, size_t c) const {
    if (padding_ == Padding::kZeros) {
      if (r < 0 || q < 0 || r >= double(h) || q >= double(w)) return nullptr;
    } else if (padding_ == Padding::kBorder) {
      r = std::min(std::max(r, 0.0), double(h) - 1);
      q = std::min(std::max(q, 0.0), double(w) - 1);
    } else {
      r = std::min(std::max(std::trunc(reflect(r, lowBorder(), highBorder(h))), 0.0), double(h) - 1);
      q = std::min(std::max(std::trunc(reflect(q, lowBorder(), highBorder(w))), 0.0), double(w) - 1);
    }
    return img + (size_t(r) * w + size_t(q)) * c;
  }

  bool alignCorners_ = false, nearest_ = false;
  Padding padding_ = Padding::kZeros;
};

}  // namespace

std::unique_ptr<Kernel> makeGridSample(const std::string& opType) {
  return opType == "GridSample" ? std::make_unique<GridSampleKernel>() : nullptr;
}

}  // namespace qnn::ops
