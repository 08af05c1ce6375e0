// Conv2d, DepthWiseConv2d and TransposeConv2d on NHWC float32.
//  * Conv2d: 1x1 stride-1 unpadded convolutions are a GEMM straight over the
//    NHWC input; the rest go through im2col in tiles of output pixels + GEMM.
//    Filters (HWIO) are already a K x Cout matrix, packed once when static.
//  * DepthWiseConv2d: a direct loop, vectorized over channels.
//  * TransposeConv2d: a direct gather loop over output pixels, vectorized over
//    output channels (not a hot op in the target models).
#include <algorithm>
#include <cstring>
#include <new>

#include "kernels/gemm.h"
#include "kernels/kernel_factories.h"
#include "kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

using Window = sdk::ConvWindow;
Status readWindow(const OpParams& params, const char* op, bool hasDilation, Window* w) {
  return sdk::readConvWindow(params, op, hasDilation, w);
}
using sdk::convOutSize;

// Input, filter, optional bias, one output: the checks common to all three ops.
Status checkConvTensors(const char* op, const std::vector<TensorView>& inputs,
                        const std::vector<TensorView>& outputs) {
  QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (input)", inputs[0], 4));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (filter)", inputs[1], 4));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (input)", inputs[0], {DType::kFloat32}));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (filter)", inputs[1], {DType::kFloat32}));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
  if (inputs.size() == 3) {
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (bias)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], {DType::kFloat32}));
  }
  return Status::ok();
}

Status checkBias(const char* op, const std::vector<TensorView>& inputs, uint32_t cout) {
  if (inputs.size() == 3 && inputs[2].dims[0] != cout)
    return sdk::invalidTensor(std::string(op) + ": in[2] (bias) has " + std::to_string(inputs[2].dims[0]) +
                              " elements, expected channel_out = " + std::to_string(cout));
  return Status::ok();
}

const float* biasOf(const std::vector<TensorView>& inputs) {
  return inputs.size() == 3 ? inputs[2].as<const float>() : nullptr;
}

