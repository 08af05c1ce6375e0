// Nv12ToRgb / Nv21ToRgb (float32, values 0..255): in[0] [b, h*w*3/2] holds the
// Y plane (h x w) then the interleaved chroma plane (h/2 rows of w/2 pairs; UV
// for NV12, VU for NV21), each pair shared by a 2 x 2 block of pixels; h and w
// come from out[0] [b, h, w, 3]. The QNN op definition does not state the
// colour matrix; this uses ITU-R BT.601 video range, as OpenVINO's NV12toRGB:
//   R = 1.164 (Y - 16) + 1.596 (V - 128)
//   G = 1.164 (Y - 16) - 0.813 (V - 128) - 0.391 (U - 128)
//   B = 1.164 (Y - 16) + 2.018 (U - 128), each clipped to [0, 255];
// output_order BGR writes the channels in reverse.
#include <algorithm>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class YuvToRgbKernel final : public Kernel {
 public:
  explicit YuvToRgbKernel(bool vuOrder) : vu_(vuOrder), op_(vuOrder ? "Nv21ToRgb" : "Nv12ToRgb") {}

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
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& o = outputs[0].dims;
    b_ = o[0], h_ = o[1], w_ = o[2];
    if (o[3] != 3 || h_ % 2 != 0 || w_ % 2 != 0 || inputs[0].dims[0] != b_ ||
        size_t(inputs[0].dims[1]) * 2 != size_t(h_) * w_ * 3)
      return sdk::invalidTensor(std::string(op_) + ": in[0] " + dimsToString(inputs[0].dims) +
                                " must be [b, h*w*3/2] for out[0] [b, h, w, 3] with even h and w, got out[0] " +
                                dimsToString(o));
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* in = inputs[0].as<const float>();
    float* out = outputs[0].as<float>();
    const size_t frame = size_t(h_) * w_ * 3 / 2;
    for (uint32_t b = 0; b < b_; ++b) {
      const float* yPlane = in + b * frame;
      const float* chroma = yPlane + size_t(h_) * w_;
      for (uint32_t y = 0; y < h_; ++y)
        for (uint32_t x = 0; x < w_; ++x) {
          const float* pair = chroma + (size_t(y / 2) * (w_ / 2) + x / 2) * 2;
          const float u = (vu_ ? pair[1] : pair[0]) - 128.f, v = (vu_ ? pair[0] : pair[1]) - 128.f;
          const float luma = 1.164f * (yPlane[size_t(y) * w_ + x] - 16.f);
          const float rgb[3] = {luma + 1.596f * v, luma - 0.813f * v - 0.391f * u, luma + 2.018f * u};
          float* px = out + ((size_t(b) * h_ + y) * w_ + x) * 3;
          for (int c = 0; c < 3; ++c) px[bgr_ ? 2 - c : c] = std::clamp(rgb[c], 0.f, 255.f);
        }
    }
    return Status::ok();
  }

 private:
  const bool vu_;
  const char* op_;
  bool bgr_ = false;
  uint32_t b_ = 0, h_ = 0, w_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeYuvToRgb(const std::string& opType) {
  if (opType == "Nv12ToRgb") return std::make_unique<YuvToRgbKernel>(false);
  if (opType == "Nv21ToRgb") return std::make_unique<YuvToRgbKernel>(true);
  return nullptr;
}

}  // namespace qnn::ops
