// Quantized PoolAvg3d (NDHWC), PoolAvg2d's rule over three spatial dims:
// S = sum (q + offset) over the window's elements inside the input (int64),
// y = requantize(S, s_in / (s_out * count)), count = those elements, or the
// window clipped to the padded input with count_pad_for_edges; a window entirely
// in the padding yields real 0. Output extent per dim:
// floor((pad_before + in + pad_after - filter) / stride) + 1 (ceil with
// rounding_mode 1).
#include <algorithm>
#include <array>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

constexpr size_t kSpatial = 3;

class QuantPoolAvg3d final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "PoolAvg3d";
    std::vector<int64_t> filter, stride, pad;
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op, "filter_size", kSpatial, 1, true, 1, 1, &filter));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op, "stride", kSpatial, 1, true, 1, 1, &stride));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op, "pad_amount", kSpatial, 2, true, 0, 0, &pad));
    const uint32_t rounding = params.u32("rounding_mode", 0);
    if (rounding > 1) return sdk::invalidParam(std::string(op) + ": rounding_mode must be 0 (FLOOR) or 1 (CEIL)");
    ceil_ = rounding == 1;
    countPad_ = params.b("count_pad_for_edges", false);
    for (size_t d = 0; d < kSpatial; ++d)
      filter_[d] = filter[d], stride_[d] = stride[d], before_[d] = pad[2 * d], after_[d] = pad[2 * d + 1];
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "PoolAvg3d";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 5));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    const auto& in = inputs[0].dims;
    batch_ = in[0], channels_ = in[4];
    std::vector<uint32_t> outDims{batch_};
    outPixels_ = 1;
    for (size_t d = 0; d < kSpatial; ++d) {
      in_[d] = in[d + 1];
      const int64_t span = before_[d] + in_[d] + after_[d] - filter_[d];
      out_[d] = span < 0 ? 0 : (ceil_ ? (span + stride_[d] - 1) / stride_[d] : span / stride_[d]) + 1;
      if (out_[d] <= 0)
        return sdk::invalidTensor(std::string(op) + ": the padded input " + dimsToString(in) +
                                  " is smaller than filter_size");
      outDims.push_back(uint32_t(out_[d]));
      outPixels_ *= size_t(out_[d]);
    }
    outDims.push_back(channels_);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], outDims));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ein_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout_));
    range_ = rangeOf(outputs[0]);
    const size_t taps = size_t(filter_[0] * filter_[1] * filter_[2]);
    mult_.assign(taps + 1, fx::FixedPointMultiplier{});
    for (size_t count = 1; count <= taps; ++count)
      QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ein_.scale) / (double(eout_.scale) * double(count)), &mult_[count]));
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const int64_t zero = fx::quantizeValue(0.0, eout_.scale, eout_.offset, range_);
    std::vector<int64_t> sum(channels_);
    for (size_t b = 0; b < batch_; ++b)
      for (size_t p = 0; p < outPixels_; ++p) {
        std::array<int64_t, kSpatial> lo{}, hi{};
        size_t valid = 1, padded = 1, rest = p;
        for (size_t d = kSpatial; d-- > 0;) {
          const int64_t o = int64_t(rest % size_t(out_[d]));
          rest /= size_t(out_[d]);
          const int64_t start = o * stride_[d] - before_[d], end = start + filter_[d];
          lo[d] = std::max<int64_t>(start, 0), hi[d] = std::min<int64_t>(end, in_[d]);
          valid *= size_t(std::max<int64_t>(hi[d] - lo[d], 0));
          padded *= size_t(std::min<int64_t>(end, in_[d] + after_[d]) - start);
        }
        const size_t outBase = (b * outPixels_ + p) * channels_;
        if (valid == 0) {
          for (uint32_t c = 0; c < channels_; ++c) storeInt(outputs[0], outBase + c, zero);
          continue;
        }
        std::fill(sum.begin(), sum.end(), 0);
        for (int64_t z = lo[0]; z < hi[0]; ++z)
          for (int64_t y = lo[1]; y < hi[1]; ++y)
            for (int64_t x = lo[2]; x < hi[2]; ++x) {
              const size_t inBase = (((b * size_t(in_[0]) + size_t(z)) * size_t(in_[1]) + size_t(y)) * size_t(in_[2]) +
                                     size_t(x)) * channels_;
              for (uint32_t c = 0; c < channels_; ++c) sum[c] += loadInt(inputs[0], inBase + c) + ein_.offset;
            }
        const size_t count = countPad_ ? padded : valid;
        for (uint32_t c = 0; c < channels_; ++c)
          storeInt(outputs[0], outBase + c, fx::requantize(sum[c], mult_[count], eout_.offset, range_));
      }
    return Status::ok();
  }

 private:
  std::array<int64_t, kSpatial> filter_{}, stride_{}, before_{}, after_{}, in_{}, out_{};
  bool ceil_ = false, countPad_ = false;
  uint32_t batch_ = 0, channels_ = 0;
  size_t outPixels_ = 1;
  Encoding ein_, eout_;
  fx::QuantRange range_;
  std::vector<fx::FixedPointMultiplier> mult_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantPool3d(const std::string& op) {
  if (op == "PoolAvg3d") return std::make_unique<QuantPoolAvg3d>();
  return nullptr;
}

}  // namespace qnn::htp