// ---------------------------------------------------------------------------
class Conv2dKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    QNN_SDK_RETURN_IF_ERROR(readWindow(params, "Conv2d", true, &win_));
    group_ = params.u32("group", 1);
    if (group_ == 0) return sdk::invalidParam("Conv2d: group must be > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors("Conv2d", inputs, outputs));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], cin_ = in[3];
    fh_ = f[0], fw_ = f[1], cout_ = f[3];
    if (cin_ % group_ != 0 || cout_ % group_ != 0)
      return sdk::invalidTensor("Conv2d: channel_in " + std::to_string(cin_) + " and channel_out " +
                                std::to_string(cout_) + " must be multiples of group " + std::to_string(group_));
    cinG_ = cin_ / group_, coutG_ = cout_ / group_;
    if (f[2] != cinG_)
      return sdk::invalidTensor("Conv2d: in[1] (filter) dims " + dimsToString(f) + " need dim 2 = channel_in/group = " +
                                std::to_string(cinG_));
    QNN_SDK_RETURN_IF_ERROR(checkBias("Conv2d", inputs, cout_));
    outH_ = convOutSize(inH_, fh_, win_.dilH, win_.strideH, win_.padTop, win_.padBottom);
    outW_ = convOutSize(inW_, fw_, win_.dilW, win_.strideW, win_.padLeft, win_.padRight);
    if (outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor("Conv2d: the padded input " + dimsToString(in) + " is smaller than the dilated filter");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(
        "Conv2d", outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), cout_}));

    kDim_ = size_t(fh_) * fw_ * cinG_;
    direct1x1_ = fh_ == 1 && fw_ == 1 && win_.strideH == 1 && win_.strideW == 1 && win_.padTop == 0 &&
                 win_.padBottom == 0 && win_.padLeft == 0 && win_.padRight == 0;
    // im2col tiles of ~4 MiB bound the scratch for large feature maps.
    const size_t pixels = size_t(outH_) * outW_;
    tileRows_ = direct1x1_ ? 0 : std::min(pixels, std::max<size_t>(96, (size_t(1) << 20) / std::max<size_t>(kDim_, 1)));
    try {
      packedFilter_.assign(group_ * gemm::packedBSize(kDim_, coutG_), 0.f);
      cols_.assign(tileRows_ * kDim_, 0.f);
    } catch (const std::bad_alloc&) {
      return {sdk::StatusCode::kOutOfMemory, "Conv2d: out of memory for filter/im2col buffers"};
    }
    filterPacked_ = false;
    if (inputs[1].data) {
      packFilter(inputs[1].as<const float>());
      filterPacked_ = true;
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!filterPacked_) packFilter(inputs[1].as<const float>());
    const float* input = inputs[0].as<const float>();
    const float* bias = biasOf(inputs);
    float* output = outputs[0].as<float>();
    const size_t pixels = size_t(outH_) * outW_;
    const size_t packedSize = gemm::packedBSize(kDim_, coutG_);

    if (direct1x1_) {  // NHWC input rows are the GEMM's A rows
      for (uint32_t g = 0; g < group_; ++g)
        gemm::multiply(size_t(batch_) * pixels, coutG_, cinG_, input + g * cinG_, cin_, false,
                       packedFilter_.data() + g * packedSize, bias ? bias + g * coutG_ : nullptr,
                       output + g * coutG_, cout_);
      return Status::ok();
    }
    for (uint32_t b = 0; b < batch_; ++b) {
      const float* image = input + size_t(b) * inH_ * inW_ * cin_;
      float* outImage = output + size_t(b) * pixels * cout_;
      for (size_t p0 = 0; p0 < pixels; p0 += tileRows_) {
        const size_t rows = std::min(tileRows_, pixels - p0);
        for (uint32_t g = 0; g < group_; ++g) {
          im2col(image, g, p0, rows);
          gemm::multiply(rows, coutG_, kDim_, cols_.data(), kDim_, false, packedFilter_.data() + g * packedSize,
                         bias ? bias + g * coutG_ : nullptr, outImage + p0 * cout_ + g * coutG_, cout_);
        }
      }
    }
    return Status::ok();
  }

 private:
  void packFilter(const float* filter) {
    const size_t packedSize = gemm::packedBSize(kDim_, coutG_);
    for (uint32_t g = 0; g < group_; ++g)
      gemm::packB(filter + g * coutG_, cout_, false, kDim_, coutG_, packedFilter_.data() + g * packedSize);
  }

  // Row r of cols_ = the receptive field of output pixel p0 + r, ordered
  // (kh, kw, ci) like the HWIO filter's rows; padding reads as zero.
  void im2col(const float* image, uint32_t g, size_t p0, size_t rows) {
    parallelFor(rows, 64, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const int64_t oh = int64_t((p0 + r) / outW_), ow = int64_t((p0 + r) % outW_);
        float* dst = cols_.data() + r * kDim_;
        for (uint32_t kh = 0; kh < fh_; ++kh) {
          const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
          for (uint32_t kw = 0; kw < fw_; ++kw, dst += cinG_) {
            const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
            if (ih < 0 || ih >= inH_ || iw < 0 || iw >= inW_) {
              std::fill(dst, dst + cinG_, 0.f);
            } else {
              std::memcpy(dst, image + (size_t(ih) * inW_ + size_t(iw)) * cin_ + g * cinG_, cinG_ * sizeof(float));
            }
          }
        }
      }
    });
  }

  Window win_;
  uint32_t group_ = 1;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, cinG_ = 0, coutG_ = 0;
  int64_t outH_ = 0, outW_ = 0;
  size_t kDim_ = 0, tileRows_ = 0;
  bool direct1x1_ = false, filterPacked_ = false;
  std::vector<float> packedFilter_, cols_;
};

// ---------------------------------------------------------------------------
// Filters up to 8x8 take the register-blocked path of depthwisePixel.
constexpr size_t kMaxTaps = 64;

// out[c] = bias[c] + sum over taps of pixel[t][c] * weight[t][c], 16 channels
// at a time so the accumulators stay in registers across all taps. Cloned for
// AVX2/FMA: depthwise convs are memory-light and compute-bound per pixel.
__attribute__((target_clones("arch=haswell", "default"))) void depthwisePixel(
    const float* const* taps, const float* const* weights, size_t numTaps, const float* bias, float* out,
    size_t channels) {
  constexpr size_t kBlock = 16;
  size_t c = 0;
  for (; c + kBlock <= channels; c += kBlock) {
    float acc[kBlock];
    for (size_t j = 0; j < kBlock; ++j) acc[j] = bias ? bias[c + j] : 0.f;
    for (size_t t = 0; t < numTaps; ++t) {
      const float* px = taps[t] + c;
      const float* w = weights[t] + c;
      for (size_t j = 0; j < kBlock; ++j) acc[j] += px[j] * w[j];
    }
    for (size_t j = 0; j < kBlock; ++j) out[c + j] = acc[j];
  }
  for (; c < channels; ++c) {
    float acc = bias ? bias[c] : 0.f;
    for (size_t t = 0; t < numTaps; ++t) acc += taps[t][c] * weights[t][c];
    out[c] = acc;
  }
}

