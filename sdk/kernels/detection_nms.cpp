// Detection post-processing with suppression (float32 boxes and scores), one
// greedy rule shared by three ops: take the best remaining candidate (ties: the
// lower index), keep it, decay every other candidate's score by weight(IoU) and
// drop those the op's rule rejects.
//  * BoxWithNmsLimit: Android NNAPI's BOX_WITH_NMS_LIMIT with Caffe2's extra
//    outputs. Per batch (RoIs grouped by in[2]'s batch index) and per class
//    except class 0 (background): candidates scoring > score_threshold; weight
//    hard (IoU < iou_threshold ? 1 : 0), linear (... : 1 - IoU) or gaussian
//    exp(-IoU^2 / sigma) by nms_kernel_method; a candidate whose weight is 0 or
//    whose score falls below nms_score_threshold is dropped; pre_nms_limit (> 0)
//    caps the detections of each class and of each batch (the best kept).
//    Output rows per batch by class, then by score. out[4] counts each batch's
//    rows, out[5] gives each row's RoI index, out[6] counts the rows of each class.
//  * MultiClassNms: TensorFlow's NonMaxSuppressionV5 per batch and class
//    (candidates scoring > score_threshold; hard: drop IoU > iou_threshold;
//    soft (soft_nms_sigma > 0): score *= exp(-0.5 IoU^2 / sigma); drop a score <=
//    score_threshold), then each batch's selections by score (ties: class, box),
//    up to out[0]'s max_num_boxes rows. in[2..] (extra per-box features) are
//    gathered into out[4..]. out[3] counts each batch's rows.
//  * GenerateProposals: NNAPI's GENERATE_PROPOSALS (NHWC): anchors shifted by
//    the cell position times img_size_ratio, moved by the deltas (dw, dh capped at
//    log(1000/16) with bbox_xform_clip, as Detectron), clipped to the image; the
//    pre_nms_limit best, those wider and higher than min_size with their centre
//    inside the image, then hard NMS (drop IoU >= iou_threshold) up to
//    post_nms_limit per batch.
//  * CombinedNms: TensorFlow's CombinedNonMaxSuppression: per batch and class
//    (boxes [b, n, q, 4], q = 1 shared or one per class), candidates scoring >
//    score_threshold, drop IoU > iou_threshold, up to max_boxes_per_class; then
//    the batch's best by score into max_total_boxes rows (min(max_total_boxes,
//    max_boxes_per_class * classes) with pad_per_class); clip_boxes clamps the
//    output corners to [0, 1]; out[3] counts the valid rows.
//  Boxes are (x1, y1, x2, y2) (MultiClassNms, CombinedNms: either corner order). The outputs
//  have a fixed number of rows (QNN's maximum dims; this backend does not shrink
//  them): rows past the count are 0 (GenerateProposals, which has no count
//  output, marks them with batch index -1). More selections than rows fail the
//  execute, outputs untouched.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

