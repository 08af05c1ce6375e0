// The host-speed paths of the HTP kernels against the paths they bypass, bit for bit:
//  * copy runs (copy_runs.h) against copying element by element through the map;
//  * a stored-value table against the function it tabulates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "copy_runs.h"
#include "fp16.h"
#include "htp_kernel.h"
#include "quant_gemm.h"
#include "quant_views.h"

namespace qnn::htp {
namespace {

using sdk::DType;
using testing::pattern;

TEST(CopyRuns, MatchTheElementMap) {
  // Concat-like (two inputs in blocks), transpose-like (stride 7), pads, a broadcast (stride 0).
  std::vector<std::vector<std::pair<uint32_t, int64_t>>> maps(4);
  for (int64_t i = 0; i < 300; ++i) maps[0].push_back({uint32_t((i / 50) % 2), (i / 100) * 50 + i % 50});
  for (int64_t r = 0; r < 7; ++r)
    for (int64_t c = 0; c < 40; ++c) maps[1].push_back({0, c * 7 + r});
  for (int64_t i = 0; i < 200; ++i) maps[2].push_back({0, (i % 20) < 3 ? -1 : i});
  for (int64_t i = 0; i < 256; ++i) maps[3].push_back({1, (i / 64) * 0 + i % 64});
  const std::vector<uint16_t> in0 = pattern<uint16_t>(300, 3), in1 = pattern<uint16_t>(300, 5);
  const std::vector<const void*> inputs = {in0.data(), in1.data()};
  for (const auto& map : maps) {
    std::vector<CopyRun> runs;
    ASSERT_TRUE(buildCopyRuns(
        map.size(), [&](size_t i, uint32_t* input, int64_t* index) { *input = map[i].first, *index = map[i].second; },
        &runs));
    EXPECT_LT(runs.size(), map.size() / 4);
    std::vector<uint16_t> got(map.size(), 0xdead), want(map.size());
    for (size_t i = 0; i < map.size(); ++i)
      want[i] = map[i].second < 0 ? 0x1234 : (map[i].first ? in1 : in0)[size_t(map[i].second)];
    ASSERT_TRUE(copyAlongRuns(runs, inputs, got.data(), 2, 0x1234));
    EXPECT_EQ(got, want);
  }
  // A scattered map is left to the caller.
  std::vector<CopyRun> runs;
  const std::vector<uint16_t> scattered = pattern<uint16_t>(500, 9);
  EXPECT_FALSE(buildCopyRuns(
      scattered.size(), [&](size_t i, uint32_t* input, int64_t* index) { *input = 0, *index = scattered[i]; }, &runs));
  EXPECT_TRUE(runs.empty());
}

TEST(StoredValueTable, EqualsItsFunctionOnEveryStoredValue) {
  for (DType in : {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16, DType::kSFixed16})
    for (DType out : {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16, DType::kSFixed16}) {
      const fx::QuantRange r = fx::quantRange(out);
      auto f = [&](int64_t q) { return std::min(std::max((q * 37 - 11) / 5, r.lo), r.hi); };
      StoredValueTable t;
      ASSERT_TRUE(t.build(in, out, f));
      EXPECT_FALSE(t.identity());
      const fx::QuantRange ri = fx::quantRange(in);
      const size_t n = size_t(ri.hi - ri.lo + 1), inSize = sdk::dtypeSize(in), outSize = sdk::dtypeSize(out);
      std::vector<uint8_t> x(n * inSize), y(n * outSize);
      for (int64_t q = ri.lo; q <= ri.hi; ++q) {
        const size_t i = size_t(q - ri.lo);
        if (inSize == 1) x[i] = uint8_t(q);
        else reinterpret_cast<uint16_t*>(x.data())[i] = uint16_t(q);
      }
      t.apply(x.data(), n, y.data());
      for (int64_t q = ri.lo; q <= ri.hi; ++q) {
        const size_t i = size_t(q - ri.lo);
        const int64_t want = f(q);
        int64_t got;
        if (outSize == 1) got = out == DType::kSFixed8 ? int8_t(y[i]) : y[i];
        else got = out == DType::kSFixed16 ? int16_t(reinterpret_cast<uint16_t*>(y.data())[i])
                                           : reinterpret_cast<uint16_t*>(y.data())[i];
        ASSERT_EQ(got, want) << "in " << int(in) << " out " << int(out) << " q " << q;
      }
    }
  StoredValueTable id;
  ASSERT_TRUE(id.build(DType::kUFixed16, DType::kUFixed16, [](int64_t q) { return q; }));
  EXPECT_TRUE(id.identity());
  EXPECT_FALSE(id.build(DType::kFloat32, DType::kUFixed16, [](int64_t q) { return q; }));
}

}  // namespace
}  // namespace qnn::htp
