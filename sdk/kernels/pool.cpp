// PoolMax2d/PoolMax3d (float32 and 8/16/32-bit integers), PoolAvg2d/PoolAvg3d and
// L2Pool2d (float32) on channel-last tensors, one direct kernel for 2 or 3 spatial dims:
// each output pixel walks its window clipped to the input, vectorized over
// channels. A window entirely in padding gives 0, as PoolMax2d/PoolAvg2d do.
//  * PoolAvg divides by the in-input count, or with count_pad_for_edges by the
//    count inside the padded input.
//  * L2Pool2d is sqrt(sum of squares / count) over the in-input elements of the
//    window (TFLite's L2_POOL_2D, where the op comes from: padding is not counted).
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

constexpr size_t kMaxSpatial = 3;
enum class PoolKind { kMax, kAvg, kL2 };

class PoolNdKernel final : public Kernel {
 public:
  PoolNdKernel(const char* op, size_t spatial, PoolKind kind) : op_(op), spatial_(spatial), kind_(kind) {}

  Status init(const OpParams& params) override {
    std::vector<int64_t> filter, stride, pad;
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "filter_size", spatial_, 1, true, 1, 1, &filter));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "stride", spatial_, 1, true, 1, 1, &stride));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "pad_amount", spatial_, 2, true, 0, 0, &pad));
    const uint32_t rounding = params.u32("rounding_mode", 0);
    if (rounding > 1) return sdk::invalidParam(std::string(op_) + ": rounding_mode must be 0 (FLOOR) or 1 (CEIL)");
    ceil_ = rounding == 1;
    countPad_ = params.b("count_pad_for_edges", false);
    for (size_t d = 0; d < spatial_; ++d)
      filter_[d] = filter[d], stride_[d] = stride[d], padBefore_[d] = pad[2 * d], padAfter_[d] = pad[2 * d + 1];
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[0]", inputs[0], spatial_ + 2));
    if (kind_ == PoolKind::kMax)
      QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], {DType::kFloat32, DType::kUInt8, DType::kInt8,
                                                                   DType::kUInt16, DType::kInt16, DType::kInt32}));
    else QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], {DType::kFloat32}));
    if (outputs[0].dtype != inputs[0].dtype)
      return sdk::unsupportedDType(std::string(op_) + ": out[0] datatype must equal in[0]'s");
    dtype_ = inputs[0].dtype;
    const auto& in = inputs[0].dims;
    batch_ = in[0], channels_ = in[spatial_ + 1];
    std::vector<uint32_t> outDims{batch_};
    inPixels_ = outPixels_ = taps_ = 1;
    for (size_t d = 0; d < spatial_; ++d) {
      in_[d] = in[d + 1];
      const int64_t span = padBefore_[d] + in_[d] + padAfter_[d] - filter_[d];
      out_[d] = span < 0 ? 0 : (ceil_ ? (span + stride_[d] - 1) / stride_[d] : span / stride_[d]) + 1;
      if (out_[d] <= 0 || in_[d] <= 0)
        return sdk::invalidTensor(std::string(op_) + ": the padded input " + dimsToString(in) +
                                  " is smaller than filter_size");
      outDims.push_back(uint32_t(out_[d]));
      inPixels_ *= size_t(in_[d]), outPixels_ *= size_t(out_[d]), taps_ *= size_t(filter_[d]);
    }
    outDims.push_back(channels_);
    return checkOutputDims(op_, outputs[0], outDims);
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
    parallelFor(size_t(batch_) * outPixels_, rowGrain(taps_ * channels_), [&](size_t p0, size_t p1) {
      for (size_t p = p0; p < p1; ++p) {
        const size_t b = p / outPixels_;
        // The window of this output pixel, clipped to the input ([lo, hi)) and
        // to the padded input (padded counts).
        std::array<int64_t, kMaxSpatial> lo{}, hi{};
        size_t valid = 1, padded = 1;
        size_t rest = p % outPixels_;
        for (size_t d = spatial_; d-- > 0;) {
          const int64_t o = int64_t(rest % size_t(out_[d]));
          rest /= size_t(out_[d]);
          const int64_t start = o * stride_[d] - padBefore_[d], end = start + filter_[d];
          lo[d] = std::max<int64_t>(start, 0), hi[d] = std::min<int64_t>(end, in_[d]);
          valid *= size_t(std::max<int64_t>(hi[d] - lo[d], 0));
          padded *= size_t(std::min<int64_t>(end, in_[d] + padAfter_[d]) - start);
        }
        T* __restrict out = output + p * channels_;
        if (valid == 0) {
          std::fill(out, out + channels_, T(0));
          continue;
        }
        if (kind_ == PoolKind::kMax)
          std::fill(out, out + channels_,
                    std::is_floating_point_v<T> ? T(-FLT_MAX) : std::numeric_limits<T>::lowest());
        else std::fill(out, out + channels_, T(0));
        const T* image = input + b * inPixels_ * channels_;
        std::array<int64_t, kMaxSpatial> i = lo;
        for (;;) {
          size_t flat = 0;
          for (size_t d = 0; d < spatial_; ++d) flat = flat * size_t(in_[d]) + size_t(i[d]);
          const T* __restrict px = image + flat * channels_;
          if (kind_ == PoolKind::kMax) {
            for (uint32_t c = 0; c < channels_; ++c) out[c] = std::max(out[c], px[c]);
          } else if (kind_ == PoolKind::kAvg) {
            for (uint32_t c = 0; c < channels_; ++c) out[c] += px[c];
          } else {
            for (uint32_t c = 0; c < channels_; ++c) out[c] += px[c] * px[c];
          }
          // Next window position (odometer over the clipped window).
          size_t d = spatial_;
          while (d-- > 0) {
            if (++i[d] < hi[d]) break;
            i[d] = lo[d];
          }
          if (d == size_t(-1)) break;
        }
        if constexpr (std::is_floating_point_v<T>) {
          if (kind_ == PoolKind::kAvg) {
            const float inv = 1.f / float(countPad_ ? padded : valid);
            for (uint32_t c = 0; c < channels_; ++c) out[c] *= inv;
          } else if (kind_ == PoolKind::kL2) {
            const float inv = 1.f / float(valid);
            for (uint32_t c = 0; c < channels_; ++c) out[c] = std::sqrt(out[c] * inv);
          }
        }
      }
    });
  }

  const char* op_;
  const size_t spatial_;
  const PoolKind kind_;
  bool ceil_ = false, countPad_ = false;
  std::array<int64_t, kMaxSpatial> filter_{}, stride_{}, padBefore_{}, padAfter_{}, in_{}, out_{};
  uint32_t batch_ = 0, channels_ = 0;
  size_t inPixels_ = 0, outPixels_ = 0, taps_ = 0;
  DType dtype_ = DType::kFloat32;
};

}  // namespace

std::unique_ptr<Kernel> makePool(const std::string& opType) {
  if (opType == "PoolMax2d") return std::make_unique<PoolNdKernel>("PoolMax2d", 2, PoolKind::kMax);
  if (opType == "PoolAvg2d") return std::make_unique<PoolNdKernel>("PoolAvg2d", 2, PoolKind::kAvg);
  if (opType == "PoolMax3d") return std::make_unique<PoolNdKernel>("PoolMax3d", 3, PoolKind::kMax);
  if (opType == "PoolAvg3d") return std::make_unique<PoolNdKernel>("PoolAvg3d", 3, PoolKind::kAvg);
  if (opType == "L2Pool2d") return std::make_unique<PoolNdKernel>("L2Pool2d", 2, PoolKind::kL2);
  return nullptr;
}

}  // namespace qnn::ops
