// RoiAlign and RoiPooling (float32, NHWC feature maps), the rules of Android
// NNAPI's ROI_ALIGN / ROI_POOLING whose params QNN's mirror: RoI k = (x1, y1, x2,
// y2) in image coordinates on feature map batch_indices[k]; img_size_ratio =
// [height_ratio, width_ratio] is the image-to-feature-map ratio (feature
// coordinate = image coordinate / ratio). Output bins: out[0]'s [num_rois,
// out_h, out_w, C]. A batch index outside [0, batch) fails the execute, leaving
// the output unwritten.
//  * RoiAlign: each bin averages num_samples_y x num_samples_x bilinear samples
//    at the centres of a regular sub-grid (<= 0: ceil(bin size) per dim). The
//    RoI is at least 1 x 1; with `aligned` its corners shift by -0.5 pixel and
//    it is not enlarged (Detectron2 / ONNX half_pixel). A sample beyond one pixel
//    outside the map contributes 0; nearer ones are clamped to the edge.
//  * RoiPooling: corners rounded to feature pixels, the RoI (inclusive, >= 1
//    pixel) cut into bins [floor(start), ceil(end)) clipped to the map; each bin
//    takes its maximum (0 for a bin outside the map).
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class RoiKernel final : public Kernel {
 public:
  explicit RoiKernel(bool align) : align_(align), op_(align ? "RoiAlign" : "RoiPooling") {}

  Status init(const OpParams& params) override {
    const std::vector<double> ratio = params.floats("img_size_ratio", {});
    if (ratio.size() != 2 || !(ratio[0] > 0) || !(ratio[1] > 0))
      return sdk::invalidParam(std::string(op_) + ": img_size_ratio must be 2 values > 0");
    scaleY_ = float(1.0 / ratio[0]), scaleX_ = float(1.0 / ratio[1]);
    samplesY_ = params.i32("num_samples_y", -1), samplesX_ = params.i32("num_samples_x", -1);
    aligned_ = params.b("aligned", false);
    if (params.b("allow_invalid_roi", false))
      return sdk::notSupported(std::string(op_) + ": allow_invalid_roi = true is not supported on the CPU backend");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 3, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[0]", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[1] (rois)", inputs[1], 2));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[2] (batch indices)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "out[0]", outputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[1] (rois)", inputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[2] (batch indices)", inputs[2], {DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& d = inputs[0].dims;
    rois_ = inputs[1].dims[0];
    if (inputs[1].dims[1] != 4 || inputs[2].dims[0] != rois_)
      return sdk::invalidTensor(std::string(op_) + ": rois must be [num_rois, 4] and batch indices [num_rois], got " +
                                dimsToString(inputs[1].dims) + " and " + dimsToString(inputs[2].dims));
    batch_ = d[0], h_ = d[1], w_ = d[2], c_ = d[3];
    outH_ = outputs[0].dims[1], outW_ = outputs[0].dims[2];
    if (outH_ == 0 || outW_ == 0)
      return sdk::invalidTensor(std::string(op_) + ": out[0] " + dimsToString(outputs[0].dims) + " has no bins");
    return checkOutputDims(op_, outputs[0], {rois_, outH_, outW_, c_});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const int32_t* index = inputs[2].as<const int32_t>();
    for (uint32_t k = 0; k < rois_; ++k)
      if (index[k] < 0 || uint32_t(index[k]) >= batch_)
        return sdk::invalidTensor(std::string(op_) + ": batch index " + std::to_string(index[k]) + " of RoI " +
                                  std::to_string(k) + " is outside [0, " + std::to_string(batch_) + ")");
    const float* map = inputs[0].as<const float>();
    const float* rois = inputs[1].as<const float>();
    float* out = outputs[0].as<float>();
    parallelFor(rois_, 1, [&](size_t k0, size_t k1) {
      for (size_t k = k0; k < k1; ++k) {
        const float* image = map + size_t(index[k]) * h_ * w_ * c_;
        float* dst = out + k * outH_ * outW_ * c_;
        if (align_) alignOne(image, rois + k * 4, dst);
        else poolOne(image, rois + k * 4, dst);
      }
    });
    return Status::ok();
  }

 private:
  void alignOne(const float* image, const float* roi, float* dst) const {
    const float shift = aligned_ ? 0.5f : 0.f;
    const float x0 = roi[0] * scaleX_ - shift, y0 = roi[1] * scaleY_ - shift;
    float roiW = roi[2] * scaleX_ - shift - x0, roiH = roi[3] * scaleY_ - shift - y0;
    if (!aligned_) roiW = std::max(roiW, 1.f), roiH = std::max(roiH, 1.f);
    const float binW = roiW / float(outW_), binH = roiH / float(outH_);
    const int sy = samplesY_ > 0 ? samplesY_ : std::max(1, int(std::ceil(binH)));
    const int sx = samplesX_ > 0 ? samplesX_ : std::max(1, int(std::ceil(binW)));
    const float inv = 1.f / float(sy * sx);
    for (uint32_t i = 0; i < outH_; ++i)
      for (uint32_t j = 0; j < outW_; ++j) {
        float* px = dst + (size_t(i) * outW_ + j) * c_;
        std::fill(px, px + c_, 0.f);
        for (int a = 0; a < sy; ++a) {
          const float y = y0 + binH * (float(i) + (float(a) + 0.5f) / float(sy));
          for (int b = 0; b < sx; ++b) {
            const float x = x0 + binW * (float(j) + (float(b) + 0.5f) / float(sx));
            accumulateBilinear(image, y, x, px);
          }
        }
        for (uint32_t c = 0; c < c_; ++c) px[c] *= inv;
      }
  }

  // px += the bilinear sample of image at (y, x); 0 beyond one pixel outside.
  void accumulateBilinear(const float* image, float y, float x, float* px) const {
    if (y < -1.f || y > float(h_) || x < -1.f || x > float(w_)) return;
    y = std::max(y, 0.f), x = std::max(x, 0.f);
    uint32_t yl = uint32_t(y), xl = uint32_t(x), yh, xh;
    if (yl >= h_ - 1) yl = yh = h_ - 1, y = float(yl);
    else yh = yl + 1;
    if (xl >= w_ - 1) xl = xh = w_ - 1, x = float(xl);
    else xh = xl + 1;
    const float ly = y - float(yl), lx = x - float(xl), hy = 1.f - ly, hx = 1.f - lx;
    const float* p00 = image + (size_t(yl) * w_ + xl) * c_;
    const float* p01 = image + (size_t(yl) * w_ + xh) * c_;
    const float* p10 = image + (size_t(yh) * w_ + xl) * c_;
    const float* p11 = image + (size_t(yh) * w_ + xh) * c_;
    for (uint32_t c = 0; c < c_; ++c) px[c] += hy * (hx * p00[c] + lx * p01[c]) + ly * (hx * p10[c] + lx * p11[c]);
  }

  void poolOne(const float* image, const float* roi, float* dst) const {
    const int64_t x0 = std::lround(roi[0] * scaleX_), y0 = std::lround(roi[1] * scaleY_);
    const int64_t x1 = std::lround(roi[2] * scaleX_), y1 = std::lround(roi[3] * scaleY_);
    const float binW = float(std::max<int64_t>(x1 - x0 + 1, 1)) / float(outW_);
    const float binH = float(std::max<int64_t>(y1 - y0 + 1, 1)) / float(outH_);
    auto clip = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi); };
    for (uint32_t i = 0; i < outH_; ++i) {
      const int64_t hs = clip(int64_t(std::floor(binH * float(i) + float(y0))), h_);
      const int64_t he = clip(int64_t(std::ceil(binH * float(i + 1) + float(y0))), h_);
      for (uint32_t j = 0; j < outW_; ++j) {
        const int64_t ws = clip(int64_t(std::floor(binW * float(j) + float(x0))), w_);
        const int64_t we = clip(int64_t(std::ceil(binW * float(j + 1) + float(x0))), w_);
        float* px = dst + (size_t(i) * outW_ + j) * c_;
        if (hs >= he || ws >= we) {
          std::fill(px, px + c_, 0.f);
          continue;
        }
        std::fill(px, px + c_, -FLT_MAX);
        for (int64_t y = hs; y < he; ++y)
          for (int64_t x = ws; x < we; ++x) {
            const float* s = image + (size_t(y) * w_ + size_t(x)) * c_;
            for (uint32_t c = 0; c < c_; ++c) px[c] = std::max(px[c], s[c]);
          }
      }
    }
  }

  const bool align_;
  const char* op_;
  float scaleY_ = 1.f, scaleX_ = 1.f;
  int32_t samplesY_ = -1, samplesX_ = -1;
  bool aligned_ = false;
  uint32_t rois_ = 0, batch_ = 0, h_ = 0, w_ = 0, c_ = 0, outH_ = 0, outW_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeRoi(const std::string& opType) {
  if (opType == "RoiAlign") return std::make_unique<RoiKernel>(true);
  if (opType == "RoiPooling") return std::make_unique<RoiKernel>(false);
  return nullptr;
}

}  // namespace qnn::ops
