// backends/cpu/kernels/gemm.*: multiply() and multiplyUnpackedB() against a double-precision
// reference over the shapes that pick the GEMM's different paths on each ISA: tiles of 1-14 rows and
// row blocks split evenly, one or two panels, column counts off the 16-lane panels, the paired-rows
// kernels (N = 24 and 40 over dense rows, odd row counts), A rows 4 KiB apart (K = 1024), several
// K blocks with accumulate, a fused clamp, the bias, C rows wider than N, with and without threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "tests/conformance/kernel_test_values.h"
#include "cpu/kernels/gemm.h"
#include "cpu/kernels/gemm_amx.h"

namespace qnn::cpu::gemm {
namespace {

std::vector<float> values(size_t n, uint32_t seed) { return test::kernelTestValues(n, seed); }

struct Shape {
  size_t m, n, k;
  bool bias, clamp, accumulate, wideC, parallel;
  bool residual = false;  // a matrix laid out as C added before the clamp
};

std::string name(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + (s.bias ? " bias" : "") +
         (s.clamp ? " clamp" : "") + (s.accumulate ? " accumulate" : "") + (s.wideC ? " wideC" : "") +
         (s.parallel ? " parallel" : "") + (s.residual ? " residual" : "");
}

// C (m x n, rows ldc apart) as the GEMM defines it, in double: C0 + A B (+ bias), clamped.
std::vector<double> reference(const Shape& s, const std::vector<float>& a, size_t lda, const std::vector<float>& b,
                              const std::vector<float>& bias, const std::vector<float>& c0, size_t ldc,
                              const Clamp& clamp, const std::vector<float>& r) {
  std::vector<double> c(c0.begin(), c0.end());
  std::vector<float> columns(s.k * s.n);  // B's columns as rows: the sums below read memory in order
  for (size_t p = 0; p < s.k; ++p)
    for (size_t j = 0; j < s.n; ++j) columns[j * s.k + p] = b[p * s.n + j];
  for (size_t i = 0; i < s.m; ++i)
    for (size_t j = 0; j < s.n; ++j) {
      double acc = s.accumulate ? c0[i * ldc + j] : (s.bias ? bias[j] : 0.0);
      const float *row = &a[i * lda], *column = &columns[j * s.k];
      for (size_t p = 0; p < s.k; ++p) acc += double(row[p]) * column[p];
      if (s.residual) acc += r[i * ldc + j];
      if (s.clamp) acc = std::min(std::max(acc, double(clamp.lo)), double(clamp.hi));
      c[i * ldc + j] = acc;
    }
  return c;
}

void check(const Shape& s, bool unpacked) {
  const size_t lda = s.k, ldc = s.wideC ? s.n + 5 : s.n;
  const std::vector<float> a = values(s.m * lda, 1), b = values(s.k * s.n, 2), bias = values(s.n, 3);
  const std::vector<float> c0 = values(s.m * ldc, 4), r = values(s.m * ldc, 5);
  const Clamp clamp{-0.5f, 0.75f};
  std::vector<float> c = c0;
  if (unpacked) {
    multiplyUnpackedB(s.m, s.n, s.k, a.data(), lda, b.data(), s.n, s.bias ? bias.data() : nullptr, c.data(), ldc,
                      s.parallel, s.clamp ? &clamp : nullptr);
  } else {
    std::vector<float> packed(packedBSize(s.k, s.n));
    packB(b.data(), s.n, false, s.k, s.n, packed.data());
    multiply(s.m, s.n, s.k, a.data(), lda, false, packed.data(), s.bias ? bias.data() : nullptr, c.data(), ldc,
             s.parallel, s.clamp ? &clamp : nullptr, s.accumulate, s.residual ? r.data() : nullptr);
  }
  const std::vector<double> want = reference(s, a, lda, b, bias, c0, ldc, clamp, r);
  size_t bad = 0;
  const double tol = 1e-5 * double(s.k) + 1e-6;  // |a|, |b| <= 1: float sums of k products
  for (size_t i = 0; i < s.m; ++i)
    for (size_t j = 0; j < ldc; ++j) {
      const size_t at = i * ldc + j;
      const double expect = j < s.n ? want[at] : double(c0[at]);  // columns past N untouched
      if (std::fabs(double(c[at]) - expect) > tol && bad++ < 3)
        ADD_FAILURE() << name(s) << (unpacked ? " unpacked B" : "") << ": C[" << i << "][" << j << "] = " << c[at]
                      << ", want " << expect;
    }
}

TEST(Gemm, AgainstDoubleReference) {
  for (size_t m : {1, 2, 7, 15, 16, 44, 63, 84, 85, 200})
    for (size_t n : {8, 16, 24, 40, 48, 96})
      for (size_t k : {1, 16, 24, 300}) {
        check({m, n, k, true, false, false, false, true}, false);
        check({m, n, k, false, true, false, n % 7 == 0, false}, false);
      }
}

// A residual added before the clamp, on every path: direct-A tiles of any row count, one or two
// panels, the paired rows (N = 24, 40) and their odd last row, several K blocks, rows wider than N,
// threads; then bit for bit the same as the product followed by an add (its unfused form).
TEST(Gemm, Residual) {
  for (size_t m : {1, 7, 15, 30, 85})
    for (size_t n : {16, 24, 33, 40, 96})
      for (size_t k : {16, 300, 2100}) {
        Shape s{m, n, k, true, m % 2 == 1, false, n == 33, m > 20};
        s.residual = true;
        check(s, false);
      }
  const size_t m = 37, n = 24, k = 40;
  const std::vector<float> a = values(m * k, 6), b = values(k * n, 7), bias = values(n, 8), r = values(m * n, 9);
  std::vector<float> packed(packedBSize(k, n)), fused(m * n), unfused(m * n);
  packB(b.data(), n, false, k, n, packed.data());
  multiply(m, n, k, a.data(), k, false, packed.data(), bias.data(), fused.data(), n, true, nullptr, false, r.data());
  multiply(m, n, k, a.data(), k, false, packed.data(), bias.data(), unfused.data(), n, true);
  for (size_t i = 0; i < m * n; ++i) unfused[i] += r[i];
  EXPECT_EQ(fused, unfused);
}

TEST(Gemm, AccumulateAndClampOverSeveralKBlocks) {
  // 600: three blocks of the packed path, one of the direct-A tiles; 2100: three equal direct-A
  // blocks of 700 (the bias on the first, the clamp on the last).
  for (size_t k : {600, 2100})
    for (size_t n : {24, 40, 33, 64})
      for (size_t m : {5, 30, 128}) {
        check({m, n, k, false, false, true, false, true}, false);
        check({m, n, k, false, true, true, false, false}, false);
        check({m, n, k, true, true, false, true, true}, false);
      }
}

// K = 1024: A's rows are 4 KiB apart (the tiles of at most 11 rows read them in place).
TEST(Gemm, RowsFourKibApart) {
  for (size_t m : {11, 30, 128}) check({m, 40, 1024, true, true, false, false, true}, false);
  check({128, 256, 1024, true, false, false, false, true}, false);
}

TEST(Gemm, UnpackedB) {
  if (!unpackedBSupported(32, false)) GTEST_SKIP() << "B is read in place on AVX-512 only";
  EXPECT_FALSE(unpackedBSupported(24, false));
  EXPECT_FALSE(unpackedBSupported(32, true));
  for (size_t m : {1, 13, 30, 128})
    for (size_t n : {16, 32, 64, 128})
      for (size_t k : {8, 64, 300}) check({m, n, k, m % 2 == 1, n == 64, false, n == 32, m > 13}, true);
}

// An alternative product of the classic one's operands against the double reference, beside the
// classic product: the largest error over C relative to C's largest magnitude, for both.
struct Errors {
  double alternative, classic;
};

double relativeError(const std::vector<float>& c, const std::vector<double>& want, size_t m, size_t n, size_t ldc) {
  double err = 0, scale = 0;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      err = std::max(err, std::fabs(double(c[i * ldc + j]) - want[i * ldc + j]));
      scale = std::max(scale, std::fabs(want[i * ldc + j]));
    }
  return err / scale;
}

// The operands of a case: B as given to the packing (N x K when transB) and as K x N rows;
// positive: A and B in [0, 1] (no cancellation in C's sums) instead of [-1, 1].
struct Operands {
  std::vector<float> a, given, b, bias, c0, residual;
  Clamp clamp{-4.f, 3.f};
};

Operands operands(const Shape& s, bool transB, bool positive) {
  const size_t ldc = s.wideC ? s.n + 5 : s.n;
  Operands o{values(s.m * s.k, 11), values(s.k * s.n, 12), {}, values(s.n, 13), values(s.m * ldc, 14),
             values(s.m * ldc, 15)};
  if (positive)
    for (auto* v : {&o.a, &o.given})
      for (float& x : *v) x = std::fabs(x);
  o.b = o.given;
  if (transB)
    for (size_t p = 0; p < s.k; ++p)
      for (size_t j = 0; j < s.n; ++j) o.b[p * s.n + j] = o.given[j * s.k + p];
  return o;
}

// A case of an alternative product: its shape, B given transposed, operands all positive.
struct Case {
  Shape s;
  bool transB, positive;
};

// The benchmark's 1024^3 products check numbers the smaller shapes' paths already reach; instrumented by a
// sanitizer they took a minute of the CI's run, so a sanitizer build leaves them to the optimized one.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kLargestProduct = size_t{512} * 512 * 512;
#else
constexpr size_t kLargestProduct = size_t{1024} * 1024 * 1024;
#endif
std::vector<Case> upToLargestProduct(std::vector<Case> cases) {
  cases.erase(std::remove_if(cases.begin(), cases.end(),
                             [](const Case& c) { return c.s.m * c.s.n * c.s.k > kLargestProduct; }),
              cases.end());
  return cases;
}

// product(operands, C) computes the alternative product into C (rows ldc apart, holding C0).
template <typename Product>
Errors errorsBesideClassic(const Shape& s, bool transB, bool positive, const Product& product) {
  const size_t lda = s.k, ldc = s.wideC ? s.n + 5 : s.n;
  const Operands o = operands(s, transB, positive);
  const std::vector<double> want = reference(s, o.a, lda, o.b, o.bias, o.c0, ldc, o.clamp, o.residual);
  std::vector<float> c = o.c0;
  product(o, c);
  for (size_t i = 0; i < s.m; ++i)
    for (size_t j = s.n; j < ldc; ++j) EXPECT_EQ(c[i * ldc + j], o.c0[i * ldc + j]) << name(s) << ": past N";
  std::vector<float> classicPacked(packedBSize(s.k, s.n)), classic = o.c0;
  packB(o.b.data(), s.n, false, s.k, s.n, classicPacked.data());
  multiply(s.m, s.n, s.k, o.a.data(), lda, false, classicPacked.data(), s.bias ? o.bias.data() : nullptr,
           classic.data(), ldc, s.parallel, s.clamp ? &o.clamp : nullptr, false,
           s.residual ? o.residual.data() : nullptr);
  return {relativeError(c, want, s.m, s.n, ldc), relativeError(classic, want, s.m, s.n, ldc)};
}

// One level of Strassen (multiplyStrassen, B packed by packBStrassen). Shapes: the smallest, ragged
// column panels (N / 2 = 17, 33), several K blocks (K / 2 = 513), several row blocks and tiles, rows
// of C wider than N, B transposed, the bias, a clamp, threads, and the benchmark's 1024^3.
Errors strassenErrors(const Shape& s, bool transB, bool positive) {
  return errorsBesideClassic(s, transB, positive, [&](const Operands& o, std::vector<float>& c) {
    std::vector<float> packed(strassenPackedBSize(s.k, s.n));
    packBStrassen(o.given.data(), transB ? s.k : s.n, transB, s.k, s.n, packed.data());
    multiplyStrassen(s.m, s.n, s.k, o.a.data(), s.k, packed.data(), s.bias ? o.bias.data() : nullptr, c.data(),
                     s.wideC ? s.n + 5 : s.n, s.parallel, s.clamp ? &o.clamp : nullptr);
  });
}

TEST(Gemm, StrassenAgainstDoubleReference) {
  if (!strassenSupported(2, 2, 2, false)) GTEST_SKIP() << "Strassen's products run on AVX-512 only";
  EXPECT_FALSE(strassenSupported(2, 2, 3, false));
  EXPECT_FALSE(strassenSupported(4, 4, 4, true));
  const std::vector<Case> cases = upToLargestProduct({
      {{2, 2, 2, false, false, false, false, false}, false, false},
      {{30, 34, 1026, true, false, false, false, false}, false, false},
      {{86, 66, 64, true, true, false, true, true}, true, false},
      {{200, 96, 48, false, false, false, true, true}, false, false},
      {{512, 512, 512, true, false, false, false, true}, true, true},
      {{1024, 1024, 1024, false, false, false, false, true}, false, false},
      {{1024, 1024, 1024, false, false, false, false, true}, false, true},
  });
  for (const auto& [s, transB, positive] : cases) {
    const Errors e = strassenErrors(s, transB, positive);
    std::printf("  %-46s Strassen %.2e  classic %.2e  (%.1fx)\n",
                (name(s) + (transB ? " transB" : "") + (positive ? " positive" : "")).c_str(), e.alternative,
                e.classic, e.alternative / e.classic);
    // Measured (docs/cpu-ops.md): 1-3x the classic product's error; the sums of quadrants (S4 and
    // T4 of three or four terms) add a few roundings to each product a term of C goes through, a
    // few units of the last place when K is tiny and the classic product is nearly exact.
    EXPECT_LE(e.alternative, 6 * e.classic + 6 * std::numeric_limits<float>::epsilon()) << name(s);
    EXPECT_LE(e.alternative, 1e-5) << name(s);
  }
}

// Which products take Strassen's path: large (each of M, N, K at least 512), even, A not
// transposed; QNN_CPU_STRASSEN=0 turns it off.
TEST(Gemm, StrassenOnlyForLargeEvenProducts) {
  if (!strassenSupported(2, 2, 2, false)) GTEST_SKIP() << "Strassen's products run on AVX-512 only";
  const char* env = std::getenv("QNN_CPU_STRASSEN");
  EXPECT_EQ(useStrassen(1024, 1024, 1024, false), !(env && std::string(env) == "0"));
  EXPECT_FALSE(useStrassen(1024, 1024, 1023, false));
  EXPECT_FALSE(useStrassen(1023, 1024, 1024, false));
  EXPECT_FALSE(useStrassen(1024, 1024, 1024, true));
  EXPECT_FALSE(useStrassen(256, 1024, 1024, false));
  EXPECT_FALSE(useStrassen(1024, 256, 1024, false));
  EXPECT_FALSE(useStrassen(1024, 1024, 256, false));
  EXPECT_FALSE(useStrassen(2048, 2048, 2048, false));  // beyond one K block of the halves: no gain
}

// The products on the AMX tile unit (bf16x6, gemm_amx.h) beside the classic one: tiles of C cut by
// M and N (16 + 1, 33, 47 rows / columns), K off a step (33, 300), several blocks of rows, rows of C
// wider than N, B transposed, the bias, a clamp, a residual, threads, the transformer's and the
// benchmark's products. B's parts in a std::vector (16-byte aligned): right, if slower.
TEST(Gemm, AmxAgainstDoubleReference) {
  if (!amxSupported()) GTEST_SKIP() << "no AMX tile unit, or QNN_CPU_AMX is not 1";
  std::vector<Case> cases = {
      {{16, 16, 32, false, false, false, false, false}, false, false},
      {{17, 33, 33, true, false, false, true, false}, false, false},
      {{47, 100, 300, true, true, false, false, true}, true, false},
      {{128, 256, 256, true, false, false, false, true}, true, false},
      {{128, 1024, 256, true, false, false, false, false}, true, true},
      {{128, 256, 1024, false, false, false, false, true}, true, false},
      {{300, 64, 2048, true, false, false, true, true}, false, false},
      {{1024, 1024, 1024, false, false, false, false, true}, false, false},
  };
  cases.push_back({{61, 48, 96, true, true, false, false, true}, false, false});
  cases.back().s.residual = true;
  cases = upToLargestProduct(cases);
  for (const auto& [s, transB, positive] : cases) {
    const Errors e = errorsBesideClassic(s, transB, positive, [&](const Operands& o, std::vector<float>& c) {
      std::vector<float> packed(amxPackedBSize(s.k, s.n));
      packBAmx(o.given.data(), transB ? s.k : s.n, transB, s.k, s.n, packed.data());
      multiplyAmx(s.m, s.n, s.k, o.a.data(), s.k, packed.data(), s.bias ? o.bias.data() : nullptr, c.data(),
                  s.wideC ? s.n + 5 : s.n, s.parallel, s.clamp ? &o.clamp : nullptr,
                  s.residual ? o.residual.data() : nullptr);
    });
    std::printf("  %-46s AMX bf16x6 %.2e  classic %.2e  (%.2fx)\n",
                (name(s) + (transB ? " transB" : "") + (positive ? " positive" : "")).c_str(), e.alternative,
                e.classic, e.alternative / e.classic);
    // Measured (docs/cpu-ops.md): 0.4-1.0x the classic product's error.
    EXPECT_LE(e.alternative, 2 * e.classic + 2 * std::numeric_limits<float>::epsilon()) << name(s);
  }
}

// A row of A with an infinity, a NaN or a value past bfloat16's range gives, in its row of C, what
// the classic product gives (infinities, NaNs, the huge value's products); the other rows are
// unchanged by it (80 rows: split over the worker threads where there are several). A B the split
// cannot carry is refused (amxCarries).
TEST(Gemm, AmxRowsTheSplitCannotCarry) {
  if (!amxSupported()) GTEST_SKIP() << "no AMX tile unit, or QNN_CPU_AMX is not 1";
  const size_t m = 80, n = 48, k = 70;  // 80 x 48 x 70: split over the threads (multiplyAmxRowTasks)
  std::vector<float> a = values(m * k, 31);
  const std::vector<float> b = values(k * n, 32), bias = values(n, 33);
  const float inf = std::numeric_limits<float>::infinity();
  a[3 * k + 5] = inf;
  a[17 * k + 0] = std::numeric_limits<float>::quiet_NaN();
  a[20 * k + 69] = -inf;
  a[33 * k + 7] = 3.4e38f;  // finite, rounds to infinity in bfloat16
  std::vector<float> packed(amxPackedBSize(k, n)), classicPacked(packedBSize(k, n)), c(m * n), want(m * n);
  packBAmx(b.data(), n, false, k, n, packed.data());
  packB(b.data(), n, false, k, n, classicPacked.data());
  multiplyAmx(m, n, k, a.data(), k, packed.data(), bias.data(), c.data(), n, true);
  multiply(m, n, k, a.data(), k, false, classicPacked.data(), bias.data(), want.data(), n, true);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      const float got = c[i * n + j], expect = want[i * n + j];
      if (std::isfinite(expect))
        EXPECT_NEAR(got, expect, 1e-5 * std::max(1.f, std::fabs(expect))) << "C[" << i << "][" << j << "]";
      else if (std::isnan(expect))
        EXPECT_TRUE(std::isnan(got)) << "C[" << i << "][" << j << "] = " << got;
      else
        EXPECT_EQ(got, expect) << "C[" << i << "][" << j << "]";
    }
  EXPECT_FALSE(std::isfinite(c[3 * n]));
  std::vector<float> bad = b;
  EXPECT_TRUE(amxCarries(bad.data(), bad.size()));
  bad[10] = inf;
  EXPECT_FALSE(amxCarries(bad.data(), bad.size()));
  bad[10] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(amxCarries(bad.data(), bad.size()));
  bad[10] = -3.4e38f;
  EXPECT_FALSE(amxCarries(bad.data(), bad.size()));
}

// Which products take the tile path (QNN_CPU_AMX=1): at least a tile of rows and columns, K within
// 32..8192, A not transposed.
TEST(Gemm, AmxOnlyForTileSizedProducts) {
  if (!amxSupported()) GTEST_SKIP() << "no AMX tile unit, or QNN_CPU_AMX is not 1";
  EXPECT_TRUE(useAmx(16, 16, 32, false));
  EXPECT_TRUE(useAmx(128, 256, 256, false));
  EXPECT_FALSE(useAmx(15, 256, 256, false));
  EXPECT_FALSE(useAmx(128, 15, 256, false));
  EXPECT_FALSE(useAmx(128, 256, 31, false));
  EXPECT_FALSE(useAmx(128, 256, 8193, false));
  EXPECT_FALSE(useAmx(128, 256, 256, true));
}

}  // namespace
}  // namespace qnn::cpu::gemm
