// MaskedSoftmax's refusals (the values are conformance cases in
// cases_post_2_7.cpp): a mode outside 0/1, a mask that does not broadcast, a
// COMPRESSED data whose last two dims differ, and sequence lengths beyond the
// last dim, refused at execute with the output untouched.
#include <gtest/gtest.h>

#include <vector>

#include "cpu/kernels/kernel.h"

namespace qnn::conformance {
namespace {

using sdk::DType;
using sdk::TensorView;

sdk::Status prepareMasked(uint32_t mode, TensorView data, TensorView mask, std::unique_ptr<cpu::Kernel>* k) {
  *k = cpu::findKernel("MaskedSoftmax")("MaskedSoftmax");
  sdk::OpParams p;
  p.set("mode", sdk::scalarU32(mode));
  if (auto st = (*k)->init(p); !st.isOk()) return st;
  TensorView out = data;
  return (*k)->prepare({data, mask}, {out});
}

TEST(MaskedSoftmax, RefusesBadModeMaskAndShapes) {
  std::unique_ptr<cpu::Kernel> k;
  EXPECT_FALSE(prepareMasked(2, {nullptr, DType::kFloat32, {1, 2, 4}, {}}, {nullptr, DType::kFloat32, {1, 4}, {}}, &k).isOk());
  EXPECT_FALSE(prepareMasked(0, {nullptr, DType::kFloat32, {1, 2, 4}, {}}, {nullptr, DType::kFloat32, {1, 3}, {}}, &k).isOk());
  EXPECT_FALSE(prepareMasked(0, {nullptr, DType::kFloat32, {1, 2, 4}, {}}, {nullptr, DType::kInt32, {1, 4}, {}}, &k).isOk());
  EXPECT_TRUE(prepareMasked(0, {nullptr, DType::kFloat32, {1, 2, 4}, {}}, {nullptr, DType::kFloat32, {1, 4}, {}}, &k).isOk());
  EXPECT_FALSE(prepareMasked(1, {nullptr, DType::kFloat32, {1, 3, 4}, {}}, {nullptr, DType::kInt32, {1, 2}, {}}, &k).isOk());
  EXPECT_FALSE(prepareMasked(1, {nullptr, DType::kFloat32, {1, 4, 4}, {}}, {nullptr, DType::kFloat32, {1, 2}, {}}, &k).isOk());
  EXPECT_TRUE(prepareMasked(1, {nullptr, DType::kFloat32, {1, 4, 4}, {}}, {nullptr, DType::kInt32, {1, 2}, {}}, &k).isOk());
}

TEST(MaskedSoftmax, LengthsBeyondTheLastDimRefusedAtExecuteOutputUntouched) {
  std::vector<float> x(16, 1.f), y(16, 7.f);
  std::vector<int32_t> lengths = {3, 2};  // 5 > 4
  TensorView data{x.data(), DType::kFloat32, {1, 4, 4}, {}}, mask{lengths.data(), DType::kInt32, {1, 2}, {}};
  TensorView out{y.data(), DType::kFloat32, {1, 4, 4}, {}};
  std::unique_ptr<cpu::Kernel> k;
  ASSERT_TRUE(prepareMasked(1, data, mask, &k).isOk());
  EXPECT_FALSE(k->execute({data, mask}, {out}).isOk());
  EXPECT_EQ(y, std::vector<float>(16, 7.f));
  lengths = {3, -1};
  EXPECT_FALSE(k->execute({data, mask}, {out}).isOk());
  lengths = {1, 2};  // position 3 in no sequence: its row is all 0
  ASSERT_TRUE(k->execute({data, mask}, {out}).isOk());
  EXPECT_EQ(std::vector<float>(y.begin() + 12, y.end()), std::vector<float>(4, 0.f));
  EXPECT_FLOAT_EQ(y[0], 1.f);  // a sequence of one: softmax of one value
}

}  // namespace
}  // namespace qnn::conformance
