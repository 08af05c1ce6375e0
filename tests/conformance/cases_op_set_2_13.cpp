// Conformance cases of the ops op set 2.13 (API 2.39) added (definitions in
// sdk/opdefs/opdefs_post_2_7.json): Erf, Identity, ThresholdedRelu, Inverse
// (against the adjugate over Laplace cofactors, not elimination), ElementWiseMux,
// RandomNormalLike (mean exact at scale 0; a seeded node follows the documented
// generator), GroupQueryAttention (against an explicit per-head cache, masked
// softmax reference in double) and NonMaxSuppression's center_point_box.
#include <cmath>
#include <cstring>
#include <random>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Dims = std::vector<uint32_t>;

void elementwiseCases(std::vector<OpCase>& c) {
  CaseRng rng(2131);
  auto x = rng.floats(24, -3.f, 3.f);
  x[0] = 0.f, x[1] = -0.f, x[2] = 5.f, x[3] = -5.f;
  std::vector<float> erf(x.size());
  for (size_t i = 0; i < x.size(); ++i) erf[i] = float(std::erf(double(x[i])));
  c.push_back(makeCase("Erf_2x3x4", "Erf", {f32Tensor({2, 3, 4}, x)}, {f32Tensor({2, 3, 4}, erf)}, {}, 1e-6, 1e-6));
  for (float alpha : {1.f, 0.25f, -1.5f}) {
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = double(x[i]) > double(alpha) ? x[i] : 0.f;
    std::vector<std::pair<std::string, ParamValue>> p;
    if (alpha != 1.f) p.push_back({"alpha", sdk::scalarF32(alpha)});
    const std::string tag = alpha == 1.f ? "default_alpha" : alpha > 0 ? "alpha_0_25" : "alpha_neg_1_5";
    c.push_back(makeCase("ThresholdedRelu_" + tag, "ThresholdedRelu", {f32Tensor({4, 6}, x)}, {f32Tensor({4, 6}, want)}, p));
  }
  c.push_back(makeCase("Identity_float", "Identity", {f32Tensor({2, 12}, x)}, {f32Tensor({2, 12}, x)}));
  const std::vector<int32_t> ints = {7, -3, 0, 2147483647, -2147483647 - 1, 42};
  c.push_back(makeCase("Identity_int32", "Identity", {makeTensor(DType::kInt32, {3, 2}, ints)},
                       {makeTensor(DType::kInt32, {3, 2}, ints)}));
}

// det by Laplace expansion along the first row (double).
double det(const std::vector<double>& a, size_t n) {
  if (n == 1) return a[0];
  double d = 0;
  for (size_t j = 0; j < n; ++j) {
    std::vector<double> minor;
    for (size_t r = 1; r < n; ++r)
      for (size_t col = 0; col < n; ++col)
        if (col != j) minor.push_back(a[r * n + col]);
    d += ((j % 2) ? -1.0 : 1.0) * a[j] * det(minor, n - 1);
  }
  return d;
}

// inverse = adjugate / det: inv[j][i] = (-1)^(i+j) det(minor_ij) / det.
std::vector<float> inverseByAdjugate(const std::vector<float>& m, size_t n) {
  std::vector<double> a(m.begin(), m.end());
  const double d = det(a, n);
  std::vector<float> inv(n * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      std::vector<double> minor;
      for (size_t r = 0; r < n; ++r)
        for (size_t col = 0; col < n; ++col)
          if (r != i && col != j) minor.push_back(a[r * n + col]);
      inv[j * n + i] = float((((i + j) % 2) ? -1.0 : 1.0) * (n == 1 ? 1.0 : det(minor, n - 1)) / d);
    }
  return inv;
}

