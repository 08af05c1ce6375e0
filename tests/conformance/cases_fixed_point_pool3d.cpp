// Fixed-point conformance cases of PoolAvg3d (docs/htp-fixed-point.md): the
// PoolAvg2d rule over depth, height and width, the reference walking each
// window's coordinates explicitly (padding, ceil rounding, count_pad_for_edges,
// same and different encodings, power-of-two scales for exact rounding ties).
#include <algorithm>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {
namespace {

using fxref::Dims;

struct Geometry {
  int64_t f[3], s[3], before[3], after[3];
  bool ceil, countPad;
};

Ints poolAvg3dRef(const Ints& x, const Dims& xd, Enc ex, const Geometry& g, Enc eo, DType t, Dims* outDims) {
  int64_t out[3];
  for (int d = 0; d < 3; ++d) {
    const int64_t span = g.before[d] + xd[d + 1] + g.after[d] - g.f[d];
    out[d] = (g.ceil ? (span + g.s[d] - 1) / g.s[d] : span / g.s[d]) + 1;
  }
  *outDims = {xd[0], uint32_t(out[0]), uint32_t(out[1]), uint32_t(out[2]), xd[4]};
  Ints q;
  for (uint32_t b = 0; b < xd[0]; ++b)
    for (int64_t oz = 0; oz < out[0]; ++oz)
      for (int64_t oy = 0; oy < out[1]; ++oy)
        for (int64_t ox = 0; ox < out[2]; ++ox)
          for (uint32_t c = 0; c < xd[4]; ++c) {
            const int64_t o[3] = {oz, oy, ox};
            __int128 sum = 0;
            int64_t valid = 0, padded = 1;
            for (int d = 0; d < 3; ++d) {
              const int64_t start = o[d] * g.s[d] - g.before[d];
              padded *= std::min<int64_t>(start + g.f[d], xd[d + 1] + g.after[d]) - start;
            }
            for (int64_t i = 0; i < g.f[0]; ++i)
              for (int64_t j = 0; j < g.f[1]; ++j)
                for (int64_t k = 0; k < g.f[2]; ++k) {
                  const int64_t z = oz * g.s[0] - g.before[0] + i, y = oy * g.s[1] - g.before[1] + j,
                                xx = ox * g.s[2] - g.before[2] + k;
                  if (z < 0 || y < 0 || xx < 0 || z >= xd[1] || y >= xd[2] || xx >= xd[3]) continue;
                  sum += x[(((size_t(b) * xd[1] + size_t(z)) * xd[2] + size_t(y)) * xd[3] + size_t(xx)) * xd[4] + c] +
                         ex.offset;
                  ++valid;
                }
            if (valid == 0) {
              q.push_back(fxref::quantize(0.0, eo, t));
              continue;
            }
            const double n = double(g.countPad ? padded : valid);
            q.push_back(fxref::requantize(sum, double(ex.scale) / (double(eo.scale) * n), eo.offset, t));
          }
  return q;
}

std::vector<OpCase> poolAvg3dCases() {
  struct Spec {
    std::string name;
    Dims x;
    Geometry g;
  };
  const std::vector<Spec> specs = {
      {"PoolAvg3d_2x2x2_s2", {1, 4, 4, 6, 3}, {{2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {0, 0, 0}, false, false}},
      {"PoolAvg3d_3x3x3_s1_pad1", {1, 3, 5, 4, 2}, {{3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, false, false}},
      {"PoolAvg3d_3x3x3_s2_pad1_countpad", {2, 5, 4, 5, 2}, {{3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, false, true}},
      {"PoolAvg3d_2x3x2_ceil", {1, 5, 7, 5, 2}, {{2, 3, 2}, {2, 2, 2}, {0, 0, 0}, {0, 0, 0}, true, false}},
  };
  std::vector<OpCase> out;
  uint64_t seed = 4400;
  for (const auto& s : specs)
    for (DType t : activationTypes())
      for (int variant = 0; variant < 2; ++variant) {
        CaseRng rng(seed++);
        const Enc ex = encodingCovering(-2, 6, t, variant == 1), eo = variant == 0 ? ex : encodingCovering(-1, 4, t, true);
        const Ints x = randomInts(rng, elementCount(s.x), t);
        Dims outDims;
        const Ints q = poolAvg3dRef(x, s.x, ex, s.g, eo, t, &outDims);
        OpCase c;
        c.name = s.name + "_" + typeTag(t) + (variant == 0 ? "_same_encoding" : "_requantized_pow2");
        c.opType = "PoolAvg3d";
        c.inputs = {qTensor(t, s.x, x, ex)};
        auto u32 = [](std::vector<uint32_t> dims, std::vector<uint32_t> v) { return sdk::tensorU32(std::move(dims), v); };
        const auto& g = s.g;
        c.params = {{"filter_size", u32({3}, {uint32_t(g.f[0]), uint32_t(g.f[1]), uint32_t(g.f[2])})},
                    {"stride", u32({3}, {uint32_t(g.s[0]), uint32_t(g.s[1]), uint32_t(g.s[2])})},
                    {"pad_amount", u32({3, 2}, {uint32_t(g.before[0]), uint32_t(g.after[0]), uint32_t(g.before[1]),
                                                uint32_t(g.after[1]), uint32_t(g.before[2]), uint32_t(g.after[2])})}};
        if (g.ceil) c.params.push_back({"rounding_mode", sdk::scalarU32(1)});
        if (g.countPad) c.params.push_back({"count_pad_for_edges", sdk::scalarBool(true)});
        c.expected = {qTensor(t, outDims, q, eo)};
        out.push_back(c);
      }
  return out;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerFixedPointCaseSource("fixed_point_pool3d", qnn::conformance::poolAvg3dCases);
