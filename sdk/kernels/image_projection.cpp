// ImageProjectionTransform (float32, TensorFlow's ImageProjectiveTransformV2
// with CONSTANT fill 0): the 8 values [a0, a1, a2, b0, b1, b2, c0, c1] of
// in[1] (one row for every image, or [1, 8] / [8] for all) map output pixel
// (x = column, y = row) to input ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k),
// k = c0 x + c1 y + 1 (k = 0: the fill). NEAREST reads the rounded position
// (half away from zero), BILINEAR blends its four neighbours; positions outside
// the image read the fill value 0.
#include <cmath>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class ImageProjectionTransformKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const uint32_t mode = params.u32("interpolation_mode", 0);
    if (mode > 1) return sdk::invalidParam("ImageProjectionTransform: interpolation_mode must be 0 (BILINEAR) or 1 (NEAREST_NEIGHBOR)");
    nearest_ = mode == 1;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "ImageProjectionTransform";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 4));
    for (const TensorView* t : {&inputs[0], &inputs[1], &outputs[0]})
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "tensor", *t, {DType::kFloat32}));
    const auto& d = inputs[0].dims;
    b_ = d[0], h_ = d[1], w_ = d[2], c_ = d[3];
    const auto& m = inputs[1].dims;
    const bool shared = m == std::vector<uint32_t>{8} || m == std::vector<uint32_t>{1, 8};
    if (!shared && m != std::vector<uint32_t>{b_, 8})
      return sdk::invalidTensor(std::string(op) + ": in[1] must be [8], [1, 8] or [batch, 8], got " + dimsToString(m));
    perImage_ = !shared;
    return checkOutputDims(op, outputs[0], d);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* in = inputs[0].as<const float>();
    const float* mats = inputs[1].as<const float>();
    float* out = outputs[0].as<float>();
    parallelFor(size_t(b_) * h_, 1, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / h_;
        const float y = float(r % h_);
        const float* t = mats + (perImage_ ? b * 8 : 0);
        const float* image = in + b * h_ * w_ * c_;
        for (uint32_t xi = 0; xi < w_; ++xi) {
          const float x = float(xi);
          float* px = out + (r * w_ + xi) * c_;
          const float k = t[6] * x + t[7] * y + 1.f;
          if (k == 0.f) {
            std::fill(px, px + c_, 0.f);
            continue;
          }
          const float sx = (t[0] * x + t[1] * y + t[2]) / k, sy = (t[3] * x + t[4] * y + t[5]) / k;
          if (nearest_) {
            read(image, std::round(sy), std::round(sx), 1.f, px, true);
            continue;
          }
          const float y0 = std::floor(sy), x0 = std::floor(sx), fy = sy - y0, fx = sx - x0;
          read(image, y0, x0, (1.f - fy) * (1.f - fx), px, true);
          read(image, y0, x0 + 1.f, (1.f - fy) * fx, px, false);
          read(image, y0 + 1.f, x0, fy * (1.f - fx), px, false);
          read(image, y0 + 1.f, x0 + 1.f, fy * fx, px, false);
        }
      }
    });
    return Status::ok();
  }

 private:
  // px (= or +=) weight * image(y, x), the fill 0 outside the image.
  void read(const float* image, float y, float x, float weight, float* px, bool first) const {
    const bool inside = y >= 0.f && y <= float(h_ - 1) && x >= 0.f && x <= float(w_ - 1);
    if (first) std::fill(px, px + c_, 0.f);
    if (!inside || weight == 0.f) return;
    const float* s = image + (size_t(y) * w_ + size_t(x)) * c_;
    for (uint32_t c = 0; c < c_; ++c) px[c] += weight * s[c];
  }

  bool nearest_ = false, perImage_ = false;
  uint32_t b_ = 0, h_ = 0, w_ = 0, c_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeImageProjectionTransform(const std::string& opType) {
  return opType == "ImageProjectionTransform" ? std::make_unique<ImageProjectionTransformKernel>() : nullptr;
}

}  // namespace qnn::ops
