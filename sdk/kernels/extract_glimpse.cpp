// ExtractGlimpse (float32, NHWC), TensorFlow's ExtractGlimpse (version 1 of its
// glimpse rule): the window of `size` [gh, gw] for batch b starts at
//   y = in[1][b][0], x = in[1][b][1]; normalized: y *= height, x *= width;
//   centered: y = y / 2 + height / 2, x = x / 2 + width / 2; then y -= gh / 2,
//   x -= gw / 2, truncated toward zero.
// Pixels of the window inside the image are copied; those outside are noise
// (only when the window leaves the image): Uniform (0) draws in [min, max] of
// the batch item, Gaussian (1) per channel with the channel's mean and standard
// deviation clamped to its [min, max], Zeroes (2) fills 0. The noise comes from
// a generator seeded the same way at every execute, so runs repeat.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class ExtractGlimpseKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "ExtractGlimpse";
    if (!params.has("size")) return sdk::invalidParam(std::string(op) + ": missing mandatory param size");
    const std::vector<int64_t> size = params.ints("size", {});
    if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
      return sdk::invalidParam(std::string(op) + ": size must be [glimpse_height > 0, glimpse_width > 0]");
    gh_ = uint32_t(size[0]), gw_ = uint32_t(size[1]);
    centered_ = params.b("centered", true), normalized_ = params.b("normalized", true);
    noise_ = params.i32("noise", 0);
    if (noise_ < 0 || noise_ > 2)
      return sdk::invalidParam(std::string(op) + ": noise must be 0 (uniform), 1 (gaussian) or 2 (zeroes)");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "ExtractGlimpse";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (offsets)", inputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& d = inputs[0].dims;
    batch_ = d[0], h_ = d[1], w_ = d[2], c_ = d[3];
    if (inputs[1].dims != std::vector<uint32_t>{batch_, 2})
      return sdk::invalidTensor(std::string(op) + ": in[1] (offsets) must be [" + std::to_string(batch_) + ", 2]");
    return checkOutputDims(op, outputs[0], {batch_, gh_, gw_, c_});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* in = inputs[0].as<const float>();
    const float* offsets = inputs[1].as<const float>();
    float* out = outputs[0].as<float>();
    std::mt19937 rng(20261126u);
    const size_t image = size_t(h_) * w_ * c_, glimpse = size_t(gh_) * gw_ * c_;
    for (uint32_t b = 0; b < batch_; ++b) {
      float y = offsets[b * 2], x = offsets[b * 2 + 1];
      if (normalized_) y *= float(h_), x *= float(w_);
      if (centered_) y = y / 2.f + float(h_) / 2.f, x = x / 2.f + float(w_) / 2.f;
      y -= float(gh_) / 2.f, x -= float(gw_) / 2.f;
      const int64_t oy = int64_t(y), ox = int64_t(x);  // truncation toward zero
      const float* src = in + b * image;
      float* dst = out + b * glimpse;
      const bool inside = oy >= 0 && ox >= 0 && oy + gh_ <= h_ && ox + gw_ <= w_;
      if (!inside) fillNoise(src, dst, rng);
      for (uint32_t i = 0; i < gh_; ++i) {
        const int64_t sy = oy + i;
        if (sy < 0 || sy >= int64_t(h_)) continue;
        for (uint32_t j = 0; j < gw_; ++j) {
          const int64_t sx = ox + j;
          if (sx < 0 || sx >= int64_t(w_)) continue;
          std::memcpy(dst + (size_t(i) * gw_ + j) * c_, src + (size_t(sy) * w_ + size_t(sx)) * c_, c_ * sizeof(float));
        }
      }
    }
    return Status::ok();
  }

 private:
  void fillNoise(const float* src, float* dst, std::mt19937& rng) const {
    const size_t pixels = size_t(h_) * w_, outPixels = size_t(gh_) * gw_;
    if (noise_ == 2) {
      std::fill(dst, dst + outPixels * c_, 0.f);
      return;
    }
    if (noise_ == 0) {
      const auto [lo, hi] = std::minmax_element(src, src + pixels * c_);
      std::uniform_real_distribution<float> u(0.f, 1.f);
      for (size_t k = 0; k < outPixels * c_; ++k) dst[k] = *lo + u(rng) * (*hi - *lo);
      return;
    }
    for (uint32_t ch = 0; ch < c_; ++ch) {
      double sum = 0, sq = 0;
      float lo = src[ch], hi = src[ch];
      for (size_t p = 0; p < pixels; ++p) {
        const float v = src[p * c_ + ch];
        sum += v, sq += double(v) * v, lo = std::min(lo, v), hi = std::max(hi, v);
      }
      const double mean = sum / double(pixels), sigma = std::sqrt(std::max(sq / double(pixels) - mean * mean, 0.0));
      std::normal_distribution<float> g(0.f, 1.f);
      for (size_t p = 0; p < outPixels; ++p)
        dst[p * c_ + ch] = std::clamp(float(mean + g(rng) * sigma), lo, hi);
    }
  }

  uint32_t gh_ = 0, gw_ = 0, batch_ = 0, h_ = 0, w_ = 0, c_ = 0;
  bool centered_ = true, normalized_ = true;
  int32_t noise_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeExtractGlimpse(const std::string& opType) {
  if (opType == "ExtractGlimpse") return std::make_unique<ExtractGlimpseKernel>();
  return nullptr;
}

}  // namespace qnn::ops
