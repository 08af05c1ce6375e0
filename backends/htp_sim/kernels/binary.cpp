// Quantized element-wise binary ops with numpy broadcasting.
//  * Add / Subtract: both inputs are brought to a common fine scale
//    s_c = 2 * max(s_a, s_b) / 2^20:  A = applyMultiplier((a + o_a) * 2^20, s_a / (2 max))
//    (same for B), then out = requantize(A +- B, 2 max / (2^20 s_out)).
//  * Multiply: out = requantize((a + o_a) * (b + o_b), s_a * s_b / s_out).
//  * Maximum / Minimum: each input requantized to the output encoding, then max/min.
//  * Divide: Q = round_half_away((a + o_a) * 2^16 / (b + o_b)), out = requantize(Q, s_a / (s_b s_out 2^16));
//    a zero divisor gives the range end of the dividend's sign (real 0 for 0 / 0).
//  * SquaredDifference: D = A - B at the common scale 2 max(s_a, s_b) / 2^8 (as Add,
//    with 8 fraction bits so D^2 fits int64), out = requantize(D^2, (2 max / 2^8)^2 / s_out).
//  * FloorDiv: k = floor(real_a / real_b), exact on the rationals (q + o) * s with
//    the scales' 24-bit mantissas; out = quantize(k). A zero divisor is treated as Divide's.
// INT_32 tensors (Add, Subtract, Multiply, Divide) use plain integer arithmetic,
// saturated to int32 (Divide truncates; x / 0 = 0).
#include <algorithm>
#include <cmath>

#include "htp_kernel_registry.h"
#include "htp_kernel_util.h"

