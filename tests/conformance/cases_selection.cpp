// Conformance cases of the selection ops with data-dependent results:
// NonMaxSuppression (ONNX's own examples with their published answers, then
// random boxes against a reference that repeatedly takes the best remaining
// candidate and strikes out its overlaps, where the kernel walks a sorted
// list) and NonZero (coordinates from division of the flat index, where the
// kernel counts an odometer).
#include <algorithm>
#include <cmath>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Dims = std::vector<uint32_t>;
using Params = std::vector<std::pair<std::string, ParamValue>>;

CaseTensor i32(Dims d, const std::vector<int32_t>& v) { return makeTensor(DType::kInt32, std::move(d), v); }
CaseTensor u32(Dims d, const std::vector<uint32_t>& v) { return makeTensor(DType::kUInt32, std::move(d), v); }

Params nmsParams(float iou, float score, uint32_t maxBoxes) {
  return {{"iou_threshold", sdk::scalarF32(iou)},
          {"score_threshold", sdk::scalarF32(score)},
          {"max_boxes_selected", sdk::scalarU32(maxBoxes)}};
}

// ONNX NonMaxSuppression examples (onnx/backend/test/case/node/nonmaxsuppression.py).
void nmsOnnxExamples(std::vector<OpCase>& c) {
  const std::vector<float> boxes = {0.0f, 0.0f,  1.0f, 1.0f,  0.0f, 0.1f,  1.0f, 1.1f,  0.0f, -0.1f,  1.0f, 0.9f,
                                    0.0f, 10.0f, 1.0f, 11.0f, 0.0f, 10.1f, 1.0f, 11.1f, 0.0f, 100.0f, 1.0f, 101.0f};
  const std::vector<float> scores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};
  c.push_back(makeCase("NonMaxSuppression_suppress_by_IOU", "NonMaxSuppression",
                       {f32Tensor({1, 6, 4}, boxes), f32Tensor({1, 1, 6}, scores)},
                       {i32({3, 3}, {0, 0, 3, 0, 0, 0, 0, 0, 5}), u32({1}, {3})}, nmsParams(0.5f, 0.f, 3)));
  c.push_back(makeCase("NonMaxSuppression_score_threshold_rows_zeroed", "NonMaxSuppression",
                       {f32Tensor({1, 6, 4}, boxes), f32Tensor({1, 1, 6}, scores)},
                       {i32({3, 3}, {0, 0, 3, 0, 0, 0, 0, 0, 0}), u32({1}, {2})}, nmsParams(0.5f, 0.4f, 3)));
  // Flipped corners: the same boxes with (y2, x2) first where ONNX's example flips them.
  const std::vector<float> flipped = {1.0f, 1.0f,  0.0f, 0.0f,  0.0f, 0.1f,  1.0f, 1.1f,  0.0f, 0.9f,  1.0f, -0.1f,
                                      0.0f, 10.0f, 1.0f, 11.0f, 1.0f, 10.1f, 0.0f, 11.1f, 1.0f, 101.0f, 0.0f, 100.0f};
  c.push_back(makeCase("NonMaxSuppression_flipped_coordinates", "NonMaxSuppression",
                       {f32Tensor({1, 6, 4}, flipped), f32Tensor({1, 1, 6}, scores)},
                       {i32({3, 3}, {0, 0, 3, 0, 0, 0, 0, 0, 5})}, nmsParams(0.5f, 0.f, 3)));
  // Two classes, then two batches (the same boxes again), limit 2.
  std::vector<float> scores2 = scores;
  scores2.insert(scores2.end(), scores.begin(), scores.end());
  c.push_back(makeCase("NonMaxSuppression_two_classes", "NonMaxSuppression",
                       {f32Tensor({1, 6, 4}, boxes), f32Tensor({1, 2, 6}, scores2)},
                       {u32({4, 3}, {0, 0, 3, 0, 0, 0, 0, 1, 3, 0, 1, 0}), u32({1}, {4})}, nmsParams(0.5f, 0.f, 2)));
  std::vector<float> boxes2 = boxes;
  boxes2.insert(boxes2.end(), boxes.begin(), boxes.end());
  c.push_back(makeCase("NonMaxSuppression_two_batches", "NonMaxSuppression",
                       {f32Tensor({2, 6, 4}, boxes2), f32Tensor({2, 1, 6}, scores2)},
                       {i32({4, 3}, {0, 0, 3, 0, 0, 0, 1, 0, 3, 1, 0, 0})}, nmsParams(0.5f, 0.f, 2)));
  // Identical boxes: one survives (the first of the equal scores); no limit (0) sizes by num_boxes.
  std::vector<float> same;
  for (int i = 0; i < 4; ++i) same.insert(same.end(), {0.f, 0.f, 1.f, 1.f});
  c.push_back(makeCase("NonMaxSuppression_identical_boxes_no_limit", "NonMaxSuppression",
                       {f32Tensor({1, 4, 4}, same), f32Tensor({1, 1, 4}, {0.9f, 0.9f, 0.9f, 0.9f})},
                       {i32({4, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), u32({1}, {1})}, nmsParams(0.5f, 0.f, 0)));
}

