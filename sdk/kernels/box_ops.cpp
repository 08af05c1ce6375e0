// Detection post-processing helpers on float32, the rules of Android NNAPI's
// AXIS_ALIGNED_BBOX_TRANSFORM and HEATMAP_MAX_KEYPOINT, where the QNN ops come from.
//  * AxisAlignedBboxTransform: RoI (x1, y1, x2, y2) as centre (cx, cy) and size
//    (w, h); class deltas (dx, dy, dw, dh), each divided by its `weights` entry,
//    move it to centre (cx + dx*w, cy + dy*h) and size (w*e^dw, h*e^dh); the
//    corners are clipped to [0, image_width] x [0, image_height] of the RoI's
//    image. out[1] (optional) counts the RoIs of each batch. A batch index
//    outside [0, batches) fails the execute, leaving the outputs unwritten.
//  * HeatMapMaxKeyPoint: per box and keypoint the heat-map maximum (first on
//    ties), refined by the quadratic (second-order Taylor) fit of its 3x3
//    neighbourhood (mirrored at the map's edges; no refinement when the Hessian
//    is singular; the step scaled back to at most 1.5 pixels), the refined score
//    and the position ((index + delta + 0.5) / size) mapped into the box.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class AxisAlignedBboxTransformKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const std::vector<double> w = params.floats("weights", {1, 1, 1, 1});
    if (w.size() != 4 || std::any_of(w.begin(), w.end(), [](double v) { return !(v > 0); }))
      return sdk::invalidParam("AxisAlignedBboxTransform: weights must be 4 values > 0");
    for (int i = 0; i < 4; ++i) weights_[i] = float(w[i]);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "AxisAlignedBboxTransform";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 4, 4, outputs, outputs.size() == 2 ? 2 : 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (rois)", inputs[0], 2));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (deltas)", inputs[1], 2));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (batch indices)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[3] (image sizes)", inputs[3], 2));
    for (int i : {0, 1, 3}) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "float input", inputs[i], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (batch indices)", inputs[2], {DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    rois_ = inputs[0].dims[0], batches_ = inputs[3].dims[0];
    const uint32_t deltas = inputs[1].dims[1];
    if (inputs[0].dims[1] != 4 || inputs[1].dims[0] != rois_ || deltas == 0 || deltas % 4 != 0 ||
        inputs[2].dims[0] != rois_ || inputs[3].dims[1] != 2)
      return sdk::invalidTensor(std::string(op) + ": needs rois [n, 4], deltas [n, classes * 4], batch indices [n] "
                                "and image sizes [batches, 2]");
    classes_ = deltas / 4;
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {rois_, deltas}));
    if (outputs.size() == 2) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1]", outputs[1], {DType::kInt32, DType::kUInt32}));
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[1], {batches_}));
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const int32_t* batch = inputs[2].as<const int32_t>();
    for (uint32_t r = 0; r < rois_; ++r)
      if (batch[r] < 0 || uint32_t(batch[r]) >= batches_)
        return sdk::invalidTensor("AxisAlignedBboxTransform: batch index " + std::to_string(batch[r]) + " of RoI " +
                                  std::to_string(r) + " is outside [0, " + std::to_string(batches_) + ")");
    const float* roi = inputs[0].as<const float>();
    const float* delta = inputs[1].as<const float>();
    const float* sizes = inputs[3].as<const float>();
    float* out = outputs[0].as<float>();
    for (uint32_t r = 0; r < rois_; ++r) {
      const float* box = roi + size_t(r) * 4;
      const float w = box[2] - box[0], h = box[3] - box[1], cx = box[0] + 0.5f * w, cy = box[1] + 0.5f * h;
      const float imageH = sizes[size_t(batch[r]) * 2], imageW = sizes[size_t(batch[r]) * 2 + 1];
      for (uint32_t c = 0; c < classes_; ++c) {
        const float* d = delta + (size_t(r) * classes_ + c) * 4;
        float* o = out + (size_t(r) * classes_ + c) * 4;
        const float ncx = cx + d[0] / weights_[0] * w, ncy = cy + d[1] / weights_[1] * h;
        const float nw = std::exp(d[2] / weights_[2]) * w, nh = std::exp(d[3] / weights_[3]) * h;
        o[0] = std::clamp(ncx - 0.5f * nw, 0.f, imageW);
        o[1] = std::clamp(ncy - 0.5f * nh, 0.f, imageH);
        o[2] = std::clamp(ncx + 0.5f * nw, 0.f, imageW);
        o[3] = std::clamp(ncy + 0.5f * nh, 0.f, imageH);
      }
    }
    if (outputs.size() == 2) {
      int32_t* counts = outputs[1].as<int32_t>();
      std::fill(counts, counts + batches_, 0);
      for (uint32_t r = 0; r < rois_; ++r) ++counts[batch[r]];
    }
    return Status::ok();
  }

 private:
  float weights_[4] = {1, 1, 1, 1};
  uint32_t rois_ = 0, batches_ = 0, classes_ = 0;
};

class HeatMapMaxKeyPointKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "HeatMapMaxKeyPoint";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 2));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (heatmaps)", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (boxes)", inputs[1], 2));
    for (const TensorView* t : {&inputs[0], &inputs[1], &outputs[0], &outputs[1]})
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "tensor", *t, {DType::kFloat32}));
    const auto& d = inputs[0].dims;
    boxes_ = d[0], h_ = d[1], w_ = d[2], keypoints_ = d[3];
    if (h_ < 2 || w_ < 2 || inputs[1].dims != std::vector<uint32_t>{boxes_, 4})
      return sdk::invalidTensor(std::string(op) + ": needs heatmaps [boxes, h >= 2, w >= 2, keypoints] and boxes "
                                "[boxes, 4], got " + dimsToString(d) + " and " + dimsToString(inputs[1].dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {boxes_, keypoints_}));
    return checkOutputDims(op, outputs[1], {boxes_, keypoints_, 2});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* maps = inputs[0].as<const float>();
    const float* boxes = inputs[1].as<const float>();
    float* scores = outputs[0].as<float>();
    float* points = outputs[1].as<float>();
    for (uint32_t b = 0; b < boxes_; ++b) {
      const float* map = maps + size_t(b) * h_ * w_ * keypoints_;
      const float* box = boxes + size_t(b) * 4;
      for (uint32_t k = 0; k < keypoints_; ++k) {
        size_t best = 0;
        float top = -FLT_MAX;
        for (size_t p = 0; p < size_t(h_) * w_; ++p)
          if (map[p * keypoints_ + k] > top) top = map[p * keypoints_ + k], best = p;
        const int64_t py = int64_t(best / w_), px = int64_t(best % w_);
        float g[3][3];
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int64_t y = mirror(py + dy, h_), x = mirror(px + dx, w_);
            g[dy + 1][dx + 1] = map[(size_t(y) * w_ + size_t(x)) * keypoints_ + k];
          }
        float step[2] = {0.f, 0.f}, score = top;
        refine(g, step, &score);
        scores[size_t(b) * keypoints_ + k] = score;
        float* pt = points + (size_t(b) * keypoints_ + k) * 2;
        pt[0] = (float(px) + step[0] + 0.5f) / float(w_) * (box[2] - box[0]) + box[0];
        pt[1] = (float(py) + step[1] + 0.5f) / float(h_) * (box[3] - box[1]) + box[1];
      }
    }
    return Status::ok();
  }

 private:
  static int64_t mirror(int64_t i, int64_t n) { return i < 0 ? 1 : i >= n ? n - 2 : i; }

  // Newton step of the quadratic through the 3x3 grid g[y][x] around its centre:
  // gradient by central differences, Hessian by second differences.
  static void refine(const float g[3][3], float step[2], float* score) {
    const float gx = (g[1][2] - g[1][0]) * 0.5f, gy = (g[2][1] - g[0][1]) * 0.5f;
    const float hxx = g[1][0] - 2.f * g[1][1] + g[1][2], hyy = g[0][1] - 2.f * g[1][1] + g[2][1];
    const float hxy = (g[2][2] - g[2][0] - g[0][2] + g[0][0]) * 0.25f;
    const float det = hxx * hyy - hxy * hxy;
    if (std::abs(det) < 1e-5f + 1e-5f * hxx * hyy) return;
    step[0] = (hxy * gy - hyy * gx) / det;
    step[1] = (hxy * gx - hxx * gy) / det;
    const float largest = std::max(std::abs(step[0]), std::abs(step[1]));
    if (largest > 1.5f) step[0] *= 1.5f / largest, step[1] *= 1.5f / largest;
    *score = g[1][1] + gx * step[0] + gy * step[1] +
             0.5f * (hxx * step[0] * step[0] + 2.f * hxy * step[0] * step[1] + hyy * step[1] * step[1]);
  }

  uint32_t boxes_ = 0, h_ = 0, w_ = 0, keypoints_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeBoxOps(const std::string& opType) {
  if (opType == "AxisAlignedBboxTransform") return std::make_unique<AxisAlignedBboxTransformKernel>();
  if (opType == "HeatMapMaxKeyPoint") return std::make_unique<HeatMapMaxKeyPointKernel>();
  return nullptr;
}

}  // namespace qnn::ops
