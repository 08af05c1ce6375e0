// Quantized Prelu and ElementWiseSelect (numpy broadcasting).
//  * Prelu: x + o_x >= 0 (real x >= 0): requantize(x + o_x, s_x / s_y);
//    else requantize((x + o_x) * (a + o_a), s_x * s_a / s_y).
//  * ElementWiseSelect: the condition is true where its real value is not 0
//    (stored + offset != 0); the chosen input is requantized to the output
//    encoding (s_i / s_y).
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

class QuantPrelu final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Prelu";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (slope)", inputs[1], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    std::vector<uint32_t> dims;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, inputs[0].dims, inputs[1].dims, &dims));
    if (dims != inputs[0].dims)
      return sdk::invalidTensor("Prelu: in[1] (slope) " + dimsToString(inputs[1].dims) +
                                " must broadcast onto in[0] " + dimsToString(inputs[0].dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], dims));
    slopeIndex_ = broadcastIndexMap(inputs[1].dims, dims);
    Encoding ea, eo;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ex_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[1] (slope)", inputs[1], &ea));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eo));
    slopeOffset_ = ea.offset, outOffset_ = eo.offset;
    range_ = rangeOf(outputs[0]);
    QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ex_.scale) / double(eo.scale), &positive_));
    return multiplierFor(op, double(ex_.scale) * double(ea.scale) / double(eo.scale), &negative_);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = outputs[0].numElements();
    for (size_t i = 0; i < n; ++i) {
      const int64_t v = loadInt(inputs[0], i) + ex_.offset;
      int64_t y;
      if (v >= 0) {
        y = fx::requantize(v, positive_, outOffset_, range_);
      } else {
        const int64_t a = loadInt(inputs[1], slopeIndex_.empty() ? i : slopeIndex_[i]) + slopeOffset_;
        y = fx::requantize(v * a, negative_, outOffset_, range_);
      }
      storeInt(outputs[0], i, y);
    }
    return Status::ok();
  }

 private:
  std::vector<uint32_t> slopeIndex_;
  Encoding ex_;
  int32_t slopeOffset_ = 0, outOffset_ = 0;
  fx::FixedPointMultiplier positive_, negative_;
  fx::QuantRange range_;
};

class QuantSelect final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "ElementWiseSelect";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 3, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (condition)", inputs[0],
                                       {DType::kUFixed8, DType::kSFixed8, DType::kInt32, DType::kBool8}));
    std::vector<uint32_t> ab, dims;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, inputs[1].dims, inputs[2].dims, &ab));
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, inputs[0].dims, ab, &dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], dims));
    for (int k = 0; k < 3; ++k) index_[k] = broadcastIndexMap(inputs[size_t(k)].dims, dims);
    Encoding ec;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0] (condition)", inputs[0], &ec));
    conditionOffset_ = ec.offset;
    for (int k = 1; k <= 2; ++k) {
      if (inputs[size_t(k)].dtype != outputs[0].dtype)
        return sdk::unsupportedDType("ElementWiseSelect: in[1], in[2] and out[0] must share a datatype");
      QNN_SDK_RETURN_IF_ERROR(requant_[k - 1].prepare(op, inputs[size_t(k)], outputs[0]));
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = outputs[0].numElements();
    auto at = [&](int k, size_t i) { return index_[k].empty() ? i : size_t(index_[k][i]); };
    for (size_t i = 0; i < n; ++i) {
      const bool take1 = loadInt(inputs[0], at(0, i)) + conditionOffset_ != 0;
      const int k = take1 ? 1 : 2;
      storeInt(outputs[0], i, requant_[k - 1](loadInt(inputs[size_t(k)], at(k, i))));
    }
    return Status::ok();
  }

 private:
  std::vector<uint32_t> index_[3];
  int32_t conditionOffset_ = 0;
  Requantizer requant_[2];
};

}  // namespace

std::unique_ptr<Kernel> makeQuantPrelu(const std::string&) { return std::make_unique<QuantPrelu>(); }
std::unique_ptr<Kernel> makeQuantSelect(const std::string&) { return std::make_unique<QuantSelect>(); }

}  // namespace qnn::htp
