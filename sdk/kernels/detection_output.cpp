// DetectionOutput (float32), SSD post-processing by the rules of Android NNAPI's
// DETECTION_POSTPROCESSING / TFLite's detection_postprocess, which the QNN op
// names as its origin, with Caffe SSD's extras QNN adds:
//  * Decoding: anchor (yc, xc, h, w) (centre-size; one set shared by every batch
//    item, or one per item when in[2] has num_anchors * batch rows) and deltas
//    (dy, dx, dh, dw) (the first four columns of in[1]; more are ignored):
//    yc' = dy / sy * h + yc, xc' = dx / sx * w + xc, h' = e^(dh / sh) h,
//    w' = e^(dw / sw) w with delta_scaling_factors (sy, sx, sh, sw); boxes are
//    written (y1, x1, y2, x2).
//  * Candidates score >= confidence_threshold; a box is suppressed when its IoU
//    with a kept one is > the NMS threshold; with nms_eta < 1 the threshold is
//    multiplied by nms_eta after every kept box while it is above 0.5 (Caffe's
//    adaptive NMS).
//  * nms_type FAST (0): each box competes once, with its best class (the
//    background class only when use_bg_in_nms); REGULAR (1): NMS per class (up
//    to detection_limit per class, -1 = out[0]'s rows), then the best overall.
//  * Labels are class indices; without output_background the background class
//    is taken out of the numbering (classes above it move down by one).
//  Every batch item fills out[0]'s max_num_detections rows, best first; rows
//  past out[3]'s count are 0. share_location = false (per-class boxes) is not
//  supported.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class DetectionOutputKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "DetectionOutput";
    for (const char* name : {"delta_scaling_factors", "confidence_threshold", "iou_threshold"})
      if (!params.has(name)) return sdk::invalidParam(std::string(op) + ": missing mandatory param " + name);
    const std::vector<double> s = params.floats("delta_scaling_factors", {});
    if (s.size() != 4 || std::any_of(s.begin(), s.end(), [](double v) { return !(v > 0); }))
      return sdk::invalidParam(std::string(op) + ": delta_scaling_factors must be 4 values > 0");
    for (int i = 0; i < 4; ++i) scale_[i] = float(s[i]);
    confidence_ = params.f32("confidence_threshold", 0.f);
    iou_ = params.f32("iou_threshold", 0.f);
    const uint32_t type = params.u32("nms_type", 0);
    if (type > 1) return sdk::invalidParam(std::string(op) + ": nms_type must be 0 (FAST) or 1 (REGULAR)");
    regular_ = type == 1;
    background_ = params.u32("background_class_idx", 0);
    bgInNms_ = params.b("use_bg_in_nms", false);
    outputBackground_ = params.b("output_background", true);
    if (!params.b("share_location", true))
      return sdk::notSupported(std::string(op) + ": share_location = false is not supported on the CPU backend");
    eta_ = params.f32("nms_eta", 1.f);
    if (!(eta_ > 0.f && eta_ <= 1.f)) return sdk::invalidParam(std::string(op) + ": nms_eta must be in (0, 1]");
    limit_ = params.i32("detection_limit", -1);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "DetectionOutput";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 3, 3, outputs, 4));
    for (size_t i = 0; i < 3; ++i) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "float input", inputs[i], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (scores)", inputs[0], 3));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (box deltas)", inputs[1], 3));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (anchors)", inputs[2], 2));
    batch_ = inputs[0].dims[0], anchors_ = inputs[0].dims[1], classes_ = inputs[0].dims[2];
    deltaCols_ = inputs[1].dims[2];
    if (inputs[1].dims[0] != batch_ || inputs[1].dims[1] != anchors_ || deltaCols_ < 4)
      return sdk::invalidTensor(std::string(op) + ": box deltas " + dimsToString(inputs[1].dims) + " must be [" +
                                std::to_string(batch_) + ", " + std::to_string(anchors_) + ", >= 4]");
    const uint32_t anchorRows = inputs[2].dims[0];
    if (inputs[2].dims[1] != 4 || (anchorRows != anchors_ && anchorRows != anchors_ * batch_))
      return sdk::invalidTensor(std::string(op) + ": anchors " + dimsToString(inputs[2].dims) + " must be [" +
                                std::to_string(anchors_) + " or " + std::to_string(anchors_ * batch_) + ", 4]");
    anchorsPerItem_ = anchorRows != anchors_ || batch_ == 1;
    if (background_ >= classes_ && classes_ > 0 && (!bgInNms_ || !outputBackground_))
      return sdk::invalidParam(std::string(op) + ": background_class_idx " + std::to_string(background_) +
                               " is not one of the " + std::to_string(classes_) + " classes");
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[0] (scores)", outputs[0], 2));
    rows_ = outputs[0].dims[1];
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {batch_, rows_}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[1], {batch_, rows_, 4}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[2], {batch_, rows_}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[3], {batch_}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0] (scores)", outputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1] (boxes)", outputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[2] (labels)", outputs[2], {DType::kInt32, DType::kUInt32}));
    return checkDType(op, "out[3] (count)", outputs[3], {DType::kInt32, DType::kUInt32});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* scores = inputs[0].as<const float>();
    const float* deltas = inputs[1].as<const float>();
    const float* anchors = inputs[2].as<const float>();
    float* outScores = outputs[0].as<float>();
    float* outBoxes = outputs[1].as<float>();
    int32_t* outLabels = outputs[2].as<int32_t>();
    int32_t* outCount = outputs[3].as<int32_t>();
    std::vector<float> boxes(size_t(anchors_) * 4);
    for (uint32_t b = 0; b < batch_; ++b) {
      decode(deltas + size_t(b) * anchors_ * deltaCols_, anchors + (anchorsPerItem_ ? size_t(b) * anchors_ * 4 : 0),
             boxes.data());
      const float* s = scores + size_t(b) * anchors_ * classes_;
      std::vector<Detection> found = regular_ ? regularNms(s, boxes) : fastNms(s, boxes);
      std::memset(outScores + size_t(b) * rows_, 0, rows_ * sizeof(float));
      std::memset(outBoxes + size_t(b) * rows_ * 4, 0, rows_ * 4 * sizeof(float));
      std::memset(outLabels + size_t(b) * rows_, 0, rows_ * sizeof(int32_t));
      for (size_t j = 0; j < found.size(); ++j) {
        outScores[size_t(b) * rows_ + j] = found[j].score;
        std::memcpy(outBoxes + (size_t(b) * rows_ + j) * 4, boxes.data() + size_t(found[j].anchor) * 4, 4 * sizeof(float));
        outLabels[size_t(b) * rows_ + j] = label(found[j].cls);
      }
      outCount[b] = int32_t(found.size());
    }
    return Status::ok();
  }

 private:
  struct Detection {
    uint32_t anchor, cls;
    float score;
  };

  void decode(const float* d, const float* a, float* out) const {
    for (uint32_t i = 0; i < anchors_; ++i) {
      const float* di = d + size_t(i) * deltaCols_;
      const float* ai = a + size_t(i) * 4;
      const float yc = di[0] / scale_[0] * ai[2] + ai[0], xc = di[1] / scale_[1] * ai[3] + ai[1];
      const float h = std::exp(di[2] / scale_[2]) * ai[2], w = std::exp(di[3] / scale_[3]) * ai[3];
      float* o = out + size_t(i) * 4;
      o[0] = yc - 0.5f * h, o[1] = xc - 0.5f * w, o[2] = yc + 0.5f * h, o[3] = xc + 0.5f * w;
    }
  }

  bool competes(uint32_t c) const { return bgInNms_ || c != background_; }

  int32_t label(uint32_t c) const { return int32_t(!outputBackground_ && c > background_ ? c - 1 : c); }

  static float iou(const float* a, const float* b) {
    const float areaA = (a[2] - a[0]) * (a[3] - a[1]), areaB = (b[2] - b[0]) * (b[3] - b[1]);
    if (areaA <= 0.f || areaB <= 0.f) return 0.f;
    const float inter = std::max(std::min(a[2], b[2]) - std::max(a[0], b[0]), 0.f) *
                        std::max(std::min(a[3], b[3]) - std::max(a[1], b[1]), 0.f);
    return inter / (areaA + areaB - inter);
  }

  // Single-class NMS over (anchor, score) candidates, best first (ties: lower anchor).
  std::vector<Detection> nms(std::vector<Detection> cand, const std::vector<float>& boxes, size_t limit) const {
    cand.erase(std::remove_if(cand.begin(), cand.end(), [&](const Detection& d) { return !(d.score >= confidence_); }),
               cand.end());
    std::stable_sort(cand.begin(), cand.end(), [](const Detection& x, const Detection& y) { return x.score > y.score; });
    std::vector<Detection> kept;
    float threshold = iou_;
    for (const Detection& d : cand) {
      if (kept.size() >= limit) break;
      bool keep = true;
      for (const Detection& k : kept)
        if (iou(boxes.data() + size_t(d.anchor) * 4, boxes.data() + size_t(k.anchor) * 4) > threshold) {
          keep = false;
          break;
        }
      if (!keep) continue;
      kept.push_back(d);
      if (eta_ < 1.f && threshold > 0.5f) threshold *= eta_;
    }
    return kept;
  }

  std::vector<Detection> fastNms(const float* s, const std::vector<float>& boxes) const {
    std::vector<Detection> cand;
    for (uint32_t i = 0; i < anchors_; ++i) {
      int best = -1;
      for (uint32_t c = 0; c < classes_; ++c)
        if (competes(c) && (best < 0 || s[size_t(i) * classes_ + c] > s[size_t(i) * classes_ + best])) best = int(c);
      if (best >= 0) cand.push_back({i, uint32_t(best), s[size_t(i) * classes_ + best]});
    }
    return nms(std::move(cand), boxes, rows_);
  }

  std::vector<Detection> regularNms(const float* s, const std::vector<float>& boxes) const {
    const size_t perClass = limit_ > 0 ? size_t(limit_) : rows_;
    std::vector<Detection> all;
    for (uint32_t c = 0; c < classes_; ++c) {
      if (!competes(c)) continue;
      std::vector<Detection> cand;
      for (uint32_t i = 0; i < anchors_; ++i) cand.push_back({i, c, s[size_t(i) * classes_ + c]});
      for (const Detection& d : nms(std::move(cand), boxes, perClass)) all.push_back(d);
    }
    std::stable_sort(all.begin(), all.end(), [](const Detection& x, const Detection& y) { return x.score > y.score; });
    if (all.size() > rows_) all.resize(rows_);
    return all;
  }

  float scale_[4] = {1, 1, 1, 1};
  float confidence_ = 0.f, iou_ = 0.f, eta_ = 1.f;
  bool regular_ = false, bgInNms_ = false, outputBackground_ = true, anchorsPerItem_ = false;
  uint32_t background_ = 0;
  int32_t limit_ = -1;
  uint32_t batch_ = 0, anchors_ = 0, classes_ = 0, deltaCols_ = 4, rows_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeDetectionOutput(const std::string& opType) {
  if (opType == "DetectionOutput") return std::make_unique<DetectionOutputKernel>();
  return nullptr;
}

}  // namespace qnn::ops
