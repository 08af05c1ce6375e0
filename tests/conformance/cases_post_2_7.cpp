// Conformance cases of the ops and params added after API 2.7 (definitions in
// sdk/opdefs/opdefs_post_2_7.json): IsInf, IsNan, ReduceSumSquare, RmsNorm,
// HadamardTransform (against the Sylvester matrix product, not butterflies),
// Logit, TopK's largest = false, and MaskedSoftmax in both modes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_elementwise.h"

namespace qnn::conformance {
namespace {

using ref::Dims;
using Params = std::vector<std::pair<std::string, ParamValue>>;

CaseTensor b8(Dims d, const std::vector<uint8_t>& v) { return makeTensor(DType::kBool8, std::move(d), v); }

void isInfNanCases(std::vector<OpCase>& c) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1.f, inf, -inf, nan, 0.f, -3.5f, inf, -inf};
  for (int neg = 0; neg < 2; ++neg)
    for (int pos = 0; pos < 2; ++pos) {
      std::vector<uint8_t> want(x.size());
      for (size_t i = 0; i < x.size(); ++i) want[i] = std::isinf(x[i]) && (x[i] > 0 ? pos : neg);
      c.push_back(makeCase(std::string("IsInf_negative") + char('0' + neg) + "_positive" + char('0' + pos), "IsInf",
                           {f32Tensor({2, 4}, x)}, {b8({2, 4}, want)},
                           {{"detect_negative", sdk::scalarBool(neg)}, {"detect_positive", sdk::scalarBool(pos)}}));
    }
  c.push_back(makeCase("IsInf_defaults", "IsInf", {f32Tensor({8}, x)}, {b8({8}, {0, 1, 1, 0, 0, 0, 1, 1})}));
  c.push_back(makeCase("IsNan", "IsNan", {f32Tensor({8}, x)}, {b8({8}, {0, 0, 0, 1, 0, 0, 0, 0})}));
}

void reduceSumSquareCases(std::vector<OpCase>& c) {
  CaseRng rng(121);
  struct R { const char* tag; Dims in; std::vector<uint32_t> axes; bool keep; };
  const R rs[] = {{"last", {3, 5}, {1}, false}, {"first_keep", {4, 3}, {0}, true}, {"two_axes", {2, 3, 4}, {0, 2}, false}};
  for (const R& r : rs) {
    auto v = rng.floats(ref::count(r.in), -2.f, 2.f);
    std::vector<float> sq(v.size());
    for (size_t i = 0; i < v.size(); ++i) sq[i] = v[i] * v[i];
    Dims od;
    for (size_t d = 0; d < r.in.size(); ++d) {
      const bool red = std::find(r.axes.begin(), r.axes.end(), d) != r.axes.end();
      if (!red) od.push_back(r.in[d]);
      else if (r.keep) od.push_back(1);
    }
    c.push_back(makeCase(std::string("ReduceSumSquare_") + r.tag, "ReduceSumSquare", {f32Tensor(r.in, v)},
                         {f32Tensor(od, ref::reduce(sq, r.in, r.axes, 1))},
                         {{"axes", sdk::tensorU32({uint32_t(r.axes.size())}, r.axes)}, {"keep_dims", sdk::scalarBool(r.keep)}},
                         1e-5, 1e-5));
  }
  c.push_back(makeCase("ReduceSumSquare_int32", "ReduceSumSquare", {makeTensor(DType::kInt32, {2, 3}, std::vector<int32_t>{1, -2, 3, 0, 4, -5})},
                       {makeTensor(DType::kInt32, {2}, std::vector<int32_t>{14, 41})},
                       {{"axes", sdk::tensorU32({1}, {1})}}));
}