class DepthWiseConv2dKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override { return readWindow(params, "DepthWiseConv2d", true, &win_); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "DepthWiseConv2d";
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors(op, inputs, outputs));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], cin_ = in[3];
    fh_ = f[0], fw_ = f[1], cout_ = f[3];
    if (f[2] != 1 || cin_ == 0 || cout_ % cin_ != 0)
      return sdk::invalidTensor(std::string(op) + ": in[1] (filter) dims " + dimsToString(f) +
                                " must be [fh, fw, 1, channel_in * multiplier] with channel_in = " +
                                std::to_string(cin_));
    multiplier_ = cout_ / cin_;
    QNN_SDK_RETURN_IF_ERROR(checkBias(op, inputs, cout_));
    outH_ = convOutSize(inH_, fh_, win_.dilH, win_.strideH, win_.padTop, win_.padBottom);
    outW_ = convOutSize(inW_, fw_, win_.dilW, win_.strideW, win_.padLeft, win_.padRight);
    if (outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor(std::string(op) + ": the padded input " + dimsToString(in) +
                                " is smaller than the dilated filter");
    return checkOutputDims(op, outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), cout_});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* input = inputs[0].as<const float>();
    const float* filter = inputs[1].as<const float>();
    const float* bias = biasOf(inputs);
    float* output = outputs[0].as<float>();
    const bool gatherTaps = multiplier_ == 1 && size_t(fh_) * fw_ <= kMaxTaps;
    parallelFor(size_t(batch_) * outH_, rowGrain(size_t(outW_) * cout_ * fh_ * fw_), [&](size_t r0, size_t r1) {
      const float* taps[kMaxTaps];
      const float* weights[kMaxTaps];
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / outH_;
        const int64_t oh = int64_t(r % outH_);
        const float* image = input + b * inH_ * inW_ * cin_;
        for (int64_t ow = 0; ow < outW_; ++ow) {
          float* out = output + (r * outW_ + ow) * cout_;
          if (!gatherTaps) {
            if (bias) std::memcpy(out, bias, cout_ * sizeof(float));
            else std::fill(out, out + cout_, 0.f);
          }
          size_t numTaps = 0;
          for (uint32_t kh = 0; kh < fh_; ++kh) {
            const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
            if (ih < 0 || ih >= inH_) continue;
            for (uint32_t kw = 0; kw < fw_; ++kw) {
              const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
              if (iw < 0 || iw >= inW_) continue;
              const float* px = image + (size_t(ih) * inW_ + size_t(iw)) * cin_;
              const float* w = filter + (size_t(kh) * fw_ + kw) * cout_;
              if (gatherTaps) {
                taps[numTaps] = px, weights[numTaps] = w, ++numTaps;
              } else {  // output channel c reads input channel c / multiplier (TF order)
                for (uint32_t c = 0; c < cout_; ++c) out[c] += px[c / multiplier_] * w[c];
              }
            }
          }
          if (gatherTaps) depthwisePixel(taps, weights, numTaps, bias, out, cout_);
        }
      }
    });
    return Status::ok();
  }

 private:
  Window win_;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, multiplier_ = 1;
  int64_t outH_ = 0, outW_ = 0;
};

