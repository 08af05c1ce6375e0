// Quantized comparisons (ElementWiseEqual, NotEqual, Greater, GreaterEqual,
// Less, LessEqual) and logic (ElementWiseAnd, ElementWiseNot), numpy
// broadcasting. Comparisons compare the real values exactly: (q + o) * s is
// exact in double for every stored integer and float scale. Logic treats a
// real value != 0 as true. The result is 1 / 0 as an INT_32 / BOOL_8 value, or
// quantize(1.0) / quantize(0.0) in a fixed-point output's encoding.
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

enum class Predicate { kEqual, kNotEqual, kGreater, kGreaterEqual, kLess, kLessEqual, kAnd, kNot };

class CompareLogicKernel final : public Kernel {
 public:
  CompareLogicKernel(std::string op, Predicate p) : op_(std::move(op)), p_(p) {}

  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    const size_t arity = p_ == Predicate::kNot ? 1 : 2;
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, arity, arity, outputs, 1));
    for (size_t k = 0; k < arity; ++k) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, k == 0 ? "in[0]" : "in[1]", inputs[k],
                                         {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16, DType::kSFixed16,
                                          DType::kInt32}));
      QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, k == 0 ? "in[0]" : "in[1]", inputs[k], &enc_[k]));
    }
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0],
                                       {DType::kUFixed8, DType::kSFixed8, DType::kInt32, DType::kBool8}));
    std::vector<uint32_t> dims = inputs[0].dims;
    if (arity == 2) QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, inputs[0].dims, inputs[1].dims, &dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], dims));
    for (size_t k = 0; k < arity; ++k) index_[k] = broadcastIndexMap(inputs[k].dims, dims);
    Encoding eo;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eo));
    const bool fixedOut = sdk::dtypeIsFixedPoint(outputs[0].dtype);
    trueValue_ = fixedOut ? fx::quantizeValue(1.0, eo.scale, eo.offset, rangeOf(outputs[0])) : 1;
    falseValue_ = fixedOut ? fx::quantizeValue(0.0, eo.scale, eo.offset, rangeOf(outputs[0])) : 0;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = outputs[0].numElements();
    const bool unary = p_ == Predicate::kNot;
    for (size_t i = 0; i < n; ++i) {
      const double a = real(inputs[0], 0, i);
      const double b = unary ? 0.0 : real(inputs[1], 1, i);
      bool r = false;
      switch (p_) {
        case Predicate::kEqual: r = a == b; break;
        case Predicate::kNotEqual: r = a != b; break;
        case Predicate::kGreater: r = a > b; break;
        case Predicate::kGreaterEqual: r = a >= b; break;
        case Predicate::kLess: r = a < b; break;
        case Predicate::kLessEqual: r = a <= b; break;
        case Predicate::kAnd: r = a != 0 && b != 0; break;
        case Predicate::kNot: r = a == 0; break;
      }
      storeInt(outputs[0], i, r ? trueValue_ : falseValue_);
    }
    return Status::ok();
  }

 private:
  double real(const TensorView& t, int k, size_t i) const {
    const int64_t q = loadInt(t, index_[k].empty() ? i : index_[k][i]);
    return double(q + enc_[k].offset) * double(enc_[k].scale);
  }

  std::string op_;
  Predicate p_;
  Encoding enc_[2];
  std::vector<uint32_t> index_[2];
  int64_t trueValue_ = 1, falseValue_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantCompareLogic(const std::string& op) {
  static const std::pair<const char*, Predicate> kOps[] = {
      {"ElementWiseEqual", Predicate::kEqual},     {"ElementWiseNotEqual", Predicate::kNotEqual},
      {"ElementWiseGreater", Predicate::kGreater}, {"ElementWiseGreaterEqual", Predicate::kGreaterEqual},
      {"ElementWiseLess", Predicate::kLess},       {"ElementWiseLessEqual", Predicate::kLessEqual},
      {"ElementWiseAnd", Predicate::kAnd},         {"ElementWiseNot", Predicate::kNot}};
  for (const auto& [name, p] : kOps)
    if (op == name) return std::make_unique<CompareLogicKernel>(op, p);
  return nullptr;
}

}  // namespace qnn::htp