void inverseCases(std::vector<OpCase>& c) {
  CaseRng rng(2132);
  struct I { const char* tag; Dims dims; };
  for (const I& t : {I{"2x2", {2, 2}}, I{"batch2_3x3", {2, 3, 3}}, I{"4x4", {4, 4}}, I{"batch2x2_3x3", {2, 2, 3, 3}}}) {
    const size_t n = t.dims.back();
    size_t count = 1;
    for (uint32_t d : t.dims) count *= d;
    auto m = rng.floats(count, -1.f, 1.f);
    for (size_t b = 0; b < count / (n * n); ++b)
      for (size_t i = 0; i < n; ++i) m[b * n * n + i * n + i] += (i % 2 ? -2.5f : 2.5f);  // well conditioned
    std::vector<float> want;
    for (size_t b = 0; b < count / (n * n); ++b) {
      auto inv = inverseByAdjugate(std::vector<float>(m.begin() + long(b * n * n), m.begin() + long((b + 1) * n * n)), n);
      want.insert(want.end(), inv.begin(), inv.end());
    }
    c.push_back(makeCase(std::string("Inverse_") + t.tag, "Inverse", {f32Tensor(t.dims, m)}, {f32Tensor(t.dims, want)},
                         {}, 1e-5, 1e-5));
  }
  // A permutation matrix needs a row exchange (zero first pivot); its inverse is its transpose.
  c.push_back(makeCase("Inverse_permutation_pivot", "Inverse", {f32Tensor({3, 3}, {0, 1, 0, 0, 0, 1, 1, 0, 0})},
                       {f32Tensor({3, 3}, {0, 0, 1, 1, 0, 0, 0, 1, 0})}, {}, 1e-6, 1e-6));
}

void muxCases(std::vector<OpCase>& c) {
  CaseRng rng(2133);
  auto a = rng.floats(12), b = rng.floats(12), d = rng.floats(12);
  // Element-wise selector, one out of range (gives 0) and one negative (gives 0).
  const std::vector<int32_t> sel = {0, 1, 2, 1, 0, 2, 3, 1, -1, 0, 2, 1};
  std::vector<float> want(12);
  for (size_t i = 0; i < 12; ++i) want[i] = sel[i] == 0 ? a[i] : sel[i] == 1 ? b[i] : sel[i] == 2 ? d[i] : 0.f;
  c.push_back(makeCase("ElementWiseMux_elementwise_int32", "ElementWiseMux",
                       {makeTensor(DType::kInt32, {3, 4}, sel), f32Tensor({3, 4}, a), f32Tensor({3, 4}, b), f32Tensor({3, 4}, d)},
                       {f32Tensor({3, 4}, want)}));
  // One selector ([1], uint32) picks a whole candidate (the MoE expert switch).
  c.push_back(makeCase("ElementWiseMux_scalar_selector_uint32", "ElementWiseMux",
                       {makeTensor(DType::kUInt32, {1}, std::vector<uint32_t>{1}), f32Tensor({3, 4}, a), f32Tensor({3, 4}, b)},
                       {f32Tensor({3, 4}, b)}));
  // Broadcasting: selector [3, 1], candidates [4] and [3, 4] -> [3, 4].
  const std::vector<int32_t> rowSel = {1, 0, 1};
  std::vector<float> bw(12);
  for (size_t r = 0; r < 3; ++r)
    for (size_t k = 0; k < 4; ++k) bw[r * 4 + k] = rowSel[r] == 0 ? a[k] : b[r * 4 + k];
  // UFIXED_POINT_8 candidates of one encoding (offset -10): bytes copied; out of range gives the real 0,
  // stored as 10 (real = (q + offset) * scale).
  auto u8 = [](std::vector<uint8_t> q) {
    CaseTensor t = makeTensor(DType::kUFixed8, {4}, q);
    t.quant.kind = QuantInfo::Kind::kScaleOffset, t.quant.scale = 0.1f, t.quant.offset = -10;
    return t;
  };
  c.push_back(makeCase("ElementWiseMux_ufixed8_bytes", "ElementWiseMux",
                       {makeTensor(DType::kInt32, {4}, std::vector<int32_t>{0, 1, 7, 1}), u8({1, 2, 3, 4}), u8({200, 201, 202, 203})},
                       {u8({1, 201, 10, 203})}));
  c.push_back(makeCase("ElementWiseMux_broadcast", "ElementWiseMux",
                       {makeTensor(DType::kInt32, {3, 1}, rowSel), f32Tensor({4}, {a[0], a[1], a[2], a[3]}), f32Tensor({3, 4}, b)},
                       {f32Tensor({3, 4}, bw)}));
}

