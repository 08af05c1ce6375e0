// Quantized Conv2d (grouped) and DepthWiseConv2d on NHWC fixed-point tensors.
//  * Conv2d: im2col of the unsigned-shifted input in tiles of output pixels,
//    padded with the input zero point, then one QuantGemm per group (VNNI when
//    possible); the zero-point and bias terms are folded into a per-channel
//    addend at prepare.
//  * DepthWiseConv2d: a direct loop with int64 sums.
#include <algorithm>
#include <new>

#include "htp_kernel_registry.h"
#include "quant_gemm.h"
#include "weighted_output.h"

namespace qnn::htp {
namespace {

using Window = sdk::ConvWindow;
using sdk::convOutSize;
Status readWindow(const OpParams& params, const char* op, bool hasDilation, Window* w) {
  return sdk::readConvWindow(params, op, hasDilation, w);
}

Status checkConvTensors(const char* op, const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (input)", inputs[0], 4));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (filter)", inputs[1], 4));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[0]", outputs[0], 4));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (input)", inputs[0], kActivationTypes));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (filter)", inputs[1], kWeightTypes));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
  if (inputs.size() == 3) {
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (bias)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], kBiasTypes));
  }
  return Status::ok();
}

// The input as unsigned values (stored value + shift), borrowed when no shift
// or widening is needed, else converted into `buffer`.
template <typename TA>
const TA* unsignedView(const TensorView& x, const UnsignedInput& u, std::vector<TA>& buffer) {
  if (sizeof(TA) == 1 && x.dtype == DType::kUFixed8) return x.as<const TA>();
  if (sizeof(TA) == 2 && x.dtype == DType::kUFixed16) return x.as<const TA>();
  buffer.resize(x.numElements());
  loadShifted(x, 0, 1, buffer.size(), u.shift, buffer.data());
  return buffer.data();
}

