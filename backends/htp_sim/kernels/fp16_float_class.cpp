// fp16-mode IsInf / IsNan (ops after op set 2.7 that the vendor's HTP runs;
// sdk/opdefs/opdefs_post_2_7.json, htp_fp16): float in, BOOL_8 out. The other
// later float ops the HTP runs in fp16 mode (RmsNorm, HadamardTransform, Logit,
// MaskedSoftmax, RotaryEmbedding) are the shared algorithms of sdk/ops/ behind
// the real-valued wrapper (real_valued.cpp); ReduceSumSquare is the fp16 Reduce
// kernel's fifth kind (fp16_pool_norm.cpp).
#include <cmath>

#include "htp_sim/kernels/fp16.h"

namespace qnn::htp {
namespace {

// IsInf / IsNan: float in (rounded to half in an fp16 graph, so a FLOAT_32
// value beyond the half range reads as infinite, as on the device) -> BOOL_8.
class Fp16FloatClass final : public Kernel {
 public:
  explicit Fp16FloatClass(std::string op) : op_(std::move(op)) {}
  Status init(const OpParams& params) override {
    detectNegative_ = params.b("detect_negative", true);
    detectPositive_ = params.b("detect_positive", true);
    return Status::ok();
  }
  void setNumericMode(const sdk::NumericMode& mode) override { round_ = mode.fp16Floats; }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], kFloatTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], {DType::kBool8}));
    return checkOutputDims(op, out[0], in[0].dims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    loadHalfValues(in[0], &x_, round_);
    uint8_t* y = out[0].as<uint8_t>();
    const bool isNan = op_ == "IsNan";
    for (size_t i = 0; i < x_.size(); ++i) {
      const float v = x_[i];
      y[i] = isNan ? std::isnan(v)
                   : (std::isinf(v) && ((v > 0 && detectPositive_) || (v < 0 && detectNegative_)));
    }
    return Status::ok();
  }

 private:
  std::string op_;
  bool detectNegative_ = true, detectPositive_ = true, round_ = true;
  std::vector<float> x_;
};

}  // namespace

std::unique_ptr<Kernel> makeFp16FloatClass(const std::string& op) {
  if (op == "IsInf" || op == "IsNan") return std::make_unique<Fp16FloatClass>(op);
  return nullptr;
}

}  // namespace qnn::htp
