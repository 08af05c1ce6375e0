// Cast and ElementWisePower kernels: the table built for a static uniform
// exponent gives the same bytes as the per-element path of a dynamic one, and
// datatypes / shapes outside the op's support are refused at prepare.
#include <gtest/gtest.h>

#include "tests/htp_kernels/quant_views.h"

namespace qnn::htp {
namespace {

using sdk::DType;
using testing::pattern;
using testing::quantView;

TensorView plainView(DType t, std::vector<uint32_t> dims, void* data) {
  TensorView v;
  v.dtype = t;
  v.dims = std::move(dims);
  v.data = data;
  return v;
}

std::vector<uint8_t> runPower(bool staticExponent, std::vector<uint8_t> base, float exponent) {
  auto k = findKernel("ElementWisePower")("ElementWisePower");
  EXPECT_TRUE(k->init(sdk::OpParams{}).isOk());
  std::vector<float> e(6, exponent);
  std::vector<uint8_t> out(base.size());
  const TensorView a = quantView(DType::kUFixed8, {4, 6}, base.data(), 0.02f, -40);
  const TensorView p = plainView(DType::kFloat32, {6}, e.data());
  const TensorView y = quantView(DType::kUFixed8, {4, 6}, out.data(), 0.015f, -10);
  TensorView pAtPrepare = p;
  if (!staticExponent) pAtPrepare.data = nullptr;
  const sdk::Status s = k->prepare({a, pAtPrepare}, {y});
  EXPECT_TRUE(s.isOk()) << s.message();
  EXPECT_TRUE(k->execute({a, p}, {y}).isOk());
  return out;
}

TEST(HtpCastPower, StaticTableEqualsPerElementPath) {
  for (float exponent : {2.f, 0.5f, -1.f, 1.7f}) {
    const std::vector<uint8_t> base = pattern<uint8_t>(24, 7);
    EXPECT_EQ(runPower(true, base, exponent), runPower(false, base, exponent)) << "exponent " << exponent;
  }
}

TEST(HtpCastPower, RefusesUnsupportedTypesAndShapes) {
  uint8_t buf[16] = {};
  auto cast = findKernel("Cast")("Cast");
  ASSERT_TRUE(cast->init(sdk::OpParams{}).isOk());
  EXPECT_FALSE(cast->prepare({plainView(DType::kInt8, {4}, buf)}, {plainView(DType::kUInt8, {4}, buf)}).isOk());
  EXPECT_FALSE(cast->prepare({plainView(DType::kUInt8, {4}, buf)}, {plainView(DType::kUInt8, {2, 2}, buf)}).isOk());
  EXPECT_FALSE(cast->prepare({plainView(DType::kUInt8, {}, buf)}, {plainView(DType::kUInt8, {}, buf)}).isOk());

  auto power = findKernel("ElementWisePower")("ElementWisePower");
  ASSERT_TRUE(power->init(sdk::OpParams{}).isOk());
  const TensorView a = quantView(DType::kUFixed8, {2, 3}, buf, 0.1f, 0);
  EXPECT_FALSE(power->prepare({a, plainView(DType::kUInt8, {3}, buf)}, {a}).isOk());  // exponent type
  EXPECT_FALSE(power->prepare({a, plainView(DType::kInt32, {4}, buf)}, {a}).isOk());  // broadcast
  EXPECT_FALSE(power->prepare({a, plainView(DType::kInt32, {3}, buf)}, {plainView(DType::kInt32, {2, 3}, buf)}).isOk());
}

}  // namespace
}  // namespace qnn::htp
