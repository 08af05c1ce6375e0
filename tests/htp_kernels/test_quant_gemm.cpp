// QuantGemm: the VNNI and portable paths against a naive exact product, over
// sizes that exercise every tail (rows % 4, columns % 16, K % 4).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "htp_sim/kernels/quant_gemm.h"

namespace qnn::htp {
namespace {

struct Lcg {
  uint32_t s;
  uint32_t next() { return s = s * 1664525u + 1013904223u; }
};

std::vector<int32_t> naive(const std::vector<uint8_t>& a, const std::vector<int32_t>& b, size_t m, size_t k,
                           size_t n) {
  std::vector<int32_t> c(m * n, 0);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      int64_t s = 0;
      for (size_t kk = 0; kk < k; ++kk) s += int64_t(a[i * k + kk]) * b[kk * n + j];
      c[i * n + j] = int32_t(s);
    }
  return c;
}

TEST(QuantGemm, NarrowPathsMatchTheExactProduct) {
  Lcg rng{7};
  for (size_t m : {1u, 3u, 4u, 9u})
    for (size_t k : {1u, 3u, 4u, 45u, 64u, 301u})
      for (size_t n : {1u, 15u, 16u, 17u, 70u}) {
        std::vector<uint8_t> a(m * k);
        std::vector<int32_t> b(k * n);
        for (auto& v : a) v = uint8_t(rng.next() >> 24);
        for (auto& v : b) v = int32_t(rng.next() % 256) - 128;
        const std::vector<int32_t> want = naive(a, b, m, k, n);
        for (bool vnni : {true, false}) {
          QuantGemm g;
          ASSERT_TRUE(g.pack(b.data(), k, n, true, vnni));
          EXPECT_TRUE(g.narrow());
          if (!vnni) {
            EXPECT_FALSE(g.usesVnni());
          }
          std::vector<int32_t> got(m * n, -1);
          g.multiply(a.data(), m, k, got.data());
          EXPECT_EQ(got, want) << "m=" << m << " k=" << k << " n=" << n << " vnni=" << g.usesVnni();
        }
      }
}

TEST(QuantGemm, UsesVnniWhenTheCpuHasItAndWeightsFitInt8) {
  std::vector<int32_t> b(64 * 16, 1);
  QuantGemm g;
  ASSERT_TRUE(g.pack(b.data(), 64, 16, true, true));
  EXPECT_EQ(g.usesVnni(), vnniAvailable());
  b[5] = 200;  // column 5 spans 1..200: int8 after a shift, still VNNI
  ASSERT_TRUE(g.pack(b.data(), 64, 16, true, true));
  EXPECT_EQ(g.usesVnni(), vnniAvailable());
  b[21] = -100;  // column 5 now spans -100..200 (> 256 values): the portable loop, still narrow
  ASSERT_TRUE(g.pack(b.data(), 64, 16, true, true));
  EXPECT_FALSE(g.usesVnni());
  EXPECT_TRUE(g.narrow());
}

// Asymmetric uint8 weights: b = w + offset[j] with w in 0..255 and offset in
// -255..0 per column (some columns inside int8, some shifted up or down), also
// through multiplyColumns on 16-aligned column ranges.
TEST(QuantGemm, ShiftedColumnsMatchTheExactProduct) {
  Lcg rng{11};
  for (size_t m : {1u, 5u, 8u})
    for (size_t k : {3u, 64u, 147u, 577u})
      for (size_t n : {16u, 40u, 64u}) {
        std::vector<uint8_t> a(m * k);
        std::vector<int32_t> b(k * n), offset(n);
        for (auto& v : a) v = uint8_t(rng.next() >> 24);
        for (size_t j = 0; j < n; ++j) offset[j] = j % 3 == 0 ? 0 : -int32_t(rng.next() % 256);
        for (size_t kk = 0; kk < k; ++kk)
          for (size_t j = 0; j < n; ++j) b[kk * n + j] = int32_t(rng.next() >> 24) + offset[j];
        const std::vector<int32_t> want = naive(a, b, m, k, n);
        QuantGemm g;
        ASSERT_TRUE(g.pack(b.data(), k, n, true, true));
        EXPECT_EQ(g.usesVnni(), vnniAvailable());
        std::vector<int32_t> got(m * n, -1);
        g.multiply(a.data(), m, k, got.data());
        EXPECT_EQ(got, want) << "m=" << m << " k=" << k << " n=" << n;
        for (size_t col0 = 16; col0 < n; col0 += 16) {
          const size_t cols = std::min<size_t>(16, n - col0);
          std::vector<int32_t> part(m * cols, -1);
          g.multiplyColumns(a.data(), m, k, col0, cols, part.data(), cols);
          for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < cols; ++j)
              ASSERT_EQ(part[i * cols + j], want[i * n + col0 + j]) << "m=" << m << " k=" << k << " col " << col0 + j;
        }
      }
}

TEST(QuantGemm, RefusesNarrowWhenInt32CouldOverflowAndWidePathIsExact) {
  const size_t k = 70000, n = 2;
  std::vector<int32_t> b(k * n, 127);
  QuantGemm g;
  EXPECT_FALSE(g.pack(b.data(), k, n, true, true));  // 70000 * 255 * 127 > 2^31
  ASSERT_TRUE(g.pack(b.data(), k, n, false, false));
  std::vector<uint16_t> a(k, 255);
  std::vector<int64_t> c(n);
  g.multiply(a.data(), 1, k, c.data());
  EXPECT_EQ(c[0], int64_t(k) * 255 * 127);
  EXPECT_EQ(g.columnSums()[1], int64_t(k) * 127);
}

}  // namespace
}  // namespace qnn::htp
