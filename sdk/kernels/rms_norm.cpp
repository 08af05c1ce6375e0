// RmsNorm (API 2.32): out = x / sqrt(mean(x^2 over axes) + epsilon) * gamma + beta,
// float32. The axes must be the trailing dims (the normalized block is then one
// contiguous run per row); gamma and beta, both optional, hold one value per
// element of that block.
#include <cmath>
#include <string>


#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class RmsNormKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("axes")) return sdk::invalidParam("RmsNorm: axes is mandatory");
    axes_ = params.ints("axes", {});
    epsilon_ = params.f32("epsilon", 1e-6f);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "RmsNorm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 3, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    const size_t rank = in[0].rank();
    if (axes_.empty() || axes_.size() > rank)
      return sdk::invalidParam("RmsNorm: axes must hold 1.." + std::to_string(rank) + " values");
    std::vector<bool> normalized(rank, false);
    for (int64_t a : axes_) {
      if (a < 0 || size_t(a) >= rank || normalized[size_t(a)])
        return sdk::invalidParam("RmsNorm: axis " + std::to_string(a) + " is out of range for rank " +
                                 std::to_string(rank) + " or repeated");
      normalized[size_t(a)] = true;
    }
    for (size_t d = rank - axes_.size(); d < rank; ++d)
      if (!normalized[d])
        return sdk::notSupported("RmsNorm: only the trailing dims can be normalized by the CPU backend");
    inner_ = 1;
    for (size_t d = rank - axes_.size(); d < rank; ++d) inner_ *= in[0].dims[d];
    rows_ = inner_ == 0 ? 0 : in[0].numElements() / inner_;
    for (size_t k = 1; k < in.size(); ++k) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, k == 1 ? "in[1] (gamma)" : "in[2] (beta)", in[k], {DType::kFloat32}));
      if (in[k].numElements() != inner_)
        return sdk::invalidTensor(std::string(op) + ": " + (k == 1 ? "gamma" : "beta") + " " +
                                  dimsToString(in[k].dims) + " must hold " + std::to_string(inner_) +
                                  " values (the normalized dims)");
    }
    return checkOutputDims(op, out[0], in[0].dims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const float* x = in[0].as<const float>();
    const float* gamma = in.size() > 1 ? in[1].as<const float>() : nullptr;
    const float* beta = in.size() > 2 ? in[2].as<const float>() : nullptr;
    float* y = out[0].as<float>();
    const size_t n = inner_;
    parallelFor(rows_, std::max<size_t>(1, kElementwiseGrain / std::max<size_t>(n, 1)), [&](size_t b, size_t e) {
      for (size_t r = b; r < e; ++r) {
        const float* row = x + r * n;
        double squares = 0;
        for (size_t i = 0; i < n; ++i) squares += double(row[i]) * row[i];
        const float inv = float(1.0 / std::sqrt(squares / double(n) + double(epsilon_)));
        for (size_t i = 0; i < n; ++i) {
          float v = row[i] * inv;
          if (gamma) v *= gamma[i];
          if (beta) v += beta[i];
          y[r * n + i] = v;
        }
      }
    });
    return Status::ok();
  }

 private:
  std::vector<int64_t> axes_;
  float epsilon_ = 1e-6f;
  size_t inner_ = 1, rows_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeRmsNorm(const std::string& opType) {
  return opType == "RmsNorm" ? std::make_unique<RmsNormKernel>() : nullptr;
}

}  // namespace qnn::ops
