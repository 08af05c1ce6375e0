// Conformance cases of BboxTransform (rotated boxes), DistributeFpnProposals and
// CollectRpnProposals, worked out by hand: box moves with round deltas (ln 2,
// pi/2), clipping of an upright box in a scaled image, angle wrapping; RoIs of
// sizes 20..1000 against the canonical 224 at level 4; a score ranking regrouped
// by batch.
#include <cmath>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Params = std::vector<std::pair<std::string, ParamValue>>;

constexpr float kPi = 3.14159265358979323846f;

CaseTensor i32s(std::vector<uint32_t> dims, std::vector<int32_t> v) { return makeTensor(DType::kInt32, dims, v); }
ParamValue unitWeights() { return sdk::tensorF32({4}, {1, 1, 1, 1}); }

void bboxTransformCases(std::vector<OpCase>& c) {
  // Class 0 moves (+2, -3), doubles the width, turns 90 degrees; class 1 keeps the box.
  c.push_back(makeCase("BboxTransform_moves_scales_turns", "BboxTransform",
                       {f32Tensor({1, 5}, {10, 20, 4, 6, 0}),
                        f32Tensor({1, 10}, {0.5f, -0.5f, std::log(2.f), 0, kPi / 2, 0, 0, 0, 0, 0}),
                        f32Tensor({1, 3}, {100, 200, 1})},
                       {f32Tensor({1, 10}, {12, 17, 8, 6, 90, 10, 20, 4, 6, 0}), f32Tensor({1}, {1})},
                       {{"weights", unitWeights()}}, 1e-4, 1e-5));
  // Weights divide the deltas: dx 1 / weight 2 = half a width.
  c.push_back(makeCase("BboxTransform_weights_divide_deltas", "BboxTransform",
                       {f32Tensor({1, 5}, {10, 20, 4, 6, 0}), f32Tensor({1, 5}, {1, 0, 0, 0, 0}),
                        f32Tensor({1, 3}, {100, 200, 1})},
                       {f32Tensor({1, 5}, {12, 20, 4, 6, 0}), f32Tensor({1}, {1})},
                       {{"weights", sdk::tensorF32({4}, {2, 1, 1, 1})}}, 1e-5, 1e-5));
  // Image 40 x 20 at scale 2 (20 x 10 originally); RoI (4, 4, 20, 4) scaled = (2, 2, 10, 2) original:
  // x -3..7 clips to 0..7 -> centre 3.5, width 7. apply_scale false stays in the original space.
  const auto roi = f32Tensor({1, 5}, {4, 4, 20, 4, 0});
  const auto zero = f32Tensor({1, 5}, {0, 0, 0, 0, 0});
  const auto info = f32Tensor({1, 3}, {20, 40, 2});
  c.push_back(makeCase("BboxTransform_clip_upright_original_space", "BboxTransform", {roi, zero, info},
                       {f32Tensor({1, 5}, {3.5f, 2, 7, 2, 0}), f32Tensor({1}, {1})},
                       {{"weights", unitWeights()}, {"apply_scale", sdk::scalarBool(false)},
                        {"angle_clip_threshold", sdk::scalarF32(1.f)}},
                       1e-5, 1e-5));
  c.push_back(makeCase("BboxTransform_clip_upright_scaled_back", "BboxTransform", {roi, zero, info},
                       {f32Tensor({1, 5}, {7, 4, 14, 4, 0}), f32Tensor({1}, {1})},
                       {{"weights", unitWeights()}, {"angle_clip_threshold", sdk::scalarF32(1.f)}}, 1e-5, 1e-5));
  // Two images (RoI 1 on image 1); angle 80 + 20 degrees wraps to -80 within [-90, 90]; a tilted box
  // (|angle| > threshold) is not clipped even though it leaves the image.
  c.push_back(makeCase("BboxTransform_angle_bounds_two_images", "BboxTransform",
                       {f32Tensor({2, 5}, {5, 5, 4, 4, 80, 1, 1, 30, 4, 45}),
                        f32Tensor({2, 5}, {0, 0, 0, 0, 20 * kPi / 180, 0, 0, 0, 0, 0}),
                        f32Tensor({2, 3}, {10, 10, 1, 10, 10, 1}), i32s({2}, {1, 1})},
                       {f32Tensor({2, 5}, {5, 5, 4, 4, -80, 1, 1, 30, 4, 45}), f32Tensor({2}, {0, 2})},
                       {{"weights", unitWeights()}, {"angle_bounds", sdk::tensorI32({2}, {-90, 90})},
                        {"angle_clip_threshold", sdk::scalarF32(1.f)}},
                       1e-4, 1e-5));
}