// The documented generator: std::mt19937 seeded with the seed's bits; per value two
// draws a, b: mean + scale * sqrt(-2 ln(1 - (a >> 8) / 2^24)) * cos(2 pi (b >> 8) / 2^24).
void randomNormalCases(std::vector<OpCase>& c) {
  const auto shape = makeTensor(DType::kUInt32, {2}, std::vector<uint32_t>{2, 3}, true);
  c.push_back(makeCase("RandomNormalLike_zero_scale_is_mean", "RandomNormalLike", {shape},
                       {f32Tensor({2, 3}, std::vector<float>(6, -1.25f))},
                       {{"mean", sdk::scalarF32(-1.25f)}, {"scale", sdk::scalarF32(0.f)}}));
  const float seed = 11.f, mean = 0.5f, scale = 2.f;
  uint32_t bits;
  std::memcpy(&bits, &seed, sizeof(bits));
  std::mt19937 gen(bits);
  std::vector<float> want;
  for (int i = 0; i < 6; ++i) {
    const double u = 1.0 - double(gen() >> 8) / 16777216.0, v = double(gen() >> 8) / 16777216.0;
    want.push_back(float(mean + scale * std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v)));
  }
  c.push_back(makeCase("RandomNormalLike_seeded_documented_generator", "RandomNormalLike",
                       {shape, f32Tensor({1}, {seed}, true)}, {f32Tensor({2, 3}, want)},
                       {{"mean", sdk::scalarF32(mean)}, {"scale", sdk::scalarF32(scale)}}, 1e-6, 1e-6));
}

// ---- GroupQueryAttention reference: per batch, an explicit cache per kv head
// (past rows then the new rows), rotation as complex multiplication of the
// (first-half, second-half) pairs, scores masked past the query's position to
// -inf, softmax, weighted sum of values. All in double.
struct Gqa {
  uint32_t B, S, N, KV, H, L, R = 0;  // R: rotary dims (0 = no rotary)
  bool packed = false, withPast = false, withIds = false;
  float scale = 0.f;
  std::vector<int32_t> seqlens;
  int32_t total;
};

