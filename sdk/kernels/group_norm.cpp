// GroupNorm (float32): the channel (last) axis splits into `group` runs of
// C / group channels; each (batch, group) is normalized by the mean and variance
// over its channels and every non-batch position, then scaled by gamma[c] and
// shifted by beta[c] (optional: ones and zeros). dim 0 is the batch; a rank-1
// input is one batch of channels. Statistics accumulate in double.
#include <cmath>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class GroupNormKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("epsilon") || !params.has("group"))
      return sdk::invalidParam("GroupNorm: epsilon and group are mandatory");
    epsilon_ = params.f32("epsilon", 0.f);
    group_ = params.u32("group", 1);
    if (group_ == 0 || !(epsilon_ >= 0.f)) return sdk::invalidParam("GroupNorm: group must be > 0 and epsilon >= 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "GroupNorm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& d = inputs[0].dims;
    if (d.empty()) return sdk::invalidTensor("GroupNorm: in[0] must have rank > 0");
    channels_ = d.back();
    if (channels_ % group_ != 0)
      return sdk::invalidTensor("GroupNorm: channel " + std::to_string(channels_) + " is not divisible by group " +
                                std::to_string(group_));
    for (size_t i = 1; i < inputs.size(); ++i) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, i == 1 ? "in[1] (gamma)" : "in[2] (beta)", inputs[i], {DType::kFloat32}));
      if (inputs[i].dims != std::vector<uint32_t>{channels_})
        return sdk::invalidTensor(std::string("GroupNorm: ") + (i == 1 ? "gamma" : "beta") + " must be [" +
                                  std::to_string(channels_) + "], got " + dimsToString(inputs[i].dims));
    }
    batch_ = d.size() >= 2 ? d[0] : 1;
    positions_ = channels_ ? inputs[0].numElements() / (size_t(batch_) * channels_) : 0;
    return checkOutputDims(op, outputs[0], d);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* x = inputs[0].as<const float>();
    const float* gamma = inputs.size() > 1 ? inputs[1].as<const float>() : nullptr;
    const float* beta = inputs.size() > 2 ? inputs[2].as<const float>() : nullptr;
    float* y = outputs[0].as<float>();
    const uint32_t perGroup = channels_ / group_;
    parallelFor(size_t(batch_) * group_, 1, [&](size_t t0, size_t t1) {
      for (size_t t = t0; t < t1; ++t) {
        const size_t b = t / group_, c0 = (t % group_) * perGroup;
        const float* xb = x + b * positions_ * channels_;
        float* yb = y + b * positions_ * channels_;
        double sum = 0, sq = 0;
        for (size_t p = 0; p < positions_; ++p)
          for (uint32_t c = 0; c < perGroup; ++c) {
            const double v = xb[p * channels_ + c0 + c];
            sum += v, sq += v * v;
          }
        const double n = double(positions_) * perGroup;
        const double mean = n > 0 ? sum / n : 0.0;
        const double var = n > 0 ? std::max(0.0, sq / n - mean * mean) : 0.0;
        const float inv = float(1.0 / std::sqrt(var + epsilon_));
        for (size_t p = 0; p < positions_; ++p)
          for (uint32_t c = 0; c < perGroup; ++c) {
            const size_t ch = c0 + c, i = p * channels_ + ch;
            const float v = float(xb[i] - mean) * inv;
            yb[i] = v * (gamma ? gamma[ch] : 1.f) + (beta ? beta[ch] : 0.f);
          }
      }
    });
    return Status::ok();
  }

 private:
  float epsilon_ = 0.f;
  uint32_t group_ = 1, channels_ = 0, batch_ = 0;
  size_t positions_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeGroupNorm(const std::string& opType) {
  return opType == "GroupNorm" ? std::make_unique<GroupNormKernel>() : nullptr;
}

}  // namespace qnn::ops