// ---------------------------------------------------------------------------
class QuantConv2d final : public Kernel {
 public:
  bool fuseOutputClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
    return true;
  }
  Status init(const OpParams& params) override {
    QNN_SDK_RETURN_IF_ERROR(readWindow(params, "Conv2d", true, &win_));
    group_ = params.u32("group", 1);
    if (group_ == 0) return sdk::invalidParam("Conv2d: group must be > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Conv2d";
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors(op, inputs, outputs));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], cin_ = in[3];
    fh_ = f[0], fw_ = f[1], cout_ = f[3];
    if (cin_ % group_ != 0 || cout_ % group_ != 0)
      return sdk::invalidTensor("Conv2d: channel_in " + std::to_string(cin_) + " and channel_out " +
                                std::to_string(cout_) + " must be multiples of group " + std::to_string(group_));
    cinG_ = cin_ / group_, coutG_ = cout_ / group_;
    if (f[2] != cinG_)
      return sdk::invalidTensor("Conv2d: in[1] (filter) dims " + dimsToString(f) +
                                " need dim 2 = channel_in/group = " + std::to_string(cinG_));
    outH_ = convOutSize(inH_, fh_, win_.dilH, win_.strideH, win_.padTop, win_.padBottom);
    outW_ = convOutSize(inW_, fw_, win_.dilW, win_.strideW, win_.padLeft, win_.padRight);
    if (outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor("Conv2d: the padded input " + dimsToString(in) + " is smaller than the dilated filter");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), cout_}));

    Encoding ex;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0] (input)", inputs[0], &ex));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1] (filter)", inputs[1], 3, cout_, &wEnc_));
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op, ex, wEnc_, inputs.size() == 3 ? &inputs[2] : nullptr, outputs[0]));
    input_ = unsignedInput(inputs[0], ex);
    const int64_t zMax = input_.narrow ? 255 : 65535;
    if (input_.zeroPoint < 0 || input_.zeroPoint > zMax)
      return sdk::unsupportedDType("Conv2d: in[0] offset " + std::to_string(ex.offset) +
                                   " puts the zero point outside the stored range of " +
                                   sdk::dtypeName(inputs[0].dtype));
    kDim_ = size_t(fh_) * fw_ * cinG_;
    const size_t pixels = size_t(outH_) * outW_;
    tileRows_ = std::min(pixels, std::max<size_t>(64, (size_t(1) << 18) / std::max<size_t>(kDim_, 1)));
    gemms_.assign(group_, QuantGemm{});
    staticWeights_ = inputs[1].data != nullptr;
    if (staticWeights_) packWeights(inputs[1]);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!staticWeights_) packWeights(inputs[1]);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    try {
      if (narrow_) run<uint8_t, int32_t>(inputs[0], outputs[0]);
      else run<uint16_t, int64_t>(inputs[0], outputs[0]);
    } catch (const std::bad_alloc&) {
      return {sdk::StatusCode::kOutOfMemory, "Conv2d: out of memory for im2col buffers"};
    }
    return Status::ok();
  }

 private:
  void packWeights(const TensorView& w) {
    const std::vector<int32_t> all = offsetWeightsChannelLast(w, wEnc_);
    std::vector<int32_t> b(kDim_ * coutG_);
    narrow_ = input_.narrow;
    for (uint32_t g = 0; g < group_; ++g) {
      for (size_t k = 0; k < kDim_; ++k)
        for (size_t j = 0; j < coutG_; ++j) b[k * coutG_ + j] = all[k * cout_ + g * coutG_ + j];
      narrow_ = gemms_[g].pack(b.data(), kDim_, coutG_, input_.narrow, true) && narrow_;
      out_.setZeroPointCorrection(input_.zeroPoint, gemms_[g].columnSums(), g * coutG_);
    }
    if (input_.narrow && !narrow_)  // some group cannot stay exact in int32: every group goes wide
      for (uint32_t g = 0; g < group_; ++g) {
        for (size_t k = 0; k < kDim_; ++k)
          for (size_t j = 0; j < coutG_; ++j) b[k * coutG_ + j] = all[k * cout_ + g * coutG_ + j];
        gemms_[g].pack(b.data(), kDim_, coutG_, false, false);
      }
  }

  template <typename TA, typename TAcc>
  void run(const TensorView& x, const TensorView& y) {
    std::vector<TA> shifted;
    const TA* src = unsignedView<TA>(x, input_, shifted);
    const TA pad = TA(input_.zeroPoint);
    const size_t pixels = size_t(outH_) * outW_, tilesPerImage = (pixels + tileRows_ - 1) / tileRows_;
    const double macs = double(batch_) * double(pixels) * double(kDim_) * double(cout_);
    // Tiles of output pixels are independent: split them across threads, each
    // with its own scratch.
    parallelChunks(size_t(batch_) * tilesPerImage, macs, [&](size_t t0, size_t t1) {
      std::vector<TA> cols(tileRows_ * kDim_);
      std::vector<TAcc> acc(tileRows_ * coutG_);
      std::vector<int64_t> row(coutG_);
      for (size_t t = t0; t < t1; ++t) {
        const size_t b = t / tilesPerImage, p0 = (t % tilesPerImage) * tileRows_;
        const TA* image = src + b * inH_ * inW_ * cin_;
        const size_t rows = std::min(tileRows_, pixels - p0);
        for (uint32_t g = 0; g < group_; ++g) {
          im2col(image, g, p0, rows, pad, cols.data());
          gemms_[g].multiply(cols.data(), rows, kDim_, acc.data());
          for (size_t r = 0; r < rows; ++r) {
            const size_t outBase = (b * pixels + p0 + r) * cout_ + size_t(g) * coutG_;
            out_.finishRow(acc.data() + r * coutG_, coutG_, size_t(g) * coutG_, nullptr, row.data());
            storeInts(y, outBase, row.data(), coutG_);
          }
        }
      }
    });
  }

  template <typename TA>
  void im2col(const TA* image, uint32_t g, size_t p0, size_t rows, TA pad, TA* cols) const {
    for (size_t r = 0; r < rows; ++r) {
      const int64_t oh = int64_t((p0 + r) / outW_), ow = int64_t((p0 + r) % outW_);
      TA* dst = cols + r * kDim_;
      for (int64_t kh = 0; kh < fh_; ++kh) {
        const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
        for (int64_t kw = 0; kw < fw_; ++kw, dst += cinG_) {
          const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
          if (ih < 0 || ih >= inH_ || iw < 0 || iw >= inW_) {
            std::fill(dst, dst + cinG_, pad);
          } else {
            const TA* s = image + (size_t(ih) * inW_ + size_t(iw)) * cin_ + size_t(g) * cinG_;
            std::copy(s, s + cinG_, dst);
          }
        }
      }
    }
  }

  Window win_;
  uint32_t group_ = 1;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, cinG_ = 0, coutG_ = 0;
  int64_t outH_ = 0, outW_ = 0;
  size_t kDim_ = 0, tileRows_ = 0;
  std::vector<Encoding> wEnc_;
  UnsignedInput input_;
  WeightedOutput out_;
  std::vector<QuantGemm> gemms_;
  bool staticWeights_ = false, narrow_ = true;
};

