// fp16-mode kernels whose float tensors meet integer or bool ones (the
// all-float Fp16Kernel base does not apply):
//  * Argmax / Argmin: float in (rounded to half in an fp16 graph) -> INT_32 /
//    UINT_32 index along `axis` (keep_dims keeps it as 1); the first extreme wins.
//  * Cast between float (FLOAT_32 / FLOAT_16) and INT_32 / UINT_32 / UINT_8 /
//    BOOL_8: float -> integer truncates toward zero and saturates (NaN -> 0), any
//    -> bool is != 0, integer -> float is exact then rounded to half, as the CPU
//    backend's Cast.
#include <cmath>
#include <limits>

#include "fp16.h"

namespace qnn::htp {
namespace {

constexpr std::initializer_list<DType> kIndexTypes = {DType::kInt32, DType::kUInt32};
constexpr std::initializer_list<DType> kCastSides = {DType::kFloat32, DType::kFloat16, DType::kInt32,
                                                     DType::kUInt32, DType::kUInt8, DType::kBool8};

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

class Fp16Cast final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }
  void computeFloatsInFp32() override { round_ = false; }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Cast", in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType("Cast", "in[0]", in[0], kCastSides));
    QNN_SDK_RETURN_IF_ERROR(checkDType("Cast", "out[0]", out[0], kCastSides));
    if (!isFloatType(in[0].dtype) && !isFloatType(out[0].dtype))
      return sdk::unsupportedDType("Cast: the fp16 kernel converts to or from a float type");
    values_.resize(in[0].numElements());
    return checkOutputDims("Cast", out[0], in[0].dims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t n = values_.size();
    if (isFloatType(in[0].dtype)) {
      std::vector<float> f;
      loadHalfValues(in[0], &f, round_);
      for (size_t i = 0; i < n; ++i) values_[i] = f[i];
    } else {
      for (size_t i = 0; i < n; ++i) values_[i] = double(loadInt(in[0], i));
    }
    if (isFloatType(out[0].dtype)) {
      std::vector<float> f(n);
      for (size_t i = 0; i < n; ++i) f[i] = float(values_[i]);
      storeHalfValues(out[0], f.data(), n, round_);
      return Status::ok();
    }
    double lo = 0, hi = 1;
    if (out[0].dtype == DType::kInt32) lo = std::numeric_limits<int32_t>::lowest(), hi = std::numeric_limits<int32_t>::max();
    if (out[0].dtype == DType::kUInt32) hi = std::numeric_limits<uint32_t>::max();
    if (out[0].dtype == DType::kUInt8) hi = 255;
    for (size_t i = 0; i < n; ++i) {
      const double v = values_[i];
      int64_t r;
      if (out[0].dtype == DType::kBool8) r = v != 0;
      else if (std::isnan(v)) r = 0;
      else r = int64_t(std::min(std::max(std::trunc(v), lo), hi));
      storeInt(out[0], i, r);
    }
    return Status::ok();
  }

 private:
  bool round_ = true;
  std::vector<double> values_;
};

}  // namespace

std::unique_ptr<Kernel> makeFp16Typed(const std::string& op) {
  if (op == "Argmax" || op == "Argmin") return std::make_unique<Fp16ArgMinMax>(op);
  if (op == "Cast") return std::make_unique<Fp16Cast>();
  return nullptr;
}

}  // namespace qnn::htp
