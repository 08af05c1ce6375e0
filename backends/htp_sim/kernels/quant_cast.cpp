// Quantize (FLOAT_32 -> fixed point), Dequantize (fixed point -> FLOAT_32) and
// Convert (fixed point -> fixed point) with the helpers of the fixed-point rule:
//   Quantize:   q = saturate(nearbyint(x / s) - offset), the quotient in float32
//               (half to even; outputs wider than 16 bits divide in double)
//   Dequantize: x = s * float(q + offset)
//   Convert:    q' = requantize(q + offset, s / s')
#include "htp_sim/kernels/copy_runs.h"
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

class QuantCast final : public Kernel {
 public:
  explicit QuantCast(std::string op) : op_(std::move(op)) {}

  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    if (op_ == "Quantize") {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &enc_));
      range_ = rangeOf(outputs[0]);
    } else if (op_ == "Dequantize") {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
      QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &enc_));
    } else {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(requant_.prepare(op, inputs[0], outputs[0]));
      // Inputs of at most 16 bits: the requantization of every stored value,
      // tabulated once (the KV-cache Converts of an LLM decode step run it per element).
      if (table_.build(inputs[0].dtype, outputs[0].dtype, [this](int64_t q) { return requant_(q); }))
        table_.useRequantization(requant_.inOffset(), requant_.multiplier(), requant_.outOffset(), requant_.range());
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = inputs[0].numElements();
    if (op_ == "Quantize") {
      const float* x = inputs[0].as<const float>();
      for (size_t i = 0; i < n; ++i) storeInt(outputs[0], i, fx::quantizeValue(x[i], enc_.scale, enc_.offset, range_));
    } else if (op_ == "Dequantize") {
      float* y = outputs[0].as<float>();
      for (size_t i = 0; i < n; ++i) y[i] = fx::dequantizeValue(loadInt(inputs[0], i), enc_.scale, enc_.offset);
    } else if (!table_.empty()) {
      table_.apply(inputs[0].data, n, outputs[0].data);
    } else {
      for (size_t i = 0; i < n; ++i) storeInt(outputs[0], i, requant_(loadInt(inputs[0], i)));
    }
    return Status::ok();
  }

 private:
  std::string op_;
  Encoding enc_;
  fx::QuantRange range_;
  Requantizer requant_;
  StoredValueTable table_;  // Convert of 8/16-bit values: requant_ of every stored value
};

}  // namespace

std::unique_ptr<Kernel> makeQuantCast(const std::string& op) { return std::make_unique<QuantCast>(op); }

}  // namespace qnn::htp