void distributeFpnCases(std::vector<OpCase>& c) {
  // sqrt(area): 224 -> level 4, 112 -> 3, 56 -> 2, 20 -> 2 (clamped from 0), 1000 -> 5 (from 6), 448 -> 5.
  const std::vector<float> rois{0, 0, 0, 224, 224, 1, 0, 0, 112, 112, 0, 10, 10, 66, 66,
                                0, 0, 0, 20, 20,   1, 0, 0, 1000, 1000, 0, 0, 0, 448, 448};
  c.push_back(makeCase("DistributeFpnProposals_levels_and_restore", "DistributeFpnProposals", {f32Tensor({6, 5}, rois)},
                       {i32s({6}, {3, 2, 0, 1, 4, 5}),
                        f32Tensor({3, 5}, {0, 10, 10, 66, 66, 0, 0, 0, 20, 20, -1, 0, 0, 0, 0}),
                        f32Tensor({1, 5}, {1, 0, 0, 112, 112}), f32Tensor({2, 5}, {0, 0, 0, 224, 224, -1, 0, 0, 0, 0}),
                        f32Tensor({2, 5}, {1, 0, 0, 1000, 1000, 0, 0, 0, 448, 448})}));
  // Levels 3..4 only, canonical scale 112 at level 3: 224 -> 4, 112 -> 3, 56 -> 3 (clamped).
  c.push_back(makeCase("DistributeFpnProposals_custom_canonical", "DistributeFpnProposals",
                       {f32Tensor({3, 5}, {0, 0, 0, 224, 224, 0, 0, 0, 112, 112, 0, 0, 0, 56, 56})},
                       {i32s({3}, {2, 0, 1}), f32Tensor({2, 5}, {0, 0, 0, 112, 112, 0, 0, 0, 56, 56}),
                        f32Tensor({1, 5}, {0, 0, 0, 224, 224})},
                       {{"roi_min_level", sdk::scalarU32(3)}, {"roi_max_level", sdk::scalarU32(4)},
                        {"roi_canonical_scale", sdk::scalarU32(112)}, {"roi_canonical_level", sdk::scalarU32(3)}}));
}

void collectRpnCases(std::vector<OpCase>& c) {
  const auto l2 = f32Tensor({2, 5}, {0, 1, 1, 2, 2, 1, 3, 3, 4, 4});
  const auto l3 = f32Tensor({3, 5}, {0, 5, 5, 6, 6, 1, 7, 7, 8, 8, 0, 9, 9, 10, 10});
  const auto s2 = f32Tensor({2}, {0.5f, 0.9f});
  const auto s3 = f32Tensor({3}, {0.7f, 0.2f, 0.6f});
  // Best three: 0.9 (batch 1), 0.7 and 0.6 (batch 0) -> batch 0 first.
  const auto want = f32Tensor({3, 5}, {0, 5, 5, 6, 6, 0, 9, 9, 10, 10, 1, 3, 3, 4, 4});
  Params p{{"rpn_min_level", sdk::scalarU32(2)}, {"rpn_max_level", sdk::scalarU32(3)},
           {"post_nms_top", sdk::scalarU32(3)}};
  const auto n = nullTensor();
  c.push_back(makeCase("CollectRpnProposals_top_by_score_then_batch", "CollectRpnProposals", {l2, l3, n, n, n, s2, s3},
                       {want}, p));
  c.push_back(makeCase("CollectRpnProposals_all_ten_positions", "CollectRpnProposals",
                       {l2, l3, nullTensor(), nullTensor(), nullTensor(), s2, s3, nullTensor(), nullTensor(), nullTensor()},
                       {want}, p));
  // post_nms_top above the total keeps all five, grouped by batch.
  c.push_back(makeCase("CollectRpnProposals_all_grouped_by_batch", "CollectRpnProposals", {l2, l3, n, n, n, s2, s3},
                       {f32Tensor({5, 5}, {0, 5, 5, 6, 6, 0, 9, 9, 10, 10, 0, 1, 1, 2, 2, 1, 3, 3, 4, 4, 1, 7, 7, 8, 8})},
                       {{"rpn_min_level", sdk::scalarU32(2)}, {"rpn_max_level", sdk::scalarU32(3)}}));
}

std::vector<OpCase> fpnBoxCases() {
  std::vector<OpCase> c;
  bboxTransformCases(c);
  distributeFpnCases(c);
  collectRpnCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("fpn_boxes", qnn::conformance::fpnBoxCases);
