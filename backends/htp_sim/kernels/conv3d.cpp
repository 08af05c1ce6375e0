// Quantized Conv3d and TransposeConv3d (NDHWC), direct loops finished by the
// output stage of weighted_output.h (acc = sum (x + o_x)(w + o_w[n]) + bias_acc[n],
// requantize(acc, s_x s_w[n] / s_y)); the 2-D ops' rules over three spatial dims:
//  * Conv3d: filter [kd, kh, kw, channel_in / group, channel_out]; an output
//    voxel o takes the taps at o * stride - pad_before + k * dilation inside the
//    input (padding contributes real 0, i.e. nothing).
//  * TransposeConv3d: filter [kd, kh, kw, channel_in, channel_out / group];
//    input voxel i reaches output i * stride - pad_before + k; the output extent is
//    stride (in - 1) + kernel - pad_before - pad_after + output_padding.
#include <algorithm>
#include <array>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/weighted_output.h"

namespace qnn::htp {
namespace {

constexpr size_t kSpatial = 3;

class QuantConv3d final : public ClampFusingKernel {
 public:
  explicit QuantConv3d(bool transpose) : transpose_(transpose), op_(transpose ? "TransposeConv3d" : "Conv3d") {}

  void fuseClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
  }

  Status init(const OpParams& params) override {
    std::vector<int64_t> stride, pad, dil, outPad;
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "stride", kSpatial, 1, true, 1, 1, &stride));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "pad_amount", kSpatial, 2, true, 0, 0, &pad));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "dilation", kSpatial, 1, false, 1, 1, &dil));
    if (transpose_)
      QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "output_padding", kSpatial, 1, false, 0, 0, &outPad));
    group_ = params.u32("group", 1);
    if (group_ == 0) return sdk::invalidParam(std::string(op_) + ": group must be > 0");
    for (size_t d = 0; d < kSpatial; ++d) {
      stride_[d] = stride[d], dil_[d] = dil[d], before_[d] = pad[2 * d], after_[d] = pad[2 * d + 1];
      outPad_[d] = outPad.empty() ? 0 : outPad[d];
      if (outPad_[d] >= stride_[d]) return sdk::invalidParam(std::string(op_) + ": output_padding must be < stride");
    }
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 2, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[0] (input)", inputs[0], 5));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[1] (filter)", inputs[1], 5));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0] (input)", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[1] (filter)", inputs[1], kWeightTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "out[0]", outputs[0], kActivationTypes));
    if (inputs.size() == 3) QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[2] (bias)", inputs[2], kBiasTypes));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], cin_ = in[4];
    if (transpose_) {
      if (f[3] != cin_ || cin_ % group_ != 0)
        return sdk::invalidTensor(std::string(op_) + ": in[1] (filter) " + dimsToString(f) +
                                  " needs dim 3 = channel_in, a multiple of group");
      cinG_ = cin_ / group_, coutG_ = f[4], cout_ = coutG_ * group_;
    } else {
      if (cin_ % group_ != 0 || f[3] * group_ != cin_ || f[4] % group_ != 0)
        return sdk::invalidTensor(std::string(op_) + ": in[1] (filter) " + dimsToString(f) + " does not fit channel_in " +
                                  std::to_string(cin_) + " with group " + std::to_string(group_));
      cinG_ = cin_ / group_, cout_ = f[4], coutG_ = cout_ / group_;
    }
    std::vector<uint32_t> outDims{batch_};
    outVoxels_ = 1;
    for (size_t d = 0; d < kSpatial; ++d) {
      in_[d] = in[d + 1], k_[d] = f[d];
      const int64_t dilated = (k_[d] - 1) * dil_[d] + 1;
      out_d_[d] = transpose_ ? stride_[d] * (in_[d] - 1) + dilated - before_[d] - after_[d] + outPad_[d]
                             : (before_[d] + in_[d] + after_[d] < dilated
                                    ? 0
                                    : (before_[d] + in_[d] + after_[d] - dilated) / stride_[d] + 1);
      if (in_[d] <= 0 || out_d_[d] <= 0)
        return sdk::invalidTensor(std::string(op_) + ": input " + dimsToString(in) + " with filter " + dimsToString(f) +
                                  " and this padding leaves no output");
      outDims.push_back(uint32_t(out_d_[d]));
      outVoxels_ *= size_t(out_d_[d]);
    }
    outDims.push_back(cout_);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_, outputs[0], outDims));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op_, "in[0] (input)", inputs[0], &ex_));
    const uint32_t filterChannels = transpose_ ? coutG_ : cout_;
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op_, "in[1] (filter)", inputs[1], 4, filterChannels, &filterEnc_));
    std::vector<Encoding> perOutput;
    for (uint32_t c = 0; c < cout_; ++c) perOutput.push_back(filterEnc_[transpose_ ? c % coutG_ : c]);
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op_, ex_, perOutput, inputs.size() == 3 ? &inputs[2] : nullptr, outputs[0]));
    staticWeights_ = inputs[1].data != nullptr;
    if (staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], filterEnc_);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], filterEnc_);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    const std::vector<int32_t> x = loadAll(inputs[0]);
    std::vector<int64_t> acc(cout_), row(cout_);
    const size_t taps = size_t(k_[0] * k_[1] * k_[2]);
    for (uint32_t b = 0; b < batch_; ++b)
      for (size_t v = 0; v < outVoxels_; ++v) {
        std::array<int64_t, kSpatial> o{};
        size_t rest = v;
        for (size_t d = kSpatial; d-- > 0;) o[d] = int64_t(rest % size_t(out_d_[d])), rest /= size_t(out_d_[d]);
        std::fill(acc.begin(), acc.end(), 0);
        for (size_t t = 0; t < taps; ++t) {
          const std::array<int64_t, kSpatial> k{int64_t(t / size_t(k_[1] * k_[2])), int64_t(t / size_t(k_[2]) % size_t(k_[1])),
                                                int64_t(t % size_t(k_[2]))};
          size_t inVoxel = 0;
          if (!inputVoxel(o, k, &inVoxel)) continue;
          const int32_t* px = x.data() + (size_t(b) * inVoxelsCount() + inVoxel) * cin_;
          if (transpose_) {
            const int32_t* tap = weights_.data() + t * size_t(cin_) * coutG_;  // [ci][co in group]
            for (uint32_t ci = 0; ci < cin_; ++ci) {
              const int64_t xv = px[ci] + ex_.offset;
              const int32_t* w = tap + size_t(ci) * coutG_;
              int64_t* accG = acc.data() + size_t(ci / cinG_) * coutG_;
              for (uint32_t c = 0; c < coutG_; ++c) accG[c] += xv * w[c];
            }
          } else {
            const int32_t* tap = weights_.data() + t * size_t(cinG_) * cout_;  // [ci in group][co]
            for (uint32_t g = 0; g < group_; ++g)
              for (uint32_t ci = 0; ci < cinG_; ++ci) {
                const int64_t xv = px[g * cinG_ + ci] + ex_.offset;
                const int32_t* w = tap + size_t(ci) * cout_ + size_t(g) * coutG_;
                int64_t* accG = acc.data() + size_t(g) * coutG_;
                for (uint32_t c = 0; c < coutG_; ++c) accG[c] += xv * w[c];
              }
          }
        }
        out_.finishRow(acc.data(), cout_, 0, nullptr, row.data());
        storeInts(outputs[0], (size_t(b) * outVoxels_ + v) * cout_, row.data(), cout_);
      }
    return Status::ok();
  }

 private:
  size_t inVoxelsCount() const { return size_t(in_[0] * in_[1] * in_[2]); }

  // The input voxel tap k of output voxel o reads (conv), or the input voxel
  // whose tap k lands on o (transpose); false when there is none.
  bool inputVoxel(const std::array<int64_t, kSpatial>& o, const std::array<int64_t, kSpatial>& k, size_t* flat) const {
    size_t index = 0;
    for (size_t d = 0; d < kSpatial; ++d) {
      int64_t i;
      if (transpose_) {
        const int64_t scaled = o[d] + before_[d] - k[d] * dil_[d];
        if (scaled < 0 || scaled % stride_[d] != 0) return false;
        i = scaled / stride_[d];
      } else {
        i = o[d] * stride_[d] - before_[d] + k[d] * dil_[d];
      }
      if (i < 0 || i >= in_[d]) return false;
      index = index * size_t(in_[d]) + size_t(i);
    }
    *flat = index;
    return true;
  }

  bool transpose_;
  const char* op_;
  std::array<int64_t, kSpatial> stride_{}, dil_{}, before_{}, after_{}, outPad_{}, in_{}, k_{}, out_d_{};
  uint32_t group_ = 1, batch_ = 0, cin_ = 0, cinG_ = 0, cout_ = 0, coutG_ = 0;
  size_t outVoxels_ = 1;
  Encoding ex_;
  std::vector<Encoding> filterEnc_;
  std::vector<int32_t> weights_;
  WeightedOutput out_;
  bool staticWeights_ = false;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantConv3d(const std::string& op) {
  if (op == "Conv3d") return std::make_unique<QuantConv3d>(false);
  if (op == "TransposeConv3d") return std::make_unique<QuantConv3d>(true);
  return nullptr;
}

}  // namespace qnn::htp