double iouRef(const float* a, const float* b) {
  auto span = [](double lo, double hi) { return std::make_pair(std::min(lo, hi), std::max(lo, hi)); };
  auto [ay0, ay1] = span(a[0], a[2]);
  auto [ax0, ax1] = span(a[1], a[3]);
  auto [by0, by1] = span(b[0], b[2]);
  auto [bx0, bx1] = span(b[1], b[3]);
  const double inter = std::max(0.0, std::min(ay1, by1) - std::max(ay0, by0)) *
                       std::max(0.0, std::min(ax1, bx1) - std::max(ax0, bx0));
  const double uni = (ay1 - ay0) * (ax1 - ax0) + (by1 - by0) * (bx1 - bx0) - inter;
  return uni > 0 ? inter / uni : 0.0;
}

void nmsRandom(std::vector<OpCase>& c) {
  CaseRng rng(1201);
  const uint32_t batch = 2, classes = 3, n = 24, maxBoxes = 5;
  const float iouThr = 0.4f, scoreThr = 0.2f;
  std::vector<float> boxes, scores = rng.floats(size_t(batch) * classes * n, 0.f, 1.f);
  for (uint32_t i = 0; i < batch * n; ++i) {
    const float y = rng.uniform(0.f, 8.f), x = rng.uniform(0.f, 8.f), h = rng.uniform(0.5f, 4.f), w = rng.uniform(0.5f, 4.f);
    boxes.insert(boxes.end(), {y, x, y + h, x + w});
  }
  std::vector<int32_t> want(size_t(batch) * classes * maxBoxes * 3, 0);
  size_t row = 0;
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t cl = 0; cl < classes; ++cl) {
      const float* sc = &scores[(size_t(b) * classes + cl) * n];
      std::vector<bool> alive(n);
      for (uint32_t i = 0; i < n; ++i) alive[i] = sc[i] > scoreThr;
      for (uint32_t picked = 0; picked < maxBoxes; ++picked) {
        int best = -1;
        for (uint32_t i = 0; i < n; ++i)
          if (alive[i] && (best < 0 || sc[i] > sc[best])) best = int(i);
        if (best < 0) break;
        want[row * 3] = int32_t(b), want[row * 3 + 1] = int32_t(cl), want[row * 3 + 2] = best;
        ++row;
        alive[best] = false;
        for (uint32_t i = 0; i < n; ++i)
          if (alive[i] && iouRef(&boxes[(size_t(b) * n + best) * 4], &boxes[(size_t(b) * n + i) * 4]) > iouThr)
            alive[i] = false;
      }
    }
  c.push_back(makeCase("NonMaxSuppression_random_batch2_classes3", "NonMaxSuppression",
                       {f32Tensor({batch, n, 4}, boxes), f32Tensor({batch, classes, n}, scores)},
                       {i32({uint32_t(want.size() / 3), 3}, want), u32({1}, {uint32_t(row)})},
                       nmsParams(iouThr, scoreThr, maxBoxes)));
}

void nonZeroCases(std::vector<OpCase>& c) {
  c.push_back(makeCase("NonZero_bool_onnx_example", "NonZero", {makeTensor(DType::kBool8, {2, 2}, std::vector<uint8_t>{1, 0, 1, 1})},
                       {i32({3, 2}, {0, 0, 1, 0, 1, 1})}));
  c.push_back(makeCase("NonZero_float_negative_zero", "NonZero", {f32Tensor({5}, {0.f, -0.f, 2.f, -1.f, 0.f})},
                       {u32({2, 1}, {2, 3})}));
  // Rows past the count are zero.
  c.push_back(makeCase("NonZero_fewer_than_rows", "NonZero", {makeTensor(DType::kInt32, {3}, std::vector<int32_t>{0, 7, 0})},
                       {i32({2, 1}, {1, 0})}));
  CaseRng rng(1301);
  const Dims d{3, 4, 5};
  std::vector<int8_t> x(60);
  for (auto& v : x) v = int8_t(rng.next() % 3 == 0 ? 0 : int(rng.next() % 255) - 127);
  std::vector<int32_t> want;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] != 0) want.insert(want.end(), {int32_t(i / 20), int32_t(i / 5 % 4), int32_t(i % 5)});
  c.push_back(makeCase("NonZero_int8_rank3", "NonZero", {makeTensor(DType::kInt8, d, x)},
                       {i32({uint32_t(want.size() / 3), 3}, want)}));
}

std::vector<OpCase> selectionCases() {
  std::vector<OpCase> c;
  nmsOnnxExamples(c);
  nmsRandom(c);
  nonZeroCases(c);
  return c;
}

}  // namespace

static const bool kReg = qnn::conformance::registerCaseSource("selection", selectionCases);

}  // namespace qnn::conformance
