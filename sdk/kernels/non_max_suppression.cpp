// NonMaxSuppression (float32 boxes and scores), ONNX's rule per batch and class:
// boxes whose score is above score_threshold are visited by descending score
// (ties by lower box index); a box is kept when its IoU with every box kept
// before it is <= iou_threshold, up to max_boxes_selected per class.
//  * Boxes are (y1, x1, y2, x2) with either corner first (min/max taken); a box
//    of zero area has IoU 0 with everything. center_point_box (op set 2.13,
//    UINT_32, default 0 DIAG_CORNERS) 1 CENTER_POINT reads them as ONNX's
//    (x_center, y_center, width, height) instead.
//  * out[0] [batch * num_classes * max_boxes_selected, 3] gets (batch, class, box)
//    rows in batch, class, score order; rows past the selected count are zero.
//    max_boxes_selected = 0 means no limit (num_boxes per class).
//  * out[1] (optional, [1] uint32) gets the number of valid rows.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class NonMaxSuppressionKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("iou_threshold")) return sdk::invalidParam("NonMaxSuppression: missing mandatory param iou_threshold");
    iouThreshold_ = params.f32("iou_threshold", 0.f);
    if (!(iouThreshold_ >= 0.f && iouThreshold_ <= 1.f))
      return sdk::invalidParam("NonMaxSuppression: iou_threshold must be in [0, 1]");
    scoreThreshold_ = params.f32("score_threshold", 0.f);
    maxBoxes_ = params.u32("max_boxes_selected", 0);
    const uint32_t centerPointBox = params.u32("center_point_box", 0);
    if (centerPointBox > 1)
      return sdk::invalidParam("NonMaxSuppression: center_point_box must be 0 (DIAG_CORNERS) or 1 (CENTER_POINT), got " +
                               std::to_string(centerPointBox));
    centerPoint_ = centerPointBox == 1;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "NonMaxSuppression";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, outputs.size() == 2 ? 2 : 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (boxes)", inputs[0], 3));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (scores)", inputs[1], 3));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (boxes)", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (scores)", inputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kInt32, DType::kUInt32}));
    const auto& b = inputs[0].dims;
    const auto& s = inputs[1].dims;
    batch_ = b[0], numBoxes_ = b[1], numClasses_ = s[1];
    if (b[2] != 4 || s[0] != batch_ || s[2] != numBoxes_)
      return sdk::invalidTensor(std::string(op) + ": boxes " + dimsToString(b) + " and scores " + dimsToString(s) +
                                " must be [batch, num_boxes, 4] and [batch, num_classes, num_boxes]");
    perClass_ = maxBoxes_ == 0 ? numBoxes_ : std::min(maxBoxes_, numBoxes_);
    rows_ = size_t(batch_) * numClasses_ * (maxBoxes_ == 0 ? numBoxes_ : maxBoxes_);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {uint32_t(rows_), 3}));
    if (outputs.size() == 2) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1]", outputs[1], {DType::kUInt32, DType::kInt32}));
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[1], {1}));
    }
    order_.resize(numBoxes_);
    kept_.reserve(perClass_);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* boxes = inputs[0].as<const float>();
    if (centerPoint_) {  // (xc, yc, w, h) -> (y1, x1, y2, x2)
      corners_.resize(inputs[0].numElements());
      for (size_t i = 0; i < corners_.size(); i += 4) {
        const float xc = boxes[i], yc = boxes[i + 1], hw = boxes[i + 2] / 2.f, hh = boxes[i + 3] / 2.f;
        corners_[i] = yc - hh, corners_[i + 1] = xc - hw, corners_[i + 2] = yc + hh, corners_[i + 3] = xc + hw;
      }
      boxes = corners_.data();
    }
    const float* scores = inputs[1].as<const float>();
    int32_t* out = outputs[0].as<int32_t>();  // int32 and uint32 rows hold the same small non-negative values
    std::memset(out, 0, rows_ * 3 * sizeof(int32_t));
    size_t row = 0;
    for (uint32_t b = 0; b < batch_; ++b) {
      const float* bx = boxes + size_t(b) * numBoxes_ * 4;
      for (uint32_t c = 0; c < numClasses_; ++c) {
        const float* sc = scores + (size_t(b) * numClasses_ + c) * numBoxes_;
        std::iota(order_.begin(), order_.end(), 0u);
        std::stable_sort(order_.begin(), order_.end(), [&](uint32_t i, uint32_t j) { return sc[i] > sc[j]; });
        kept_.clear();
        for (uint32_t i : order_) {
          if (kept_.size() >= perClass_ || !(sc[i] > scoreThreshold_)) break;
          bool suppressed = false;
          for (uint32_t k : kept_)
            if (iou(bx + size_t(i) * 4, bx + size_t(k) * 4) > iouThreshold_) {
              suppressed = true;
              break;
            }
          if (suppressed) continue;
          kept_.push_back(i);
          out[row * 3 + 0] = int32_t(b), out[row * 3 + 1] = int32_t(c), out[row * 3 + 2] = int32_t(i);
          ++row;
        }
      }
    }
    if (outputs.size() == 2) *outputs[1].as<uint32_t>() = uint32_t(row);
    return Status::ok();
  }

 private:
  static float iou(const float* a, const float* b) {
    const float ay0 = std::min(a[0], a[2]), ay1 = std::max(a[0], a[2]), ax0 = std::min(a[1], a[3]), ax1 = std::max(a[1], a[3]);
    const float by0 = std::min(b[0], b[2]), by1 = std::max(b[0], b[2]), bx0 = std::min(b[1], b[3]), bx1 = std::max(b[1], b[3]);
    const float areaA = (ay1 - ay0) * (ax1 - ax0), areaB = (by1 - by0) * (bx1 - bx0);
    if (areaA <= 0.f || areaB <= 0.f) return 0.f;
    const float ih = std::max(0.f, std::min(ay1, by1) - std::max(ay0, by0));
    const float iw = std::max(0.f, std::min(ax1, bx1) - std::max(ax0, bx0));
    const float inter = ih * iw;
    return inter / (areaA + areaB - inter);
  }

  float iouThreshold_ = 0.f, scoreThreshold_ = 0.f;
  bool centerPoint_ = false;
  std::vector<float> corners_;
  uint32_t maxBoxes_ = 0, perClass_ = 0, batch_ = 0, numBoxes_ = 0, numClasses_ = 0;
  size_t rows_ = 0;
  std::vector<uint32_t> order_, kept_;
};

}  // namespace

std::unique_ptr<Kernel> makeNonMaxSuppression(const std::string& opType) {
  return opType == "NonMaxSuppression" ? std::make_unique<NonMaxSuppressionKernel>() : nullptr;
}

}  // namespace qnn::ops