float iouOf(const float* a, const float* b, bool normalizeCorners) {
  float ax1 = a[0], ay1 = a[1], ax2 = a[2], ay2 = a[3], bx1 = b[0], by1 = b[1], bx2 = b[2], by2 = b[3];
  if (normalizeCorners) {
    if (ax1 > ax2) std::swap(ax1, ax2);
    if (ay1 > ay2) std::swap(ay1, ay2);
    if (bx1 > bx2) std::swap(bx1, bx2);
    if (by1 > by2) std::swap(by1, by2);
  }
  const float inter = std::max(std::min(ax2, bx2) - std::max(ax1, bx1), 0.f) *
                      std::max(std::min(ay2, by2) - std::max(ay1, by1), 0.f);
  const float uni = (ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - inter;
  return uni > 0.f ? inter / uni : 0.f;
}

struct Candidate {
  uint32_t index;  // the op's own numbering (box, RoI or anchor)
  float score;
};

// The greedy rule. box(i) gives candidate i's corners; weight(iou) the decay;
// keep(score) whether a decayed candidate stays. Returns the kept candidates in
// selection order with their final scores, at most `limit` (0: no limit).
std::vector<Candidate> greedySuppress(std::vector<Candidate> cand, const std::function<const float*(uint32_t)>& box,
                                      const std::function<float(float)>& weight,
                                      const std::function<bool(float)>& keep, size_t limit, bool normalizeCorners) {
  std::vector<Candidate> kept;
  while (!cand.empty() && (limit == 0 || kept.size() < limit)) {
    auto best = std::min_element(cand.begin(), cand.end(), [](const Candidate& a, const Candidate& b) {
      return a.score != b.score ? a.score > b.score : a.index < b.index;
    });
    const Candidate sel = *best;
    cand.erase(best);
    kept.push_back(sel);
    const float* selBox = box(sel.index);
    std::vector<Candidate> rest;
    rest.reserve(cand.size());
    for (Candidate c : cand) {
      const float w = weight(iouOf(selBox, box(c.index), normalizeCorners));
      c.score *= w;
      if (w > 0.f && keep(c.score)) rest.push_back(c);
    }
    cand.swap(rest);
  }
  return kept;
}

Status checkIndexDType(const char* op, const char* role, const TensorView& t) {
  return checkDType(op, role, t, {DType::kInt32, DType::kUInt32});
}

// MultiClassNms / CombinedNms outputs: boxes [batch, rows, 4] and scores [batch, rows]
// FLOAT_32, classes [batch, rows] (integer or float), valid counts [batch].
Status checkPaddedDetections(const char* op, const std::vector<TensorView>& outputs, uint32_t batch, uint32_t rows,
                             const char* countRole) {
  QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {batch, rows, 4}));
  QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[1], {batch, rows}));
  QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[2], {batch, rows}));
  QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[3], {batch}));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0] (boxes)", outputs[0], {DType::kFloat32}));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1] (scores)", outputs[1], {DType::kFloat32}));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[2] (classes)", outputs[2], {DType::kInt32, DType::kUInt32, DType::kFloat32}));
  return checkIndexDType(op, countRole, outputs[3]);
}

Status tooManyRows(const char* op, size_t need, size_t rows) {
  return sdk::invalidTensor(std::string(op) + ": " + std::to_string(need) + " selections do not fit the outputs' " +
                            std::to_string(rows) + " rows");
}

