// Inverse (op set 2.13): the inverse of each square matrix of in[0]'s innermost
// two dims ([..., M, M], as ONNX Runtime's com.microsoft.Inverse), by Gauss-Jordan
// elimination with partial pivoting in double, rounded to float. A singular
// matrix (a zero pivot) fails the execute naming the matrix.
#include <cmath>
#include <utility>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class InverseKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Inverse";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], {DType::kFloat32}));
    const auto& d = in[0].dims;
    if (d.size() < 2 || d[d.size() - 1] != d[d.size() - 2])
      return sdk::invalidTensor(std::string(op) + ": in[0] must be [..., M, M], got " + dimsToString(d));
    m_ = d.back();
    work_.assign(size_t(m_) * m_ * 2, 0.0);
    return checkOutputDims(op, out[0], d);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t m = m_, mm = m * m, w = 2 * m, count = m ? in[0].numElements() / mm : 0;
    const float* src = in[0].as<const float>();
    float* dst = out[0].as<float>();
    for (size_t b = 0; b < count; ++b) {
      // [A | I] -> [I | A^-1]
      for (size_t r = 0; r < m; ++r)
        for (size_t c = 0; c < w; ++c) work_[r * w + c] = c < m ? double(src[b * mm + r * m + c]) : double(c - m == r);
      for (size_t col = 0; col < m; ++col) {
        size_t piv = col;
        for (size_t r = col + 1; r < m; ++r)
          if (std::fabs(work_[r * w + col]) > std::fabs(work_[piv * w + col])) piv = r;
        const double p = work_[piv * w + col];
        if (p == 0.0 || !std::isfinite(p))
          return sdk::invalidTensor("Inverse: matrix " + std::to_string(b) + " of in[0] is singular");
        if (piv != col)
          for (size_t c = 0; c < w; ++c) std::swap(work_[piv * w + c], work_[col * w + c]);
        for (size_t c = 0; c < w; ++c) work_[col * w + c] /= p;
        for (size_t r = 0; r < m; ++r) {
          if (r == col) continue;
          const double f = work_[r * w + col];
          if (f != 0.0)
            for (size_t c = 0; c < w; ++c) work_[r * w + c] -= f * work_[col * w + c];
        }
      }
      for (size_t r = 0; r < m; ++r)
        for (size_t c = 0; c < m; ++c) dst[b * mm + r * m + c] = float(work_[r * w + m + c]);
    }
    return Status::ok();
  }

 private:
  uint32_t m_ = 0;
  std::vector<double> work_;
};

}  // namespace

std::unique_ptr<Kernel> makeInverse(const std::string& opType) {
  if (opType == "Inverse") return std::make_unique<InverseKernel>();
  return nullptr;
}

}  // namespace qnn::ops
