// Conformance cases of the 1-D and 3-D convolutions and pools and L2Pool2d.
// References, none sharing code with the kernels:
//  * 1-D ops: the 2-D references of reference_compute.cpp on a height-1 image;
//  * Conv3d: a sum over depth taps of 2-D reference convolutions of depth slices;
//  * TransposeConv3d: a scatter loop (each input pixel spread over the output),
//    where the kernel gathers;
//  * 3-D pools: per output, the list of window values reduced by std::max /
//    a double sum; L2Pool2d: sqrt of the 2-D average reference over squares.
#include <algorithm>
#include <cmath>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_compute.h"
#include "tests/conformance/reference_elementwise.h"

namespace qnn::conformance {
namespace {

using ref::Dims;
using ref::Floats;
using Params = std::vector<std::pair<std::string, ParamValue>>;

using ref::count;
ParamValue u32s(std::vector<uint32_t> dims, std::vector<uint32_t> v) { return sdk::tensorU32(std::move(dims), v); }

OpCase floatCase(std::string name, std::string op, std::vector<CaseTensor> inputs, Params params, const Dims& outDims,
                 const Floats& expected, double atol, double rtol) {
  return makeCase(std::move(name), std::move(op), std::move(inputs), {f32Tensor(outDims, expected)},
                  std::move(params), atol, rtol);
}
double dotTolerance(size_t k) { return 1e-5 * std::sqrt(double(k)) + 1e-6; }

// ---------------------------------------------------------------------------
// 1-D: [N, W, C] as [N, 1, W, C]; filter [fw, a, b] as [1, fw, a, b].
enum class Kind1d { kConv, kDepthwise, kTranspose };
struct Spec1d {
  const char* name;
  Kind1d kind;
  uint32_t n, w, cin, fw, filterIn, cout;  // filter [fw, filterIn, cout (per group for transpose)]
  uint32_t stride, padL, padR, dil, group, outPad;
  bool bias, staticWeights;
};

void cases1d(std::vector<OpCase>& out) {
  const Spec1d specs[] = {
      {"Conv1d_k3_pad1_bias", Kind1d::kConv, 2, 9, 4, 3, 4, 5, 1, 1, 1, 1, 1, 0, true, true},
      {"Conv1d_stride2_dil2_asympad", Kind1d::kConv, 1, 13, 3, 3, 3, 6, 2, 0, 2, 2, 1, 0, false, false},
      {"Conv1d_group2", Kind1d::kConv, 1, 8, 6, 2, 3, 4, 1, 1, 0, 1, 2, 0, true, false},
      {"DepthWiseConv1d_k3_pad1", Kind1d::kDepthwise, 2, 7, 5, 3, 1, 5, 1, 1, 1, 1, 1, 0, true, true},
      {"DepthWiseConv1d_multiplier2_stride2_dil2", Kind1d::kDepthwise, 1, 11, 3, 3, 1, 6, 2, 2, 1, 2, 1, 0, false, false},
      {"TransposeConv1d_stride2", Kind1d::kTranspose, 1, 5, 3, 3, 3, 4, 2, 0, 0, 1, 1, 0, true, true},
      {"TransposeConv1d_pad_outpad_group2", Kind1d::kTranspose, 2, 4, 4, 4, 4, 3, 3, 1, 2, 1, 2, 2, false, false},
  };
  uint64_t seed = 900;
  for (const Spec1d& s : specs) {
    CaseRng rng(seed++);
    const Dims x1{s.n, s.w, s.cin}, w1{s.fw, s.filterIn, s.cout};
    Floats x = rng.floats(count(x1)), w = rng.floats(count(w1));
    const uint32_t cout = s.kind == Kind1d::kTranspose ? s.cout * s.group : s.cout;
    Floats bias = s.bias ? rng.floats(cout) : Floats{};
    ref::ConvGeometry g;
    g.strideW = s.stride, g.padLeft = s.padL, g.padRight = s.padR, g.dilW = s.dil, g.group = s.group,
    g.outPadW = s.outPad;
    const Dims x2{s.n, 1, s.w, s.cin}, w2{1, s.fw, s.filterIn, s.cout};
    Dims od;
    Floats want;
    Params params{{"stride", sdk::scalarU32(s.stride)}, {"pad_amount", u32s({2}, {s.padL, s.padR})}};
    const char* op = "";
    switch (s.kind) {
      case Kind1d::kConv:
        op = "Conv1d";
        want = ref::conv2d(x, x2, w, w2, bias, g, &od);
        params.push_back({"dilation", sdk::scalarU32(s.dil)});
        params.push_back({"group", sdk::scalarU32(s.group)});
        break;
      case Kind1d::kDepthwise:
        op = "DepthWiseConv1d";
        want = ref::depthwiseConv2d(x, x2, w, w2, bias, g, &od);
        params.push_back({"dilation", sdk::scalarU32(s.dil)});
        break;
      case Kind1d::kTranspose:
        op = "TransposeConv1d";
        want = ref::transposeConv2d(x, x2, w, w2, bias, g, &od);
        params.push_back({"group", sdk::scalarU32(s.group)});
        if (s.outPad) params.push_back({"output_padding", sdk::scalarU32(s.outPad)});
        break;
    }
    std::vector<CaseTensor> inputs{f32Tensor(x1, x), f32Tensor(w1, w, s.staticWeights)};
    if (s.bias) inputs.push_back(f32Tensor({cout}, bias, s.staticWeights));
    out.push_back(floatCase(s.name, op, inputs, params, {od[0], od[2], od[3]}, want,
                            dotTolerance(size_t(s.fw) * s.filterIn), 1e-4));
  }
}

// ---------------------------------------------------------------------------
struct Geo3 {
  uint32_t s[3], p0[3], p1[3], d[3];
};

// Conv3d [N,D,H,W,Cin] * [fd,fh,fw,Cin/g,Cout]: out[:, od] = bias + sum over kd
// of conv2d(in[:, od*sd - pd + kd*dd], W[kd]).
Floats conv3dRef(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias, const Geo3& g,
                 uint32_t group, Dims* od) {
  const uint32_t n = xd[0], dIn = xd[1], h = xd[2], wi = xd[3], cin = xd[4];
  const uint32_t fd = wd[0], cout = wd[4];
  ref::ConvGeometry g2;
  g2.strideH = g.s[1], g2.strideW = g.s[2], g2.padTop = g.p0[1], g2.padBottom = g.p1[1];
  g2.padLeft = g.p0[2], g2.padRight = g.p1[2], g2.dilH = g.d[1], g2.dilW = g.d[2], g2.group = group;
  const uint32_t dOut = (g.p0[0] + dIn + g.p1[0] - ((fd - 1) * g.d[0] + 1)) / g.s[0] + 1;
  const size_t slice = size_t(h) * wi * cin;
  const Dims wSliceDims{wd[1], wd[2], wd[3], wd[4]};
  const size_t wSlice = count(wSliceDims);
  Dims sliceOut;
  Floats result;
  for (uint32_t b = 0; b < n; ++b) {
    for (uint32_t o = 0; o < dOut; ++o) {
      Floats acc;
      for (uint32_t kd = 0; kd < fd; ++kd) {
        const int64_t id = int64_t(o) * g.s[0] - g.p0[0] + int64_t(kd) * g.d[0];
        if (id < 0 || id >= dIn) continue;
        const Floats xs(x.begin() + (size_t(b) * dIn + id) * slice, x.begin() + (size_t(b) * dIn + id + 1) * slice);
        const Floats ws(w.begin() + kd * wSlice, w.begin() + (kd + 1) * wSlice);
        Floats part = ref::conv2d(xs, {1, h, wi, cin}, ws, wSliceDims, {}, g2, &sliceOut);
        if (acc.empty()) acc.assign(part.size(), 0.f);
        for (size_t i = 0; i < part.size(); ++i) acc[i] += part[i];
      }
      if (acc.empty()) {  // every depth tap in padding: the 2-D output size still applies
        Floats zero = ref::conv2d(Floats(slice, 0.f), {1, h, wi, cin}, Floats(wSlice, 0.f), wSliceDims, {}, g2, &sliceOut);
        acc.assign(zero.size(), 0.f);
      }
      for (size_t i = 0; i < acc.size(); ++i) acc[i] += bias.empty() ? 0.f : bias[i % cout];
      result.insert(result.end(), acc.begin(), acc.end());
    }
  }
  *od = {n, dOut, sliceOut[1], sliceOut[2], cout};
  return result;
}

// TransposeConv3d [N,D,H,W,Cin] with filter [fd,fh,fw,Cin,Cout/g]: every input
// pixel scatters in * W into out[i*s - p + k*d].
Floats transposeConv3dRef(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
                          const Geo3& g, uint32_t group, const uint32_t outPad[3], Dims* od) {
  const uint32_t n = xd[0], cin = xd[4], coutG = wd[4], cout = coutG * group, cinG = cin / group;
  uint32_t o[3];
  for (int k = 0; k < 3; ++k)
    o[k] = g.s[k] * (xd[k + 1] - 1) + (wd[k] - 1) * g.d[k] + 1 - g.p0[k] - g.p1[k] + outPad[k];
  std::vector<double> acc(size_t(n) * o[0] * o[1] * o[2] * cout, 0.0);
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t i0 = 0; i0 < xd[1]; ++i0)
      for (uint32_t i1 = 0; i1 < xd[2]; ++i1)
        for (uint32_t i2 = 0; i2 < xd[3]; ++i2)
          for (uint32_t k0 = 0; k0 < wd[0]; ++k0)
            for (uint32_t k1 = 0; k1 < wd[1]; ++k1)
              for (uint32_t k2 = 0; k2 < wd[2]; ++k2) {
                const int64_t p0 = int64_t(i0) * g.s[0] - g.p0[0] + int64_t(k0) * g.d[0];
                const int64_t p1 = int64_t(i1) * g.s[1] - g.p0[1] + int64_t(k1) * g.d[1];
                const int64_t p2 = int64_t(i2) * g.s[2] - g.p0[2] + int64_t(k2) * g.d[2];
                if (p0 < 0 || p0 >= o[0] || p1 < 0 || p1 >= o[1] || p2 < 0 || p2 >= o[2]) continue;
                for (uint32_t ci = 0; ci < cin; ++ci) {
                  const double v = x[(((size_t(b) * xd[1] + i0) * xd[2] + i1) * xd[3] + i2) * cin + ci];
                  const uint32_t grp = ci / cinG;
                  for (uint32_t c = 0; c < coutG; ++c) {
                    const double wv = w[((((size_t(k0) * wd[1] + k1) * wd[2] + k2) * cin + ci) * coutG) + c];
                    acc[(((size_t(b) * o[0] + p0) * o[1] + p1) * o[2] + p2) * cout + grp * coutG + c] += v * wv;
                  }
                }
              }
  Floats r(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) r[i] = float(acc[i] + (bias.empty() ? 0.0 : bias[i % cout]));
  *od = {n, o[0], o[1], o[2], cout};
  return r;
}

ParamValue stride3(const Geo3& g) { return u32s({3}, {g.s[0], g.s[1], g.s[2]}); }
ParamValue pad3(const Geo3& g) { return u32s({3, 2}, {g.p0[0], g.p1[0], g.p0[1], g.p1[1], g.p0[2], g.p1[2]}); }
ParamValue dil3(const Geo3& g) { return u32s({3}, {g.d[0], g.d[1], g.d[2]}); }

void conv3dCases(std::vector<OpCase>& out) {
  struct S {
    const char* name;
    Dims x, w;
    Geo3 g;
    uint32_t group;
    bool bias, staticWeights;
  };
  const S specs[] = {
      {"Conv3d_k3_pad1_bias", {1, 4, 5, 6, 3}, {3, 3, 3, 3, 4}, {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, 1, true, true},
      {"Conv3d_stride2_asympad_batch2", {2, 5, 6, 5, 2}, {2, 3, 2, 2, 5}, {{2, 2, 1}, {0, 1, 0}, {1, 0, 1}, {1, 1, 1}}, 1, false, false},
      {"Conv3d_dil2_group2", {1, 6, 5, 5, 4}, {2, 2, 3, 2, 6}, {{1, 1, 2}, {1, 0, 2}, {0, 1, 1}, {2, 2, 1}}, 2, true, false},
  };
  uint64_t seed = 950;
  for (const S& s : specs) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.x)), w = rng.floats(count(s.w));
    Floats bias = s.bias ? rng.floats(s.w[4]) : Floats{};
    Dims od;
    Floats want = conv3dRef(x, s.x, w, s.w, bias, s.g, s.group, &od);
    Params params{{"stride", stride3(s.g)}, {"pad_amount", pad3(s.g)}, {"dilation", dil3(s.g)}};
    if (s.group != 1) params.push_back({"group", sdk::scalarU32(s.group)});
    std::vector<CaseTensor> inputs{f32Tensor(s.x, x), f32Tensor(s.w, w, s.staticWeights)};
    if (s.bias) inputs.push_back(f32Tensor({s.w[4]}, bias, s.staticWeights));
    out.push_back(floatCase(s.name, "Conv3d", inputs, params, od, want,
                            dotTolerance(size_t(s.w[0]) * s.w[1] * s.w[2] * s.w[3]), 1e-4));
  }
  struct T {
    const char* name;
    Dims x, w;
    Geo3 g;
    uint32_t group, outPad[3];
    bool bias;
  };
  const T tspecs[] = {
      {"TransposeConv3d_stride2_bias", {1, 2, 3, 3, 3}, {2, 3, 3, 3, 2}, {{2, 2, 2}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}}, 1, {0, 0, 0}, true},
      {"TransposeConv3d_pad_outpad_dil_group2", {2, 3, 2, 3, 4}, {2, 2, 3, 4, 3}, {{2, 1, 2}, {1, 0, 1}, {0, 1, 2}, {1, 2, 2}}, 2, {1, 0, 1}, false},
  };
  for (const T& s : tspecs) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.x)), w = rng.floats(count(s.w));
    const uint32_t cout = s.w[4] * s.group;
    Floats bias = s.bias ? rng.floats(cout) : Floats{};
    Dims od;
    Floats want = transposeConv3dRef(x, s.x, w, s.w, bias, s.g, s.group, s.outPad, &od);
    Params params{{"stride", stride3(s.g)}, {"pad_amount", pad3(s.g)}, {"dilation", dil3(s.g)},
                  {"output_padding", u32s({3}, {s.outPad[0], s.outPad[1], s.outPad[2]})}};
    if (s.group != 1) params.push_back({"group", sdk::scalarU32(s.group)});
    std::vector<CaseTensor> inputs{f32Tensor(s.x, x), f32Tensor(s.w, w, true)};
    if (s.bias) inputs.push_back(f32Tensor({cout}, bias, true));
    out.push_back(floatCase(s.name, "TransposeConv3d", inputs, params, od, want,
                            dotTolerance(size_t(s.w[0]) * s.w[1] * s.w[2] * s.w[3]), 1e-4));
  }
}