// ---------------------------------------------------------------------------
class BoxWithNmsLimitKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "BoxWithNmsLimit";
    for (const char* name : {"nms_kernel_method", "nms_score_threshold", "iou_threshold", "sigma"})
      if (!params.has(name)) return sdk::invalidParam(std::string(op) + ": missing mandatory param " + name);
    method_ = params.i32("nms_kernel_method", 0);
    if (method_ < 0 || method_ > 2)
      return sdk::invalidParam(std::string(op) + ": nms_kernel_method must be 0 (hard), 1 (linear) or 2 (gaussian)");
    nmsScoreThreshold_ = params.f32("nms_score_threshold", 0.f);
    scoreThreshold_ = params.f32("score_threshold", 0.f);
    limit_ = params.i32("pre_nms_limit", -1);
    iouThreshold_ = params.f32("iou_threshold", 0.f);
    sigma_ = params.f32("sigma", 0.f);
    if (method_ == 2 && !(sigma_ > 0.f)) return sdk::invalidParam(std::string(op) + ": gaussian needs sigma > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "BoxWithNmsLimit";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 3, 4, outputs, std::clamp<size_t>(outputs.size(), 4, 7)));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (boxes)", inputs[0], 2));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (scores)", inputs[1], 2));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (batch indices)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (boxes)", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (scores)", inputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkIndexDType(op, "in[2] (batch indices)", inputs[2]));
    rois_ = inputs[1].dims[0], classes_ = inputs[1].dims[1];
    if (inputs[0].dims != std::vector<uint32_t>{rois_, classes_ * 4} || inputs[2].dims[0] != rois_)
      return sdk::invalidTensor(std::string(op) + ": needs boxes [num_rois, num_classes * 4], scores [num_rois, "
                                "num_classes] and batch indices [num_rois]");
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[0] (boxes)", outputs[0], 2));
    rows_ = outputs[0].dims[0];
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {rows_, 4}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0] (boxes)", outputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[1], {rows_}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1] (scores)", outputs[1], {DType::kFloat32}));
    for (size_t i : {2, 3}) {
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[i], {rows_}));
      QNN_SDK_RETURN_IF_ERROR(checkIndexDType(op, "out[2..3]", outputs[i]));
    }
    batches_ = 1;
    if (inputs.size() == 4) {
      QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[3] (batch splits)", inputs[3], 1));
      batches_ = inputs[3].dims[0];
    }
    if (outputs.size() >= 5) {
      QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[4] (batch splits)", outputs[4], 1));
      if (inputs.size() == 4) QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[4], {batches_}));
      batches_ = outputs[4].dims[0];
      QNN_SDK_RETURN_IF_ERROR(checkIndexDType(op, "out[4] (batch splits)", outputs[4]));
    }
    if (outputs.size() >= 6) {
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[5], {rows_}));
      QNN_SDK_RETURN_IF_ERROR(checkIndexDType(op, "out[5] (keeps)", outputs[5]));
    }
    if (outputs.size() == 7) {
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[6], {classes_}));
      QNN_SDK_RETURN_IF_ERROR(checkIndexDType(op, "out[6] (keeps size)", outputs[6]));
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "BoxWithNmsLimit";
    const float* boxes = inputs[0].as<const float>();
    const float* scores = inputs[1].as<const float>();
    const int32_t* batch = inputs[2].as<const int32_t>();
    for (uint32_t r = 0; r < rois_; ++r)
      if (batch[r] < 0 || uint32_t(batch[r]) >= batches_)
        return sdk::invalidTensor(std::string(op) + ": batch index " + std::to_string(batch[r]) + " of RoI " +
                                  std::to_string(r) + " is outside [0, " + std::to_string(batches_) + ")");
    const float thr = iouThreshold_, sigma = sigma_;
    std::function<float(float)> weight;
    if (method_ == 0) weight = [thr](float iou) { return iou < thr ? 1.f : 0.f; };
    else if (method_ == 1) weight = [thr](float iou) { return iou < thr ? 1.f : 1.f - iou; };
    else weight = [sigma](float iou) { return std::exp(-iou * iou / sigma); };
    const float nmsMin = nmsScoreThreshold_;
    const auto keep = [nmsMin](float s) { return s >= nmsMin; };
    const size_t limit = limit_ > 0 ? size_t(limit_) : 0;

    struct Row {
      uint32_t roi, cls;
      float score;
    };
    std::vector<std::vector<Row>> perBatch(batches_);
    for (uint32_t b = 0; b < batches_; ++b) {
      std::vector<Row>& rows = perBatch[b];
      for (uint32_t c = 1; c < classes_; ++c) {
        std::vector<Candidate> cand;
        for (uint32_t r = 0; r < rois_; ++r)
          if (uint32_t(batch[r]) == b && scores[size_t(r) * classes_ + c] > scoreThreshold_)
            cand.push_back({r, scores[size_t(r) * classes_ + c]});
        const auto box = [&](uint32_t r) { return boxes + (size_t(r) * classes_ + c) * 4; };
        for (const Candidate& k : greedySuppress(std::move(cand), box, weight, keep, limit, false))
          rows.push_back({k.index, c, k.score});
      }
      std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.score > b.score; });
      if (limit && rows.size() > limit) rows.resize(limit);
      std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.cls != b.cls ? a.cls < b.cls : a.score > b.score;
      });
    }
    size_t total = 0;
    for (const auto& rows : perBatch) total += rows.size();
    if (total > rows_) return tooManyRows(op, total, rows_);

    float* outBoxes = outputs[0].as<float>();
    float* outScores = outputs[1].as<float>();
    int32_t* outClass = outputs[2].as<int32_t>();
    int32_t* outBatch = outputs[3].as<int32_t>();
    int32_t* keeps = outputs.size() >= 6 ? outputs[5].as<int32_t>() : nullptr;
    std::memset(outBoxes, 0, size_t(rows_) * 4 * sizeof(float));
    std::fill(outScores, outScores + rows_, 0.f);
    std::fill(outClass, outClass + rows_, 0);
    std::fill(outBatch, outBatch + rows_, 0);
    if (keeps) std::fill(keeps, keeps + rows_, 0);
    std::vector<int32_t> perClass(classes_, 0);
    size_t row = 0;
    for (uint32_t b = 0; b < batches_; ++b)
      for (const Row& r : perBatch[b]) {
        std::memcpy(outBoxes + row * 4, boxes + (size_t(r.roi) * classes_ + r.cls) * 4, 4 * sizeof(float));
        outScores[row] = r.score, outClass[row] = int32_t(r.cls), outBatch[row] = int32_t(b);
        if (keeps) keeps[row] = int32_t(r.roi);
        ++perClass[r.cls], ++row;
      }
    if (outputs.size() >= 5) {
      int32_t* splits = outputs[4].as<int32_t>();
      for (uint32_t b = 0; b < batches_; ++b) splits[b] = int32_t(perBatch[b].size());
    }
    if (outputs.size() == 7) std::copy(perClass.begin(), perClass.end(), outputs[6].as<int32_t>());
    return Status::ok();
  }

 private:
  int32_t method_ = 0, limit_ = -1;
  float nmsScoreThreshold_ = 0.f, scoreThreshold_ = 0.f, iouThreshold_ = 0.f, sigma_ = 0.f;
  uint32_t rois_ = 0, classes_ = 0, batches_ = 1, rows_ = 0;
};

