// RandomUniformLike has no fixed expected bytes; its contract is checked here:
// every value in [low, high), the output's dims, the mean and spread of 40000
// draws (uniform: mean (low + high) / 2, variance (high - low)^2 / 12, each
// within 2 %), a seed repeating its values at every execute, two seeds giving
// different values, an unseeded node advancing between executes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tests/conformance/kernel_random_check.h"
#include "cpu/kernels/kernel.h"
#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

struct RandomNode {
  std::unique_ptr<cpu::Kernel> kernel = cpu::findKernel("RandomUniformLike")("RandomUniformLike");
  std::vector<float> shape = std::vector<float>(40000, 0.f), out = std::vector<float>(40000);
  float seed = 0.f;
  std::vector<sdk::TensorView> in, outs;

  sdk::Status build(float low, float high, bool seeded, float seedValue = 0.f) {
    sdk::OpParams p;
    p.set("low", sdk::scalarF32(low));
    p.set("high", sdk::scalarF32(high));
    if (auto st = kernel->init(p); !st.isOk()) return st;
    seed = seedValue;
    in = {sdk::TensorView{shape.data(), DType::kFloat32, {200, 200}, {}}};
    if (seeded) in.push_back(sdk::TensorView{&seed, DType::kFloat32, {1}, {}});
    outs = {sdk::TensorView{out.data(), DType::kFloat32, {200, 200}, {}}};
    return kernel->prepare(in, outs);
  }
  std::vector<float> run() {
    EXPECT_TRUE(kernel->execute(in, outs).isOk());
    return out;
  }
};

TEST(RandomUniformLike, ValuesAreUniformInRange) {
  RandomNode node;
  ASSERT_TRUE(node.build(-3.f, 5.f, false).isOk());
  const auto v = node.run();
  double sum = 0, sq = 0;
  for (float x : v) {
    ASSERT_GE(x, -3.f);
    ASSERT_LT(x, 5.f);
    sum += x, sq += double(x) * x;
  }
  const double mean = sum / v.size(), var = sq / v.size() - mean * mean;
  EXPECT_NEAR(mean, 1.0, 0.02 * 8);
  EXPECT_NEAR(var, 64.0 / 12.0, 0.02 * 64.0 / 12.0);
}

TEST(RandomUniformLike, SeedRepeatsUnseededAdvances) { expectSeedRepeatsUnseededAdvances<RandomNode>(0.f, 1.f); }

TEST(RandomUniformLike, RefusesBadParamsAndShapes) {
  RandomNode node;
  EXPECT_FALSE(node.build(2.f, 1.f, false).isOk());
  RandomNode wrong;
  ASSERT_TRUE(wrong.build(0.f, 1.f, false).isOk());
  wrong.outs[0].dims = {200, 199};
  EXPECT_FALSE(wrong.kernel->prepare(wrong.in, wrong.outs).isOk());
}

}  // namespace
}  // namespace qnn::conformance