void gqaCase(std::vector<OpCase>& c, const std::string& tag, const Gqa& g, uint64_t seed) {
  CaseRng rng(seed);
  const size_t qw = size_t(g.N) * g.H, kw = size_t(g.KV) * g.H;
  auto q = rng.floats(size_t(g.B) * g.S * qw), k = rng.floats(size_t(g.B) * g.S * kw), v = rng.floats(size_t(g.B) * g.S * kw);
  const size_t cache = size_t(g.B) * g.KV * g.L * g.H;
  std::vector<float> pastK(cache, 0.f), pastV(cache, 0.f);
  if (g.withPast) pastK = rng.floats(cache), pastV = rng.floats(cache);
  const uint32_t maxPos = g.L + 2;
  std::vector<float> cosC, sinC;
  for (uint32_t p = 0; p < maxPos; ++p)
    for (uint32_t i = 0; i < g.R / 2; ++i) {
      const double theta = p * std::pow(10000.0, -2.0 * i / g.R);
      cosC.push_back(float(std::cos(theta))), sinC.push_back(float(std::sin(theta)));
    }
  std::vector<int32_t> ids;
  const bool first = int32_t(g.S) == g.total;
  for (uint32_t b = 0; b < g.B; ++b)
    for (uint32_t s = 0; s < g.S; ++s) ids.push_back(int32_t((first ? 0 : g.seqlens[b] + 1 - int32_t(g.S)) + s + (g.withIds ? 1 : 0)));
  auto rot = [&](double* x, int32_t pos) {
    for (uint32_t i = 0; i < g.R / 2; ++i) {
      const double cr = cosC[size_t(pos) * (g.R / 2) + i], si = sinC[size_t(pos) * (g.R / 2) + i];
      const double re = x[i], im = x[g.R / 2 + i];  // (re + i im) * (cos + i sin)
      x[i] = re * cr - im * si, x[g.R / 2 + i] = re * si + im * cr;
    }
  };
  std::vector<float> out(size_t(g.B) * g.S * qw), presK(cache, 0.f), presV(cache, 0.f);
  for (uint32_t b = 0; b < g.B; ++b) {
    const int32_t past = first ? 0 : g.seqlens[b] + 1 - int32_t(g.S);
    for (uint32_t kv = 0; kv < g.KV; ++kv) {
      std::vector<std::vector<double>> keys, vals;  // the cache rows of this kv head
      for (int32_t t = 0; t < past; ++t) {
        const size_t at = ((size_t(b) * g.KV + kv) * g.L + size_t(t)) * g.H;
        keys.emplace_back(pastK.begin() + long(at), pastK.begin() + long(at + g.H));
        vals.emplace_back(pastV.begin() + long(at), pastV.begin() + long(at + g.H));
      }
      for (uint32_t s = 0; s < g.S; ++s) {
        std::vector<double> kr(g.H), vr(g.H);
        for (uint32_t i = 0; i < g.H; ++i)
          kr[i] = k[(size_t(b) * g.S + s) * kw + kv * g.H + i], vr[i] = v[(size_t(b) * g.S + s) * kw + kv * g.H + i];
        if (g.R) rot(kr.data(), g.withIds ? ids[b * g.S + s] : past + int32_t(s));
        keys.push_back(kr), vals.push_back(vr);
      }
      for (size_t t = 0; t < keys.size(); ++t)
        for (uint32_t i = 0; i < g.H; ++i) {
          const size_t at = ((size_t(b) * g.KV + kv) * g.L + t) * g.H + i;
          presK[at] = float(keys[t][i]), presV[at] = float(vals[t][i]);
        }
      for (uint32_t n = kv * (g.N / g.KV); n < (kv + 1) * (g.N / g.KV); ++n)
        for (uint32_t s = 0; s < g.S; ++s) {
          std::vector<double> qr(g.H);
          for (uint32_t i = 0; i < g.H; ++i) qr[i] = q[(size_t(b) * g.S + s) * qw + n * g.H + i];
          if (g.R) rot(qr.data(), g.withIds ? ids[b * g.S + s] : past + int32_t(s));
          const double sc = g.scale != 0.f ? g.scale : 1.0 / std::sqrt(double(g.H));
          std::vector<double> score(keys.size());
          double mx = -INFINITY, sum = 0;
          for (size_t t = 0; t < keys.size(); ++t) {
            double dot = 0;
            for (uint32_t i = 0; i < g.H; ++i) dot += qr[i] * double(float(keys[t][i]));
            score[t] = int64_t(t) <= past + int64_t(s) ? sc * dot : -INFINITY;
            mx = std::max(mx, score[t]);
          }
          for (double& e : score) sum += (e = std::exp(e - mx));
          for (uint32_t i = 0; i < g.H; ++i) {
            double acc = 0;
            for (size_t t = 0; t < keys.size(); ++t) acc += score[t] / sum * vals[t][i];
            out[(size_t(b) * g.S + s) * qw + n * g.H + i] = float(acc);
          }
        }
    }
  }
  std::vector<CaseTensor> in;
  if (g.packed) {
    std::vector<float> qkv;
    for (size_t r = 0; r < size_t(g.B) * g.S; ++r) {
      qkv.insert(qkv.end(), q.begin() + long(r * qw), q.begin() + long((r + 1) * qw));
      qkv.insert(qkv.end(), k.begin() + long(r * kw), k.begin() + long((r + 1) * kw));
      qkv.insert(qkv.end(), v.begin() + long(r * kw), v.begin() + long((r + 1) * kw));
    }
    in.push_back(f32Tensor({g.B, g.S, uint32_t(qw + 2 * kw)}, qkv));
  } else {
    in.push_back(f32Tensor({g.B, g.S, uint32_t(qw)}, q));
  }
  in.push_back(makeTensor(DType::kInt32, {g.B}, g.seqlens));
  in.push_back(makeTensor(DType::kInt32, {1}, std::vector<int32_t>{g.total}));
  if (g.packed) {
    in.push_back(nullTensor()), in.push_back(nullTensor());
  } else {
    in.push_back(f32Tensor({g.B, g.S, uint32_t(kw)}, k)), in.push_back(f32Tensor({g.B, g.S, uint32_t(kw)}, v));
  }
  const Dims kvDims{g.B, g.KV, g.L, g.H};
  if (g.withPast) in.push_back(f32Tensor(kvDims, pastK)), in.push_back(f32Tensor(kvDims, pastV));
  else if (g.R) in.push_back(nullTensor()), in.push_back(nullTensor());
  if (g.R) {
    in.push_back(f32Tensor({maxPos, g.R / 2}, cosC, true)), in.push_back(f32Tensor({maxPos, g.R / 2}, sinC, true));
    if (g.withIds) in.push_back(makeTensor(DType::kInt32, {g.B, g.S}, ids));
  }
  std::vector<std::pair<std::string, ParamValue>> p = {{"num_heads", sdk::scalarU32(g.N)}, {"kv_num_heads", sdk::scalarU32(g.KV)}};
  if (g.R) p.push_back({"do_rotary", sdk::scalarU32(1)});
  if (g.scale != 0.f) p.push_back({"scale", sdk::scalarF32(g.scale)});
  c.push_back(makeCase("GroupQueryAttention_" + tag, "GroupQueryAttention", in,
                       {f32Tensor({g.B, g.S, uint32_t(qw)}, out), f32Tensor(kvDims, presK), f32Tensor(kvDims, presV)}, p,
                       2e-6, 2e-5));
}