// ---------------------------------------------------------------------------
class MultiClassNmsKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("iou_threshold")) return sdk::invalidParam("MultiClassNms: missing mandatory param iou_threshold");
    iouThreshold_ = params.f32("iou_threshold", 0.f);
    scoreThreshold_ = params.f32("score_threshold", 0.f);
    sigma_ = params.f32("soft_nms_sigma", 0.f);
    if (!(sigma_ >= 0.f)) return sdk::invalidParam("MultiClassNms: soft_nms_sigma must be >= 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "MultiClassNms";
    if (inputs.size() < 2 || outputs.size() != inputs.size() + 2)
      return sdk::invalidTensor(std::string(op) + ": expects boxes, scores and k feature inputs with 4 + k outputs, got " +
                                std::to_string(inputs.size()) + " inputs and " + std::to_string(outputs.size()) +
                                " outputs");
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (boxes)", inputs[0], 3));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (scores)", inputs[1], 3));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (boxes)", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (scores)", inputs[1], {DType::kFloat32}));
    batch_ = inputs[1].dims[0], boxes_ = inputs[1].dims[1], classes_ = inputs[1].dims[2];
    if (inputs[0].dims != std::vector<uint32_t>{batch_, boxes_, 4})
      return sdk::invalidTensor(std::string(op) + ": boxes " + dimsToString(inputs[0].dims) + " must be [" +
                                std::to_string(batch_) + ", " + std::to_string(boxes_) + ", 4]");
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[0] (boxes)", outputs[0], 3));
    rows_ = outputs[0].dims[1];
    QNN_SDK_RETURN_IF_ERROR(checkPaddedDetections(op, outputs, batch_, rows_, "out[3] (valid count)"));
    for (size_t k = 2; k < inputs.size(); ++k) {
      const TensorView& in = inputs[k];
      const TensorView& out = outputs[k + 2];
      if (in.rank() < 2 || in.dims[0] != batch_ || in.dims[1] != boxes_)
        return sdk::invalidTensor(std::string(op) + ": feature in[" + std::to_string(k) + "] " + dimsToString(in.dims) +
                                  " must start with [batch, num_boxes]");
      std::vector<uint32_t> want = in.dims;
      want[1] = rows_;
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out, want));
      if (out.dtype != in.dtype)
        return sdk::invalidTensor(std::string(op) + ": out[" + std::to_string(k + 2) + "] must have in[" +
                                  std::to_string(k) + "]'s datatype");
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* boxes = inputs[0].as<const float>();
    const float* scores = inputs[1].as<const float>();
    const float thr = iouThreshold_, scale = sigma_ > 0.f ? -0.5f / sigma_ : 0.f, minScore = scoreThreshold_;
    const bool soft = sigma_ > 0.f;
    const auto weight = [thr, scale, soft](float iou) {
      return soft ? std::exp(scale * iou * iou) : (iou <= thr ? 1.f : 0.f);
    };
    const auto keep = [minScore](float s) { return s > minScore; };
    struct Row {
      uint32_t box, cls;
      float score;
    };
    std::vector<std::vector<Row>> perBatch(batch_);
    for (uint32_t b = 0; b < batch_; ++b) {
      const float* bb = boxes + size_t(b) * boxes_ * 4;
      const auto box = [bb](uint32_t i) { return bb + size_t(i) * 4; };
      for (uint32_t c = 0; c < classes_; ++c) {
        std::vector<Candidate> cand;
        for (uint32_t i = 0; i < boxes_; ++i) {
          const float s = scores[(size_t(b) * boxes_ + i) * classes_ + c];
          if (s > minScore) cand.push_back({i, s});
        }
        for (const Candidate& k : greedySuppress(std::move(cand), box, weight, keep, rows_, true))
          perBatch[b].push_back({k.index, c, k.score});
      }
      auto& rows = perBatch[b];
      std::stable_sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.score > y.score; });
      if (rows.size() > rows_) rows.resize(rows_);
    }
    float* outBoxes = outputs[0].as<float>();
    float* outScores = outputs[1].as<float>();
    std::memset(outBoxes, 0, size_t(batch_) * rows_ * 4 * sizeof(float));
    std::memset(outScores, 0, size_t(batch_) * rows_ * sizeof(float));
    std::memset(outputs[2].data, 0, outputs[2].byteSize());
    for (size_t k = 4; k < outputs.size(); ++k) std::memset(outputs[k].data, 0, outputs[k].byteSize());
    for (uint32_t b = 0; b < batch_; ++b) {
      const auto& rows = perBatch[b];
      outputs[3].as<int32_t>()[b] = int32_t(rows.size());
      for (size_t j = 0; j < rows.size(); ++j) {
        const size_t o = size_t(b) * rows_ + j;
        std::memcpy(outBoxes + o * 4, boxes + (size_t(b) * boxes_ + rows[j].box) * 4, 4 * sizeof(float));
        outScores[o] = rows[j].score;
        if (outputs[2].dtype == DType::kFloat32) outputs[2].as<float>()[o] = float(rows[j].cls);
        else outputs[2].as<int32_t>()[o] = int32_t(rows[j].cls);
        for (size_t k = 2; k < inputs.size(); ++k) {
          const size_t rowBytes = inputs[k].byteSize() / (size_t(batch_) * boxes_);
          std::memcpy(outputs[k + 2].as<uint8_t>() + o * rowBytes,
                      inputs[k].as<const uint8_t>() + (size_t(b) * boxes_ + rows[j].box) * rowBytes, rowBytes);
        }
      }
    }
    return Status::ok();
  }

 private:
  float iouThreshold_ = 0.f, scoreThreshold_ = 0.f, sigma_ = 0.f;
  uint32_t batch_ = 0, boxes_ = 0, classes_ = 0, rows_ = 0;
};

