// expApprox / erfApprox (sdk/core/vector_math.h) against double-precision libm
// over dense grids of their working ranges, plus the edges (underflow,
// saturation, NaN, signs).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/vector_math.h"

namespace qnn::sdk {
namespace {

TEST(VectorMath, ExpWithin2point5e7Relative) {
  double worst = 0;
  for (int i = 0; i <= 2000000; ++i) {
    const float x = -87.f + 175.f * float(i) / 2000000.f;  // [-87, 88]
    const double want = std::exp(double(x));
    worst = std::max(worst, std::abs(double(expApprox(x)) - want) / want);
  }
  EXPECT_LT(worst, 2.5e-7) << "worst relative error";
}

TEST(VectorMath, ExpEdges) {
  EXPECT_EQ(expApprox(-100.f), 0.f);
  EXPECT_EQ(expApprox(-std::numeric_limits<float>::infinity()), 0.f);
  EXPECT_FLOAT_EQ(expApprox(0.f), 1.f);
  EXPECT_TRUE(std::isfinite(expApprox(1000.f)));
  EXPECT_NEAR(expApprox(1000.f) / std::exp(double(88.3f)), 1.0, 1e-6);
  EXPECT_TRUE(std::isnan(expApprox(std::numeric_limits<float>::quiet_NaN())));
}

TEST(VectorMath, ErfWithin3point5e7Absolute) {
  double worst = 0;
  for (int i = 0; i <= 2000000; ++i) {
    const float x = -10.f + 20.f * float(i) / 2000000.f;
    worst = std::max(worst, std::abs(double(erfApprox(x)) - std::erf(double(x))));
  }
  EXPECT_LT(worst, 3.5e-7) << "worst absolute error";
}

TEST(VectorMath, ErfEdges) {
  EXPECT_EQ(erfApprox(0.f), 0.f);
  EXPECT_EQ(erfApprox(20.f), 1.f);
  EXPECT_EQ(erfApprox(-20.f), -1.f);
  EXPECT_EQ(erfApprox(std::numeric_limits<float>::infinity()), 1.f);
  EXPECT_EQ(erfApprox(-0.5f), -erfApprox(0.5f));
  EXPECT_TRUE(std::isnan(erfApprox(std::numeric_limits<float>::quiet_NaN())));
}

}  // namespace
}  // namespace qnn::sdk