// ---------------------------------------------------------------------------
class QuantDepthWiseConv2d final : public Kernel {
 public:
  bool fuseOutputClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
    return true;
  }
  Status init(const OpParams& params) override { return readWindow(params, "DepthWiseConv2d", true, &win_); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "DepthWiseConv2d";
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors(op, inputs, outputs));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], cin_ = in[3];
    fh_ = f[0], fw_ = f[1], cout_ = f[3];
    if (f[2] != 1 || cout_ % cin_ != 0)
      return sdk::invalidTensor("DepthWiseConv2d: in[1] (filter) dims " + dimsToString(f) +
                                " must be [fh, fw, 1, channel_in * multiplier]");
    mult_ = cout_ / cin_;
    outH_ = convOutSize(inH_, fh_, win_.dilH, win_.strideH, win_.padTop, win_.padBottom);
    outW_ = convOutSize(inW_, fw_, win_.dilW, win_.strideW, win_.padLeft, win_.padRight);
    if (outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor("DepthWiseConv2d: the padded input " + dimsToString(in) +
                                " is smaller than the dilated filter");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), cout_}));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0] (input)", inputs[0], &ex_));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1] (filter)", inputs[1], 3, cout_, &wEnc_));
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op, ex_, wEnc_, inputs.size() == 3 ? &inputs[2] : nullptr, outputs[0]));
    staticWeights_ = inputs[1].data != nullptr;
    if (staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], wEnc_);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], wEnc_);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    const std::vector<int32_t> x = loadAll(inputs[0]);
    std::vector<int64_t> acc(cout_), row(cout_);
    for (uint32_t b = 0; b < batch_; ++b)
      for (int64_t oh = 0; oh < outH_; ++oh)
        for (int64_t ow = 0; ow < outW_; ++ow) {
          std::fill(acc.begin(), acc.end(), 0);
          for (int64_t kh = 0; kh < fh_; ++kh) {
            const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
            if (ih < 0 || ih >= inH_) continue;
            for (int64_t kw = 0; kw < fw_; ++kw) {
              const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
              if (iw < 0 || iw >= inW_) continue;
              const int32_t* px = x.data() + ((size_t(b) * inH_ + ih) * inW_ + iw) * cin_;
              const int32_t* w = weights_.data() + (size_t(kh) * fw_ + kw) * cout_;
              for (uint32_t o = 0; o < cout_; ++o) acc[o] += int64_t(px[o / mult_] + ex_.offset) * w[o];
            }
          }
          const size_t base = ((size_t(b) * outH_ + oh) * outW_ + ow) * cout_;
          out_.finishRow(acc.data(), cout_, 0, nullptr, row.data());
          storeInts(outputs[0], base, row.data(), cout_);
        }
    return Status::ok();
  }

 private:
  Window win_;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, mult_ = 1;
  int64_t outH_ = 0, outW_ = 0;
  Encoding ex_;
  std::vector<Encoding> wEnc_;
  std::vector<int32_t> weights_;
  WeightedOutput out_;
  bool staticWeights_ = false;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantConv2d(const std::string&) { return std::make_unique<QuantConv2d>(); }
std::unique_ptr<Kernel> makeQuantDepthWiseConv2d(const std::string&) {
  return std::make_unique<QuantDepthWiseConv2d>();
}

}  // namespace qnn::htp