// ---------------------------------------------------------------------------
class GenerateProposalsKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "GenerateProposals";
    if (!params.has("img_size_ratio") || !params.has("iou_threshold"))
      return sdk::invalidParam(std::string(op) + ": img_size_ratio and iou_threshold are mandatory");
    const std::vector<double> ratio = params.floats("img_size_ratio", {});
    if (ratio.size() != 2 || !(ratio[0] > 0) || !(ratio[1] > 0))
      return sdk::invalidParam(std::string(op) + ": img_size_ratio must be 2 values > 0");
    strideH_ = float(ratio[0]), strideW_ = float(ratio[1]);
    minSize_ = params.f32("min_size", 0.f);
    preLimit_ = params.u32("pre_nms_limit", 0), postLimit_ = params.u32("post_nms_limit", 0);
    iouThreshold_ = params.f32("iou_threshold", 0.f);
    clip_ = params.b("bbox_xform_clip", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "GenerateProposals";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 4, 4, outputs, 3));
    for (size_t i = 0; i < 4; ++i) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "float input", inputs[i], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (scores)", inputs[0], 4));
    const auto& d = inputs[0].dims;
    batch_ = d[0], h_ = d[1], w_ = d[2], anchors_ = d[3];
    if (inputs[1].dims != std::vector<uint32_t>{batch_, h_, w_, anchors_ * 4} ||
        inputs[2].dims != std::vector<uint32_t>{anchors_, 4} || inputs[3].dims != std::vector<uint32_t>{batch_, 2})
      return sdk::invalidTensor(std::string(op) + ": needs scores [b, h, w, a], deltas [b, h, w, a * 4], anchors "
                                "[a, 4] and image sizes [b, 2]");
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[0] (scores)", outputs[0], 1));
    rows_ = outputs[0].dims[0];
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[1], {rows_, 4}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[2], {rows_}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0] (scores)", outputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1] (boxes)", outputs[1], {DType::kFloat32}));
    return checkIndexDType(op, "out[2] (batch indices)", outputs[2]);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t perImage = size_t(h_) * w_ * anchors_;
    const float* scores = inputs[0].as<const float>();
    const float* deltas = inputs[1].as<const float>();
    const float* anchors = inputs[2].as<const float>();
    const float* sizes = inputs[3].as<const float>();
    const float maxLog = std::log(1000.f / 16.f), thr = iouThreshold_;
    struct Row {
      float score, box[4];
      int32_t batch;
    };
    std::vector<Row> rows;
    std::vector<float> boxes(perImage * 4);
    for (uint32_t b = 0; b < batch_; ++b) {
      const float imageH = sizes[b * 2], imageW = sizes[b * 2 + 1];
      const float* s = scores + b * perImage;
      for (size_t i = 0; i < perImage; ++i) {
        const size_t cell = i / anchors_, a = i % anchors_;
        const float sx = float(cell % w_) * strideW_, sy = float(cell / w_) * strideH_;
        const float* an = anchors + a * 4;
        const float x1 = an[0] + sx, y1 = an[1] + sy, x2 = an[2] + sx, y2 = an[3] + sy;
        const float* dl = deltas + (b * perImage + i) * 4;
        const float bw = x2 - x1, bh = y2 - y1, cx = x1 + 0.5f * bw, cy = y1 + 0.5f * bh;
        float dw = dl[2], dh = dl[3];
        if (clip_) dw = std::min(dw, maxLog), dh = std::min(dh, maxLog);
        const float ncx = cx + dl[0] * bw, ncy = cy + dl[1] * bh, nw = std::exp(dw) * bw, nh = std::exp(dh) * bh;
        float* o = boxes.data() + i * 4;
        o[0] = std::clamp(ncx - 0.5f * nw, 0.f, imageW), o[1] = std::clamp(ncy - 0.5f * nh, 0.f, imageH);
        o[2] = std::clamp(ncx + 0.5f * nw, 0.f, imageW), o[3] = std::clamp(ncy + 0.5f * nh, 0.f, imageH);
      }
      std::vector<uint32_t> order(perImage);
      std::iota(order.begin(), order.end(), 0u);
      if (preLimit_ > 0 && preLimit_ < perImage) {
        std::stable_sort(order.begin(), order.end(), [s](uint32_t x, uint32_t y) { return s[x] > s[y]; });
        order.resize(preLimit_);
      }
      std::vector<Candidate> cand;
      for (uint32_t i : order) {
        const float* o = boxes.data() + size_t(i) * 4;
        const float bw = o[2] - o[0], bh = o[3] - o[1];
        if (bw > minSize_ && bh > minSize_ && o[0] + bw / 2 < imageW && o[1] + bh / 2 < imageH) cand.push_back({i, s[i]});
      }
      const auto box = [&boxes](uint32_t i) { return boxes.data() + size_t(i) * 4; };
      const auto weight = [thr](float iou) { return iou < thr ? 1.f : 0.f; };
      for (const Candidate& k : greedySuppress(std::move(cand), box, weight, [](float) { return true; }, postLimit_, false)) {
        Row r{k.score, {}, int32_t(b)};
        std::memcpy(r.box, box(k.index), sizeof(r.box));
        rows.push_back(r);
      }
    }
    if (rows.size() > rows_) return tooManyRows("GenerateProposals", rows.size(), rows_);
    float* outScores = outputs[0].as<float>();
    float* outBoxes = outputs[1].as<float>();
    int32_t* outBatch = outputs[2].as<int32_t>();
    for (size_t j = 0; j < rows_; ++j) {
      const bool valid = j < rows.size();
      outScores[j] = valid ? rows[j].score : 0.f;
      for (int k = 0; k < 4; ++k) outBoxes[j * 4 + k] = valid ? rows[j].box[k] : 0.f;
      outBatch[j] = valid ? rows[j].batch : -1;
    }
    return Status::ok();
  }

 private:
  float strideH_ = 1.f, strideW_ = 1.f, minSize_ = 0.f, iouThreshold_ = 0.f;
  uint32_t preLimit_ = 0, postLimit_ = 0;
  bool clip_ = false;
  uint32_t batch_ = 0, h_ = 0, w_ = 0, anchors_ = 0, rows_ = 0;
};