// ---------------------------------------------------------------------------
enum class Pool3 { kMax, kAvg };

// Per output pixel: the values of its window inside the input, and the window's
// size inside the padded input.
Floats pool3dRef(const Floats& x, const Dims& xd, const uint32_t f[3], const Geo3& g, bool ceil, Pool3 kind,
                 bool countPad, Dims* od) {
  uint32_t o[3];
  for (int k = 0; k < 3; ++k) {
    const int64_t span = int64_t(g.p0[k]) + xd[k + 1] + g.p1[k] - f[k];
    o[k] = uint32_t((ceil ? (span + g.s[k] - 1) / g.s[k] : span / g.s[k]) + 1);
  }
  const uint32_t c = xd[4];
  Floats r;
  for (uint32_t b = 0; b < xd[0]; ++b)
    for (uint32_t a0 = 0; a0 < o[0]; ++a0)
      for (uint32_t a1 = 0; a1 < o[1]; ++a1)
        for (uint32_t a2 = 0; a2 < o[2]; ++a2)
          for (uint32_t ch = 0; ch < c; ++ch) {
            std::vector<float> vals;
            size_t padded = 0;
            const uint32_t a[3] = {a0, a1, a2};
            int64_t lo[3];
            for (int k = 0; k < 3; ++k) lo[k] = int64_t(a[k]) * g.s[k] - g.p0[k];
            for (int64_t i0 = lo[0]; i0 < lo[0] + f[0]; ++i0)
              for (int64_t i1 = lo[1]; i1 < lo[1] + f[1]; ++i1)
                for (int64_t i2 = lo[2]; i2 < lo[2] + f[2]; ++i2) {
                  const int64_t i[3] = {i0, i1, i2};
                  bool inside = true, insidePadded = true;
                  for (int k = 0; k < 3; ++k) {
                    inside = inside && i[k] >= 0 && i[k] < xd[k + 1];
                    insidePadded = insidePadded && i[k] < int64_t(xd[k + 1]) + g.p1[k];
                  }
                  padded += insidePadded;
                  if (inside) vals.push_back(x[(((size_t(b) * xd[1] + i0) * xd[2] + i1) * xd[3] + i2) * c + ch]);
                }
            if (vals.empty()) {
              r.push_back(0.f);
            } else if (kind == Pool3::kMax) {
              r.push_back(*std::max_element(vals.begin(), vals.end()));
            } else {
              double sum = 0;
              for (float v : vals) sum += v;
              r.push_back(float(sum / double(countPad ? padded : vals.size())));
            }
          }
  *od = {xd[0], o[0], o[1], o[2], c};
  return r;
}