namespace qnn::htp {
namespace {

enum class BinaryOp { kAdd, kSubtract, kMultiply, kMaximum, kMinimum, kDivide, kSquaredDifference, kFloorDiv };

__extension__ typedef __int128 Wide;

// A float scale as mantissa * 2^exponent with an integer mantissa (< 2^24).
void splitScale(float scale, int64_t* mantissa, int* exponent) {
  const double f = std::frexp(double(scale), exponent);
  *mantissa = int64_t(std::ldexp(f, 24));
  *exponent -= 24;
}

// floor(num / den) for den != 0.
Wide floorDivide(Wide num, Wide den) {
  if (den < 0) num = -num, den = -den;
  const Wide q = num / den;
  return (num % den != 0 && num < 0) ? q - 1 : q;
}

constexpr int kCommonScaleBits = 20;
constexpr int kSquaredScaleBits = 8;
constexpr int kQuotientBits = 16;

class BinaryKernel final : public Kernel {
 public:
  BinaryKernel(std::string op, BinaryOp kind) : op_(std::move(op)), kind_(kind) {}

  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 1));
    integer_ = inputs[0].dtype == DType::kInt32;
    const bool intAllowed = kind_ == BinaryOp::kAdd || kind_ == BinaryOp::kSubtract ||
                            kind_ == BinaryOp::kMultiply || kind_ == BinaryOp::kDivide;
    if (integer_ && intAllowed) {
      for (const TensorView* t : {&inputs[1], &outputs[0]})
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, t == &inputs[1] ? "in[1]" : "out[0]", *t, {DType::kInt32}));
    } else {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1]", inputs[1], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    }
    std::vector<uint32_t> outDims;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, inputs[0].dims, inputs[1].dims, &outDims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], outDims));
    indexA_ = broadcastIndexMap(inputs[0].dims, outDims);
    indexB_ = broadcastIndexMap(inputs[1].dims, outDims);
    if (integer_) return Status::ok();

    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ea_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[1]", inputs[1], &eb_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout_));
    range_ = rangeOf(outputs[0]);
    switch (kind_) {
      case BinaryOp::kAdd:
      case BinaryOp::kSubtract: {
        const double twiceMax = 2.0 * std::max(double(ea_.scale), double(eb_.scale));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ea_.scale) / twiceMax, &ma_));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(eb_.scale) / twiceMax, &mb_));
        QNN_SDK_RETURN_IF_ERROR(
            multiplierFor(op, twiceMax / (double(1 << kCommonScaleBits) * double(eout_.scale)), &mout_));
        break;
      }
      case BinaryOp::kMultiply:
        QNN_SDK_RETURN_IF_ERROR(
            multiplierFor(op, double(ea_.scale) * double(eb_.scale) / double(eout_.scale), &mout_));
        break;
      case BinaryOp::kMaximum:
      case BinaryOp::kMinimum:
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ea_.scale) / double(eout_.scale), &ma_));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(eb_.scale) / double(eout_.scale), &mb_));
        break;
      case BinaryOp::kDivide:
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(
            op, double(ea_.scale) / (double(eb_.scale) * double(eout_.scale) * double(1 << kQuotientBits)), &mout_));
        zeroOut_ = fx::quantizeValue(0.0, eout_.scale, eout_.offset, range_);
        break;
      case BinaryOp::kFloorDiv: {
        int ea, eb;
        splitScale(ea_.scale, &mantA_, &ea);
        splitScale(eb_.scale, &mantB_, &eb);
        scaleShift_ = ea - eb;
        if (scaleShift_ > 60 || scaleShift_ < -60)
          return sdk::notSupported("ElementWiseFloorDiv: the input scales differ by more than 2^60");
        zeroOut_ = fx::quantizeValue(0.0, eout_.scale, eout_.offset, range_);
        break;
      }
      case BinaryOp::kSquaredDifference: {
        const double twiceMax = 2.0 * std::max(double(ea_.scale), double(eb_.scale));
        const double step = twiceMax / double(1 << kSquaredScaleBits);
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ea_.scale) / twiceMax, &ma_));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(eb_.scale) / twiceMax, &mb_));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, step * step / double(eout_.scale), &mout_));
        break;
      }
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = outputs[0].numElements();
    for (size_t i = 0; i < n; ++i) {
      const int64_t a = loadInt(inputs[0], indexA_.empty() ? i : indexA_[i]);
      const int64_t b = loadInt(inputs[1], indexB_.empty() ? i : indexB_[i]);
      storeInt(outputs[0], i, integer_ ? integerResult(a, b) : quantizedResult(a, b));
    }
    return Status::ok();
  }

 private:
  int64_t integerResult(int64_t a, int64_t b) const {
    if (kind_ == BinaryOp::kDivide) return b == 0 ? 0 : fx::saturate(a / b, fx::quantRange(DType::kInt32));
    const int64_t v = kind_ == BinaryOp::kAdd ? a + b : kind_ == BinaryOp::kSubtract ? a - b : a * b;
    return fx::saturate(v, fx::quantRange(DType::kInt32));
  }

  int64_t quantizedResult(int64_t a, int64_t b) const {
    switch (kind_) {
      case BinaryOp::kAdd:
      case BinaryOp::kSubtract: {
        const int64_t ca = fx::applyMultiplier((a + ea_.offset) * (int64_t(1) << kCommonScaleBits), ma_);
        const int64_t cb = fx::applyMultiplier((b + eb_.offset) * (int64_t(1) << kCommonScaleBits), mb_);
        return fx::requantize(kind_ == BinaryOp::kAdd ? ca + cb : ca - cb, mout_, eout_.offset, range_);
      }
      case BinaryOp::kMultiply:
        return fx::requantize((a + ea_.offset) * (b + eb_.offset), mout_, eout_.offset, range_);
      case BinaryOp::kMaximum:
      case BinaryOp::kMinimum: {
        const int64_t ra = fx::requantize(a + ea_.offset, ma_, eout_.offset, range_);
        const int64_t rb = fx::requantize(b + eb_.offset, mb_, eout_.offset, range_);
        return kind_ == BinaryOp::kMaximum ? std::max(ra, rb) : std::min(ra, rb);
      }
      case BinaryOp::kDivide: {
        int64_t num = a + ea_.offset, den = b + eb_.offset;
        if (den == 0) return num > 0 ? range_.hi : num < 0 ? range_.lo : zeroOut_;
        if (den < 0) num = -num, den = -den;
        return fx::requantize(fx::roundedDivide(num * (int64_t(1) << kQuotientBits), den), mout_, eout_.offset, range_);
      }
      case BinaryOp::kFloorDiv: {
        Wide num = Wide(a + ea_.offset) * mantA_, den = Wide(b + eb_.offset) * mantB_;
        if (den == 0) return num > 0 ? range_.hi : num < 0 ? range_.lo : zeroOut_;
        if (scaleShift_ >= 0) num *= Wide(1) << scaleShift_;
        else den *= Wide(1) << -scaleShift_;
        return fx::quantizeValue(double(floorDivide(num, den)), eout_.scale, eout_.offset, range_);
      }
      case BinaryOp::kSquaredDifference: {
        const int64_t ca = fx::applyMultiplier((a + ea_.offset) * (int64_t(1) << kSquaredScaleBits), ma_);
        const int64_t cb = fx::applyMultiplier((b + eb_.offset) * (int64_t(1) << kSquaredScaleBits), mb_);
        return fx::requantize((ca - cb) * (ca - cb), mout_, eout_.offset, range_);
      }
    }
    return 0;
  }

  std::string op_;
  BinaryOp kind_;
  bool integer_ = false;
  std::vector<uint32_t> indexA_, indexB_;
  Encoding ea_, eb_, eout_;
  fx::FixedPointMultiplier ma_, mb_, mout_;
  fx::QuantRange range_;
  int64_t zeroOut_ = 0;
  int64_t mantA_ = 0, mantB_ = 0;  // FloorDiv
  int scaleShift_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantBinary(const std::string& op) {
  if (op == "ElementWiseAdd") return std::make_unique<BinaryKernel>(op, BinaryOp::kAdd);
  if (op == "ElementWiseSubtract") return std::make_unique<BinaryKernel>(op, BinaryOp::kSubtract);
  if (op == "ElementWiseMultiply") return std::make_unique<BinaryKernel>(op, BinaryOp::kMultiply);
  if (op == "ElementWiseMaximum") return std::make_unique<BinaryKernel>(op, BinaryOp::kMaximum);
  if (op == "ElementWiseMinimum") return std::make_unique<BinaryKernel>(op, BinaryOp::kMinimum);
  if (op == "ElementWiseDivide") return std::make_unique<BinaryKernel>(op, BinaryOp::kDivide);
  if (op == "ElementWiseFloorDiv") return std::make_unique<BinaryKernel>(op, BinaryOp::kFloorDiv);
  if (op == "ElementWiseSquaredDifference") return std::make_unique<BinaryKernel>(op, BinaryOp::kSquaredDifference);
  return nullptr;
}

}  // namespace qnn::htp
