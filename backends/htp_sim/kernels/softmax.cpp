// Quantized Softmax on the last axis, in integers after a prepare-time table:
//   d_i = max_j q_j - q_i                      (stored units, >= 0)
//   E[d] = round_half_away(exp(-beta * s_in * d) * 2^30)   (table, double)
//   S = sum_i E[d_i]                            (int64)
//   p_i = round_half_away(E[d_i] * 2^30 / S)    (probability in Q30)
//   out = requantize(p_i, 2^-30 / s_out)
// LogSoftmax shares the table and the sum: log p_i = -beta s_in d_i - ln(S / 2^30),
// evaluated in double from those integers and quantized (quantize helper).
// Softmax between unsigned 8/16-bit tensors takes a typed loop: E = 0 gives p = 0 (its output is
// computed once), and the rounded quotient, at most 2^30, comes from a double estimate corrected
// to the exact floor((2 E 2^30 + S) / (2 S)) in uint64 (2 E 2^30 + S < 2^63 for rows shorter than
// 2^31): the same p as the 128-bit division.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

constexpr int kProbabilityBits = 30;

class QuantSoftmax final : public Kernel {
 public:
  explicit QuantSoftmax(bool isLog) : isLog_(isLog), op_(isLog ? "LogSoftmax" : "Softmax") {}

  Status init(const OpParams& params) override {
    if (isLog_ && !params.has("axis")) return sdk::invalidParam("LogSoftmax: missing mandatory param axis");
    hasAxis_ = params.has("axis");
    axis_ = params.u32("axis", 0);
    beta_ = params.f32("beta", 1.f);
    if (!std::isfinite(beta_) || beta_ <= 0) return sdk::invalidParam(std::string(op_) + ": beta must be finite and > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_;
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    const size_t rank = inputs[0].rank();
    if (rank == 0) return sdk::invalidTensor("Softmax: in[0] must have rank >= 1");
    if (hasAxis_ && axis_ != rank - 1)
      return sdk::notSupported(std::string(op_) + ": only the last axis (N-1) is supported on HTP, got axis " +
                               std::to_string(axis_));
    rowLen_ = inputs[0].dims.back();
    Encoding ein, eout;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ein));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout));
    outOffset_ = eout.offset;
    outScale_ = eout.scale;
    inScale_ = ein.scale;
    range_ = rangeOf(outputs[0]);
    const fx::QuantRange inRange = rangeOf(inputs[0]);
    expTable_.resize(size_t(inRange.hi - inRange.lo + 1));
    for (size_t d = 0; d < expTable_.size(); ++d)
      expTable_[d] = std::llround(std::exp(-double(beta_) * double(ein.scale) * double(d)) *
                                  double(int64_t(1) << kProbabilityBits));
    QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, std::ldexp(1.0, -kProbabilityBits) / double(eout.scale), &mult_));
    const auto unsignedType = [](DType t) { return t == DType::kUFixed8 || t == DType::kUFixed16; };
    typed_ = !isLog_ && rowLen_ < (size_t(1) << 31) && unsignedType(inputs[0].dtype) && unsignedType(outputs[0].dtype);
    zeroOut_ = fx::requantize(0, mult_, outOffset_, range_);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (rowLen_ == 0) return Status::ok();
    if (typed_) {
      const bool in8 = inputs[0].dtype == DType::kUFixed8, out8 = outputs[0].dtype == DType::kUFixed8;
      if (in8 && out8) softmaxRows<uint8_t, uint8_t>(inputs[0], outputs[0]);
      else if (in8) softmaxRows<uint8_t, uint16_t>(inputs[0], outputs[0]);
      else if (out8) softmaxRows<uint16_t, uint8_t>(inputs[0], outputs[0]);
      else softmaxRows<uint16_t, uint16_t>(inputs[0], outputs[0]);
      return Status::ok();
    }
    const size_t rows = inputs[0].numElements() / rowLen_;
    std::vector<int64_t> q(rowLen_);
    for (size_t r = 0; r < rows; ++r) {
      int64_t maxQ = INT64_MIN;
      for (size_t i = 0; i < rowLen_; ++i) maxQ = std::max(maxQ, q[i] = loadInt(inputs[0], r * rowLen_ + i));
      int64_t sum = 0;
      for (size_t i = 0; i < rowLen_; ++i) sum += expTable_[size_t(maxQ - q[i])];
      const double logSum = std::log(double(sum) / double(int64_t(1) << kProbabilityBits));
      for (size_t i = 0; i < rowLen_; ++i) {
        const size_t d = size_t(maxQ - q[i]);
        int64_t y;
        if (isLog_) {
          y = fx::quantizeValue(-double(beta_) * double(inScale_) * double(d) - logSum, outScale_, outOffset_, range_);
        } else {
          const int64_t p = fx::roundedDivide(expTable_[d] << kProbabilityBits, sum);
          y = fx::requantize(p, mult_, outOffset_, range_);
        }
        storeInt(outputs[0], r * rowLen_ + i, y);
      }
    }
    return Status::ok();
  }

 private:
  template <typename TIn, typename TOut>
  void softmaxRows(const TensorView& in, const TensorView& out) const {
    const TIn* x = in.as<const TIn>();
    TOut* y = out.as<TOut>();
    const size_t rows = in.numElements() / rowLen_;
    const int64_t* table = expTable_.data();
    for (size_t r = 0; r < rows; ++r, x += rowLen_, y += rowLen_) {
      TIn maxQ = 0;
      for (size_t i = 0; i < rowLen_; ++i) maxQ = std::max(maxQ, x[i]);
      uint64_t sum = 0;
      for (size_t i = 0; i < rowLen_; ++i) sum += uint64_t(table[maxQ - x[i]]);
      const uint64_t den = 2 * sum;  // sum >= E[0] = 2^30 (the maximum's term)
      const double inverse = 1.0 / double(den);
      for (size_t i = 0; i < rowLen_; ++i) {
        const uint64_t e = uint64_t(table[maxQ - x[i]]);
        if (e == 0) {
          y[i] = TOut(zeroOut_);
          continue;
        }
        const uint64_t num = (e << (kProbabilityBits + 1)) + sum;
        uint64_t p = uint64_t(double(num) * inverse);
        while (p * den > num) --p;
        while ((p + 1) * den <= num) ++p;
        y[i] = TOut(fx::requantize(int64_t(p), mult_, outOffset_, range_));
      }
    }
  }

  bool isLog_;
  const char* op_;
  bool hasAxis_ = false;
  uint32_t axis_ = 0;
  float beta_ = 1.f;
  size_t rowLen_ = 0;
  std::vector<int64_t> expTable_;
  fx::FixedPointMultiplier mult_;
  int32_t outOffset_ = 0;
  float outScale_ = 1.f, inScale_ = 1.f;
  fx::QuantRange range_;
  bool typed_ = false;  // unsigned 8/16-bit Softmax: softmaxRows
  int64_t zeroOut_ = 0;  // the output of p = 0
};

}  // namespace

std::unique_ptr<Kernel> makeQuantSoftmax(const std::string& op) {
  return std::make_unique<QuantSoftmax>(op == "LogSoftmax");
}

}  // namespace qnn::htp
