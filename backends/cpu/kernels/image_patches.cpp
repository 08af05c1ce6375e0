// Image rearrangements on NHWC, any dtype (bytes moved, nothing computed):
//  * ArgbToRgb: [b,h,w,4] -> [b,h,w,3], dropping alpha (first channel for ARGB,
//    last for RGBA); reverse_output writes the three colours in reverse order.
//  * ExtractPatches (TensorFlow's extract_image_patches): size[0] x size[1]
//    samples `rate` apart, windows `stride` apart, flattened into channels in
//    (patch row, patch column, channel) order; SAME pads with real zero, the
//    padding split as TensorFlow does (the extra pixel after).
#include <array>
#include <cstring>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

class ArgbToRgbKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const uint32_t order = params.u32("input_order", 0);
    if (order > 1) return sdk::invalidParam("ArgbToRgb: input_order must be 0 (ARGB) or 1 (RGBA)");
    if (!params.has("reverse_output")) return sdk::invalidParam("ArgbToRgb: reverse_output is mandatory");
    first_ = order == 0 ? 1 : 0;
    reverse_ = params.b("reverse_output", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "ArgbToRgb";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", inputs[0], outputs[0]));
    const auto& d = inputs[0].dims;
    if (d[3] != 4) return sdk::invalidTensor("ArgbToRgb: in[0] must have 4 channels, got " + dimsToString(d));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {d[0], d[1], d[2], 3}));
    pixels_ = size_t(d[0]) * d[1] * d[2];
    es_ = sdk::dtypeSize(inputs[0].dtype);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const uint8_t* src = inputs[0].as<const uint8_t>();
    uint8_t* dst = outputs[0].as<uint8_t>();
    for (size_t p = 0; p < pixels_; ++p)
      for (uint32_t c = 0; c < 3; ++c)
        copyElement(dst + (p * 3 + c) * es_, src + (p * 4 + first_ + (reverse_ ? 2 - c : c)) * es_, es_);
    return Status::ok();
  }

 private:
  uint32_t first_ = 1;
  bool reverse_ = false;
  size_t pixels_ = 0, es_ = 0;
};

class ExtractPatchesKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "ExtractPatches";
    std::vector<int64_t> size, stride, rate;
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "size", {2}, true, {}, &size));
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "stride", {2}, true, {}, &stride));
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "rate", {2}, true, {}, &rate));
    if (!params.has("padding")) return sdk::invalidParam("ExtractPatches: padding is mandatory");
    const uint32_t padding = params.u32("padding", 0);
    if (padding > 1) return sdk::invalidParam("ExtractPatches: padding must be 0 (VALID) or 1 (SAME)");
    for (int i = 0; i < 2; ++i) {
      if (size[i] == 0 || stride[i] == 0 || rate[i] == 0)
        return sdk::invalidParam("ExtractPatches: size, stride and rate must be > 0");
      size_[i] = size[i], stride_[i] = stride[i], rate_[i] = rate[i];
    }
    same_ = padding == 1;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "ExtractPatches";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", inputs[0], outputs[0]));
    const auto& d = inputs[0].dims;
    for (int i = 0; i < 2; ++i) {
      in_[i] = d[i + 1];
      const int64_t dilated = (size_[i] - 1) * rate_[i] + 1;
      if (same_) {
        out_[i] = (in_[i] + stride_[i] - 1) / stride_[i];
        pad_[i] = std::max<int64_t>(0, (out_[i] - 1) * stride_[i] + dilated - in_[i]) / 2;
      } else {
        out_[i] = in_[i] >= dilated ? (in_[i] - dilated) / stride_[i] + 1 : 0;
        pad_[i] = 0;
      }
    }
    if (out_[0] <= 0 || out_[1] <= 0)
      return sdk::invalidTensor("ExtractPatches: in[0] " + dimsToString(d) + " is smaller than one patch");
    batch_ = d[0], channels_ = d[3];
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(
        op, outputs[0], {d[0], uint32_t(out_[0]), uint32_t(out_[1]), uint32_t(size_[0] * size_[1] * channels_)}));
    es_ = sdk::dtypeSize(inputs[0].dtype);
    zero_ = zeroElementBytes(inputs[0]);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const uint8_t* src = inputs[0].as<const uint8_t>();
    uint8_t* dst = outputs[0].as<uint8_t>();
    const size_t pixelBytes = size_t(channels_) * es_;
    const size_t outPixels = size_t(batch_) * out_[0] * out_[1];
    parallelFor(outPixels, 1, [&](size_t p0, size_t p1) {
      for (size_t p = p0; p < p1; ++p) {
        const int64_t ow = int64_t(p % out_[1]), oh = int64_t(p / out_[1] % out_[0]);
        const size_t b = p / out_[1] / out_[0];
        uint8_t* o = dst + p * size_[0] * size_[1] * pixelBytes;
        for (int64_t i = 0; i < size_[0]; ++i)
          for (int64_t j = 0; j < size_[1]; ++j, o += pixelBytes) {
            const int64_t h = oh * stride_[0] - pad_[0] + i * rate_[0], w = ow * stride_[1] - pad_[1] + j * rate_[1];
            if (h < 0 || h >= in_[0] || w < 0 || w >= in_[1]) {
              for (uint32_t c = 0; c < channels_; ++c) std::memcpy(o + c * es_, zero_.data(), es_);
              continue;
            }
            std::memcpy(o, src + ((b * in_[0] + size_t(h)) * in_[1] + size_t(w)) * pixelBytes, pixelBytes);
          }
      }
    });
    return Status::ok();
  }

 private:
  std::array<int64_t, 2> size_{}, stride_{}, rate_{}, in_{}, out_{}, pad_{};
  bool same_ = false;
  uint32_t batch_ = 0, channels_ = 0;
  size_t es_ = 0;
  std::vector<uint8_t> zero_;
};

}  // namespace

std::unique_ptr<Kernel> makeImagePatches(const std::string& opType) {
  if (opType == "ArgbToRgb") return std::make_unique<ArgbToRgbKernel>();
  if (opType == "ExtractPatches") return std::make_unique<ExtractPatchesKernel>();
  return nullptr;
}

}  // namespace qnn::cpu
