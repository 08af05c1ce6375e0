// backends/cpu/kernels/vector_exp.h: exp512 / exp256 (and erf512) against
// double-precision std::exp (std::erf) over the whole float range the function covers, and its special
// cases (0 below -87.3, NaN kept), on the paths this CPU has.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <random>

#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/vector_activation.h"
#include "cpu/kernels/vector_exp.h"

#if defined(__x86_64__)
namespace qnn::cpu {
namespace {

std::vector<float> sweep() {
  std::vector<float> xs;
  for (float x = -87.f; x <= 88.f; x += 0.0137f) xs.push_back(x);
  for (float x : {-87.29f, -1e-30f, 0.f, -0.f, 1e-30f, 0.5f, -0.5f, 1.f, 88.29f}) xs.push_back(x);
  while (xs.size() % 16) xs.push_back(0.25f);
  return xs;
}

// Relative error against double exp within 2.5e-7 plus one ulp of float rounding.
void expectClose(float got, float x) {
  const double want = std::exp(double(x));
  EXPECT_NEAR(got, want, std::fabs(want) * 4e-7) << "x = " << x;
}

QNN_CPU_TARGET_AVX512 void run512(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; i += 16) _mm512_storeu_ps(y + i, vexp::exp512(_mm512_loadu_ps(x + i)));
}
QNN_CPU_TARGET_AVX2 void run256(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; i += 8) _mm256_storeu_ps(y + i, vexp::exp256(_mm256_loadu_ps(x + i)));
}

void checkPath(void (*run)(const float*, float*, size_t)) {
  std::vector<float> xs = sweep(), ys(xs.size());
  run(xs.data(), ys.data(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i) expectClose(ys[i], xs[i]);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> special(16, 0.f), out(16);
  special[0] = nan, special[1] = -inf, special[2] = -100.f, special[3] = -87.31f, special[4] = 200.f, special[5] = inf;
  run(special.data(), out.data(), 16);
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(out[1], 0.f);
  EXPECT_EQ(out[2], 0.f);
  EXPECT_EQ(out[3], 0.f);
  const double top = std::exp(double(88.3f));  // saturates at e^88.3f
  EXPECT_NEAR(out[4], top, top * 4e-7);
  EXPECT_NEAR(out[5], top, top * 4e-7);
  EXPECT_EQ(out[6], 1.f);
}

TEST(VectorExp, Avx512AgainstDoubleExp) {
  if (cpuIsa() < Isa::kAvx512) GTEST_SKIP() << "no AVX-512 path on this CPU (or QNN_CPU_ISA lowered it)";
  checkPath(run512);
}

QNN_CPU_TARGET_AVX512 void runNonPositive512(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; i += 16) _mm512_storeu_ps(y + i, vexp::expNonPositive512(_mm512_loadu_ps(x + i)));
}

// Softmax's exp: bit for bit exp512 wherever its argument can be (x <= 0 up to the rounding of
// beta * x - max, -inf, NaN), across the underflow edge.
TEST(VectorExp, NonPositive512IsExp512) {
  if (cpuIsa() < Isa::kAvx512) GTEST_SKIP() << "no AVX-512 path on this CPU (or QNN_CPU_ISA lowered it)";
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> xs;
  for (float x = -105.f; x <= 0.f; x += 0.00731f) xs.push_back(x);
  for (float x = -87.31f; x <= -87.29f; x += 1e-5f) xs.push_back(x);
  for (float x : {0.f, -0.f, 1e-7f, 3e-6f, -1e-30f, -inf, nan, -87.3f, -1e-38f}) xs.push_back(x);
  while (xs.size() % 16) xs.push_back(-1.f);
  std::vector<float> want(xs.size()), got(xs.size());
  run512(xs.data(), want.data(), xs.size());
  runNonPositive512(xs.data(), got.data(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "x = " << xs[i];
      continue;
    }
    uint32_t g, w;
    std::memcpy(&g, &got[i], 4), std::memcpy(&w, &want[i], 4);
    EXPECT_EQ(g, w) << "x = " << xs[i];
  }
}

QNN_CPU_TARGET_AVX512 void erf512(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; i += 16) _mm512_storeu_ps(y + i, vexp::erf512(_mm512_loadu_ps(x + i)));
}

