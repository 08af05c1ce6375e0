// Ops that have an integer kernel and an fp16 kernel: the datatype of in[0]
// (or out[0]) decides at prepare which one runs; init is applied to both
// because params arrive before the tensors. A fused clamp (finalize passes)
// goes to the integer kernel only: float graphs are not fused.
#include "htp_sim/kernels/dtype_dispatch.h"

#include "htp_sim/kernels/fp16.h"

namespace qnn::htp {
namespace {

class DtypeDispatch final : public Kernel {
 public:
  DtypeDispatch(std::unique_ptr<Kernel> quant, std::unique_ptr<Kernel> fp16)
      : quant_(std::move(quant)), fp16_(std::move(fp16)) {}

  Status init(const OpParams& params) override {
    quantInit_ = quant_->init(params);
    fp16Init_ = fp16_->init(params);
    // Both failing means the params are wrong for either kind of data: report now.
    return quantInit_.isOk() || fp16Init_.isOk() ? Status::ok() : quantInit_;
  }

  bool supportsEpilogue(const sdk::Epilogue& epilogue) const override { return quant_->supportsEpilogue(epilogue); }
  Status setEpilogue(const sdk::Epilogue& epilogue) override { return quant_->setEpilogue(epilogue); }
  void setNumericMode(const sdk::NumericMode& mode) override { fp16_->setNumericMode(mode); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const bool isFloat = (!inputs.empty() && isFloatType(inputs[0].dtype)) ||
                         (!outputs.empty() && isFloatType(outputs[0].dtype));
    chosen_ = isFloat ? fp16_.get() : quant_.get();
    QNN_SDK_RETURN_IF_ERROR(isFloat ? fp16Init_ : quantInit_);
    return chosen_->prepare(inputs, outputs);
  }

  bool outputIsInputCopy() const override { return chosen_ && chosen_->outputIsInputCopy(); }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!chosen_) return sdk::invalidArgument("kernel executed before prepare");
    return chosen_->execute(inputs, outputs);
  }

 private:
  std::unique_ptr<Kernel> quant_, fp16_;
  Status quantInit_ = Status::ok(), fp16Init_ = Status::ok();
  Kernel* chosen_ = nullptr;
};

}  // namespace

std::unique_ptr<Kernel> makeDtypeDispatch(std::unique_ptr<Kernel> quant, std::unique_ptr<Kernel> fp16) {
  if (!quant) return fp16;
  if (!fp16) return quant;
  return std::make_unique<DtypeDispatch>(std::move(quant), std::move(fp16));
}

}  // namespace qnn::htp
