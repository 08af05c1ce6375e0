// Epilogue::clamp on the HTP kernels (set between init and prepare): a weighted op with a
// fused activation produces the same bytes as the op followed by the activation (equal encodings).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "htp_sim/kernels/htp_kernel.h"
#include "tests/htp_kernels/quant_views.h"

namespace qnn::htp {
namespace {

using sdk::DType;
using testing::pattern;
constexpr auto view = testing::quantView;

std::unique_ptr<Kernel> ready(const char* op, const sdk::OpParams& p, const std::vector<TensorView>& in,
                              const std::vector<TensorView>& out, const double* clamp) {
  auto k = findKernel(op)(op);
  EXPECT_TRUE(k->init(p).isOk());
  if (clamp) {
    const auto e = sdk::Epilogue::clampTo(float(clamp[0]), float(clamp[1]));
    EXPECT_TRUE(k->supportsEpilogue(e));
    EXPECT_TRUE(k->setEpilogue(e).isOk());
  }
  auto st = k->prepare(in, out);
  EXPECT_TRUE(st.isOk()) << st.message();
  return k;
}

template <typename TAct>
void checkConvActivation(DType act, const char* activation, double lo, double hi) {
  const uint32_t h = 6, w = 5, c = 8, o = 12;
  std::vector<TAct> x = pattern<TAct>(h * w * c, 1), fused(h * w * o), plain(h * w * o), activated(h * w * o);
  std::vector<int8_t> filter = pattern<int8_t>(9 * c * o, 2);
  const float sy = sizeof(TAct) == 1 ? 0.2f : 0.001f;
  const int32_t oy = sizeof(TAct) == 1 ? -100 : -30000;
  sdk::OpParams p;
  p.set("stride", sdk::tensorU32({2}, {1, 1}));
  p.set("pad_amount", sdk::tensorU32({2, 2}, {1, 1, 1, 1}));
  const std::vector<TensorView> in = {view(act, {1, h, w, c}, x.data(), sizeof(TAct) == 1 ? 0.02f : 0.0001f, -100),
                                      view(DType::kSFixed8, {3, 3, c, o}, filter.data(), 0.01f, 0)};
  const double clamp[2] = {lo, hi};
  auto conv = ready("Conv2d", p, in, {view(act, {1, h, w, o}, nullptr, sy, oy)}, nullptr);
  auto fusedConv = ready("Conv2d", p, in, {view(act, {1, h, w, o}, nullptr, sy, oy)}, clamp);
  ASSERT_TRUE(conv->execute(in, {view(act, {1, h, w, o}, plain.data(), sy, oy)}).isOk());
  ASSERT_TRUE(fusedConv->execute(in, {view(act, {1, h, w, o}, fused.data(), sy, oy)}).isOk());

  sdk::OpParams ap;
  if (std::string(activation) == "ReluMinMax") {
    ap.set("min_value", sdk::scalarF32(float(lo)));
    ap.set("max_value", sdk::scalarF32(float(hi)));
  }
  const std::vector<TensorView> ain = {view(act, {1, h, w, o}, plain.data(), sy, oy)};
  const std::vector<TensorView> aout = {view(act, {1, h, w, o}, activated.data(), sy, oy)};
  auto relu = ready(activation, ap, ain, aout, nullptr);
  ASSERT_TRUE(relu->execute(ain, aout).isOk());
  EXPECT_EQ(fused, activated);
  EXPECT_NE(plain, activated) << "the activation should change something in this case";
}

TEST(Fusion, Conv2dRelu6EqualsConvThenRelu6) { checkConvActivation<uint8_t>(DType::kUFixed8, "Relu6", 0, 6); }
TEST(Fusion, Conv2dReluMinMax16Bit) { checkConvActivation<uint16_t>(DType::kUFixed16, "ReluMinMax", -2, 1.5); }
TEST(Fusion, Conv2dRelu) { checkConvActivation<uint8_t>(DType::kUFixed8, "Relu", 0, INFINITY); }

TEST(Fusion, KernelsWithoutAnOutputClampDecline) {
  auto k = findKernel("PoolMax2d")("PoolMax2d");
  const auto relu6 = sdk::Epilogue::clampTo(0, 6);
  EXPECT_FALSE(k->supportsEpilogue(relu6));
  EXPECT_FALSE(k->setEpilogue(relu6).isOk());
  EXPECT_TRUE(k->supportsEpilogue(sdk::Epilogue{}));
}

TEST(Fusion, ClampFusingKernelsTakeOnlyAClamp) {  // the CPU's other fused work is not the HTP's
  for (const char* op : {"Conv2d", "FullyConnected", "ElementWiseAdd"}) {
    auto k = findKernel(op)(op);
    auto e = sdk::Epilogue::clampTo(0, 6);
    EXPECT_TRUE(k->supportsEpilogue(e)) << op;
    e.residualInput = 3;
    EXPECT_FALSE(k->supportsEpilogue(e)) << op;
    EXPECT_FALSE(k->setEpilogue(e).isOk()) << op;
    e.residualInput.reset();
    e.inputScale = 0.5f;
    EXPECT_FALSE(k->supportsEpilogue(e)) << op;
  }
}

// ElementWiseAdd / Subtract + activation (ResNet's residual Add + Relu): the
// fused binary op equals the op followed by the activation, with the
// intermediate in the activation's output encoding.
template <typename TAct>
void checkBinaryActivation(const char* op, DType act, std::vector<uint32_t> bDims, const char* activation, double lo,
                           double hi) {
  const std::vector<uint32_t> dims = {2, 5, 7, 16};
  size_t nb = 1;
  for (uint32_t d : bDims) nb *= d;
  const size_t n = 2 * 5 * 7 * 16;
  std::vector<TAct> a = pattern<TAct>(n, 3), b = pattern<TAct>(nb, 4), fused(n), plain(n), activated(n);
  const bool narrow = sizeof(TAct) == 1;
  const float sa = narrow ? 0.05f : 0.0002f, sb = narrow ? 0.03f : 0.0001f, sy = narrow ? 0.04f : 0.00015f;
  const int32_t oa = narrow ? -120 : -30000, ob = narrow ? -100 : -33000, oy = narrow ? -110 : -31000;
  const int32_t shift = act == DType::kSFixed8 ? 128 : act == DType::kSFixed16 ? 32768 : 0;
  const std::vector<TensorView> in = {view(act, dims, a.data(), sa, oa + shift), view(act, bDims, b.data(), sb, ob + shift)};
  const double clamp[2] = {lo, hi};
  auto k = ready(op, {}, in, {view(act, dims, nullptr, sy, oy + shift)}, nullptr);
  auto fusedK = ready(op, {}, in, {view(act, dims, nullptr, sy, oy + shift)}, clamp);
  ASSERT_TRUE(k->execute(in, {view(act, dims, plain.data(), sy, oy + shift)}).isOk());
  ASSERT_TRUE(fusedK->execute(in, {view(act, dims, fused.data(), sy, oy + shift)}).isOk());

  sdk::OpParams ap;
  if (std::string(activation) == "ReluMinMax") {
    ap.set("min_value", sdk::scalarF32(float(lo)));
    ap.set("max_value", sdk::scalarF32(float(hi)));
  }
  const std::vector<TensorView> ain = {view(act, dims, plain.data(), sy, oy + shift)};
  const std::vector<TensorView> aout = {view(act, dims, activated.data(), sy, oy + shift)};
  auto relu = ready(activation, ap, ain, aout, nullptr);
  ASSERT_TRUE(relu->execute(ain, aout).isOk());
  EXPECT_EQ(fused, activated);
  EXPECT_NE(plain, activated) << "the activation should change something in this case";
}

TEST(Fusion, AddReluSameShape) {
  checkBinaryActivation<uint8_t>("ElementWiseAdd", DType::kUFixed8, {2, 5, 7, 16}, "Relu", 0, INFINITY);
}
TEST(Fusion, AddRelu6PerChannelSigned) {
  checkBinaryActivation<int8_t>("ElementWiseAdd", DType::kSFixed8, {16}, "Relu6", 0, 6);
}
TEST(Fusion, SubtractReluMinMaxScalar) {
  checkBinaryActivation<uint8_t>("ElementWiseSubtract", DType::kUFixed8, {1}, "ReluMinMax", -1.5, 2);
}
TEST(Fusion, AddRelu1Broadcast16Bit) {  // the general (index map) path
  checkBinaryActivation<uint16_t>("ElementWiseAdd", DType::kUFixed16, {5, 1, 16}, "Relu1", -1, 1);
}

TEST(Fusion, IntegerBinaryOpRefusesAFusedActivation) {
  auto k = findKernel("ElementWiseAdd")("ElementWiseAdd");
  ASSERT_TRUE(k->init({}).isOk());
  ASSERT_TRUE(k->setEpilogue(sdk::Epilogue::clampTo(0, INFINITY)).isOk());
  std::vector<int32_t> a(4), b(4);
  TensorView ta, tb, ty;
  for (TensorView* t : {&ta, &tb, &ty}) t->dtype = DType::kInt32, t->dims = {4};
  ta.data = a.data(), tb.data = b.data();
  EXPECT_FALSE(k->prepare({ta, tb}, {ty}).isOk());
}

}  // namespace
}  // namespace qnn::htp
