// Conformance cases of the ops op set 2.13 (API 2.39) added (definitions in
// sdk/opdefs/opdefs_post_2_7.json): Erf, Identity, ThresholdedRelu.
#include <cmath>

#include "op_case.h"

namespace qnn::conformance {
namespace {

using Dims = std::vector<uint32_t>;

void elementwiseCases(std::vector<OpCase>& c) {
  CaseRng rng(2131);
  auto x = rng.floats(24, -3.f, 3.f);
  x[0] = 0.f, x[1] = -0.f, x[2] = 5.f, x[3] = -5.f;
  std::vector<float> erf(x.size());
  for (size_t i = 0; i < x.size(); ++i) erf[i] = float(std::erf(double(x[i])));
  c.push_back(makeCase("Erf_2x3x4", "Erf", {f32Tensor({2, 3, 4}, x)}, {f32Tensor({2, 3, 4}, erf)}, {}, 1e-6, 1e-6));
  for (float alpha : {1.f, 0.25f, -1.5f}) {
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = double(x[i]) > double(alpha) ? x[i] : 0.f;
    std::vector<std::pair<std::string, ParamValue>> p;
    if (alpha != 1.f) p.push_back({"alpha", sdk::scalarF32(alpha)});
    const std::string tag = alpha == 1.f ? "default_alpha" : alpha > 0 ? "alpha_0_25" : "alpha_neg_1_5";
    c.push_back(makeCase("ThresholdedRelu_" + tag, "ThresholdedRelu", {f32Tensor({4, 6}, x)}, {f32Tensor({4, 6}, want)}, p));
  }
  c.push_back(makeCase("Identity_float", "Identity", {f32Tensor({2, 12}, x)}, {f32Tensor({2, 12}, x)}));
  const std::vector<int32_t> ints = {7, -3, 0, 2147483647, -2147483647 - 1, 42};
  c.push_back(makeCase("Identity_int32", "Identity", {makeTensor(DType::kInt32, {3, 2}, ints)},
                       {makeTensor(DType::kInt32, {3, 2}, ints)}));
}

std::vector<OpCase> opSet213Cases() {
  std::vector<OpCase> c;
  elementwiseCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("op_set_2_13", qnn::conformance::opSet213Cases);
