// Quantized Nv12ToRgb / Nv21ToRgb (UFIXED_POINT_8 in and out): the CPU backend's
// colour rule on real values — Y, U, V = dequantize(stored byte) (normally the
// encoding is scale 1, offset 0, so the bytes themselves), then in double
//   R = 1.164 (Y - 16) + 1.596 (V - 128), G = 1.164 (Y - 16) - 0.813 (V - 128) - 0.391 (U - 128),
//   B = 1.164 (Y - 16) + 2.018 (U - 128),
// each clamped to [0, 255] and quantized to out[0]'s encoding (ITU-R BT.601 video
// range; the op definition does not give the matrix — docs/cpu-ops.md). Layout:
// in[0] [b, h*w*3/2] = the Y plane then h/2 rows of w/2 chroma pairs (UV for
// NV12, VU for NV21); out[0] [b, h, w, 3]; output_order 1 writes BGR.
#include <algorithm>

#include "htp_kernel_registry.h"
#include "htp_kernel_util.h"

namespace qnn::htp {
namespace {

class QuantYuvToRgb final : public Kernel {
 public:
  explicit QuantYuvToRgb(bool vu) : vu_(vu), op_(vu ? "Nv21ToRgb" : "Nv12ToRgb") {}

  Status init(const OpParams& params) override {
    if (!params.has("output_order")) return sdk::invalidParam(std::string(op_) + ": output_order is mandatory");
    const int32_t order = params.i32("output_order", 0);
    if (order != 0 && order != 1) return sdk::invalidParam(std::string(op_) + ": output_order must be 0 (RGB) or 1 (BGR)");
    bgr_ = order == 1;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[0]", inputs[0], 2));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "out[0]", outputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], {DType::kUFixed8}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "out[0]", outputs[0], {DType::kUFixed8}));
    const auto& o = outputs[0].dims;
    b_ = o[0], h_ = o[1], w_ = o[2];
    if (o[3] != 3 || h_ % 2 != 0 || w_ % 2 != 0 || inputs[0].dims[0] != b_ ||
        size_t(inputs[0].dims[1]) * 2 != size_t(h_) * w_ * 3)
      return sdk::invalidTensor(std::string(op_) + ": in[0] " + dimsToString(inputs[0].dims) + " and out[0] " +
                                dimsToString(o) + " must be [b, h*w*3/2] and [b, h, w, 3] with even h, w");
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op_, "in[0]", inputs[0], &ein_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op_, "out[0]", outputs[0], &eout_));
    range_ = rangeOf(outputs[0]);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const uint8_t* in = inputs[0].as<const uint8_t>();
    uint8_t* out = outputs[0].as<uint8_t>();
    const size_t frame = size_t(h_) * w_ * 3 / 2;
    auto real = [this](uint8_t q) { return double(fx::dequantizeValue(q, ein_.scale, ein_.offset)); };
    for (uint32_t b = 0; b < b_; ++b) {
      const uint8_t* yPlane = in + b * frame;
      const uint8_t* chroma = yPlane + size_t(h_) * w_;
      for (uint32_t y = 0; y < h_; ++y)
        for (uint32_t x = 0; x < w_; ++x) {
          const uint8_t* pair = chroma + (size_t(y / 2) * (w_ / 2) + x / 2) * 2;
          const double u = real(vu_ ? pair[1] : pair[0]) - 128.0, v = real(vu_ ? pair[0] : pair[1]) - 128.0;
          const double luma = 1.164 * (real(yPlane[size_t(y) * w_ + x]) - 16.0);
          const double rgb[3] = {luma + 1.596 * v, luma - 0.813 * v - 0.391 * u, luma + 2.018 * u};
          uint8_t* px = out + ((size_t(b) * h_ + y) * w_ + x) * 3;
          for (int c = 0; c < 3; ++c)
            px[bgr_ ? 2 - c : c] =
                uint8_t(fx::quantizeValue(std::clamp(rgb[c], 0.0, 255.0), eout_.scale, eout_.offset, range_));
        }
    }
    return Status::ok();
  }

 private:
  bool vu_, bgr_ = false;
  const char* op_;
  uint32_t b_ = 0, h_ = 0, w_ = 0;
  Encoding ein_, eout_;
  fx::QuantRange range_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantYuvToRgb(const std::string& op) {
  if (op == "Nv12ToRgb") return std::make_unique<QuantYuvToRgb>(false);
  if (op == "Nv21ToRgb") return std::make_unique<QuantYuvToRgb>(true);
  return nullptr;
}

}  // namespace qnn::htp