void rmsNormCases(std::vector<OpCase>& c) {
  CaseRng rng(131);
  struct N { const char* tag; Dims in; size_t normalizedDims; int extras; float eps; };  // extras: 0 none, 1 gamma, 2 both
  const N ns[] = {{"last_dim_gamma", {3, 8}, 1, 1, 1e-6f}, {"last_two_gamma_beta", {2, 3, 4}, 2, 2, 1e-5f},
                  {"no_gamma", {4, 5}, 1, 0, 1e-3f}};
  for (const N& n : ns) {
    auto x = rng.floats(ref::count(n.in), -2.f, 2.f);
    size_t inner = 1;
    std::vector<uint32_t> axes;
    for (size_t d = n.in.size() - n.normalizedDims; d < n.in.size(); ++d) {
      inner *= n.in[d];
      axes.push_back(uint32_t(d));
    }
    Dims gd(n.in.end() - long(n.normalizedDims), n.in.end());
    auto gamma = rng.floats(inner, 0.5f, 1.5f), beta = rng.floats(inner, -0.5f, 0.5f);
    std::vector<float> want(x.size());
    for (size_t r = 0; r < x.size() / inner; ++r) {
      double ms = 0;
      for (size_t i = 0; i < inner; ++i) ms += double(x[r * inner + i]) * x[r * inner + i] / double(inner);
      for (size_t i = 0; i < inner; ++i) {
        double v = x[r * inner + i] / std::sqrt(ms + n.eps);
        if (n.extras >= 1) v *= gamma[i];
        if (n.extras >= 2) v += beta[i];
        want[r * inner + i] = float(v);
      }
    }
    std::vector<CaseTensor> ins = {f32Tensor(n.in, x)};
    if (n.extras >= 1) ins.push_back(f32Tensor(gd, gamma, true));
    if (n.extras >= 2) ins.push_back(f32Tensor(gd, beta, true));
    c.push_back(makeCase(std::string("RmsNorm_") + n.tag, "RmsNorm", ins, {f32Tensor(n.in, want)},
                         {{"epsilon", sdk::scalarF32(n.eps)}, {"axes", sdk::tensorU32({uint32_t(axes.size())}, axes)}},
                         1e-5, 1e-5));
  }
}

void hadamardCases(std::vector<OpCase>& c) {
  CaseRng rng(141);
  for (uint32_t n : {1u, 2u, 8u, 32u}) {
    const Dims d = {3, n};
    auto x = rng.floats(ref::count(d));
    const float scale = 1.f / std::sqrt(float(n));
    std::vector<float> want(x.size());
    for (size_t r = 0; r < 3; ++r)
      for (uint32_t i = 0; i < n; ++i) {
        double s = 0;   // H[i][j] = (-1)^popcount(i & j), Sylvester's construction
        for (uint32_t j = 0; j < n; ++j) s += (__builtin_popcount(i & j) % 2 ? -1.0 : 1.0) * x[r * n + j];
        want[r * n + i] = float(s * scale);
      }
    c.push_back(makeCase("HadamardTransform_n" + std::to_string(n), "HadamardTransform", {f32Tensor(d, x)},
                         {f32Tensor(d, want)}, {{"scale", sdk::scalarF32(scale)}}, 1e-5, 1e-5));
  }
}

void logitCases(std::vector<OpCase>& c) {
  const std::vector<float> x = {0.01f, 0.25f, 0.5f, 0.8f, 0.999f, 0.f, 1.f, 0.3f};
  std::vector<float> plain(x.size()), clamped(x.size());
  const float eps = 0.05f;
  for (size_t i = 0; i < x.size(); ++i) {
    plain[i] = float(std::log(double(x[i]) / (1.0 - double(x[i]))));
    const double z = std::min(std::max(double(x[i]), double(eps)), 1.0 - double(eps));
    clamped[i] = float(std::log(z / (1 - z)));
  }
  // 0 and 1 give -inf / +inf without a clamp: the plain case leaves them out.
  const std::vector<float> inner(x.begin(), x.begin() + 5), innerWant(plain.begin(), plain.begin() + 5);
  c.push_back(makeCase("Logit_plain", "Logit", {f32Tensor({5}, inner)}, {f32Tensor({5}, innerWant)}, {}, 1e-5, 1e-5));
  c.push_back(makeCase("Logit_epsilon", "Logit", {f32Tensor({2, 4}, x), f32Tensor({1}, {eps})}, {f32Tensor({2, 4}, clamped)},
                       {}, 1e-5, 1e-5));
}

void topKSmallestCases(std::vector<OpCase>& c) {
  // Distinct values, so the order is the sorted order whatever the tie rule.
  const std::vector<float> x = {0.5f, -1.f, 3.f, 2.f, -4.f, 1.5f, 7.f, 0.f};
  std::vector<uint32_t> order(4);
  std::vector<float> vals;
  std::vector<int32_t> idx;
  for (size_t r = 0; r < 2; ++r) {
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return x[r * 4 + a] < x[r * 4 + b]; });
    for (size_t k = 0; k < 3; ++k) {
      vals.push_back(x[r * 4 + order[k]]);
      idx.push_back(int32_t(order[k]));
    }
  }
  c.push_back(makeCase("TopK_smallest", "TopK", {f32Tensor({2, 4}, x)},
                       {f32Tensor({2, 3}, vals), makeTensor(DType::kInt32, {2, 3}, idx)},
                       {{"k", sdk::scalarU32(3)}, {"largest", sdk::scalarBool(false)}}));
}

