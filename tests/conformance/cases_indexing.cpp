// Conformance cases of the indexing and rearranging ops: DepthToSpace,
// SpaceToDepth, ScatterElements, ScatterNd, GatherNd, OneHot, Lrn and GridSample. The
// references are written from the ops' definitions in another form than the
// kernels': depth/space as ONNX's reshape -> 6-D transpose -> reshape, the
// scatters and gathers as loops over multi-indices, Lrn as a window sum in double.
#include <algorithm>
#include <cmath>
#include <functional>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_elementwise.h"

namespace qnn::conformance {
namespace {

using ref::Dims;
using Params = std::vector<std::pair<std::string, ParamValue>>;

CaseTensor i32(Dims d, const std::vector<int32_t>& v) { return makeTensor(DType::kInt32, std::move(d), v); }

void depthSpaceCases(std::vector<OpCase>& c) {
  CaseRng rng(61);
  struct D { const char* tag; uint32_t n, h, w, cs, bh, bw; };
  const D ds[] = {{"2x2", 1, 2, 3, 3, 2, 2}, {"3x2_batch2", 2, 2, 2, 2, 3, 2}, {"1x4", 1, 3, 1, 1, 1, 4}};
  for (const D& d : ds) {
    const uint32_t cd = d.cs * d.bh * d.bw;
    const Dims depth = {d.n, d.h, d.w, cd}, space = {d.n, d.h * d.bh, d.w * d.bw, d.cs};
    auto dv = rng.floats(ref::count(depth));
    auto sv = rng.floats(ref::count(space));
    const ParamValue block = sdk::tensorU32({2}, {d.bh, d.bw});
    // DepthToSpace: depth viewed as [n, h, w, bh, bw, cs] (DCR) or [n, h, w, cs, bh, bw] (CRD),
    // transposed to [n, h, bh, w, bw, cs].
    auto dcr = ref::transposeN(dv, {d.n, d.h, d.w, d.bh, d.bw, d.cs}, {0, 1, 3, 2, 4, 5});
    auto crd = ref::transposeN(dv, {d.n, d.h, d.w, d.cs, d.bh, d.bw}, {0, 1, 4, 2, 5, 3});
    c.push_back(makeCase(std::string("DepthToSpace_dcr_") + d.tag, "DepthToSpace", {f32Tensor(depth, dv)},
                         {f32Tensor(space, dcr)}, {{"block_size", block}}));
    c.push_back(makeCase(std::string("DepthToSpace_crd_") + d.tag, "DepthToSpace", {f32Tensor(depth, dv)},
                         {f32Tensor(space, crd)}, {{"block_size", block}, {"mode", sdk::scalarU32(1)}}));
    // SpaceToDepth: space viewed as [n, h, bh, w, bw, cs], transposed to [n, h, w, bh, bw, cs] (DCR)
    // or [n, h, w, cs, bh, bw] (CRD).
    const Dims split = {d.n, d.h, d.bh, d.w, d.bw, d.cs};
    c.push_back(makeCase(std::string("SpaceToDepth_dcr_") + d.tag, "SpaceToDepth", {f32Tensor(space, sv)},
                         {f32Tensor(depth, ref::transposeN(sv, split, {0, 1, 3, 2, 4, 5}))}, {{"block_size", block}}));
    c.push_back(makeCase(std::string("SpaceToDepth_crd_") + d.tag, "SpaceToDepth", {f32Tensor(space, sv)},
                         {f32Tensor(depth, ref::transposeN(sv, split, {0, 1, 3, 5, 2, 4}))},
                         {{"block_size", block}, {"mode", sdk::scalarU32(1)}}));
  }
  // Any element type moves as it is.
  std::vector<int32_t> iv(16);
  for (size_t i = 0; i < iv.size(); ++i) iv[i] = int32_t(i * 7 - 50);
  std::vector<float> fv(iv.begin(), iv.end());
  auto moved = ref::transposeN(fv, {1, 2, 2, 2, 2, 1}, {0, 1, 3, 2, 4, 5});
  c.push_back(makeCase("DepthToSpace_int32", "DepthToSpace", {i32({1, 2, 2, 4}, iv)},
                       {i32({1, 4, 4, 1}, std::vector<int32_t>(moved.begin(), moved.end()))},
                       {{"block_size", sdk::tensorU32({2}, {2, 2})}}));
}

// Applies `r` (0 none, 1 add, 2 mul, 3 max) of `u` onto `dst`.
float reduceInto(float dst, float u, uint32_t r) {
  switch (r) {
    case 1: return dst + u;
    case 2: return dst * u;
    case 3: return std::max(dst, u);
    default: return u;
  }
}

void scatterElementsCases(std::vector<OpCase>& c) {
  CaseRng rng(71);
  struct S { const char* tag; Dims data; uint32_t axis; Dims di; std::vector<int32_t> idx; uint32_t reduction; };
  const S ss[] = {{"axis0", {3, 3}, 0, {2, 3}, {1, 0, 2, 0, 2, 1}, 0},
                  {"axis1_negative", {2, 5}, 1, {2, 2}, {-1, 0, 3, -5}, 0},
                  {"duplicates_add", {1, 5}, 1, {1, 4}, {1, 1, 3, 1}, 1},
                  {"duplicates_mul", {2, 4}, 1, {2, 3}, {0, 0, 2, 3, 3, 1}, 2},
                  {"rank3_max", {2, 3, 2}, 1, {2, 2, 2}, {0, 2, 2, 2, 1, 1, 0, 0}, 3},
                  {"duplicates_none_last_wins", {4}, 0, {3}, {2, 2, 0}, 0}};
  for (const S& s : ss) {
    auto data = rng.floats(ref::count(s.data), 0.5f, 2.f);
    auto upd = rng.floats(s.idx.size(), 0.5f, 2.f);
    auto out = data;
    for (size_t k = 0; k < s.idx.size(); ++k) {
      auto pos = ref::unravel(k, s.di);
      int64_t i = s.idx[k];
      if (i < 0) i += s.data[s.axis];
      pos[s.axis] = size_t(i);
      float& dst = out[ref::ravel(pos, s.data)];
      dst = reduceInto(dst, upd[k], s.reduction);
    }
    c.push_back(makeCase(std::string("ScatterElements_") + s.tag, "ScatterElements",
                         {f32Tensor(s.data, data), i32(s.di, s.idx), f32Tensor(s.di, upd)}, {f32Tensor(s.data, out)},
                         {{"axis", sdk::scalarU32(s.axis)}, {"reduction", sdk::scalarU32(s.reduction)}}, 1e-6, 1e-6));
  }
  std::vector<int32_t> di = {5, 6, 7, 8}, du = {-1, 100};
  c.push_back(makeCase("ScatterElements_int32_add", "ScatterElements", {i32({4}, di), i32({2}, {3, 3}), i32({2}, du)},
                       {i32({4}, {5, 6, 7, 107})}, {{"reduction", sdk::scalarU32(1)}}));
}

void scatterGatherNdCases(std::vector<OpCase>& c) {
  CaseRng rng(81);
  // ScatterNd: each index tuple of length k addresses data[t0, ..., tk-1, :...].
  struct S { const char* tag; Dims data; Dims di; std::vector<int32_t> idx; uint32_t reduction; };
  const S ss[] = {{"slices", {4, 4, 4}, {2, 1}, {0, 2}, 0},
                  {"elements", {2, 3}, {3, 2}, {0, 1, 1, 2, 0, 0}, 0},
                  {"slices_add_duplicates", {4, 2, 2}, {3, 1}, {1, 1, -1}, 1},
                  {"rows_mul", {3, 4}, {2, 1}, {2, 0}, 2}};
  for (const S& s : ss) {
    const size_t k = s.di.back(), tuples = s.idx.size() / k;
    Dims ud(s.di.begin(), s.di.end() - 1);
    ud.insert(ud.end(), s.data.begin() + k, s.data.end());
    size_t slice = 1;
    for (size_t d = k; d < s.data.size(); ++d) slice *= s.data[d];
    auto data = rng.floats(ref::count(s.data), 0.5f, 2.f);
    auto upd = rng.floats(ref::count(ud), 0.5f, 2.f);
    auto out = data;
    for (size_t t = 0; t < tuples; ++t)
      for (size_t e = 0; e < slice; ++e) {
        // The element e of the slice, as a multi-index of data: the tuple then e's own coordinates.
        std::vector<size_t> pos(s.data.size());
        for (size_t j = 0; j < k; ++j) {
          int64_t v = s.idx[t * k + j];
          pos[j] = size_t(v < 0 ? v + s.data[j] : v);
        }
        Dims rest(s.data.begin() + k, s.data.end());
        auto within = ref::unravel(e, rest);
        for (size_t j = 0; j < within.size(); ++j) pos[k + j] = within[j];
        float& dst = out[ref::ravel(pos, s.data)];
        dst = reduceInto(dst, upd[t * slice + e], s.reduction);
      }
    c.push_back(makeCase(std::string("ScatterNd_") + s.tag, "ScatterNd",
                         {f32Tensor(s.data, data), i32(s.di, s.idx), f32Tensor(ud, upd)}, {f32Tensor(s.data, out)},
                         {{"reduction", sdk::scalarU32(s.reduction)}}, 1e-6, 1e-6));
  }
  // GatherNd: out[b..., i..., rest...] = data[b..., tuple(b..., i...), rest...].
  struct G { const char* tag; Dims data; Dims di; std::vector<int32_t> idx; uint32_t batch; };
  const G gs[] = {{"elements", {2, 2}, {2, 2}, {0, 0, 1, 1}, 0},
                  {"slices", {2, 2}, {2, 1}, {1, 0}, 0},
                  {"rank3_pairs", {2, 2, 3}, {2, 1, 2}, {0, 1, 1, 0}, 0},
                  {"batch_dims1", {2, 2, 2}, {2, 1}, {1, 0}, 1},
                  {"batch_dims1_tuples", {2, 3, 4}, {2, 2, 2}, {0, 1, 2, 3, 1, 0, -1, -1}, 1}};
  for (const G& g : gs) {
    const size_t k = g.di.back(), b = g.batch;
    Dims od(g.di.begin(), g.di.end() - 1);
    od.insert(od.end(), g.data.begin() + b + k, g.data.end());
    auto data = rng.floats(ref::count(g.data));
    std::vector<float> out(ref::count(od));
    const size_t lead = g.di.size() - 1;   // batch dims + index dims of the output
    for (size_t o = 0; o < out.size(); ++o) {
      auto oi = ref::unravel(o, od);
      std::vector<size_t> tupleAt(oi.begin(), oi.begin() + lead);
      tupleAt.push_back(0);
      std::vector<size_t> pos(g.data.size());
      for (size_t d = 0; d < b; ++d) pos[d] = oi[d];
      for (size_t j = 0; j < k; ++j) {
        tupleAt.back() = j;
        int64_t v = g.idx[ref::ravel(tupleAt, g.di)];
        pos[b + j] = size_t(v < 0 ? v + g.data[b + j] : v);
      }
      for (size_t j = b + k; j < g.data.size(); ++j) pos[j] = oi[lead + (j - b - k)];
      out[o] = data[ref::ravel(pos, g.data)];
    }
    c.push_back(makeCase(std::string("GatherNd_") + g.tag, "GatherNd", {f32Tensor(g.data, data), i32(g.di, g.idx)},
                         {f32Tensor(od, out)}, {{"batch_dims", sdk::scalarU32(g.batch)}}));
  }
}

void oneHotCases(std::vector<OpCase>& c) {
  struct O { const char* tag; Dims di; std::vector<int32_t> idx; uint32_t depth; int axis; };  // axis -1: default
  const O os[] = {{"default_axis", {2, 2}, {0, 3, 1, 9}, 4, -1},
                  {"axis0", {3}, {2, 0, -1}, 3, 0},
                  {"axis1_of_rank2", {2, 3}, {1, 1, 0, 2, 5, 0}, 3, 1}};
  for (const O& o : os) {
    const size_t axis = o.axis < 0 ? o.di.size() : size_t(o.axis);
    Dims od = o.di;
    od.insert(od.begin() + axis, o.depth);
    std::vector<float> want(ref::count(od));
    for (size_t p = 0; p < want.size(); ++p) {
      auto oi = ref::unravel(p, od);
      const size_t j = oi[axis];
      oi.erase(oi.begin() + axis);
      want[p] = o.idx[ref::ravel(oi, o.di)] == int32_t(j) ? 5.f : -1.f;
    }
    Params params = {{"depth", sdk::scalarU32(o.depth)}, {"on_value", sdk::scalarF32(5.f)},
                     {"off_value", sdk::scalarF32(-1.f)}};
    if (o.axis >= 0) params.push_back({"axis", sdk::scalarU32(uint32_t(o.axis))});
    c.push_back(makeCase(std::string("OneHot_") + o.tag, "OneHot", {i32(o.di, o.idx)}, {f32Tensor(od, want)}, params));
  }
  c.push_back(makeCase("OneHot_int32_defaults", "OneHot", {i32({3}, {2, 0, 1})}, {i32({3, 3}, {0, 0, 1, 1, 0, 0, 0, 1, 0})},
                       {{"depth", sdk::scalarU32(3)}}));
}

void lrnCases(std::vector<OpCase>& c) {
  CaseRng rng(91);
  struct L { const char* tag; Dims in; int32_t radius; float alpha, beta, bias; };
  const L ls[] = {{"nhwc_radius1", {1, 3, 3, 5}, 1, 1e-1f, 0.75f, 2.f},
                  {"radius2_defaults", {2, 7}, 2, 1.f, 0.5f, 1.f},
                  {"radius_covers_all", {2, 2, 3}, 4, 0.3f, 0.6f, 1.5f}};
  for (const L& l : ls) {
    auto x = rng.floats(ref::count(l.in), -2.f, 2.f);
    const size_t ch = l.in.back();
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const int64_t cpos = int64_t(i % ch);
      double s = 0;
      for (int64_t j = cpos - l.radius; j <= cpos + l.radius; ++j)
        if (j >= 0 && j < int64_t(ch)) s += double(x[i - cpos + j]) * x[i - cpos + j];
      want[i] = float(x[i] / std::pow(l.bias + l.alpha * s, double(l.beta)));
    }
    c.push_back(makeCase(std::string("Lrn_") + l.tag, "Lrn", {f32Tensor(l.in, x)}, {f32Tensor(l.in, want)},
                         {{"radius", sdk::scalarI32(l.radius)}, {"alpha", sdk::scalarF32(l.alpha)},
                          {"beta", sdk::scalarF32(l.beta)}, {"bias", sdk::scalarF32(l.bias)}},
                         1e-6, 1e-5));
  }
}

// GridSample reference in the shape of ONNX's reference implementation: the
// point unnormalized, moved by the padding rule, then sampled at the nearest
// pixel or blended from its 4 neighbours, each pixel looked up under the rule.
double gsReflect(double x, double lo, double hi) {
  const double range = hi - lo;
  while (x < lo || x > hi) x = x < lo ? 2 * lo - x : 2 * hi - x;   // mirror until inside
  return range > 0 ? x : lo;
}

float gsPixel(const std::vector<float>& img, const Dims& d, size_t b, long r, long q, size_t ch, int padding,
              bool alignCorners) {
  const long h = long(d[1]), w = long(d[2]);
  if (padding == 0 && (r < 0 || q < 0 || r >= h || q >= w)) return 0.f;
  if (padding == 1) {
    r = std::min(std::max(r, 0L), h - 1);
    q = std::min(std::max(q, 0L), w - 1);
  }
  if (padding == 2) {
    const double lo = alignCorners ? 0 : -0.5;
    r = std::min(std::max(long(gsReflect(double(r), lo, alignCorners ? h - 1 : h - 0.5)), 0L), h - 1);
    q = std::min(std::max(long(gsReflect(double(q), lo, alignCorners ? w - 1 : w - 0.5)), 0L), w - 1);
  }
  return img[((b * d[1] + size_t(r)) * d[2] + size_t(q)) * d[3] + ch];
}

void gridSampleCases(std::vector<OpCase>& c) {
  CaseRng rng(111);
  const Dims xd = {2, 4, 5, 3}, gd = {2, 3, 6, 2};
  for (int mode = 0; mode < 2; ++mode)
    for (int padding = 0; padding < 3; ++padding)
      for (bool align : {false, true}) {
        auto x = rng.floats(ref::count(xd));
        auto g = rng.floats(ref::count(gd), -1.4f, 1.4f);   // some points outside the image
        const Dims od = {xd[0], gd[1], gd[2], xd[3]};
        std::vector<float> want(ref::count(od));
        for (size_t p = 0; p < gd[0] * gd[1] * gd[2]; ++p) {
          const size_t b = p / (gd[1] * gd[2]);
          auto denorm = [&](double v, double size) {
            return align ? (v + 1) / 2 * (size - 1) : ((v + 1) * size - 1) / 2;
          };
          double px = denorm(g[p * 2], xd[2]), py = denorm(g[p * 2 + 1], xd[1]);
          if (padding == 1) {
            px = std::min(std::max(px, 0.0), double(xd[2]) - 1);
            py = std::min(std::max(py, 0.0), double(xd[1]) - 1);
          } else if (padding == 2) {
            px = gsReflect(px, align ? 0 : -0.5, align ? xd[2] - 1.0 : xd[2] - 0.5);
            py = gsReflect(py, align ? 0 : -0.5, align ? xd[1] - 1.0 : xd[1] - 0.5);
          }
          for (size_t ch = 0; ch < xd[3]; ++ch) {
            double v;
            if (mode == 1) {
              v = gsPixel(x, xd, b, long(std::nearbyint(py)), long(std::nearbyint(px)), ch, padding, align);
            } else {
              const long x0 = long(std::floor(px)), y0 = long(std::floor(py));
              const double fx = px - x0, fy = py - y0;
              v = (1 - fy) * ((1 - fx) * gsPixel(x, xd, b, y0, x0, ch, padding, align) +
                              fx * gsPixel(x, xd, b, y0, x0 + 1, ch, padding, align)) +
                  fy * ((1 - fx) * gsPixel(x, xd, b, y0 + 1, x0, ch, padding, align) +
                        fx * gsPixel(x, xd, b, y0 + 1, x0 + 1, ch, padding, align));
            }
            want[p * xd[3] + ch] = float(v);
          }
        }
        const char* modes[] = {"bilinear", "nearest"};
        const char* paddings[] = {"zeros", "border", "reflection"};
        c.push_back(makeCase(std::string("GridSample_") + modes[mode] + "_" + paddings[padding] +
                                 (align ? "_align_corners" : ""),
                             "GridSample", {f32Tensor(xd, x), f32Tensor(gd, g)}, {f32Tensor(od, want)},
                             {{"align_corners", sdk::scalarBool(align)}, {"mode", sdk::scalarU32(uint32_t(mode))},
                              {"padding_mode", sdk::scalarU32(uint32_t(padding))}},
                             1e-5, 1e-5));
      }
}

std::vector<OpCase> indexingCases() {
  std::vector<OpCase> c;
  depthSpaceCases(c);
  scatterElementsCases(c);
  scatterGatherNdCases(c);
  oneHotCases(c);
  lrnCases(c);
  gridSampleCases(c);
  return c;
}

}  // namespace

static const bool kReg = qnn::conformance::registerCaseSource("indexing", indexingCases);

}  // namespace qnn::conformance
