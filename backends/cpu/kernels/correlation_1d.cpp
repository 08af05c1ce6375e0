// Correlation1D: horizontal correlation of two NHWC maps (FlowNet-style cost volume along width).
#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

// Correlation1D (float32): out[n,h,w,d] = mean over c of
// a[n,h,w,c] * b[n,h,w + d - displacement + shift, c] for d in [0, 2*displacement],
// 0 where that column is outside the image.
class Correlation1DKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("displacement") || !params.has("shift"))
      return sdk::invalidParam("Correlation1D: displacement and shift are mandatory");
    displacement_ = params.u32("displacement", 0);
    shift_ = params.i32("shift", 0);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Correlation1D";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 4));
    for (const TensorView* t : {&inputs[0], &inputs[1], &outputs[0]})
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "tensor", *t, {DType::kFloat32}));
    if (inputs[1].dims != inputs[0].dims)
      return sdk::invalidTensor("Correlation1D: in[1] " + dimsToString(inputs[1].dims) + " must have in[0]'s shape " +
                                dimsToString(inputs[0].dims));
    const auto& d = inputs[0].dims;
    rows_ = size_t(d[0]) * d[1], w_ = d[2], c_ = d[3];
    return checkOutputDims(op, outputs[0], {d[0], d[1], d[2], 2 * displacement_ + 1});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* a = inputs[0].as<const float>();
    const float* b = inputs[1].as<const float>();
    float* out = outputs[0].as<float>();
    const uint32_t taps = 2 * displacement_ + 1;
    const float inv = c_ ? 1.f / float(c_) : 0.f;
    parallelFor(rows_, 1, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r)
        for (uint32_t x = 0; x < w_; ++x) {
          const float* pa = a + (r * w_ + x) * c_;
          float* o = out + (r * w_ + x) * taps;
          for (uint32_t t = 0; t < taps; ++t) {
            const int64_t xb = int64_t(x) + t - int64_t(displacement_) + shift_;
            if (xb < 0 || xb >= int64_t(w_)) {
              o[t] = 0.f;
              continue;
            }
            const float* pb = b + (r * w_ + size_t(xb)) * c_;
            float sum = 0.f;
            for (uint32_t c = 0; c < c_; ++c) sum += pa[c] * pb[c];
            o[t] = sum * inv;
          }
        }
    });
    return Status::ok();
  }

 private:
  uint32_t displacement_ = 0, w_ = 0, c_ = 0;
  int32_t shift_ = 0;
  size_t rows_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeCorrelation1D(const std::string& opType) {
  return opType == "Correlation1D" ? std::make_unique<Correlation1DKernel>() : nullptr;
}

}  // namespace qnn::cpu
