// Conformance cases of BoxWithNmsLimit, MultiClassNms and GenerateProposals:
// hand-built scenes whose selections are worked out by hand (IoU of two
// 10x10 squares offset by 1: 81 / 119; of a 4x4 box and its lower half: 0.5),
// with the soft-NMS decays written as their formulas.
#include <cmath>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Params = std::vector<std::pair<std::string, ParamValue>>;

CaseTensor i32s(std::vector<uint32_t> dims, std::vector<int32_t> v) { return makeTensor(DType::kInt32, dims, v); }

const float kIouAB = 81.f / 119.f;  // (0,0,10,10) vs (1,1,11,11)

// ---- MultiClassNms: boxes A, B (overlapping A), C (apart); 2 classes; a feature per box.
void multiClassNmsCases(std::vector<OpCase>& c) {
  const auto boxes = f32Tensor({1, 3, 4}, {0, 0, 10, 10, 11, 11, 1, 1, 20, 20, 30, 30});  // B given corner-swapped
  const auto scores = f32Tensor({1, 3, 2}, {0.9f, 0.1f, 0.8f, 0.6f, 0.7f, 0.2f});
  const auto feature = i32s({1, 3, 2}, {10, 11, 20, 21, 30, 31});
  Params hard{{"iou_threshold", sdk::scalarF32(0.5f)}, {"score_threshold", sdk::scalarF32(0.15f)}};
  // class 0: A kept, B suppressed (IoU 0.68), C kept; class 1: B, C (A's 0.1 is below 0.15).
  c.push_back(makeCase("MultiClassNms_hard_two_classes_with_feature", "MultiClassNms", {boxes, scores, feature},
                       {f32Tensor({1, 5, 4}, {0, 0, 10, 10, 20, 20, 30, 30, 11, 11, 1, 1, 20, 20, 30, 30, 0, 0, 0, 0}),
                        f32Tensor({1, 5}, {0.9f, 0.7f, 0.6f, 0.2f, 0.f}), i32s({1, 5}, {0, 0, 1, 1, 0}),
                        i32s({1}, {4}), i32s({1, 5, 2}, {10, 11, 30, 31, 20, 21, 30, 31, 0, 0})},
                       hard, 1e-6, 1e-6));
  // Soft (sigma 0.5): class 0's B decays to 0.8 exp(-IoU^2) and stays.
  Params soft = hard;
  soft.push_back({"soft_nms_sigma", sdk::scalarF32(0.5f)});
  const float bDecayed = 0.8f * std::exp(-kIouAB * kIouAB);
  c.push_back(makeCase("MultiClassNms_soft_decays_overlap", "MultiClassNms", {boxes, scores},
                       {f32Tensor({1, 5, 4}, {0, 0, 10, 10, 20, 20, 30, 30, 11, 11, 1, 1, 11, 11, 1, 1, 20, 20, 30, 30}),
                        f32Tensor({1, 5}, {0.9f, 0.7f, 0.6f, bDecayed, 0.2f}), i32s({1, 5}, {0, 0, 1, 0, 1}),
                        i32s({1}, {5})},
                       soft, 1e-6, 1e-5));
  // Fewer rows than selections: the best two.
  c.push_back(makeCase("MultiClassNms_rows_cap_selections", "MultiClassNms", {boxes, scores},
                       {f32Tensor({1, 2, 4}, {0, 0, 10, 10, 20, 20, 30, 30}), f32Tensor({1, 2}, {0.9f, 0.7f}),
                        i32s({1, 2}, {0, 0}), i32s({1}, {2})},
                       hard, 1e-6, 1e-6));
}

