// PoolMax2d (float32 and 8/16/32-bit integers) and PoolAvg2d (float32) on NHWC: direct loops over output rows
// (parallel), vectorized over channels.
#include <algorithm>
#include <cfloat>
#include <limits>
#include <type_traits>
#include <cstring>

#include "kernels/kernel_factories.h"
#include "kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

class Pool2dKernel final : public Kernel {
 public:
  explicit Pool2dKernel(bool isMax) : isMax_(isMax), op_(isMax ? "PoolMax2d" : "PoolAvg2d") {}

  Status init(const OpParams& params) override {
    sdk::PoolWindow w;
    QNN_SDK_RETURN_IF_ERROR(sdk::readPoolWindow(params, op_, isMax_, &w));
    fh_ = w.fh, fw_ = w.fw, sh_ = w.sh, sw_ = w.sw;
    padTop_ = w.padTop, padBottom_ = w.padBottom, padLeft_ = w.padLeft, padRight_ = w.padRight;
    ceil_ = w.ceil, countPad_ = w.countPad;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[0]", inputs[0], 4));
    // Max compares, so it takes plain integers too; the average divides, float only.
    if (isMax_) QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], {DType::kFloat32, DType::kUInt8, DType::kInt8,
                                                                            DType::kUInt16, DType::kInt16, DType::kInt32}));
    else QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], {DType::kFloat32}));
    if (outputs[0].dtype != inputs[0].dtype)
      return sdk::unsupportedDType(std::string(op_) + ": out[0] datatype must equal in[0]'s");
    dtype_ = inputs[0].dtype;
    const auto& in = inputs[0].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], channels_ = in[3];
    outH_ = outSize(inH_, fh_, sh_, padTop_, padBottom_);
    outW_ = outSize(inW_, fw_, sw_, padLeft_, padRight_);
    if (outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor(std::string(op_) + ": the padded input " + dimsToString(in) +
                                " is smaller than filter_size");
    return checkOutputDims(op_, outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), channels_});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    switch (dtype_) {
      case DType::kUInt8: run(inputs[0].as<const uint8_t>(), outputs[0].as<uint8_t>()); break;
      case DType::kInt8: run(inputs[0].as<const int8_t>(), outputs[0].as<int8_t>()); break;
      case DType::kUInt16: run(inputs[0].as<const uint16_t>(), outputs[0].as<uint16_t>()); break;
      case DType::kInt16: run(inputs[0].as<const int16_t>(), outputs[0].as<int16_t>()); break;
      case DType::kInt32: run(inputs[0].as<const int32_t>(), outputs[0].as<int32_t>()); break;
      default: run(inputs[0].as<const float>(), outputs[0].as<float>()); break;
    }
    return Status::ok();
  }

 private:
  template <typename T>
  void run(const T* input, T* output) const {
    parallelFor(size_t(batch_) * outH_, rowGrain(size_t(outW_) * channels_ * fh_ * fw_), [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / outH_;
        const int64_t oh = int64_t(r % outH_);
        const T* image = input + b * inH_ * inW_ * channels_;
        // Window rows clipped to the input (valid) and to the padded input (counted).
        const int64_t hStart = oh * sh_ - padTop_, hEnd = hStart + fh_;
        const int64_t h0 = std::max<int64_t>(hStart, 0), h1 = std::min<int64_t>(hEnd, inH_);
        const int64_t padH = std::min<int64_t>(hEnd, inH_ + padBottom_) - hStart;
        for (int64_t ow = 0; ow < outW_; ++ow) {
          const int64_t wStart = ow * sw_ - padLeft_, wEnd = wStart + fw_;
          const int64_t w0 = std::max<int64_t>(wStart, 0), w1 = std::min<int64_t>(wEnd, inW_);
          const int64_t padW = std::min<int64_t>(wEnd, inW_ + padRight_) - wStart;
          T* __restrict out = output + (r * outW_ + ow) * channels_;
          const bool empty = h0 >= h1 || w0 >= w1;
          if (empty) {  // the window lies entirely in padding
            std::fill(out, out + channels_, T(0));
            continue;
          }
          if (isMax_) std::fill(out, out + channels_, std::is_floating_point_v<T> ? T(-FLT_MAX) : std::numeric_limits<T>::lowest());
          else std::fill(out, out + channels_, T(0));
          for (int64_t ih = h0; ih < h1; ++ih) {
            for (int64_t iw = w0; iw < w1; ++iw) {
              const T* __restrict px = image + (size_t(ih) * inW_ + size_t(iw)) * channels_;
              if (isMax_) {
                for (uint32_t c = 0; c < channels_; ++c) out[c] = std::max(out[c], px[c]);
              } else {
                for (uint32_t c = 0; c < channels_; ++c) out[c] += px[c];
              }
            }
          }
          if constexpr (std::is_floating_point_v<T>) {
            if (!isMax_) {
              const float count = countPad_ ? float(padH * padW) : float((h1 - h0) * (w1 - w0));
              const float inv = 1.f / count;
              for (uint32_t c = 0; c < channels_; ++c) out[c] *= inv;
            }
          }
        }
      }
    });
  }

  // ROUND((pad0 + in + pad1 - f) / s + 1), ROUND = floor or ceil.
  int64_t outSize(int64_t in, int64_t f, int64_t s, int64_t p0, int64_t p1) const {
    const int64_t span = p0 + in + p1 - f;
    if (span < 0) return 0;
    return (ceil_ ? (span + s - 1) / s : span / s) + 1;
  }

  const bool isMax_;
  const char* op_;
  int64_t fh_ = 1, fw_ = 1, sh_ = 1, sw_ = 1, padTop_ = 0, padBottom_ = 0, padLeft_ = 0, padRight_ = 0;
  bool ceil_ = false, countPad_ = false;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, channels_ = 0;
  int64_t outH_ = 0, outW_ = 0;
  DType dtype_ = DType::kFloat32;
};

}  // namespace

std::unique_ptr<Kernel> makePool2d(const std::string& opType) {
  if (opType == "PoolMax2d") return std::make_unique<Pool2dKernel>(true);
  if (opType == "PoolAvg2d") return std::make_unique<Pool2dKernel>(false);
  return nullptr;
}

}  // namespace qnn::cpu
