// Conformance cases of AxisAlignedBboxTransform and HeatMapMaxKeyPoint: a box
// worked by hand, random boxes against double arithmetic written from the
// centre/size definition, and heat maps that are exact quadratics (whose
// refinement must land on the true peak and value), a flat map (no refinement)
// and a peak on the map's edge.
#include <cmath>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Dims = std::vector<uint32_t>;

void bboxCases(std::vector<OpCase>& c) {
  // RoI (0,0)-(10,10): centre (5,5), size 10; deltas (0.1, 0.2, ln 2, 0) -> centre (6,7), size (20,10)
  // -> (-4, 2, 16, 12), clipped to the 15 x 20 (w x h) image: (0, 2, 15, 12).
  c.push_back(makeCase("AxisAlignedBboxTransform_by_hand", "AxisAlignedBboxTransform",
                       {f32Tensor({1, 4}, {0, 0, 10, 10}), f32Tensor({1, 4}, {0.1f, 0.2f, std::log(2.f), 0.f}),
                        makeTensor(DType::kInt32, {1}, std::vector<int32_t>{0}), f32Tensor({1, 2}, {20, 15})},
                       {f32Tensor({1, 4}, {0, 2, 15, 12}), makeTensor(DType::kInt32, {1}, std::vector<int32_t>{1})},
                       {}, 1e-5, 1e-6));
  CaseRng rng(2001);
  const uint32_t rois = 5, classes = 3, batches = 2;
  std::vector<float> boxes, deltas = rng.floats(size_t(rois) * classes * 4, -0.5f, 0.5f);
  for (uint32_t r = 0; r < rois; ++r) {
    const float x = rng.uniform(0, 30), y = rng.uniform(0, 20);
    boxes.insert(boxes.end(), {x, y, x + rng.uniform(1, 15), y + rng.uniform(1, 15)});
  }
  const std::vector<int32_t> batch{1, 0, 1, 1, 0};
  const std::vector<float> sizes{25, 40, 30, 35};  // [h, w] per batch
  const double wts[4] = {10, 10, 5, 5};
  std::vector<float> want;
  for (uint32_t r = 0; r < rois; ++r)
    for (uint32_t k = 0; k < classes; ++k) {
      const float* b = &boxes[r * 4];
      const float* d = &deltas[(r * classes + k) * 4];
      const double w = double(b[2]) - b[0], h = double(b[3]) - b[1];
      const double cx = b[0] + w / 2 + d[0] / wts[0] * w, cy = b[1] + h / 2 + d[1] / wts[1] * h;
      const double nw = w * std::exp(d[2] / wts[2]), nh = h * std::exp(d[3] / wts[3]);
      const double ih = sizes[batch[r] * 2], iw = sizes[batch[r] * 2 + 1];
      auto clip = [](double v, double hi) { return float(std::min(std::max(v, 0.0), hi)); };
      want.insert(want.end(), {clip(cx - nw / 2, iw), clip(cy - nh / 2, ih), clip(cx + nw / 2, iw), clip(cy + nh / 2, ih)});
    }
  c.push_back(makeCase("AxisAlignedBboxTransform_random_weights", "AxisAlignedBboxTransform",
                       {f32Tensor({rois, 4}, boxes), f32Tensor({rois, classes * 4}, deltas),
                        makeTensor(DType::kInt32, {rois}, batch), f32Tensor({batches, 2}, sizes)},
                       {f32Tensor({rois, classes * 4}, want), makeTensor(DType::kInt32, {batches}, std::vector<int32_t>{2, 3})},
                       {{"weights", sdk::tensorF32({4}, {10, 10, 5, 5})}}, 1e-4, 1e-5));
}

void heatmapCases(std::vector<OpCase>& c) {
  // Box 0: f = 10 - (x - 3.3)^2 - 0.5 (y - 2.6)^2 on a 6x6 map: peak refined to (3.3, 2.6), score 10.
  // Box 1: flat map: the first pixel, no refinement, its own value.
  // Box 2: f = 5 - (x - 5.2)^2 - (y - 0.1)^2: maximum at the corner (5, 0), neighbours mirrored.
  const uint32_t n = 6;
  std::vector<float> maps;
  auto push = [&](auto f) {
    for (uint32_t y = 0; y < n; ++y)
      for (uint32_t x = 0; x < n; ++x) maps.push_back(float(f(double(x), double(y))));
  };
  push([](double x, double y) { return 10 - (x - 3.3) * (x - 3.3) - 0.5 * (y - 2.6) * (y - 2.6); });
  push([](double, double) { return 2.0; });
  push([](double x, double y) { return 5 - (x - 5.2) * (x - 5.2) - (y - 0.1) * (y - 0.1); });
  const std::vector<float> boxes{10, 20, 22, 32, 0, 0, 6, 12, 5, 5, 17, 11};
  auto at = [&](const float* b, double px, double py) {
    return std::vector<float>{float((px + 0.5) / n * (b[2] - b[0]) + b[0]), float((py + 0.5) / n * (b[3] - b[1]) + b[1])};
  };
  std::vector<float> points;
  for (float v : at(&boxes[0], 3.3, 2.6)) points.push_back(v);
  for (float v : at(&boxes[4], 0, 0)) points.push_back(v);
  // Corner (5, 0): mirrored grid columns 4,5,4 and rows 1,0,1 -> zero gradient, so no step.
  for (float v : at(&boxes[8], 5, 0)) points.push_back(v);
  const float corner = float(5 - 0.2 * 0.2 - 0.1 * 0.1);
  c.push_back(makeCase("HeatMapMaxKeyPoint_quadratic_flat_edge", "HeatMapMaxKeyPoint",
                       {f32Tensor({3, n, n, 1}, maps), f32Tensor({3, 4}, boxes)},
                       {f32Tensor({3, 1}, {10.f, 2.f, corner}), f32Tensor({3, 1, 2}, points)}, {}, 1e-4, 1e-5));
}

std::vector<OpCase> boxCases() {
  std::vector<OpCase> c;
  bboxCases(c);
  heatmapCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("box_ops", qnn::conformance::boxCases);
