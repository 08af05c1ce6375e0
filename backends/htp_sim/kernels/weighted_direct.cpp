// The weighted ops computed with direct loops (not hot in the target models):
//  * TransposeConv2d: out[oh, ow, g*CoutG + o] = sum over taps with
//    oh = ih*stride - padTop + kh of (x + o_x) * (w + o_w[o]), plus bias.
//  * Batchnorm: out[..., c] = (x + o_x) * (w[c] + o_w) + bias_acc[c].
// Both finish with the output stage of weighted_output.h.
#include <algorithm>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/weighted_output.h"

namespace qnn::htp {
namespace {

class QuantTransposeConv2d final : public ClampFusingKernel {
 public:
  void fuseClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
  }
  Status init(const OpParams& params) override {
    const char* op = "TransposeConv2d";
    std::vector<int64_t> stride, pad, outPad;
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "stride", {2}, true, {}, &stride));
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "pad_amount", {2, 2}, true, {}, &pad));
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "output_padding", {2}, false, {0, 0}, &outPad));
    if (stride[0] == 0 || stride[1] == 0) return sdk::invalidParam("TransposeConv2d: stride must be > 0");
    if (outPad[0] >= stride[0] || outPad[1] >= stride[1])
      return sdk::invalidParam("TransposeConv2d: output_padding must be < stride");
    sh_ = stride[0], sw_ = stride[1], padTop_ = pad[0], padBottom_ = pad[1], padLeft_ = pad[2], padRight_ = pad[3];
    outPadH_ = outPad[0], outPadW_ = outPad[1];
    group_ = params.u32("group", 1);
    if (group_ == 0) return sdk::invalidParam("TransposeConv2d: group must be > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "TransposeConv2d";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (input)", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (filter)", inputs[1], 4));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (input)", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (filter)", inputs[1], kWeightTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    if (inputs.size() == 3) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], kBiasTypes));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], cin_ = in[3];
    fh_ = f[0], fw_ = f[1], coutG_ = f[3];
    if (f[2] != cin_ || cin_ % group_ != 0)
      return sdk::invalidTensor("TransposeConv2d: in[1] (filter) dims " + dimsToString(f) +
                                " need dim 2 = channel_in, a multiple of group");
    cinG_ = cin_ / group_, cout_ = coutG_ * group_;
    outH_ = sh_ * (int64_t(inH_) - 1) + fh_ - padTop_ - padBottom_ + outPadH_;
    outW_ = sw_ * (int64_t(inW_) - 1) + fw_ - padLeft_ - padRight_ + outPadW_;
    if (inH_ == 0 || inW_ == 0 || outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor("TransposeConv2d: padding leaves no output for input " + dimsToString(in));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), cout_}));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0] (input)", inputs[0], &ex_));
    std::vector<Encoding> filterEnc;
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1] (filter)", inputs[1], 3, coutG_, &filterEnc));
    wEnc_.clear();  // output channel g*CoutG + o uses the filter's channel o
    for (uint32_t c = 0; c < cout_; ++c) wEnc_.push_back(filterEnc[c % coutG_]);
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op, ex_, wEnc_, inputs.size() == 3 ? &inputs[2] : nullptr, outputs[0]));
    staticWeights_ = inputs[1].data != nullptr;
    if (staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], filterEnc);
    filterEnc_ = filterEnc;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], filterEnc_);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    const std::vector<int32_t> x = loadAll(inputs[0]);
    std::vector<int64_t> acc(cout_), row(cout_);
    for (uint32_t b = 0; b < batch_; ++b)
      for (int64_t oh = 0; oh < outH_; ++oh)
        for (int64_t ow = 0; ow < outW_; ++ow) {
          std::fill(acc.begin(), acc.end(), 0);
          for (int64_t kh = 0; kh < fh_; ++kh) {
            const int64_t ihScaled = oh + padTop_ - kh;
            if (ihScaled < 0 || ihScaled % sh_ != 0 || ihScaled / sh_ >= inH_) continue;
            for (int64_t kw = 0; kw < fw_; ++kw) {
              const int64_t iwScaled = ow + padLeft_ - kw;
              if (iwScaled < 0 || iwScaled % sw_ != 0 || iwScaled / sw_ >= inW_) continue;
              const int32_t* px = x.data() + ((size_t(b) * inH_ + size_t(ihScaled / sh_)) * inW_ + size_t(iwScaled / sw_)) * cin_;
              const int32_t* taps = weights_.data() + (size_t(kh) * fw_ + kw) * cin_ * coutG_;
              for (uint32_t ci = 0; ci < cin_; ++ci) {
                const int64_t xv = px[ci] + ex_.offset;
                const int32_t* w = taps + size_t(ci) * coutG_;
                int64_t* accG = acc.data() + size_t(ci / cinG_) * coutG_;
                for (uint32_t o = 0; o < coutG_; ++o) accG[o] += xv * w[o];
              }
            }
          }
          const size_t base = ((size_t(b) * outH_ + oh) * outW_ + ow) * cout_;
          out_.finishRow(acc.data(), cout_, 0, nullptr, row.data());
          storeInts(outputs[0], base, row.data(), cout_);
        }
    return Status::ok();
  }

 private:
  int64_t sh_ = 1, sw_ = 1, padTop_ = 0, padBottom_ = 0, padLeft_ = 0, padRight_ = 0, outPadH_ = 0, outPadW_ = 0;
  uint32_t group_ = 1, batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, coutG_ = 0, cinG_ = 0, cout_ = 0;
  int64_t outH_ = 0, outW_ = 0;
  Encoding ex_;
  std::vector<Encoding> wEnc_, filterEnc_;
  std::vector<int32_t> weights_;
  WeightedOutput out_;
  bool staticWeights_ = false;
};

// ---------------------------------------------------------------------------
class QuantBatchnorm final : public ClampFusingKernel {
 public:
  void fuseClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
  }
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Batchnorm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 3, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (weight)", inputs[1], kWeightTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], kBiasTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    if (inputs[0].rank() == 0) return sdk::invalidTensor("Batchnorm: in[0] needs rank >= 1");
    channels_ = inputs[0].dims.back();
    if (inputs[1].numElements() != channels_)
      return sdk::invalidTensor("Batchnorm: in[1] (weight) must have channel = " + std::to_string(channels_) +
                                " elements");
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ex_));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1] (weight)", inputs[1], 0, channels_, &wEnc_));
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op, ex_, wEnc_, &inputs[2], outputs[0]));
    staticWeights_ = inputs[1].data != nullptr;
    if (staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], wEnc_);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], wEnc_);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    const size_t rows = channels_ ? inputs[0].numElements() / channels_ : 0;
    std::vector<int64_t> acc(channels_), row(channels_);
    for (size_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < channels_; ++c) acc[c] = (loadInt(inputs[0], r * channels_ + c) + ex_.offset) * weights_[c];
      out_.finishRow(acc.data(), channels_, 0, nullptr, row.data());
      storeInts(outputs[0], r * channels_, row.data(), channels_);
    }
    return Status::ok();
  }

 private:
  uint32_t channels_ = 0;
  Encoding ex_;
  std::vector<Encoding> wEnc_;
  std::vector<int32_t> weights_;
  WeightedOutput out_;
  bool staticWeights_ = false;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantTransposeConv2d(const std::string&) {
  return std::make_unique<QuantTransposeConv2d>();
}
std::unique_ptr<Kernel> makeQuantBatchnorm(const std::string&) { return std::make_unique<QuantBatchnorm>(); }

}  // namespace qnn::htp