void gqaCases(std::vector<OpCase>& c) {
  // Prompt: 3 tokens, 4 query heads on 2 kv heads, cache length 5.
  gqaCase(c, "prompt_gqa", {2, 3, 4, 2, 4, 5, 0, false, false, false, 0.f, {2, 2}, 3}, 2141);
  // Decode: one token after a past of 3 (batch 0) and 1 (batch 1), multi-query (1 kv head), custom scale.
  gqaCase(c, "decode_past_mqa_scale", {2, 1, 2, 1, 4, 6, 0, false, true, false, 0.3f, {3, 1}, 4}, 2142);
  // Rotary on 4 of 8 head features, two new tokens after a past of 2, and a prompt with packed QKV.
  gqaCase(c, "rotary_continuation", {1, 2, 2, 2, 8, 6, 4, false, true, false, 0.f, {3}, 4}, 2143);
  gqaCase(c, "rotary_packed_prompt", {1, 3, 4, 2, 4, 4, 4, true, false, false, 0.f, {2}, 3}, 2144);
  // position_ids given: the rotation follows them (shifted by one from the default).
  gqaCase(c, "rotary_position_ids", {1, 2, 2, 1, 4, 5, 4, false, true, true, 0.f, {3}, 4}, 2145);
}

// ---- NonMaxSuppression center_point_box: the same six boxes as centers and as
// corners select the same (batch, class, box) rows: scores 0.9 0.75 0.6 0.95 0.5
// 0.3, boxes 0-2 overlapping (IoU > 0.5), 3-4 overlapping, 5 alone: 3, 0, 5.
void nmsCenterPointCases(std::vector<OpCase>& c) {
  const std::vector<float> centers = {0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 0.4f, 1, 1,
                                      0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1};
  std::vector<float> corners;  // (y1, x1, y2, x2)
  for (size_t i = 0; i < centers.size(); i += 4)
    for (float f : {centers[i + 1] - centers[i + 3] / 2, centers[i] - centers[i + 2] / 2,
                    centers[i + 1] + centers[i + 3] / 2, centers[i] + centers[i + 2] / 2})
      corners.push_back(f);
  const auto scores = f32Tensor({1, 1, 6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f});
  const auto want = makeTensor(DType::kInt32, {3, 3}, std::vector<int32_t>{0, 0, 3, 0, 0, 0, 0, 0, 5});
  const auto count = makeTensor(DType::kUInt32, {1}, std::vector<uint32_t>{3});
  for (uint32_t mode : {0u, 1u})
    c.push_back(makeCase(mode ? "NonMaxSuppression_center_point_box" : "NonMaxSuppression_diag_corners_explicit",
                         "NonMaxSuppression", {f32Tensor({1, 6, 4}, mode ? centers : corners), scores}, {want, count},
                         {{"iou_threshold", sdk::scalarF32(0.5f)}, {"max_boxes_selected", sdk::scalarU32(3)},
                          {"center_point_box", sdk::scalarU32(mode)}}));
}

std::vector<OpCase> opSet213Cases() {
  std::vector<OpCase> c;
  elementwiseCases(c);
  inverseCases(c);
  muxCases(c);
  randomNormalCases(c);
  gqaCases(c);
  nmsCenterPointCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("op_set_2_13", qnn::conformance::opSet213Cases);