void pool3dCases(std::vector<OpCase>& out) {
  struct S {
    const char* name;
    Pool3 kind;
    Dims x;
    uint32_t f[3];
    Geo3 g;
    bool ceil, countPad;
  };
  const S specs[] = {
      {"PoolMax3d_2x2x2_s2", Pool3::kMax, {1, 4, 5, 4, 3}, {2, 2, 2}, {{2, 2, 2}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}}, false, false},
      {"PoolMax3d_3x3x3_pad1_ceil_batch2", Pool3::kMax, {2, 5, 4, 6, 2}, {3, 3, 3}, {{2, 2, 2}, {1, 1, 1}, {1, 1, 0}, {1, 1, 1}}, true, false},
      {"PoolAvg3d_3x2x3_pad_exclude", Pool3::kAvg, {1, 5, 4, 5, 3}, {3, 2, 3}, {{1, 2, 2}, {1, 0, 1}, {1, 1, 1}, {1, 1, 1}}, false, false},
      {"PoolAvg3d_count_pad_ceil", Pool3::kAvg, {2, 4, 5, 5, 2}, {2, 3, 2}, {{2, 2, 2}, {1, 1, 0}, {1, 1, 1}, {1, 1, 1}}, true, true},
  };
  uint64_t seed = 980;
  for (const S& s : specs) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.x));
    Dims od;
    Floats want = pool3dRef(x, s.x, s.f, s.g, s.ceil, s.kind, s.countPad, &od);
    Params params{{"filter_size", u32s({3}, {s.f[0], s.f[1], s.f[2]})}, {"stride", stride3(s.g)},
                  {"pad_amount", pad3(s.g)}};
    if (s.ceil) params.push_back({"rounding_mode", sdk::scalarU32(1)});
    if (s.kind == Pool3::kAvg) params.push_back({"count_pad_for_edges", sdk::scalarBool(s.countPad)});
    out.push_back(floatCase(s.name, s.kind == Pool3::kMax ? "PoolMax3d" : "PoolAvg3d", {f32Tensor(s.x, x)}, params, od,
                            want, s.kind == Pool3::kMax ? 0.0 : 1e-6, 1e-5));
  }
  // Integer max pooling compares exactly.
  {
    CaseRng rng(990);
    const Dims xd{1, 3, 4, 4, 2};
    std::vector<int16_t> xi(count(xd));
    Floats xf(xi.size());
    for (size_t i = 0; i < xi.size(); ++i) xi[i] = int16_t(int(rng.next() % 2001) - 1000), xf[i] = xi[i];
    const uint32_t f[3] = {2, 3, 3};
    const Geo3 g{{1, 1, 2}, {0, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    Dims od;
    Floats want = pool3dRef(xf, xd, f, g, false, Pool3::kMax, false, &od);
    std::vector<int16_t> wantI(want.begin(), want.end());
    out.push_back(makeCase("PoolMax3d_int16_pad", "PoolMax3d", {makeTensor(DType::kInt16, xd, xi)},
                           {makeTensor(DType::kInt16, od, wantI)},
                           {{"filter_size", u32s({3}, {2, 3, 3})}, {"stride", stride3(g)}, {"pad_amount", pad3(g)}}));
  }
}

// L2Pool2d = sqrt(PoolAvg2d over x^2), padding excluded from the count.
void l2PoolCases(std::vector<OpCase>& out) {
  struct S {
    const char* name;
    Dims x;
    ref::PoolGeometry g;
  };
  ref::PoolGeometry a, b;
  a.filterH = a.filterW = 2, a.strideH = a.strideW = 2;
  b.filterH = 3, b.filterW = 2, b.strideH = 1, b.strideW = 2, b.padTop = 1, b.padBottom = 1, b.padLeft = 0, b.padRight = 1;
  const S specs[] = {{"L2Pool2d_2x2_s2", {1, 6, 6, 3}, a}, {"L2Pool2d_3x2_pad_batch2", {2, 5, 7, 4}, b}};
  uint64_t seed = 995;
  for (const S& s : specs) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.x), -2.f, 2.f), sq(x.size());
    for (size_t i = 0; i < x.size(); ++i) sq[i] = x[i] * x[i];
    Dims od;
    Floats want = ref::poolAvg2d(sq, s.x, s.g, &od);
    for (float& v : want) v = std::sqrt(v);
    Params params{{"filter_size", u32s({2}, {s.g.filterH, s.g.filterW})},
                  {"stride", u32s({2}, {s.g.strideH, s.g.strideW})},
                  {"pad_amount", u32s({2, 2}, {s.g.padTop, s.g.padBottom, s.g.padLeft, s.g.padRight})}};
    out.push_back(floatCase(s.name, "L2Pool2d", {f32Tensor(s.x, x)}, params, od, want, 1e-6, 1e-5));
  }
}

std::vector<OpCase> spatialNdCases() {
  std::vector<OpCase> c;
  cases1d(c);
  conv3dCases(c);
  pool3dCases(c);
  l2PoolCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("spatial_nd", qnn::conformance::spatialNdCases);
