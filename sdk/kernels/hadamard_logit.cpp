// Two small float32 ops of API 2.32:
//  * HadamardTransform: out = scale * (x along the last dim times the Sylvester
//    Hadamard matrix of that size, a power of two), by the fast Walsh-Hadamard
//    butterflies (n log n per row).
//  * Logit: out = log(z / (1 - z)), z = x, or x clamped to [eps, 1 - eps] when
//    the optional in[1] gives eps (one value), as torch.logit.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>


#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class HadamardTransformKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    scale_ = params.f32("scale", 1.f);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "HadamardTransform";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    if (in[0].rank() == 0) return sdk::invalidTensor("HadamardTransform: in[0] must have rank > 0");
    n_ = in[0].dims.back();
    if (n_ == 0 || (n_ & (n_ - 1)) != 0)
      return sdk::invalidTensor("HadamardTransform: the last dim (" + std::to_string(n_) + ") must be a power of two");
    rows_ = in[0].numElements() / n_;
    return checkOutputDims(op, out[0], in[0].dims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const float* x = in[0].as<const float>();
    float* y = out[0].as<float>();
    const size_t n = n_;
    parallelFor(rows_, std::max<size_t>(1, kElementwiseGrain / n), [&](size_t b, size_t e) {
      for (size_t r = b; r < e; ++r) {
        float* v = y + r * n;
        std::memcpy(v, x + r * n, n * sizeof(float));
        for (size_t h = 1; h < n; h *= 2)
          for (size_t i = 0; i < n; i += 2 * h)
            for (size_t j = i; j < i + h; ++j) {
              const float a = v[j], c = v[j + h];
              v[j] = a + c;
              v[j + h] = a - c;
            }
        for (size_t i = 0; i < n; ++i) v[i] *= scale_;
      }
    });
    return Status::ok();
  }

 private:
  float scale_ = 1.f;
  size_t n_ = 1, rows_ = 0;
};

class LogitKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Logit";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    if (in.size() > 1) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (epsilon)", in[1], {DType::kFloat32}));
      if (in[1].numElements() != 1)
        return sdk::invalidTensor("Logit: in[1] (epsilon) must hold one value, got " + dimsToString(in[1].dims));
    }
    return checkOutputDims(op, out[0], in[0].dims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const float* x = in[0].as<const float>();
    float* y = out[0].as<float>();
    const bool clamp = in.size() > 1;
    const float eps = clamp ? in[1].as<const float>()[0] : 0.f;
    parallelFor(in[0].numElements(), kElementwiseGrain, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) {
        const float z = clamp ? std::min(std::max(x[i], eps), 1.f - eps) : x[i];
        y[i] = std::log(z / (1.f - z));
      }
    });
    return Status::ok();
  }
};

}  // namespace

std::unique_ptr<Kernel> makeHadamardLogit(const std::string& opType) {
  if (opType == "HadamardTransform") return std::make_unique<HadamardTransformKernel>();
  if (opType == "Logit") return std::make_unique<LogitKernel>();
  return nullptr;
}

}  // namespace qnn::ops
