// fp16-mode data movement (Reshape, Squeeze, ExpandDims, Transpose, Tile,
// StridedSlice, Pad with a zero pad value, Concat, Split, Gather, and the
// rearranging/indexing ops of rearrange.cpp): the integer movement kernels move
// 32-bit elements bit for bit, so the float data goes through them as UINT_32
// views of float32 values already rounded to half (or unrounded in an fp32
// graph). Index inputs (Gather*, Scatter* in[1]) pass through untouched.
#include <cstring>

#include "htp_sim/kernels/fp16.h"
#include "htp_sim/kernels/htp_kernel_registry.h"

namespace qnn::htp {
namespace {

std::unique_ptr<Kernel> integerKernel(const std::string& op) {
  std::unique_ptr<Kernel> k = makeQuantMovement(op);
  return k ? std::move(k) : makeQuantRearrange(op);
}

class Fp16Movement final : public Kernel {
 public:
  explicit Fp16Movement(std::string op) : op_(std::move(op)), inner_(integerKernel(op_)) {}

  Status init(const OpParams& params) override {
    if (!inner_) return sdk::unsupportedOp(op_ + ": no fp16 kernel");
    if (op_ == "Pad" && params.has("pad_constant_value") && params.f32("pad_constant_value", 0.f) != 0.f)
      return sdk::notSupported("Pad: a non-zero pad_constant_value is not supported in fp16 mode yet");
    if ((op_ == "ScatterElements" || op_ == "ScatterNd") && params.u32("reduction", 0) != 0)
      return sdk::notSupported(op_ + ": reductions other than NONE are not supported in fp16 mode yet");
    return inner_->init(params);
  }
  void setNumericMode(const sdk::NumericMode& mode) override { roundToHalf_ = mode.fp16Floats; }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    for (size_t i = 0; i < inputs.size(); ++i)
      if (isFloatData(i))
        QNN_SDK_RETURN_IF_ERROR(checkDType(op_.c_str(), ("in[" + std::to_string(i) + "]").c_str(), inputs[i], kFloatTypes));
    for (size_t o = 0; o < outputs.size(); ++o)
      QNN_SDK_RETURN_IF_ERROR(checkDType(op_.c_str(), ("out[" + std::to_string(o) + "]").c_str(), outputs[o], kFloatTypes));
    inValues_.assign(inputs.size(), {});
    outValues_.assign(outputs.size(), {});
    for (size_t o = 0; o < outputs.size(); ++o) outValues_[o].resize(outputs[o].numElements());
    std::vector<TensorView> ins, outs;
    bindViews(inputs, outputs, &ins, &outs);
    return inner_->prepare(ins, outs);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    std::vector<TensorView> ins, outs;
    bindViews(inputs, outputs, &ins, &outs);
    QNN_SDK_RETURN_IF_ERROR(inner_->execute(ins, outs));
    for (size_t o = 0; o < outputs.size(); ++o)
      if (outputs[o].dtype == DType::kFloat16) storeHalfValues(outputs[o], outValues_[o].data(), outValues_[o].size());
    return Status::ok();
  }

 private:
  // UINT_32 views: float inputs loaded (rounded to half) into inValues_;
  // FLOAT_32 outputs written in place, FLOAT_16 outputs through outValues_.
  void bindViews(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs,
                 std::vector<TensorView>* ins, std::vector<TensorView>* outs) {
    *ins = inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!isFloatData(i)) continue;
      TensorView& v = (*ins)[i];
      if (inputs[i].data) {
        loadHalfValues(inputs[i], &inValues_[i], roundToHalf_);
        v.data = inValues_[i].data();
      }
      v.dtype = DType::kUInt32;
      v.quant = QuantInfo{};
    }
    *outs = outputs;
    for (size_t o = 0; o < outputs.size(); ++o) {
      TensorView& v = (*outs)[o];
      if (outputs[o].dtype == DType::kFloat16 || !outputs[o].data) v.data = outValues_[o].data();
      v.dtype = DType::kUInt32;
      v.quant = QuantInfo{};
    }
  }

  // Inputs holding float data; the others are indices.
  bool isFloatData(size_t i) const {
    if (op_ == "Gather" || op_ == "GatherElements" || op_ == "GatherNd") return i == 0;
    if (op_ == "ScatterElements" || op_ == "ScatterNd") return i != 1;
    return true;
  }

  std::string op_;
  std::unique_ptr<Kernel> inner_;
  std::vector<std::vector<float>> inValues_, outValues_;
  bool roundToHalf_ = true;
};

}  // namespace

std::unique_ptr<Kernel> makeFp16Movement(const std::string& op) { return std::make_unique<Fp16Movement>(op); }

}  // namespace qnn::htp
