// Kernel::fuseOutputClamp: a weighted op with a fused activation produces the
// same bytes as the op followed by the activation (equal encodings).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "htp_kernel.h"
#include "quant_views.h"

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
    EXPECT_TRUE(k->fuseOutputClamp(clamp[0], clamp[1]));
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

TEST(Fusion, NonWeightedKernelsDecline) {
  auto k = findKernel("ElementWiseAdd")("ElementWiseAdd");
  EXPECT_FALSE(k->fuseOutputClamp(0, 6));
}

}  // namespace
}  // namespace qnn::htp
