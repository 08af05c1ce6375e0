// fp16-mode kernels whose float tensors meet integer ones (the all-float
// Fp16Kernel base does not apply): Argmax / Argmin, float in (rounded to half in
// an fp16 graph) -> INT_32 / UINT_32 index along `axis` (keep_dims keeps it as
// 1); the first extreme wins. (Cast with float sides is the integer table's
// Cast kernel, whose rule the fixed-point conformance cases pin down.)
#include "fp16.h"

namespace qnn::htp {
namespace {

constexpr std::initializer_list<DType> kIndexTypes = {DType::kInt32, DType::kUInt32};

class Fp16ArgMinMax final : public Kernel {
 public:
  explicit Fp16ArgMinMax(std::string op) : op_(std::move(op)), isMax_(op_ == "Argmax") {}

  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam(op_ + ": axis is mandatory");
    axis_ = params.u32("axis", 0);
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }
  void computeFloatsInFp32() override { round_ = false; }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], kFloatTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], kIndexTypes));
    const auto& d = in[0].dims;
    if (axis_ >= d.size()) return sdk::invalidParam(op_ + ": axis " + std::to_string(axis_) + " out of range");
    std::vector<uint32_t> want;
    outer_ = inner_ = 1;
    for (size_t k = 0; k < d.size(); ++k) {
      if (k != axis_) want.push_back(d[k]);
      else if (keepDims_) want.push_back(1);
      if (k < axis_) outer_ *= d[k];
      if (k > axis_) inner_ *= d[k];
    }
    if (want.empty()) want.push_back(1);
    len_ = d[axis_];
    return checkOutputDims(op, out[0], want);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    loadHalfValues(in[0], &values_, round_);
    int32_t* dst = out[0].as<int32_t>();   // INT_32 and UINT_32 hold the same small indices
    for (size_t o = 0; o < outer_; ++o)
      for (size_t j = 0; j < inner_; ++j) {
        size_t best = 0;
        for (size_t k = 1; k < len_; ++k) {
          const float v = values_[(o * len_ + k) * inner_ + j], b = values_[(o * len_ + best) * inner_ + j];
          if (isMax_ ? v > b : v < b) best = k;
        }
        dst[o * inner_ + j] = int32_t(best);
      }
    return Status::ok();
  }

 private:
  std::string op_;
  bool isMax_, keepDims_ = false, round_ = true;
  uint32_t axis_ = 0;
  size_t outer_ = 1, inner_ = 1, len_ = 1;
  std::vector<float> values_;
};

}  // namespace

std::unique_ptr<Kernel> makeFp16Typed(const std::string& op) {
  if (op == "Argmax" || op == "Argmin") return std::make_unique<Fp16ArgMinMax>(op);
  return nullptr;
}

}  // namespace qnn::htp
