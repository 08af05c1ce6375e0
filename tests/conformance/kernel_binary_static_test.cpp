// ElementWiseAdd with a static input of +0.0 spanning the output (how converters write ONNX's
// Expand, e.g. the LLM decoder's grouped-query K/V heads): the kernel skips reading the zeros but
// must give what adding them gives, bit for bit (-0.0 + +0.0 is +0.0; NaN and infinities pass),
// in either input position, after Relu fusion, and not when the static tensor holds a -0.0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cpu/kernels/kernel.h"

namespace qnn::conformance {
namespace {

using sdk::DType;
using sdk::TensorView;

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// x of dims {2, 1, 3} broadcast against a static tensor of dims {2, 4, 3}; returns out's bits.
// executeStatic: the static tensor's values at execute when not empty (a probe: the engine always
// passes the values prepare saw).
std::vector<uint32_t> addStatic(const std::vector<float>& x, std::vector<float> stat, bool staticFirst,
                                bool relu = false, std::vector<float> executeStatic = {}) {
  auto k = cpu::findKernel("ElementWiseAdd")("ElementWiseAdd");
  EXPECT_TRUE(k->init(sdk::OpParams{}).isOk());
  std::vector<float> out(24, 7.f);
  std::vector<float> xs = x;
  TensorView a{xs.data(), DType::kFloat32, {2, 1, 3}, {}}, s{stat.data(), DType::kFloat32, {2, 4, 3}, {}};
  TensorView o{out.data(), DType::kFloat32, {2, 4, 3}, {}};
  TensorView aPrep = a;
  aPrep.data = nullptr;  // the native input has no data at prepare
  EXPECT_TRUE((staticFirst ? k->prepare({s, aPrep}, {o}) : k->prepare({aPrep, s}, {o})).isOk());
  if (relu) {  // a folded Relu, as the engine's fusion pass hands it over
    sdk::Epilogue e;
    e.clamp = sdk::Epilogue::Range{0.f, std::numeric_limits<float>::infinity()};
    EXPECT_TRUE(k->supportsEpilogue(e));
    EXPECT_TRUE(k->setEpilogue(e).isOk());
  }
  if (!executeStatic.empty()) stat = executeStatic;
  EXPECT_TRUE((staticFirst ? k->execute({s, a}, {o}) : k->execute({a, s}, {o})).isOk());
  std::vector<uint32_t> bits;
  for (float f : out) bits.push_back(bitsOf(f));
  return bits;
}

const float kInf = std::numeric_limits<float>::infinity();
const std::vector<float> kX = {-0.0f, 0.0f, 1.5f, -2.25f, kInf, -kInf};

// What x + s gives element by element, s[i] added as it is (the reference reads every s).
std::vector<uint32_t> expected(const std::vector<float>& x, const std::vector<float>& s, bool relu = false) {
  std::vector<uint32_t> bits;
  for (size_t b = 0; b < 2; ++b)
    for (size_t r = 0; r < 4; ++r)
      for (size_t c = 0; c < 3; ++c) {
        const double v = static_cast<double>(x[b * 3 + c]) + static_cast<double>(s[(b * 4 + r) * 3 + c]);
        float f = static_cast<float>(v);
        if (relu) f = f < 0.f ? 0.f : f;
        bits.push_back(bitsOf(f));
      }
  return bits;
}

TEST(AddStaticZeros, EqualsAddingTheZerosBitForBit) {
  const std::vector<float> zeros(24, 0.0f);
  const std::vector<uint32_t> want = expected(kX, zeros);
  EXPECT_EQ(want[0], 0u);  // -0.0 + +0.0 = +0.0
  EXPECT_EQ(addStatic(kX, zeros, false), want);
  EXPECT_EQ(addStatic(kX, zeros, true), want);
  EXPECT_EQ(addStatic(kX, zeros, false, true), expected(kX, zeros, true));
}

TEST(AddStaticZeros, NaNStaysNaN) {
  std::vector<float> x = kX;
  x[2] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<uint32_t> got = addStatic(x, std::vector<float>(24, 0.0f), false);
  for (size_t r = 0; r < 4; ++r) {
    float f;
    std::memcpy(&f, &got[r * 3 + 2], 4);
    EXPECT_TRUE(std::isnan(f));
  }
}

TEST(AddStaticZeros, ANegativeZeroOrAnyOtherValueIsAdded) {
  std::vector<float> s(24, 0.0f);
  s[23] = -0.0f;  // -0.0 + -0.0 stays -0.0: not an all-(+0.0) tensor
  EXPECT_EQ(addStatic(kX, s, false), expected(kX, s));
  s[23] = 0.0f;
  s[5] = 3.0f;
  EXPECT_EQ(addStatic(kX, s, true), expected(kX, s));
}

// The point of the path: the 512 KiB of zeros per Expand are not streamed at every execute.
TEST(AddStaticZeros, TheZerosAreNotReadAtExecute) {
  const std::vector<float> zeros(24, 0.0f);
  const std::vector<float> probe(24, std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(addStatic(kX, zeros, false, false, probe), expected(kX, zeros));
}

}  // namespace
}  // namespace qnn::conformance
