// backends/cpu/kernels/vector_exp.h: exp512 / exp256 (and erf512) against
// double-precision std::exp (std::erf) over the whole float range the function covers, and its special
// cases (0 below -87.3, NaN kept), on the paths this CPU has.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu_isa.h"
#include "kernels/vector_exp.h"

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

TEST(VectorExp, Avx2AgainstDoubleExp) {
  if (cpuIsa() < Isa::kAvx2) GTEST_SKIP() << "no AVX2 path on this CPU (or QNN_CPU_ISA lowered it)";
  checkPath(run256);
}

}  // namespace
}  // namespace qnn::cpu
#endif