// erf within 3.5e-7 absolute (sdk::erfApprox's bound) from -10 to 10, odd, +-1 far out.
TEST(VectorExp, Erf512AgainstDoubleErf) {
  if (cpuIsa() < Isa::kAvx512) GTEST_SKIP() << "no AVX-512 path on this CPU (or QNN_CPU_ISA lowered it)";
  std::vector<float> xs;
  for (float x = -10.f; x <= 10.f; x += 0.00731f) xs.push_back(x);
  for (float x : {0.f, -0.f, 1e-20f, -1e-20f, 30.f, -30.f}) xs.push_back(x);
  while (xs.size() % 16) xs.push_back(0.5f);
  std::vector<float> ys(xs.size());
  erf512(xs.data(), ys.data(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i) EXPECT_NEAR(ys[i], std::erf(double(xs[i])), 4e-7) << "x = " << xs[i];
}

// The rational form used for |x| <= 2 (vector_exp.h: erfNear512): within 2.2e-7 absolute of erf there,
// and within 4 float ulps relative near 0, where erf is small.
TEST(VectorExp, Erf512NearZeroWithinUlps) {
  if (cpuIsa() < Isa::kAvx512) GTEST_SKIP() << "no AVX-512 path on this CPU (or QNN_CPU_ISA lowered it)";
  std::vector<float> xs;
  for (float x = -2.f; x <= 2.f; x += 0.000731f) xs.push_back(x);
  for (float x = 1e-30f; x < 0.1f; x *= 1.37f) xs.push_back(x), xs.push_back(-x);
  while (xs.size() % 16) xs.push_back(0.5f);
  std::vector<float> ys(xs.size());
  erf512(xs.data(), ys.data(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = std::erf(double(xs[i]));
    EXPECT_NEAR(ys[i], want, 2.2e-7) << "x = " << xs[i];
    if (std::fabs(xs[i]) < 0.5f) {
      EXPECT_NEAR(ys[i], want, std::fabs(want) * 4 * 0x1p-23) << "x = " << xs[i];
    }
  }
}

// A lane's erf comes from its own value: the same whether the other lanes of its vector are near 0 or
// far out in the tails (where the vector takes the erfc form).
TEST(VectorExp, Erf512LanesIndependent) {
  if (cpuIsa() < Isa::kAvx512) GTEST_SKIP() << "no AVX-512 path on this CPU (or QNN_CPU_ISA lowered it)";
  for (float x : {-3.5f, -2.0001f, -2.f, -1.3f, -1e-3f, 0.f, 0.7f, 1.999f, 2.f, 2.5f, 9.f}) {
    std::vector<float> nearNeighbours(16, 0.25f), farNeighbours(16, 3.f), a(16), b(16);
    nearNeighbours[5] = x, farNeighbours[5] = x;
    erf512(nearNeighbours.data(), a.data(), 16);
    erf512(farNeighbours.data(), b.data(), 16);
    EXPECT_EQ(a[5], b[5]) << "x = " << x;
    EXPECT_NEAR(a[5], std::erf(double(x)), 2.2e-7) << "x = " << x;
  }
  std::vector<float> special(16, 0.25f), out(16);
  special[0] = std::numeric_limits<float>::quiet_NaN(), special[1] = std::numeric_limits<float>::infinity();
  special[2] = -std::numeric_limits<float>::infinity();
  erf512(special.data(), out.data(), 16);
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(out[1], 1.f);
  EXPECT_EQ(out[2], -1.f);
}

// geluRange (the Gelu op's and the folded Gelu's range function) gives each element 0.5 x (1 +
// erf512(x / sqrt 2)) bit for bit, though it runs erf512's erfc form only on the elements that
// need it (packed together per block): over normal values with the transformer's spread of tails,
// the specials (NaN, infinities, zeros, subnormals, huge values, the switch-over at 2 sqrt 2), every
// length around its blocks of 512, and in place.
QNN_CPU_TARGET_AVX512 void geluByErf512(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
    const __m512 a = _mm512_maskz_loadu_ps(m, x + i);
    const __m512 e = vexp::erf512(_mm512_mul_ps(a, _mm512_set1_ps(float(M_SQRT1_2))));
    _mm512_mask_storeu_ps(y + i, m,
                          _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), a), _mm512_add_ps(_mm512_set1_ps(1.f), e)));
  }
}

TEST(VectorExp, GeluRangeIsErf512LaneByLane) {
  if (cpuIsa() < Isa::kAvx512) GTEST_SKIP() << "no AVX-512 path on this CPU (or QNN_CPU_ISA lowered it)";
  std::mt19937 rng(5);
  std::normal_distribution<float> normal(0.f, 1.5f);
  std::vector<float> xs(5000);
  for (float& v : xs) v = normal(rng);
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), inf, -inf, 0.f, -0.f, 1e-40f, -1e-40f,
                            1e30f, -1e30f, 2.8284271f, -2.8284271f, 2.8284273f, -2.8284273f, -9.f, -14.f, 40.f};
  for (size_t k = 0; k < 16; ++k) xs[37 * k + 3] = specials[k], xs[4000 + k] = specials[k];
  auto bits = [](float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  };
  for (size_t n : {1, 15, 16, 17, 100, 511, 512, 513, 1024, 1100, 4096, 5000}) {
    std::vector<float> got(n), want(n), inPlace(xs.begin(), xs.begin() + n);
    geluRange(xs.data(), got.data(), n);
    geluByErf512(xs.data(), want.data(), n);
    geluRange(inPlace.data(), inPlace.data(), n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(bits(got[i]), bits(want[i])) << "n " << n << ", x[" << i << "] = " << xs[i];
      ASSERT_EQ(bits(inPlace[i]), bits(want[i])) << "in place, n " << n << ", x[" << i << "] = " << xs[i];
    }
  }
}

TEST(VectorExp, Avx2AgainstDoubleExp) {
  if (cpuIsa() < Isa::kAvx2) GTEST_SKIP() << "no AVX2 path on this CPU (or QNN_CPU_ISA lowered it)";
  checkPath(run256);
}

}  // namespace
}  // namespace qnn::cpu
#endif