// ---- BoxWithNmsLimit: 5 RoIs (batch 0: 0..2, batch 1: 3..4), 3 classes (0 = background).
void boxWithNmsLimitCases(std::vector<OpCase>& c) {
  const std::vector<float> sq{0, 0, 10, 10}, sqB{1, 1, 11, 11}, sqC{20, 20, 30, 30}, d{0, 0, 4, 4}, e{0, 0, 4, 2};
  const std::vector<float> junk{5, 5, 6, 6};
  std::vector<float> boxes;
  auto roi = [&](std::vector<float> c0, std::vector<float> c1, std::vector<float> c2) {
    for (auto* v : {&c0, &c1, &c2}) boxes.insert(boxes.end(), v->begin(), v->end());
  };
  roi(junk, sq, junk);
  roi(junk, sqB, {2, 2, 3, 3});
  roi(junk, sqC, junk);
  roi(junk, d, junk);
  roi(junk, e, junk);
  const auto boxT = f32Tensor({5, 12}, boxes);
  // Background scores are high and must be ignored; class 2 only scores on RoI 1.
  const auto scoreT = f32Tensor({5, 3}, {0.99f, 0.9f, 0.1f, 0.99f, 0.8f, 0.85f, 0.99f, 0.7f, 0.f, 0.99f, 0.5f, 0.f,
                                         0.99f, 0.95f, 0.f});
  const auto batchT = i32s({5}, {0, 0, 0, 1, 1});
  auto params = [](int method, float nmsScore, int limit) {
    return Params{{"nms_kernel_method", sdk::scalarI32(method)}, {"nms_score_threshold", sdk::scalarF32(nmsScore)},
                  {"score_threshold", sdk::scalarF32(0.3f)}, {"pre_nms_limit", sdk::scalarI32(limit)},
                  {"iou_threshold", sdk::scalarF32(0.5f)}, {"sigma", sdk::scalarF32(0.5f)}};
  };
  auto outs = [](std::vector<float> b, std::vector<float> s, std::vector<int32_t> cls, std::vector<int32_t> bi,
                 std::vector<int32_t> splits, std::vector<int32_t> keeps, std::vector<int32_t> perClass) {
    const uint32_t n = 6;
    b.resize(n * 4, 0.f), s.resize(n, 0.f), cls.resize(n, 0), bi.resize(n, 0), keeps.resize(n, 0);
    return std::vector<CaseTensor>{f32Tensor({n, 4}, b), f32Tensor({n}, s), i32s({n}, cls), i32s({n}, bi),
                                   i32s({2}, splits), i32s({n}, keeps), i32s({3}, perClass)};
  };
  // Hard: batch 0 class 1 keeps A, C (B suppressed), class 2 keeps RoI 1; batch 1 keeps E (D's IoU 0.5 is not < 0.5).
  c.push_back(makeCase("BoxWithNmsLimit_hard_by_class_then_score", "BoxWithNmsLimit", {boxT, scoreT, batchT},
                       outs({0, 0, 10, 10, 20, 20, 30, 30, 2, 2, 3, 3, 0, 0, 4, 2}, {0.9f, 0.7f, 0.85f, 0.95f},
                            {1, 1, 2, 1}, {0, 0, 0, 1}, {3, 1}, {0, 2, 1, 4}, {0, 3, 1}),
                       params(0, 0.f, -1), 1e-6, 1e-6));
  // Linear: B decays to 0.8 (1 - IoU), D to 0.5 * 0.5; both stay above 0.2.
  const float bLin = 0.8f * (1.f - kIouAB);
  c.push_back(makeCase("BoxWithNmsLimit_linear_keeps_decayed", "BoxWithNmsLimit", {boxT, scoreT, batchT},
                       outs({0, 0, 10, 10, 20, 20, 30, 30, 1, 1, 11, 11, 2, 2, 3, 3, 0, 0, 4, 2, 0, 0, 4, 4},
                            {0.9f, 0.7f, bLin, 0.85f, 0.95f, 0.25f}, {1, 1, 1, 2, 1, 1}, {0, 0, 0, 0, 1, 1}, {4, 2},
                            {0, 2, 1, 1, 4, 3}, {0, 5, 1}),
                       params(1, 0.2f, -1), 1e-6, 1e-5));
  // Gaussian with nms_score_threshold 0.6: B decays to 0.8 exp(-IoU^2 / 0.5) < 0.6 and is dropped; D to 0.5 e^-0.5.
  c.push_back(makeCase("BoxWithNmsLimit_gaussian_drops_below_nms_score", "BoxWithNmsLimit", {boxT, scoreT, batchT},
                       outs({0, 0, 10, 10, 20, 20, 30, 30, 2, 2, 3, 3, 0, 0, 4, 2}, {0.9f, 0.7f, 0.85f, 0.95f},
                            {1, 1, 2, 1}, {0, 0, 0, 1}, {3, 1}, {0, 2, 1, 4}, {0, 3, 1}),
                       params(2, 0.6f, -1), 1e-6, 1e-5));
  // pre_nms_limit 1: one detection per class and per batch: A (0.9) beats RoI 1's class 2 (0.85).
  c.push_back(makeCase("BoxWithNmsLimit_limit_one_per_batch", "BoxWithNmsLimit", {boxT, scoreT, batchT},
                       outs({0, 0, 10, 10, 0, 0, 4, 2}, {0.9f, 0.95f}, {1, 1}, {0, 1}, {1, 1}, {0, 4}, {0, 2, 0}),
                       params(0, 0.f, 1), 1e-6, 1e-6));
}

