// Rotated-box refinement and FPN RoI routing (float32), the rules of Caffe2's
// BBoxTransform (rotated), DistributeFpnProposals and CollectRpnProposals, which
// the QNN ops mirror, with Detectron2's continuous box coordinates (no legacy
// "+1" pixel: QNN exposes no legacy_plus_one):
//  * BboxTransform: RoI k = (cx, cy, w, h, angle in degrees) of image in[3][k]
//    (0 without in[3]); per class, deltas (dx, dy, dw, dh, da) with the first
//    four divided by `weights`, dw/dh capped at log(1000/16), da in radians:
//    (cx + dx w, cy + dy h, w e^dw, h e^dh, angle + da * 180 / pi). With
//    angle_bounds [lo, hi] an angle below lo gains (hi - lo), above hi loses it.
//    Image info row b = (height, width, scale): boxes are divided by the scale
//    first; boxes with |angle| <= angle_clip_threshold are clipped to the image
//    (round(height / scale) x round(width / scale)) as corners; the result is
//    multiplied back by the scale when apply_scale (else left in the original
//    image space). Angles are never scaled. out[1] counts each image's RoIs.
//  * DistributeFpnProposals: RoI (batch, x1, y1, x2, y2) goes to level
//    clamp(floor(canonical_level + log2(sqrt(area) / canonical_scale + 1e-6)),
//    min, max); out[1 + l - min] lists level l's RoIs in input order;
//    out[0][i] = RoI i's row in those lists concatenated. Level outputs have
//    fixed rows: unused rows are (-1, 0, 0, 0, 0); too many RoIs for a level's
//    rows fail the execute.
//  * CollectRpnProposals: RoIs and scores of levels rpn_min_level..max
//    concatenated; the post_nms_top best (ties: earlier), then ordered by batch
//    index (ties: by score). Inputs at QNN's fixed positions: the levels' RoIs
//    at in[0..], their scores at in[5..]; positions of unused levels are NULL
//    tensors (trailing ones may be left out).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

constexpr float kPi = 3.14159265358979323846f;

class BboxTransformKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "BboxTransform";
    if (!params.has("weights")) return sdk::invalidParam(std::string(op) + ": missing mandatory param weights");
    const std::vector<double> w = params.floats("weights", {});
    if (w.size() != 4 || std::any_of(w.begin(), w.end(), [](double v) { return !(v > 0); }))
      return sdk::invalidParam(std::string(op) + ": weights must be 4 values > 0");
    for (int i = 0; i < 4; ++i) weights_[i] = float(w[i]);
    applyScale_ = params.b("apply_scale", true);
    if (params.has("angle_bounds")) {
      const std::vector<int64_t> b = params.ints("angle_bounds", {});
      if (b.size() != 2 || b[1] <= b[0] || (b[1] - b[0]) % 180 != 0)
        return sdk::invalidParam(std::string(op) + ": angle_bounds must be [lo, hi] with hi - lo a positive multiple of 180");
      boundLo_ = float(b[0]), boundHi_ = float(b[1]), bounded_ = true;
    }
    clipThreshold_ = params.f32("angle_clip_threshold", -1.f);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "BboxTransform";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 3, 4, outputs, 2));
    for (size_t i = 0; i < 3; ++i) {
      QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0..2]", inputs[i], 2));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0..2]", inputs[i], {DType::kFloat32}));
    }
    rois_ = inputs[0].dims[0], batches_ = inputs[2].dims[0];
    const uint32_t deltas = inputs[1].dims[1];
    if (inputs[0].dims[1] != 5 || inputs[1].dims[0] != rois_ || deltas == 0 || deltas % 5 != 0 || inputs[2].dims[1] != 3)
      return sdk::invalidTensor(std::string(op) + ": needs RoIs [n, 5], deltas [n, classes * 5] and image info "
                                "[batches, 3]");
    classes_ = deltas / 5;
    hasBatch_ = inputs.size() == 4 && !inputs[3].dims.empty();
    if (hasBatch_) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[3] (batch indices)", inputs[3], {DType::kInt32, DType::kUInt32}));
      if (inputs[3].dims != std::vector<uint32_t>{rois_})
        return sdk::invalidTensor(std::string(op) + ": in[3] (batch indices) must be [" + std::to_string(rois_) + "]");
    }
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {rois_, deltas}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1]", outputs[1], {DType::kFloat32, DType::kInt32, DType::kUInt32}));
    return checkOutputDims(op, outputs[1], {batches_});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const int32_t* batch = hasBatch_ ? inputs[3].as<const int32_t>() : nullptr;
    for (uint32_t r = 0; batch && r < rois_; ++r)
      if (batch[r] < 0 || uint32_t(batch[r]) >= batches_)
        return sdk::invalidTensor("BboxTransform: batch index " + std::to_string(batch[r]) + " of RoI " +
                                  std::to_string(r) + " is outside [0, " + std::to_string(batches_) + ")");
    const float* roi = inputs[0].as<const float>();
    const float* delta = inputs[1].as<const float>();
    const float* info = inputs[2].as<const float>();
    float* out = outputs[0].as<float>();
    const float maxLog = std::log(1000.f / 16.f);
    std::vector<uint32_t> counts(batches_, 0);
    for (uint32_t r = 0; r < rois_; ++r) {
      const uint32_t b = batch ? uint32_t(batch[r]) : 0;
      ++counts[b];
      const float* im = info + size_t(b) * 3;
      const float scale = im[2] != 0.f ? im[2] : 1.f, after = applyScale_ ? scale : 1.f;
      const float imageH = std::floor(im[0] / scale + 0.5f), imageW = std::floor(im[1] / scale + 0.5f);
      const float* box = roi + size_t(r) * 5;
      const float cx = box[0] / scale, cy = box[1] / scale, w = box[2] / scale, h = box[3] / scale;
      for (uint32_t c = 0; c < classes_; ++c) {
        const float* d = delta + (size_t(r) * classes_ + c) * 5;
        float* o = out + (size_t(r) * classes_ + c) * 5;
        const float dw = std::min(d[2] / weights_[2], maxLog), dh = std::min(d[3] / weights_[3], maxLog);
        float ncx = cx + d[0] / weights_[0] * w, ncy = cy + d[1] / weights_[1] * h;
        float nw = std::exp(dw) * w, nh = std::exp(dh) * h, angle = box[4] + d[4] * 180.f / kPi;
        if (bounded_) {
          if (angle < boundLo_) angle += boundHi_ - boundLo_;
          else if (angle > boundHi_) angle -= boundHi_ - boundLo_;
        }
        if (clipThreshold_ >= 0.f && std::abs(angle) <= clipThreshold_) {
          const float x1 = std::clamp(ncx - 0.5f * nw, 0.f, imageW), x2 = std::clamp(ncx + 0.5f * nw, 0.f, imageW);
          const float y1 = std::clamp(ncy - 0.5f * nh, 0.f, imageH), y2 = std::clamp(ncy + 0.5f * nh, 0.f, imageH);
          ncx = 0.5f * (x1 + x2), ncy = 0.5f * (y1 + y2), nw = x2 - x1, nh = y2 - y1;
        }
        o[0] = ncx * after, o[1] = ncy * after, o[2] = nw * after, o[3] = nh * after, o[4] = angle;
      }
    }
    for (uint32_t b = 0; b < batches_; ++b) {
      if (outputs[1].dtype == DType::kFloat32) outputs[1].as<float>()[b] = float(counts[b]);
      else outputs[1].as<int32_t>()[b] = int32_t(counts[b]);
    }
    return Status::ok();
  }

 private:
  float weights_[4] = {1, 1, 1, 1};
  bool applyScale_ = true, bounded_ = false, hasBatch_ = false;
  float boundLo_ = -90.f, boundHi_ = 90.f, clipThreshold_ = -1.f;
  uint32_t rois_ = 0, batches_ = 0, classes_ = 0;
};

class DistributeFpnProposalsKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "DistributeFpnProposals";
    minLevel_ = params.u32("roi_min_level", 2), maxLevel_ = params.u32("roi_max_level", 5);
    if (minLevel_ < 2 || maxLevel_ > 5 || maxLevel_ < minLevel_)
      return sdk::invalidParam(std::string(op) + ": needs 2 <= roi_min_level <= roi_max_level <= 5");
    canonicalScale_ = params.u32("roi_canonical_scale", 224), canonicalLevel_ = params.u32("roi_canonical_level", 4);
    if (canonicalScale_ == 0) return sdk::invalidParam(std::string(op) + ": roi_canonical_scale must be > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "DistributeFpnProposals";
    const size_t levels = maxLevel_ - minLevel_ + 1;
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1 + levels));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (RoIs)", inputs[0], 2));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (RoIs)", inputs[0], {DType::kFloat32}));
    rois_ = inputs[0].dims[0];
    if (inputs[0].dims[1] != 5) return sdk::invalidTensor(std::string(op) + ": in[0] must be [num_rois, 5]");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], {rois_}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0] (restore indices)", outputs[0], {DType::kInt32, DType::kUInt32}));
    for (size_t l = 1; l < outputs.size(); ++l) {
      QNN_SDK_RETURN_IF_ERROR(checkRank(op, "a level's RoIs", outputs[l], 2));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "a level's RoIs", outputs[l], {DType::kFloat32}));
      if (outputs[l].dims[1] != 5) return sdk::invalidTensor(std::string(op) + ": level outputs must be [rows, 5]");
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* roi = inputs[0].as<const float>();
    const size_t levels = outputs.size() - 1;
    std::vector<std::vector<uint32_t>> members(levels);
    for (uint32_t r = 0; r < rois_; ++r) {
      const float* b = roi + size_t(r) * 5;
      const double area = std::max(double(b[3]) - b[1], 0.0) * std::max(double(b[4]) - b[2], 0.0);
      const double lvl = std::floor(canonicalLevel_ + std::log2(std::sqrt(area) / canonicalScale_ + 1e-6));
      const double clamped = std::clamp(lvl, double(minLevel_), double(maxLevel_));
      members[size_t(clamped) - minLevel_].push_back(r);
    }
    for (size_t l = 0; l < levels; ++l)
      if (members[l].size() > outputs[1 + l].dims[0])
        return sdk::invalidTensor("DistributeFpnProposals: level " + std::to_string(minLevel_ + l) + " gets " +
                                  std::to_string(members[l].size()) + " RoIs, its output has " +
                                  std::to_string(outputs[1 + l].dims[0]) + " rows");
    int32_t* restore = outputs[0].as<int32_t>();
    int32_t position = 0;
    for (size_t l = 0; l < levels; ++l) {
      float* dst = outputs[1 + l].as<float>();
      const size_t rows = outputs[1 + l].dims[0];
      for (size_t j = 0; j < rows; ++j) {
        float* row = dst + j * 5;
        if (j < members[l].size()) {
          std::memcpy(row, roi + size_t(members[l][j]) * 5, 5 * sizeof(float));
          restore[members[l][j]] = position++;
        } else {
          row[0] = -1.f, row[1] = row[2] = row[3] = row[4] = 0.f;
        }
      }
    }
    return Status::ok();
  }

 private:
  uint32_t minLevel_ = 2, maxLevel_ = 5, canonicalScale_ = 224, canonicalLevel_ = 4, rois_ = 0;
};

class CollectRpnProposalsKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    minLevel_ = params.u32("rpn_min_level", 2), maxLevel_ = params.u32("rpn_max_level", 6);
    if (minLevel_ < 2 || maxLevel_ > 6 || maxLevel_ < minLevel_)
      return sdk::invalidParam("CollectRpnProposals: needs 2 <= rpn_min_level <= rpn_max_level <= 6");
    postTop_ = params.u32("post_nms_top", 2000);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "CollectRpnProposals";
    const size_t levels = maxLevel_ - minLevel_ + 1;
    roiIn_.clear(), scoreIn_.clear();
    if (inputs.size() < 5 + levels || inputs.size() > 10)
      return sdk::invalidTensor(std::string(op) + ": " + std::to_string(levels) + " levels need the RoIs at in[0.." +
                                std::to_string(levels - 1) + "] and the scores at in[5.." + std::to_string(4 + levels) +
                                "] (" + std::to_string(5 + levels) + "..10 inputs), got " + std::to_string(inputs.size()));
    for (size_t l = 0; l < levels; ++l) roiIn_.push_back(l), scoreIn_.push_back(5 + l);
    for (size_t i = 0; i < inputs.size(); ++i)
      if ((i >= levels && i < 5) || i >= 5 + levels)
        if (!inputs[i].dims.empty())
          return sdk::invalidTensor(std::string(op) + ": in[" + std::to_string(i) + "] is past the " +
                                    std::to_string(levels) + " levels and must be a NULL tensor");
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, inputs.size(), inputs.size(), outputs, 1));
    total_ = 0;
    for (size_t l = 0; l < levels; ++l) {
      const TensorView& r = inputs[roiIn_[l]];
      const TensorView& s = inputs[scoreIn_[l]];
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "RoIs", r, {DType::kFloat32}));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "scores", s, {DType::kFloat32}));
      if (r.rank() != 2 || r.dims[1] != 5 || s.rank() != 1 || s.dims[0] != r.dims[0])
        return sdk::invalidTensor(std::string(op) + ": level " + std::to_string(minLevel_ + l) + " needs RoIs [n, 5] and "
                                  "scores [n], got " + dimsToString(r.dims) + " and " + dimsToString(s.dims));
      total_ += r.dims[0];
    }
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    return checkOutputDims(op, outputs[0], {uint32_t(std::min<size_t>(total_, postTop_)), 5});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    std::vector<const float*> rows;
    std::vector<float> scores;
    rows.reserve(total_), scores.reserve(total_);
    for (size_t l = 0; l < roiIn_.size(); ++l) {
      const TensorView& r = inputs[roiIn_[l]];
      const float* s = inputs[scoreIn_[l]].as<const float>();
      for (uint32_t i = 0; i < r.dims[0]; ++i) rows.push_back(r.as<const float>() + size_t(i) * 5), scores.push_back(s[i]);
    }
    std::vector<uint32_t> order(total_);
    std::iota(order.begin(), order.end(), 0u);
    const auto byScore = [&](uint32_t a, uint32_t b) { return scores[a] != scores[b] ? scores[a] > scores[b] : a < b; };
    std::sort(order.begin(), order.end(), byScore);
    order.resize(std::min<size_t>(total_, postTop_));
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return rows[a][0] != rows[b][0] ? rows[a][0] < rows[b][0] : byScore(a, b);
    });
    float* out = outputs[0].as<float>();
    for (size_t j = 0; j < order.size(); ++j) std::memcpy(out + j * 5, rows[order[j]], 5 * sizeof(float));
    return Status::ok();
  }

 private:
  uint32_t minLevel_ = 2, maxLevel_ = 6, postTop_ = 2000;
  std::vector<size_t> roiIn_, scoreIn_;
  size_t total_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeFpnBoxes(const std::string& opType) {
  if (opType == "BboxTransform") return std::make_unique<BboxTransformKernel>();
  if (opType == "DistributeFpnProposals") return std::make_unique<DistributeFpnProposalsKernel>();
  if (opType == "CollectRpnProposals") return std::make_unique<CollectRpnProposalsKernel>();
  return nullptr;
}

}  // namespace qnn::cpu
