// fp16-mode kernels whose float tensors meet integer ones (the all-float
// Fp16Kernel base does not apply): Argmax / Argmin, float in (rounded to half in
// an fp16 graph) -> INT_32 / UINT_32 index along `axis` (keep_dims keeps it as
// 1); the first extreme wins. TopK (values and indices), comparisons, Select. (Cast with float sides is the integer table's
// Cast kernel, whose rule the fixed-point conformance cases pin down.)
#include "htp_sim/kernels/fp16.h"

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
  void setNumericMode(const sdk::NumericMode& mode) override { round_ = mode.fp16Floats; }

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

// Comparisons (ElementWiseEqual, NotEqual, Greater, GreaterEqual, Less,
// LessEqual; numpy broadcasting) and ElementWiseNot (x == 0) on float inputs:
// 1 / 0 into a BOOL_8, UINT_8 or INT_32 output.
class Fp16Compare final : public Kernel {
 public:
  explicit Fp16Compare(std::string op) : op_(std::move(op)) {}
  Status init(const OpParams&) override { return Status::ok(); }
  void setNumericMode(const sdk::NumericMode& mode) override { round_ = mode.fp16Floats; }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    const size_t arity = op_ == "ElementWiseNot" ? 1 : 2;
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, arity, arity, out, 1));
    for (size_t i = 0; i < arity; ++i) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "an input", in[i], kFloatTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], {DType::kBool8, DType::kUInt8, DType::kInt32}));
    std::vector<uint32_t> dims = in[0].dims;
    if (arity == 2) QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, in[0].dims, in[1].dims, &dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], dims));
    mapA_ = broadcastIndexMap(in[0].dims, dims);
    if (arity == 2) mapB_ = broadcastIndexMap(in[1].dims, dims);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    loadHalfValues(in[0], &a_, round_);
    if (in.size() == 2) loadHalfValues(in[1], &b_, round_);
    const size_t n = out[0].numElements();
    for (size_t i = 0; i < n; ++i) {
      const float a = a_[mapA_.empty() ? i : mapA_[i]];
      const float b = in.size() == 2 ? b_[mapB_.empty() ? i : mapB_[i]] : 0.f;
      bool r;
      if (op_ == "ElementWiseEqual") r = a == b;
      else if (op_ == "ElementWiseNotEqual") r = a != b;
      else if (op_ == "ElementWiseGreater") r = a > b;
      else if (op_ == "ElementWiseGreaterEqual") r = a >= b;
      else if (op_ == "ElementWiseLess") r = a < b;
      else if (op_ == "ElementWiseLessEqual") r = a <= b;
      else r = a == 0.f;  // ElementWiseNot
      if (out[0].dtype == DType::kInt32) out[0].as<int32_t>()[i] = r;
      else out[0].as<uint8_t>()[i] = r;
    }
    return Status::ok();
  }

 private:
  std::string op_;
  bool round_ = true;
  std::vector<uint32_t> mapA_, mapB_;
  std::vector<float> a_, b_;
};

// ElementWiseSelect: out = cond != 0 ? in[1] : in[2] (numpy broadcasting), the
// condition BOOL_8 / UINT_8 / float, the values float (rounded to half in an
// fp16 graph).
class Fp16Select final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }
  void setNumericMode(const sdk::NumericMode& mode) override { round_ = mode.fp16Floats; }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "ElementWiseSelect";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 3, 3, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (condition)", in[0],
                                       {DType::kBool8, DType::kUInt8, DType::kFloat32, DType::kFloat16}));
    for (size_t i = 1; i < 3; ++i) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "a value input", in[i], kFloatTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], kFloatTypes));
    std::vector<uint32_t> pair, dims;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, in[0].dims, in[1].dims, &pair));
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, pair, in[2].dims, &dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], dims));
    for (size_t i = 0; i < 3; ++i) maps_[i] = broadcastIndexMap(in[i].dims, dims);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const bool floatCond = isFloatType(in[0].dtype);
    if (floatCond) loadHalfValues(in[0], &cond_, false);
    loadHalfValues(in[1], &a_, round_);
    loadHalfValues(in[2], &b_, round_);
    const size_t n = out[0].numElements();
    y_.resize(n);
    auto at = [this](size_t k, size_t i) { return maps_[k].empty() ? i : size_t(maps_[k][i]); };
    for (size_t i = 0; i < n; ++i) {
      const bool c = floatCond ? cond_[at(0, i)] != 0.f : in[0].as<const uint8_t>()[at(0, i)] != 0;
      y_[i] = c ? a_[at(1, i)] : b_[at(2, i)];
    }
    storeHalfValues(out[0], y_.data(), n, round_);
    return Status::ok();
  }

 private:
  bool round_ = true;
  std::vector<uint32_t> maps_[3];
  std::vector<float> cond_, a_, b_, y_;
};

// TopK along the last axis on float values (rounded to half in an fp16 graph):
// the k largest (smallest with largest = false), best first, ties the larger
// index first as the integer TopK; their indices INT_32 / UINT_32 in out[1].
class Fp16TopK final : public Kernel {
 public:
  Status init(const OpParams& params) override { return topKParams(params, &k_, &largest_); }
  void setNumericMode(const sdk::NumericMode& mode) override { round_ = mode.fp16Floats; }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(topKShapes(in, out, k_, &rowLen_));
    QNN_SDK_RETURN_IF_ERROR(checkDType("TopK", "in[0]", in[0], kFloatTypes));
    return checkDType("TopK", "out[0]", out[0], kFloatTypes);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    loadHalfValues(in[0], &values_, round_);
    const size_t rows = values_.size() / rowLen_;
    std::vector<uint32_t> order;
    best_.resize(rows * k_);
    int32_t* indices = out[1].as<int32_t>();  // INT_32 and UINT_32 hold the same small indices
    for (size_t r = 0; r < rows; ++r) {
      const float* row = values_.data() + r * rowLen_;
      topKOrder(row, rowLen_, k_, largest_, &order);
      for (size_t i = 0; i < k_; ++i) {
        best_[r * k_ + i] = row[order[i]];
        indices[r * k_ + i] = int32_t(order[i]);
      }
    }
    storeHalfValues(out[0], best_.data(), best_.size(), round_);
    return Status::ok();
  }

 private:
  uint32_t k_ = 1;
  bool largest_ = true, round_ = true;
  size_t rowLen_ = 1;
  std::vector<float> values_, best_;
};

}  // namespace

std::unique_ptr<Kernel> makeFp16Typed(const std::string& op) {
  if (op == "Argmax" || op == "Argmin") return std::make_unique<Fp16ArgMinMax>(op);
  if (op == "TopK") return std::make_unique<Fp16TopK>();
  if (op == "ElementWiseSelect") return std::make_unique<Fp16Select>();
  if (op == "ElementWiseEqual" || op == "ElementWiseNotEqual" || op == "ElementWiseGreater" ||
      op == "ElementWiseGreaterEqual" || op == "ElementWiseLess" || op == "ElementWiseLessEqual" ||
      op == "ElementWiseNot")
    return std::make_unique<Fp16Compare>(op);
  return nullptr;
}

}  // namespace qnn::htp
