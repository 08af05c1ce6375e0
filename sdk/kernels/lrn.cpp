// Lrn (local response normalization) across channels, float32, channels last:
//   out[.., c] = in[.., c] / (bias + alpha * S)^beta,
//   S = sum of in[.., c']^2 for c' in [c - radius, c + radius] within the channels.
// alpha is not divided by the window size (QNN's definition; converters fold
// ONNX's alpha/size in). WITHIN_CHANNEL (region 1) is not supported.
#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class LrnKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("radius")) return sdk::invalidParam("Lrn: radius is mandatory");
    const sdk::ParamValue* r = params.find("radius");
    const double radius = r->scalarAsDouble();
    if (radius < 0) return sdk::invalidParam("Lrn: radius must be >= 0");
    radius_ = size_t(radius);
    alpha_ = params.f32("alpha", 1.f);
    beta_ = params.f32("beta", 0.5f);
    bias_ = params.f32("bias", 1.f);
    const uint32_t region = params.u32("region", 0);
    if (region > 1) return sdk::invalidParam("Lrn: region must be 0 (ACROSS_CHANNEL) or 1 (WITHIN_CHANNEL)");
    if (region == 1) return sdk::notSupported("Lrn: region WITHIN_CHANNEL (1) is not supported by the CPU backend");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Lrn";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    if (in[0].rank() == 0) return sdk::invalidTensor("Lrn: in[0] must have rank > 0");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], in[0].dims));
    channels_ = in[0].dims.back();
    rows_ = channels_ == 0 ? 0 : in[0].numElements() / channels_;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const float* x = in[0].as<const float>();
    float* y = out[0].as<float>();
    const size_t c = channels_;
    parallelFor(rows_, std::max<size_t>(1, kElementwiseGrain / std::max<size_t>(1, c)), [&](size_t b, size_t e) {
      for (size_t r = b; r < e; ++r) {
        const float* row = x + r * c;
        for (size_t k = 0; k < c; ++k) {
          const size_t lo = k >= radius_ ? k - radius_ : 0, hi = std::min(c - 1, k + radius_);
          double s = 0;
          for (size_t j = lo; j <= hi; ++j) s += double(row[j]) * row[j];
          y[r * c + k] = float(row[k] / std::pow(double(bias_) + double(alpha_) * s, double(beta_)));
        }
      }
    });
    return Status::ok();
  }

 private:
  size_t radius_ = 0, channels_ = 0, rows_ = 0;
  float alpha_ = 1, beta_ = 0.5f, bias_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> makeLrn(const std::string& opType) {
  return opType == "Lrn" ? std::make_unique<LrnKernel>() : nullptr;
}

}  // namespace qnn::ops