// ---------------------------------------------------------------------------
class CombinedNmsKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "CombinedNms";
    for (const char* name : {"max_boxes_per_class", "max_total_boxes"})
      if (!params.has(name)) return sdk::invalidParam(std::string(op) + ": missing mandatory param " + name);
    perClass_ = params.u32("max_boxes_per_class", 0), total_ = params.u32("max_total_boxes", 0);
    iouThreshold_ = params.f32("iou_threshold", 0.5f);
    scoreThreshold_ = params.f32("score_threshold", -std::numeric_limits<float>::infinity());
    padPerClass_ = params.b("pad_per_class", false), clip_ = params.b("clip_boxes", true);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "CombinedNms";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 4));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (boxes)", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (scores)", inputs[1], 3));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (boxes)", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (scores)", inputs[1], {DType::kFloat32}));
    batch_ = inputs[1].dims[0], boxes_ = inputs[1].dims[1], classes_ = inputs[1].dims[2];
    const auto& bd = inputs[0].dims;
    q_ = bd[2];
    if (bd[0] != batch_ || bd[1] != boxes_ || bd[3] != 4 || (q_ != 1 && q_ != classes_))
      return sdk::invalidTensor(std::string(op) + ": boxes " + dimsToString(bd) + " must be [" + std::to_string(batch_) +
                                ", " + std::to_string(boxes_) + ", 1 or " + std::to_string(classes_) + ", 4]");
    rows_ = padPerClass_ ? uint32_t(std::min<uint64_t>(total_, uint64_t(perClass_) * classes_)) : total_;
    return checkPaddedDetections(op, outputs, batch_, rows_, "out[3] (valid detections)");
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* boxes = inputs[0].as<const float>();
    const float* scores = inputs[1].as<const float>();
    const float thr = iouThreshold_, minScore = scoreThreshold_;
    const auto weight = [thr](float iou) { return iou <= thr ? 1.f : 0.f; };
    const auto keep = [](float) { return true; };
    struct Row {
      const float* box;
      uint32_t cls;
      float score;
    };
    float* outBoxes = outputs[0].as<float>();
    float* outScores = outputs[1].as<float>();
    for (uint32_t b = 0; b < batch_; ++b) {
      std::vector<Row> rows;
      for (uint32_t c = 0; c < classes_; ++c) {
        const uint32_t slot = q_ == 1 ? 0 : c;
        const auto box = [&](uint32_t i) { return boxes + ((size_t(b) * boxes_ + i) * q_ + slot) * 4; };
        std::vector<Candidate> cand;
        for (uint32_t i = 0; i < boxes_; ++i) {
          const float sc = scores[(size_t(b) * boxes_ + i) * classes_ + c];
          if (sc > minScore) cand.push_back({i, sc});
        }
        if (perClass_ == 0) continue;
        for (const Candidate& k : greedySuppress(std::move(cand), box, weight, keep, perClass_, true))
          rows.push_back({box(k.index), c, k.score});
      }
      std::stable_sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.score > y.score; });
      if (rows.size() > rows_) rows.resize(rows_);
      for (uint32_t j = 0; j < rows_; ++j) {
        const size_t o = size_t(b) * rows_ + j;
        const bool valid = j < rows.size();
        for (int k = 0; k < 4; ++k) {
          const float v = valid ? rows[j].box[k] : 0.f;
          outBoxes[o * 4 + k] = clip_ ? std::clamp(v, 0.f, 1.f) : v;
        }
        outScores[o] = valid ? rows[j].score : 0.f;
        const uint32_t cls = valid ? rows[j].cls : 0;
        if (outputs[2].dtype == DType::kFloat32) outputs[2].as<float>()[o] = float(cls);
        else outputs[2].as<int32_t>()[o] = int32_t(cls);
      }
      outputs[3].as<int32_t>()[b] = int32_t(rows.size());
    }
    return Status::ok();
  }

 private:
  uint32_t perClass_ = 0, total_ = 0, rows_ = 0, batch_ = 0, boxes_ = 0, classes_ = 0, q_ = 1;
  float iouThreshold_ = 0.5f, scoreThreshold_ = 0.f;
  bool padPerClass_ = false, clip_ = true;
};

}  // namespace

std::unique_ptr<Kernel> makeDetectionNms(const std::string& opType) {
  if (opType == "BoxWithNmsLimit") return std::make_unique<BoxWithNmsLimitKernel>();
  if (opType == "MultiClassNms") return std::make_unique<MultiClassNmsKernel>();
  if (opType == "GenerateProposals") return std::make_unique<GenerateProposalsKernel>();
  if (opType == "CombinedNms") return std::make_unique<CombinedNmsKernel>();
  return nullptr;
}

}  // namespace qnn::ops