// ---------------------------------------------------------------------------
class TransposeConv2dKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "TransposeConv2d";
    QNN_SDK_RETURN_IF_ERROR(readWindow(params, op, false, &win_));
    group_ = params.u32("group", 1);
    if (group_ == 0) return sdk::invalidParam("TransposeConv2d: group must be > 0");
    std::vector<int64_t> outPad;
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "output_padding", {2}, false, {0, 0}, &outPad));
    if (outPad[0] >= win_.strideH || outPad[1] >= win_.strideW)
      return sdk::invalidParam("TransposeConv2d: output_padding must be < stride");
    outPadH_ = outPad[0], outPadW_ = outPad[1];
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "TransposeConv2d";
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors(op, inputs, outputs));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], cin_ = in[3];
    fh_ = f[0], fw_ = f[1], coutG_ = f[3];
    if (f[2] != cin_ || cin_ % group_ != 0)
      return sdk::invalidTensor(std::string(op) + ": in[1] (filter) dims " + dimsToString(f) +
                                " need dim 2 = channel_in = " + std::to_string(cin_) +
                                ", a multiple of group " + std::to_string(group_));
    cinG_ = cin_ / group_, cout_ = coutG_ * group_;
    QNN_SDK_RETURN_IF_ERROR(checkBias(op, inputs, cout_));
    outH_ = win_.strideH * (int64_t(inH_) - 1) + fh_ - win_.padTop - win_.padBottom + outPadH_;
    outW_ = win_.strideW * (int64_t(inW_) - 1) + fw_ - win_.padLeft - win_.padRight + outPadW_;
    if (inH_ == 0 || inW_ == 0 || outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor(std::string(op) + ": padding leaves no output for input " + dimsToString(in));
    return checkOutputDims(op, outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), cout_});
  }

  // out[oh, ow, g*CoutG + o] = bias + sum over taps with oh = ih*s - padTop + kh
  // (same for w) of in[ih, iw, g*CinG + ci] * W[kh, kw, g*CinG + ci, o].
  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* input = inputs[0].as<const float>();
    const float* filter = inputs[1].as<const float>();
    const float* bias = biasOf(inputs);
    float* output = outputs[0].as<float>();
    parallelFor(size_t(batch_) * outH_, 1, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / outH_;
        const int64_t oh = int64_t(r % outH_);
        const float* image = input + b * inH_ * inW_ * cin_;
        for (int64_t ow = 0; ow < outW_; ++ow) {
          float* __restrict out = output + (r * outW_ + ow) * cout_;
          if (bias) std::memcpy(out, bias, cout_ * sizeof(float));
          else std::fill(out, out + cout_, 0.f);
          for (uint32_t kh = 0; kh < fh_; ++kh) {
            const int64_t ihScaled = oh + win_.padTop - kh;
            if (ihScaled < 0 || ihScaled % win_.strideH != 0 || ihScaled / win_.strideH >= inH_) continue;
            const int64_t ih = ihScaled / win_.strideH;
            for (uint32_t kw = 0; kw < fw_; ++kw) {
              const int64_t iwScaled = ow + win_.padLeft - kw;
              if (iwScaled < 0 || iwScaled % win_.strideW != 0 || iwScaled / win_.strideW >= inW_) continue;
              const int64_t iw = iwScaled / win_.strideW;
              const float* px = image + (size_t(ih) * inW_ + size_t(iw)) * cin_;
              const float* taps = filter + (size_t(kh) * fw_ + kw) * cin_ * coutG_;
              for (uint32_t g = 0; g < group_; ++g) {
                float* __restrict outG = out + g * coutG_;
                for (uint32_t ci = g * cinG_; ci < (g + 1) * cinG_; ++ci) {
                  const float x = px[ci];
                  const float* __restrict w = taps + size_t(ci) * coutG_;
                  for (uint32_t o = 0; o < coutG_; ++o) outG[o] += x * w[o];
                }
              }
            }
          }
        }
      }
    });
    return Status::ok();
  }

 private:
  Window win_;
  uint32_t group_ = 1;
  int64_t outPadH_ = 0, outPadW_ = 0;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, cinG_ = 0, coutG_ = 0;
  int64_t outH_ = 0, outW_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeConv2d(const std::string& opType) {
  return opType == "Conv2d" ? std::make_unique<Conv2dKernel>() : nullptr;
}
std::unique_ptr<Kernel> makeDepthWiseConv2d(const std::string& opType) {
  return opType == "DepthWiseConv2d" ? std::make_unique<DepthWiseConv2dKernel>() : nullptr;
}
std::unique_ptr<Kernel> makeTransposeConv2d(const std::string& opType) {
  return opType == "TransposeConv2d" ? std::make_unique<TransposeConv2dKernel>() : nullptr;
}

}  // namespace qnn::cpu
