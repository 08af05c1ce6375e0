// Op set 2.13 contracts the conformance cases cannot state (no expected bytes, or
// a refusal): RandomNormalLike's distribution (mean and standard deviation of
// 40000 draws within 2 %, a seed repeating its values, two seeds differing, an
// unseeded node advancing), its shape tensor checked against the output; and the
// refusals: a singular Inverse, a center_point_box outside {0, 1},
// GroupQueryAttention's heads, caches and key/value pairing, ElementWiseMux's
// mismatched candidates.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/conformance/kernel_random_check.h"
#include "cpu/kernels/kernel.h"
#include "tests/conformance/op_case.h"

namespace qnn::conformance {

namespace {

using sdk::TensorView;

std::unique_ptr<cpu::Kernel> kernelFor(const char* op) { return cpu::findKernel(op)(op); }

struct NormalNode {
  std::unique_ptr<cpu::Kernel> kernel = kernelFor("RandomNormalLike");
  std::vector<uint32_t> shape = {200, 200};
  std::vector<float> out = std::vector<float>(40000);
  float seed = 0.f;
  std::vector<TensorView> in, outs;

  sdk::Status build(float mean, float scale, bool seeded, float seedValue = 0.f) {
    sdk::OpParams p;
    p.set("mean", sdk::scalarF32(mean));
    p.set("scale", sdk::scalarF32(scale));
    if (auto st = kernel->init(p); !st.isOk()) return st;
    seed = seedValue;
    in = {TensorView{shape.data(), DType::kUInt32, {2}, {}}};
    if (seeded) in.push_back(TensorView{&seed, DType::kFloat32, {1}, {}});
    outs = {TensorView{out.data(), DType::kFloat32, {200, 200}, {}}};
    return kernel->prepare(in, outs);
  }
  std::vector<float> run() {
    EXPECT_TRUE(kernel->execute(in, outs).isOk());
    return out;
  }
};

TEST(RandomNormalLike, MeanAndSpreadOfTheDraws) {
  NormalNode node;
  ASSERT_TRUE(node.build(1.5f, 3.f, false).isOk());
  const auto v = node.run();
  double sum = 0, sq = 0;
  for (float x : v) sum += x, sq += double(x) * x;
  const double mean = sum / v.size(), sd = std::sqrt(sq / v.size() - mean * mean);
  EXPECT_NEAR(mean, 1.5, 0.02 * 3.0 * 2);  // 2 % of the spread, twice the standard error at 40000
  EXPECT_NEAR(sd, 3.0, 0.02 * 3.0);
}

TEST(RandomNormalLike, SeedRepeatsUnseededAdvances) { expectSeedRepeatsUnseededAdvances<NormalNode>(0.f, 1.f); }

TEST(RandomNormalLike, RefusesBadParamsAndShapes) {
  NormalNode negative;
  EXPECT_FALSE(negative.build(0.f, -1.f, false).isOk());
  NormalNode wrong;
  wrong.shape = {200, 199};
  EXPECT_FALSE(wrong.build(0.f, 1.f, false).isOk());
}

TEST(Inverse, SingularMatrixFailsTheExecute) {
  auto k = kernelFor("Inverse");
  ASSERT_TRUE(k->init({}).isOk());
  std::vector<float> m = {1, 2, 2, 4}, o(4);
  std::vector<TensorView> in = {TensorView{m.data(), DType::kFloat32, {2, 2}, {}}};
  std::vector<TensorView> out = {TensorView{o.data(), DType::kFloat32, {2, 2}, {}}};
  ASSERT_TRUE(k->prepare(in, out).isOk());
  const sdk::Status st = k->execute(in, out);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("singular"), std::string::npos) << st.message();
  in[0].dims = out[0].dims = {2, 3};
  EXPECT_FALSE(k->prepare(in, out).isOk());
}

TEST(NonMaxSuppression, CenterPointBoxOutsideTheEnumIsRefused) {
  auto k = kernelFor("NonMaxSuppression");
  sdk::OpParams p;
  p.set("iou_threshold", sdk::scalarF32(0.5f));
  p.set("center_point_box", sdk::scalarU32(2));
  EXPECT_FALSE(k->init(p).isOk());
}

TEST(GroupQueryAttention, RefusesBadHeadsAndShapes) {
  auto k = kernelFor("GroupQueryAttention");
  sdk::OpParams p;
  p.set("num_heads", sdk::scalarU32(3));
  p.set("kv_num_heads", sdk::scalarU32(2));
  EXPECT_FALSE(k->init(p).isOk()) << "3 query heads on 2 kv heads";
  p.set("num_heads", sdk::scalarU32(4));
  ASSERT_TRUE(k->init(p).isOk());
  std::vector<float> q(1 * 2 * 16), kv(1 * 2 * 8), o(32), pk(1 * 2 * 4 * 4), pv(pk.size());
  int32_t seqlens = 1, total = 2;
  std::vector<TensorView> in = {TensorView{q.data(), DType::kFloat32, {1, 2, 16}, {}},
                                TensorView{&seqlens, DType::kInt32, {1}, {}},
                                TensorView{&total, DType::kInt32, {1}, {}},
                                TensorView{kv.data(), DType::kFloat32, {1, 2, 8}, {}},
                                TensorView{kv.data(), DType::kFloat32, {1, 2, 8}, {}}};
  std::vector<TensorView> out = {TensorView{o.data(), DType::kFloat32, {1, 2, 16}, {}},
                                 TensorView{pk.data(), DType::kFloat32, {1, 2, 4, 4}, {}},
                                 TensorView{pv.data(), DType::kFloat32, {1, 2, 4, 4}, {}}};
  ASSERT_TRUE(k->prepare(in, out).isOk());
  ASSERT_TRUE(k->execute(in, out).isOk());
  in[4].dims = {};  // key without value
  EXPECT_FALSE(k->prepare(in, out).isOk());
  in[4].dims = {1, 2, 8};
  out[1].dims = {1, 2, 4, 5};  // head size differs
  EXPECT_FALSE(k->prepare(in, out).isOk());
  out[1].dims = {1, 2, 1, 4};  // two new rows do not fit a present of length 1
  out[2].dims = {1, 2, 1, 4};
  ASSERT_TRUE(k->prepare(in, out).isOk());
  EXPECT_FALSE(k->execute(in, out).isOk());
  sdk::OpParams rotary = p;
  rotary.set("do_rotary", sdk::scalarU32(1));
  ASSERT_TRUE(k->init(rotary).isOk());
  out[1].dims = out[2].dims = {1, 2, 4, 4};
  EXPECT_FALSE(k->prepare(in, out).isOk()) << "do_rotary without cos/sin caches";
}

TEST(ElementWiseMux, RefusesMismatchedCandidates) {
  auto k = kernelFor("ElementWiseMux");
  ASSERT_TRUE(k->init({}).isOk());
  int32_t sel = 0;
  std::vector<float> a(4), o(4);
  std::vector<int32_t> b(4);
  std::vector<TensorView> in = {TensorView{&sel, DType::kInt32, {1}, {}}, TensorView{a.data(), DType::kFloat32, {4}, {}},
                                TensorView{b.data(), DType::kInt32, {4}, {}}};
  std::vector<TensorView> out = {TensorView{o.data(), DType::kFloat32, {4}, {}}};
  EXPECT_FALSE(k->prepare(in, out).isOk()) << "an INT_32 candidate for a FLOAT_32 output";
  in[2] = TensorView{a.data(), DType::kFloat32, {3}, {}};
  EXPECT_FALSE(k->prepare(in, out).isOk()) << "[4] and [3] do not broadcast";
  in[0].dtype = DType::kFloat32;
  in[2].dims = {4};
  EXPECT_FALSE(k->prepare(in, out).isOk()) << "a FLOAT_32 selector";
}

}  // namespace
}  // namespace qnn::conformance
