// The fixed-point rule of sdk/quant/fixed_point.h against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "quant/fixed_point.h"

namespace qnn::sdk::quant {
namespace {

FixedPointMultiplier decompose(double m) {
  FixedPointMultiplier f;
  EXPECT_TRUE(decomposeMultiplier(m, &f)) << m;
  return f;
}

TEST(FixedPoint, DecomposesIntoQ31MantissaAndExponent) {
  EXPECT_EQ(decompose(0.5).mantissa, 1 << 30);
  EXPECT_EQ(decompose(0.5).exponent, 0);
  EXPECT_EQ(decompose(1.0).mantissa, 1 << 30);
  EXPECT_EQ(decompose(1.0).exponent, 1);
  EXPECT_EQ(decompose(0.75).mantissa, 1610612736);  // 0.75 * 2^31
  EXPECT_EQ(decompose(0.75).exponent, 0);
  EXPECT_EQ(decompose(3.0).mantissa, 1610612736);  // 0.75 * 2^2
  EXPECT_EQ(decompose(3.0).exponent, 2);
  // 1 - 2^-40: the mantissa rounds up to 2^31, so it becomes 2^30 * 2^(1-31).
  EXPECT_EQ(decompose(1.0 - std::ldexp(1.0, -40)).mantissa, 1 << 30);
  EXPECT_EQ(decompose(1.0 - std::ldexp(1.0, -40)).exponent, 1);
  EXPECT_EQ(decompose(0.0).mantissa, 0);
  EXPECT_EQ(decompose(std::ldexp(1.0, -70)).mantissa, 0);
}

TEST(FixedPoint, RejectsNegativeNonFiniteAndHugeMultipliers) {
  FixedPointMultiplier f;
  EXPECT_FALSE(decomposeMultiplier(-0.5, &f));
  EXPECT_FALSE(decomposeMultiplier(std::numeric_limits<double>::infinity(), &f));
  EXPECT_FALSE(decomposeMultiplier(std::nan(""), &f));
  EXPECT_FALSE(decomposeMultiplier(std::ldexp(1.0, 31), &f));
  EXPECT_TRUE(decomposeMultiplier(std::ldexp(1.0, 30), &f));
}

TEST(FixedPoint, RoundsHalfAwayFromZeroOnce) {
  const FixedPointMultiplier half = decompose(0.5), quarter = decompose(0.25), threeQ = decompose(0.75);
  EXPECT_EQ(applyMultiplier(3, half), 2);    // 1.5
  EXPECT_EQ(applyMultiplier(-3, half), -2);  // -1.5
  EXPECT_EQ(applyMultiplier(5, half), 3);    // 2.5
  EXPECT_EQ(applyMultiplier(-5, half), -3);
  EXPECT_EQ(applyMultiplier(1, quarter), 0);   // 0.25
  EXPECT_EQ(applyMultiplier(-1, quarter), 0);
  EXPECT_EQ(applyMultiplier(2, quarter), 1);   // 0.5
  EXPECT_EQ(applyMultiplier(-2, quarter), -1);
  EXPECT_EQ(applyMultiplier(7, threeQ), 5);    // 5.25
  EXPECT_EQ(applyMultiplier(-10, threeQ), -8);  // -7.5
  EXPECT_EQ(applyMultiplier(123, decompose(1.0)), 123);
  EXPECT_EQ(applyMultiplier(123, FixedPointMultiplier{}), 0);
}

TEST(FixedPoint, WideAccumulatorsUseExactArithmetic) {
  const FixedPointMultiplier half = decompose(0.5);
  EXPECT_EQ(applyMultiplier(int64_t(1) << 40, half), int64_t(1) << 39);
  EXPECT_EQ(applyMultiplier((int64_t(1) << 40) + 1, half), (int64_t(1) << 39) + 1);     // .5 away from zero
  EXPECT_EQ(applyMultiplier(-(int64_t(1) << 40) - 1, half), -(int64_t(1) << 39) - 1);
  EXPECT_EQ(applyMultiplier(int64_t(3) << 33, decompose(std::ldexp(1.0, -33))), 3);
}

// Accumulators beyond int32 (Add's sums at its 2^20-finer common scale) on a
// sweep of magnitudes, signs, exact ties and multipliers, against
// sign * floor((|acc * mantissa| + 2^(shift-1)) / 2^shift) in 128 bits; beyond
// int64 the result saturates.
TEST(FixedPoint, WideAccumulatorsMatchTheSymmetricDefinition) {
  __extension__ typedef __int128 Wide;
  for (double real : {0.5, 0.75, 1.0 / 3.0, 1.7e-6, 3.1e-9, 0.999, 1.5, 2.0e3}) {
    const FixedPointMultiplier m = decompose(real);
    const int shift = 31 - m.exponent;
    for (int bits = 31; bits <= 62; bits += 3)
      for (int64_t delta : {int64_t(-3), int64_t(0), int64_t(1), int64_t(12345)})
        for (int sign : {1, -1}) {
          const int64_t acc = sign * ((int64_t(1) << bits) + delta);
          const Wide p = Wide(acc) * m.mantissa, mag = p < 0 ? -p : p;
          Wide want = (mag + (Wide(1) << (shift - 1))) >> shift;
          if (p < 0) want = -want;
          if (want > INT64_MAX) want = INT64_MAX;
          if (want < INT64_MIN) want = INT64_MIN;
          ASSERT_EQ(applyMultiplier(acc, m), int64_t(want)) << real << " " << acc;
        }
  }
  // An exact tie beyond int32: (2^33 + 1) * 0.5 rounds away from zero.
  EXPECT_EQ(applyMultiplier((int64_t(1) << 33) + 1, decompose(0.5)), (int64_t(1) << 32) + 1);
  EXPECT_EQ(applyMultiplier(-(int64_t(1) << 33) - 1, decompose(0.5)), -(int64_t(1) << 32) - 1);
  EXPECT_EQ(applyMultiplier(INT64_MAX, decompose(1.5)), INT64_MAX);
  EXPECT_EQ(applyMultiplier(INT64_MIN, decompose(1.5)), INT64_MIN);
}

TEST(FixedPoint, RequantizeAddsOffsetAndSaturates) {
  const FixedPointMultiplier m = decompose(0.75);
  const QuantRange u8 = quantRange(DType::kUFixed8);
  EXPECT_EQ(requantize(100, m, -128, u8), 203);  // 75 + zero point 128
  EXPECT_EQ(requantize(300, m, -128, u8), 255);
  EXPECT_EQ(requantize(-200, m, -128, u8), 0);
  EXPECT_EQ(requantize(-200, m, 0, quantRange(DType::kSFixed8)), -128);
  EXPECT_EQ(requantize(100000, m, 0, quantRange(DType::kUFixed16)), 65535);
  EXPECT_EQ(requantize(-100, m, 0, quantRange(DType::kSFixed16)), -75);
}

TEST(FixedPoint, RangesOfTheStoredTypes) {
  EXPECT_EQ(quantRange(DType::kUFixed8).lo, 0);
  EXPECT_EQ(quantRange(DType::kUFixed8).hi, 255);
  EXPECT_EQ(quantRange(DType::kSFixed8).lo, -128);
  EXPECT_EQ(quantRange(DType::kSFixed8).hi, 127);
  EXPECT_EQ(quantRange(DType::kUFixed16).hi, 65535);
  EXPECT_EQ(quantRange(DType::kSFixed16).lo, -32768);
  EXPECT_EQ(quantRange(DType::kSFixed32).hi, 2147483647);
  EXPECT_EQ(quantRange(DType::kUFixed8, 4).hi, 15);
  EXPECT_EQ(quantRange(DType::kSFixed8, 4).lo, -8);
  EXPECT_EQ(quantRange(DType::kSFixed8, 4).hi, 7);
}

TEST(FixedPoint, QuantizeAndDequantize) {
  const QuantRange u8 = quantRange(DType::kUFixed8), s8 = quantRange(DType::kSFixed8);
  EXPECT_EQ(quantizeValue(0.5, 0.1f, -128, u8), 133);
  EXPECT_EQ(quantizeValue(0.25, 0.5f, 0, s8), 0);  // ties round to even
  EXPECT_EQ(quantizeValue(-0.25, 0.5f, 0, s8), 0);
  EXPECT_EQ(quantizeValue(0.75, 0.5f, 0, s8), 2);
  EXPECT_EQ(quantizeValue(-0.75, 0.5f, 0, s8), -2);
  // The quotient is divided in float32: 20 / (200/255) and 100 / (200/255) are the
  // float32 ties 25.5 and 127.5 (in double 25.4999999 and 127.4999999).
  const float s = 200.f / 255.f;
  EXPECT_EQ(quantizeValue(20.0, s, 0, u8), 26);
  EXPECT_EQ(quantizeValue(100.0, s, 0, u8), 128);
  EXPECT_EQ(quantizeValue(-12.0, 24.f / 255.f, -128, u8), 0);  // -127.5 -> -128
  // Wider than 16 bits: the double quotient, still half to even.
  const QuantRange s32 = quantRange(DType::kSFixed32);
  EXPECT_EQ(quantizeValue(20.0, s, 0, s32), 25);
  EXPECT_EQ(quantizeValue(2.5, 1.f, 0, s32), 2);
  EXPECT_EQ(quantizeValue(16777217.0, 1.f, 0, s32), 16777217);  // not representable in float32
  EXPECT_EQ(quantizeValue(1e300, 0.1f, -128, u8), 255);  // beyond float's range: saturates
  EXPECT_EQ(quantizeValue(-1e300, 0.1f, -128, u8), 0);
  EXPECT_EQ(quantizeValue(1000.0, 0.1f, -128, u8), 255);
  EXPECT_EQ(quantizeValue(-1000.0, 0.1f, -128, u8), 0);
  EXPECT_EQ(quantizeValue(std::nan(""), 0.1f, -128, u8), 128);
  EXPECT_EQ(quantizeValue(std::numeric_limits<double>::infinity(), 0.1f, -128, u8), 255);
  EXPECT_FLOAT_EQ(dequantizeValue(133, 0.5f, -128), 2.5f);
  EXPECT_FLOAT_EQ(dequantizeValue(-3, 0.25f, 0), -0.75f);
}

TEST(FixedPoint, RoundedDivide) {
  EXPECT_EQ(roundedDivide(7, 2), 4);
  EXPECT_EQ(roundedDivide(-7, 2), -4);
  EXPECT_EQ(roundedDivide(5, 3), 2);
  EXPECT_EQ(roundedDivide(-5, 3), -2);
  EXPECT_EQ(roundedDivide(1, 3), 0);
  EXPECT_EQ(roundedDivide(INT64_MAX, 1), INT64_MAX);
}

}  // namespace
}  // namespace qnn::sdk::quant