// ---- GenerateProposals: 1 image 4 x 8, a 1 x 3 feature map (stride 4 wide), 1 anchor (0,0,4,4).
void generateProposalsCases(std::vector<OpCase>& c) {
  const auto scores = f32Tensor({1, 1, 3, 1}, {0.6f, 0.9f, 0.8f});
  // Cell 0: unchanged; cell 1: shifted right by half its width (4..8 -> 6..10, clipped to 8);
  // cell 2 (x 8..12): its centre is outside the 8-wide image, so it is filtered out.
  const auto deltas = f32Tensor({1, 1, 3, 4}, {0, 0, 0, 0, 0.5f, 0, 0, 0, 0, 0, 0, 0});
  const auto anchors = f32Tensor({1, 4}, {0, 0, 4, 4});
  const auto sizes = f32Tensor({1, 2}, {4, 8});
  Params p{{"img_size_ratio", sdk::tensorF32({2}, {4, 4})}, {"iou_threshold", sdk::scalarF32(0.5f)}};
  c.push_back(makeCase("GenerateProposals_shift_clip_filter", "GenerateProposals", {scores, deltas, anchors, sizes},
                       {f32Tensor({3}, {0.9f, 0.6f, 0.f}), f32Tensor({3, 4}, {6, 0, 8, 4, 0, 0, 4, 4, 0, 0, 0, 0}),
                        i32s({3}, {0, 0, -1})},
                       p, 1e-6, 1e-6));
  // Growing cell 0 to overlap cell 1 (dw = ln 2: x -2..6 clipped to 0..6, IoU with 4..8 = 8 / 32) keeps both at
  // iou_threshold 0.5; at 0.2 the lower-scored one goes. post_nms_limit 1 keeps only the best.
  const auto grow = f32Tensor({1, 1, 3, 4}, {0, 0, std::log(2.f), 0, 0, 0, 0, 0, 0, 0, 0, 0});
  c.push_back(makeCase("GenerateProposals_overlap_suppressed", "GenerateProposals", {scores, grow, anchors, sizes},
                       {f32Tensor({2}, {0.9f, 0.f}), f32Tensor({2, 4}, {4, 0, 8, 4, 0, 0, 0, 0}), i32s({2}, {0, -1})},
                       {{"img_size_ratio", sdk::tensorF32({2}, {4, 4})}, {"iou_threshold", sdk::scalarF32(0.2f)}},
                       1e-6, 1e-6));
  c.push_back(makeCase("GenerateProposals_post_nms_limit", "GenerateProposals", {scores, grow, anchors, sizes},
                       {f32Tensor({2}, {0.9f, 0.f}), f32Tensor({2, 4}, {4, 0, 8, 4, 0, 0, 0, 0}), i32s({2}, {0, -1})},
                       {{"img_size_ratio", sdk::tensorF32({2}, {4, 4})}, {"iou_threshold", sdk::scalarF32(0.5f)},
                        {"post_nms_limit", sdk::scalarU32(1)}},
                       1e-6, 1e-6));
}

std::vector<OpCase> detectionNmsCases() {
  std::vector<OpCase> c;
  multiClassNmsCases(c);
  boxWithNmsLimitCases(c);
  generateProposalsCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("detection_nms", qnn::conformance::detectionNmsCases);
