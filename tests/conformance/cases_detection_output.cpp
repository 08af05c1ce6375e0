// Conformance cases of DetectionOutput: Android NNAPI's published examples of
// DETECTION_POSTPROCESSING (six anchors, two classes plus background; regular and
// fast NMS; extra delta columns; labels with and without the background class),
// and a hand-worked check of nms_eta, of a background class other than 0 and of
// per-item anchors.
#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Params = std::vector<std::pair<std::string, ParamValue>>;

CaseTensor i32s(std::vector<uint32_t> dims, std::vector<int32_t> v) { return makeTensor(DType::kInt32, dims, v); }

Params ssd(uint32_t type, bool outputBackground, int32_t limit) {
  return {{"delta_scaling_factors", sdk::tensorF32({4}, {10, 10, 5, 5})},
          {"confidence_threshold", sdk::scalarF32(0.f)},
          {"iou_threshold", sdk::scalarF32(0.5f)},
          {"nms_type", sdk::scalarU32(type)},
          {"output_background", sdk::scalarBool(outputBackground)},
          {"detection_limit", sdk::scalarI32(limit)}};
}

std::vector<OpCase> detectionOutputCases() {
  const auto scores = f32Tensor({1, 6, 3}, {0, .9f, .8f, 0, .75f, .72f, 0, .6f, .5f, 0, .93f, .95f, 0, .5f, .4f, 0, .3f, .2f});
  const auto deltas = f32Tensor({1, 6, 4}, {0, 0, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  std::vector<float> wide;
  for (int i = 0; i < 6; ++i) {
    const float x = i == 1 || i == 4 ? 1.f : i == 2 ? -1.f : 0.f;
    wide.insert(wide.end(), {0, x, 0, 0, 1, 2, 3});
  }
  const auto deltas7 = f32Tensor({1, 6, 7}, wide);
  const auto anchors = f32Tensor({6, 4}, {.5f, .5f, 1, 1, .5f, .5f, 1, 1, .5f, .5f, 1, 1, .5f, 10.5f, 1, 1, .5f, 10.5f, 1, 1,
                                          .5f, 100.5f, 1, 1});
  std::vector<OpCase> c;
  c.push_back(makeCase("DetectionOutput_nnapi_regular", "DetectionOutput", {scores, deltas, anchors},
                       {f32Tensor({1, 3}, {.95f, .93f, 0}), f32Tensor({1, 3, 4}, {0, 10, 1, 11, 0, 10, 1, 11, 0, 0, 0, 0}),
                        i32s({1, 3}, {1, 0, 0}), i32s({1}, {2})},
                       ssd(1, false, 1), 1e-5, 1e-5));
  const std::vector<CaseTensor> fastOut{f32Tensor({1, 3}, {.95f, .9f, .3f}),
                                        f32Tensor({1, 3, 4}, {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101}),
                                        i32s({1, 3}, {1, 0, 0}), i32s({1}, {3})};
  c.push_back(makeCase("DetectionOutput_nnapi_fast", "DetectionOutput", {scores, deltas, anchors}, fastOut,
                       ssd(0, false, 1), 1e-5, 1e-5));
  c.push_back(makeCase("DetectionOutput_nnapi_fast_extra_delta_columns", "DetectionOutput", {scores, deltas7, anchors},
                       fastOut, ssd(0, false, 1), 1e-5, 1e-5));
  auto withBg = fastOut;
  withBg[2] = i32s({1, 3}, {2, 1, 1});
  c.push_back(makeCase("DetectionOutput_nnapi_fast_labels_with_background", "DetectionOutput",
                       {scores, deltas7, anchors}, withBg, ssd(0, true, 1), 1e-5, 1e-5));

  // Three boxes in a row overlapping their neighbours by IoU 0.6 (width 1, offset 0.25 -> 0.75 / 1.25),
  // IoU 0.33 between the ends (0.5 / 1.5). iou_threshold 0.7 keeps all three; with nms_eta 0.8 the
  // threshold is 0.56 after the first kept box, so the middle one (0.6 with the first) goes.
  const auto rowScores = f32Tensor({1, 3, 2}, {.9f, .1f, .8f, .1f, .7f, .1f});  // background is class 1 here
  const auto rowDeltas = f32Tensor({1, 3, 4}, std::vector<float>(12, 0.f));
  const auto rowAnchors = f32Tensor({3, 4}, {.5f, .5f, 1, 1, .5f, .75f, 1, 1, .5f, 1.f, 1, 1});
  Params eta{{"delta_scaling_factors", sdk::tensorF32({4}, {1, 1, 1, 1})},
             {"confidence_threshold", sdk::scalarF32(0.2f)},
             {"iou_threshold", sdk::scalarF32(0.7f)},
             {"background_class_idx", sdk::scalarU32(1)},
             {"nms_eta", sdk::scalarF32(0.8f)}};
  c.push_back(makeCase("DetectionOutput_nms_eta_background_1", "DetectionOutput", {rowScores, rowDeltas, rowAnchors},
                       {f32Tensor({1, 3}, {.9f, .7f, 0}), f32Tensor({1, 3, 4}, {0, 0, 1, 1, 0, .5f, 1, 1.5f, 0, 0, 0, 0}),
                        i32s({1, 3}, {0, 0, 0}), i32s({1}, {2})},
                       eta, 1e-6, 1e-6));
  // Two batch items with their own anchors ([num_anchors * batch, 4]); item 1's second box scores below the
  // confidence threshold.
  const auto twoScores = f32Tensor({2, 2, 2}, {0, .9f, 0, .8f, 0, .6f, 0, .1f});
  const auto twoDeltas = f32Tensor({2, 2, 4}, std::vector<float>(16, 0.f));
  const auto twoAnchors = f32Tensor({4, 4}, {1, 1, 2, 2, 5, 5, 2, 2, 10, 10, 4, 4, 20, 20, 4, 4});
  Params two{{"delta_scaling_factors", sdk::tensorF32({4}, {1, 1, 1, 1})},
             {"confidence_threshold", sdk::scalarF32(0.2f)},
             {"iou_threshold", sdk::scalarF32(0.5f)}};
  c.push_back(makeCase("DetectionOutput_anchors_per_batch_item", "DetectionOutput", {twoScores, twoDeltas, twoAnchors},
                       {f32Tensor({2, 2}, {.9f, .8f, .6f, 0}),
                        f32Tensor({2, 2, 4}, {0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 12, 12, 0, 0, 0, 0}),
                        i32s({2, 2}, {1, 1, 1, 0}), i32s({2}, {2, 1})},
                       two, 1e-6, 1e-6));
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("detection_output", qnn::conformance::detectionOutputCases);