// MaskedSoftmax against the QAIRT block op's ONNX function, evaluated directly:
// UNCOMPRESSED softmax(data + mask); COMPRESSED builds the [C x C] same-sequence
// matrix from the lengths (cumulative sums), softmax of where(keep, data, -1e4),
// then where(keep, softmax, 0).
std::vector<double> softmaxOf(const std::vector<double>& v) {
  double m = -1e300, sum = 0;
  for (double x : v) m = std::max(m, x);
  std::vector<double> e(v.size());
  for (size_t i = 0; i < v.size(); ++i) sum += (e[i] = std::exp(v[i] - m));
  for (double& x : e) x /= sum;
  return e;
}

void maskedSoftmaxCases(std::vector<OpCase>& c) {
  {  // UNCOMPRESSED, data [1, 2, 3, 5], mask [1, 5] broadcast onto it
    const size_t C = 5, rows = 6;
    std::vector<float> x(rows * C), mask = {0.f, -10000.f, 0.f, 0.f, -10000.f}, want(rows * C);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(0.7 * double(i)) * 3.0);
    for (size_t r = 0; r < rows; ++r) {
      std::vector<double> v(C);
      for (size_t k = 0; k < C; ++k) v[k] = double(x[r * C + k]) + mask[k];
      const auto e = softmaxOf(v);
      for (size_t k = 0; k < C; ++k) want[r * C + k] = float(e[k]);
    }
    c.push_back(makeCase("MaskedSoftmax_uncompressed", "MaskedSoftmax", {f32Tensor({1, 2, 3, 5}, x), f32Tensor({1, 5}, mask)},
                         {f32Tensor({1, 2, 3, 5}, want)}, {{"mode", sdk::scalarU32(0)}}, 1e-6, 1e-5));
  }
  {  // COMPRESSED, data [1, 2, 6, 6], two sequences of 2 and 3 (position 5 in none)
    const size_t C = 6, H = 2;
    const std::vector<int32_t> lengths = {2, 3};
    std::vector<int64_t> cum(lengths.size()), excl(lengths.size());
    int64_t acc = 0;
    for (size_t s = 0; s < lengths.size(); ++s) excl[s] = acc, acc += lengths[s], cum[s] = acc;
    auto same = [&](size_t p, size_t q) {  // (member^T member)[p][q] > 0
      int64_t dot = 0;
      for (size_t s = 0; s < lengths.size(); ++s)
        dot += (int64_t(p) >= excl[s] && int64_t(p) < cum[s]) * (int64_t(q) >= excl[s] && int64_t(q) < cum[s]);
      return dot > 0;
    };
    std::vector<float> x(H * C * C), want(H * C * C);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(std::cos(0.3 * double(i)) * 4.0);
    for (size_t h = 0; h < H; ++h)
      for (size_t w = 0; w < C; ++w) {
        std::vector<double> v(C);
        for (size_t k = 0; k < C; ++k) v[k] = same(w, k) ? double(x[(h * C + w) * C + k]) : -10000.0;
        const auto e = softmaxOf(v);
        for (size_t k = 0; k < C; ++k) want[(h * C + w) * C + k] = same(w, k) ? float(e[k]) : 0.f;
      }
    c.push_back(makeCase("MaskedSoftmax_compressed", "MaskedSoftmax",
                         {f32Tensor({1, 2, 6, 6}, x), makeTensor(DType::kInt32, {1, 2}, lengths)},
                         {f32Tensor({1, 2, 6, 6}, want)}, {{"mode", sdk::scalarU32(1)}}, 1e-6, 1e-5));
  }
}

std::vector<OpCase> post27Cases() {
  std::vector<OpCase> c;
  isInfNanCases(c);
  reduceSumSquareCases(c);
  rmsNormCases(c);
  hadamardCases(c);
  logitCases(c);
  topKSmallestCases(c);
  maskedSoftmaxCases(c);
  return c;
}

}  // namespace

static const bool kReg = qnn::conformance::registerCaseSource("post_2_7", post27Cases);

}  // namespace qnn::conformance
