// CropAndResize (float32, TensorFlow's crop_and_resize): box k = normalized
// (y1, x1, y2, x2) on image box_indices[k] is sampled on a resize_dims grid
// whose corners are the box corners: in_y = y1*(H-1) + y*(y2-y1)*(H-1)/(out_h-1)
// (the box centre when out_h = 1), same for x. Samples outside [0, H-1] x
// [0, W-1] take extrapolation_value; inside, bilinear interpolation of the four
// neighbours, or the nearest (rounded half away from zero). A box index outside
// [0, batch) fails the execute, leaving the output unwritten.
#include <cmath>

#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

class CropAndResizeKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "CropAndResize";
    std::vector<int64_t> dims;
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "resize_dims", {2}, true, {}, &dims));
    if (dims[0] == 0 || dims[1] == 0) return sdk::invalidParam("CropAndResize: resize_dims must be > 0");
    outH_ = uint32_t(dims[0]), outW_ = uint32_t(dims[1]);
    const uint32_t mode = params.u32("interpolation_mode", 0);
    if (mode > 1) return sdk::invalidParam("CropAndResize: interpolation_mode must be 0 (BILINEAR) or 1 (NEAREST_NEIGHBOR)");
    nearest_ = mode == 1;
    extrapolation_ = params.f32("extrapolation_value", 0.f);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "CropAndResize";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 3, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (boxes)", inputs[1], 2));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (box indices)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (boxes)", inputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (box indices)", inputs[2], {DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& d = inputs[0].dims;
    boxes_ = inputs[1].dims[0];
    if (inputs[1].dims[1] != 4 || inputs[2].dims[0] != boxes_)
      return sdk::invalidTensor("CropAndResize: boxes must be [num_boxes, 4] and box indices [num_boxes], got " +
                                dimsToString(inputs[1].dims) + " and " + dimsToString(inputs[2].dims));
    batch_ = d[0], h_ = d[1], w_ = d[2], c_ = d[3];
    return checkOutputDims(op, outputs[0], {boxes_, outH_, outW_, c_});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* image = inputs[0].as<const float>();
    const float* boxes = inputs[1].as<const float>();
    const int32_t* index = inputs[2].as<const int32_t>();
    for (uint32_t k = 0; k < boxes_; ++k)
      if (index[k] < 0 || uint32_t(index[k]) >= batch_)
        return sdk::invalidTensor("CropAndResize: box index " + std::to_string(index[k]) + " of box " +
                                  std::to_string(k) + " is outside [0, " + std::to_string(batch_) + ")");
    float* out = outputs[0].as<float>();
    parallelFor(size_t(boxes_) * outH_, 1, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const uint32_t k = uint32_t(r / outH_), y = uint32_t(r % outH_);
        const float* box = boxes + size_t(k) * 4;
        const float* img = image + size_t(index[k]) * h_ * w_ * c_;
        float* row = out + r * outW_ * c_;
        const float inY = sample(box[0], box[2], h_, outH_, y);
        if (inY < 0.f || inY > float(h_ - 1)) {
          std::fill(row, row + size_t(outW_) * c_, extrapolation_);
          continue;
        }
        for (uint32_t x = 0; x < outW_; ++x) {
          float* px = row + size_t(x) * c_;
          const float inX = sample(box[1], box[3], w_, outW_, x);
          if (inX < 0.f || inX > float(w_ - 1)) {
            std::fill(px, px + c_, extrapolation_);
            continue;
          }
          if (nearest_) {
            const float* s = img + (size_t(std::lround(inY)) * w_ + size_t(std::lround(inX))) * c_;
            std::copy(s, s + c_, px);
            continue;
          }
          const size_t y0 = size_t(std::floor(inY)), y1 = size_t(std::ceil(inY));
          const size_t x0 = size_t(std::floor(inX)), x1 = size_t(std::ceil(inX));
          const float ty = inY - float(y0), tx = inX - float(x0);
          const float *tl = img + (y0 * w_ + x0) * c_, *tr = img + (y0 * w_ + x1) * c_;
          const float *bl = img + (y1 * w_ + x0) * c_, *br = img + (y1 * w_ + x1) * c_;
          for (uint32_t c = 0; c < c_; ++c) {
            const float top = tl[c] + (tr[c] - tl[c]) * tx, bottom = bl[c] + (br[c] - bl[c]) * tx;
            px[c] = top + (bottom - top) * ty;
          }
        }
      }
    });
    return Status::ok();
  }

 private:
  // Input coordinate of output sample i of n between normalized box edges a, b.
  static float sample(float a, float b, uint32_t size, uint32_t n, uint32_t i) {
    const float span = float(size - 1);
    return n > 1 ? a * span + float(i) * (b - a) * span / float(n - 1) : 0.5f * (a + b) * span;
  }

  uint32_t outH_ = 1, outW_ = 1, boxes_ = 0, batch_ = 0, h_ = 0, w_ = 0, c_ = 0;
  bool nearest_ = false;
  float extrapolation_ = 0.f;
};

}  // namespace

std::unique_ptr<Kernel> makeCropAndResize(const std::string& opType) {
  return opType == "CropAndResize" ? std::make_unique<CropAndResizeKernel>() : nullptr;
}

}  // namespace qnn::cpu
