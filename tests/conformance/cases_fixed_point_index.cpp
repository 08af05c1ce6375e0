// Fixed-point conformance cases of CumulativeSum, NonZero, OneHot and
// ElementWiseUnary at 8 and 16 bits (docs/htp-fixed-point.md). The references
// here follow the rules directly: running sums of q + offset requantized with
// s_in / s_out; coordinates of stored values other than the zero point; the
// quantized on/off values; the table rule of the operation's real function.
#include <cmath>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {
namespace {

using fxref::Dims;

CaseTensor ints32(Dims d, std::vector<int32_t> v) { return makeTensor(DType::kInt32, std::move(d), v); }

std::vector<OpCase> cumulativeSumCases() {
  std::vector<OpCase> out;
  const Dims d{2, 5, 3};
  uint64_t seed = 4100;
  for (DType t : activationTypes())
    for (int variant = 0; variant < 4; ++variant) {
      const bool exclusive = variant & 1, reverse = variant & 2;
      CaseRng rng(seed++);
      const Enc ex = encodingCovering(-1, 3, t), eo = encodingCovering(-4, 12, t, variant == 3);
      const Ints x = randomInts(rng, elementCount(d), t);
      Ints want(x.size());
      for (uint32_t o = 0; o < d[0]; ++o)
        for (uint32_t i = 0; i < d[2]; ++i)
          for (uint32_t k = 0; k < d[1]; ++k) {
            __int128 sum = 0;
            for (uint32_t j = 0; j < d[1]; ++j) {
              const bool before = reverse ? j > k : j < k;
              if (before || (!exclusive && j == k)) sum += x[(o * d[1] + j) * d[2] + i] + ex.offset;
            }
            want[(o * d[1] + k) * d[2] + i] = fxref::requantize(sum, double(ex.scale) / double(eo.scale), eo.offset, t);
          }
      OpCase c;
      c.name = std::string("CumulativeSum_axis1") + (exclusive ? "_exclusive" : "") + (reverse ? "_reverse" : "") + "_" +
               typeTag(t);
      c.opType = "CumulativeSum";
      c.inputs = {qTensor(t, d, x, ex)};
      c.params = {{"axis", sdk::scalarU32(1)}, {"exclusive", sdk::scalarBool(exclusive)},
                  {"reverse", sdk::scalarBool(reverse)}};
      c.expected = {qTensor(t, d, want, eo)};
      out.push_back(c);
    }
  // INT_32: exact sums, saturating at the int32 range.
  out.push_back(makeCase("CumulativeSum_int32_saturates", "CumulativeSum",
                         {ints32({4}, {2000000000, 2000000000, -5, 7})},
                         {ints32({4}, {2000000000, 2147483647, 2147483647, 2147483647})}, {{"axis", sdk::scalarU32(0)}}));
  return out;
}

std::vector<OpCase> nonZeroCases() {
  std::vector<OpCase> out;
  for (DType t : activationTypes()) {
    // Zero point 3 stored units above the type's minimum: stored minimum + 3 is real 0.
    const int64_t zero = fxref::typeMin(t) + 3;
    const Enc e{0.5f, int32_t(-zero)};
    const Ints x{zero, zero + 1, zero, zero, zero - 2, zero, zero, zero, zero + 9, zero, zero, zero};
    out.push_back(makeCase("NonZero_zero_point_" + typeTag(t), "NonZero", {qTensor(t, {3, 4}, x, e)},
                           {ints32({5, 2}, {0, 1, 1, 0, 2, 0, 0, 0, 0, 0})}));
  }
  return out;
}

std::vector<OpCase> oneHotCases() {
  std::vector<OpCase> out;
  for (DType t : activationTypes()) {
    const Enc eo = encodingCovering(-1.5, 2.5, t);
    const int64_t on = fxref::quantize(2.0, eo, t), off = fxref::quantize(-1.0, eo, t);
    // Indices [2, 3] (one outside depth 3), axis 0: out [3, 2, 3].
    const std::vector<int32_t> idx{0, 2, 5, 1, 1, 0};
    Ints want(18);
    for (uint32_t j = 0; j < 3; ++j)
      for (uint32_t i = 0; i < 6; ++i) want[j * 6 + i] = idx[i] == int32_t(j) ? on : off;
    out.push_back(makeCase("OneHot_axis0_out_of_range_" + typeTag(t), "OneHot", {ints32({2, 3}, idx)},
                           {qTensor(t, {3, 2, 3}, want, eo)},
                           {{"depth", sdk::scalarU32(3)}, {"axis", sdk::scalarU32(0)},
                            {"on_value", sdk::scalarF32(2.f)}, {"off_value", sdk::scalarF32(-1.f)}}));
  }
  return out;
}

std::vector<OpCase> elementWiseUnaryCases() {
  struct Op {
    const char* tag;
    uint32_t operation;
    double lo, hi;  // input range
    std::function<double(double)> f;
  };
  const std::vector<Op> ops = {
      {"ABS", 0, -3, 2, [](double x) { return std::fabs(x); }},
      {"NOT", 9, -1, 1, [](double x) { return x == 0.0 ? 1.0 : 0.0; }},
      {"RECIPROCAL", 10, 0.25, 4, [](double x) { return 1.0 / x; }},
      {"SIN", 14, -3, 3, [](double x) { return std::sin(x); }},
  };
  std::vector<OpCase> out;
  uint64_t seed = 4200;
  for (const Op& op : ops)
    for (DType t : activationTypes()) {
      CaseRng rng(seed++);
      const Enc ex = encodingCovering(op.lo, op.hi, t);
      Ints x = randomInts(rng, 40, t);
      x[0] = fxref::quantize(0.0, ex, t);  // real 0 where the encoding holds it
      double lo = 1e300, hi = -1e300;
      for (int64_t q : x) {
        const double y = op.f(double(fxref::dequantize(q, ex)));
        if (std::isfinite(y)) lo = std::min(lo, y), hi = std::max(hi, y);
      }
      const Enc eo = encodingCovering(lo, hi, t);
      OpCase c;
      c.name = std::string("ElementWiseUnary_") + op.tag + "_" + typeTag(t);
      c.opType = "ElementWiseUnary";
      c.inputs = {qTensor(t, {5, 8}, x, ex)};
      c.params = {{"operation", sdk::scalarU32(op.operation)}};
      c.expected = {qTensor(t, {5, 8}, fxref::table(x, ex, op.f, eo, t), eo)};
      out.push_back(c);
    }
  return out;
}

std::vector<OpCase> indexCases() {
  std::vector<OpCase> all;
  for (auto* f : {cumulativeSumCases, nonZeroCases, oneHotCases, elementWiseUnaryCases}) {
    auto v = f();
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerFixedPointCaseSource("fixed_point_index", qnn::conformance::indexCases);
