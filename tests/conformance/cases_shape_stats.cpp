// Conformance cases of Shape, ConstantOfShape, Pack, UnPack, ChannelShuffle,
// L2Norm, Moments, and PoolMax2d on integers. References: Pack/UnPack/ChannelShuffle as transposes of
// reshaped views (ONNX's formulation), L2Norm and Moments as sums over
// multi-indices in double.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_elementwise.h"

namespace qnn::conformance {
namespace {

using ref::Dims;

void shapeCases(std::vector<OpCase>& c) {
  c.push_back(makeCase("Shape_all", "Shape", {f32Tensor({2, 3, 4}, std::vector<float>(24, 0.f))},
                       {makeTensor(DType::kUInt32, {3}, std::vector<uint32_t>{2, 3, 4})}));
  c.push_back(makeCase("Shape_start_end", "Shape", {f32Tensor({2, 3, 4, 5}, std::vector<float>(120, 0.f))},
                       {makeTensor(DType::kUInt32, {2}, std::vector<uint32_t>{3, 4})},
                       {{"start", sdk::scalarU32(1)}, {"end", sdk::scalarU32(3)}}));
  c.push_back(makeCase("ConstantOfShape_float", "ConstantOfShape",
                       {makeTensor(DType::kUInt32, {2}, std::vector<uint32_t>{2, 3}, true)},
                       {f32Tensor({2, 3}, std::vector<float>(6, 2.5f))}, {{"value", sdk::scalarF32(2.5f)}}));
  c.push_back(makeCase("ConstantOfShape_int32_dynamic_shape", "ConstantOfShape",
                       {makeTensor(DType::kUInt32, {1}, std::vector<uint32_t>{4})},
                       {makeTensor(DType::kInt32, {4}, std::vector<int32_t>(4, -7))}, {{"value", sdk::scalarI32(-7)}}));
}

void packCases(std::vector<OpCase>& c) {
  CaseRng rng(151);
  const Dims slice = {2, 3};
  for (uint32_t axis = 0; axis <= 2; ++axis) {
    std::vector<std::vector<float>> parts;
    std::vector<float> stacked;   // [3 slices, 2, 3] then moved so the slice index sits at `axis`
    std::vector<CaseTensor> ins, outs;
    for (int k = 0; k < 3; ++k) {
      parts.push_back(rng.floats(6));
      stacked.insert(stacked.end(), parts.back().begin(), parts.back().end());
      ins.push_back(f32Tensor(slice, parts.back()));
      outs.push_back(f32Tensor(slice, parts.back()));
    }
    std::vector<size_t> perm = {1, 2};
    perm.insert(perm.begin() + axis, 0);
    const auto whole = ref::transposeN(stacked, {3, 2, 3}, perm);
    Dims wd = slice;
    wd.insert(wd.begin() + axis, 3);
    c.push_back(makeCase("Pack_axis" + std::to_string(axis), "Pack", ins, {f32Tensor(wd, whole)},
                         {{"axis", sdk::scalarU32(axis)}}));
    c.push_back(makeCase("UnPack_axis" + std::to_string(axis), "UnPack", {f32Tensor(wd, whole)}, outs,
                         {{"axis", sdk::scalarU32(axis)}}));
  }
}

void channelShuffleCases(std::vector<OpCase>& c) {
  CaseRng rng(161);
  // [n, h, c] with c = G x (c/G): reshape to [n, h, G, c/G], swap the last two, reshape back.
  for (uint32_t groups : {2u, 3u}) {
    const uint32_t ch = 6;
    auto x = rng.floats(2 * 2 * ch);
    const auto want = ref::transposeN(x, {2, 2, groups, ch / groups}, {0, 1, 3, 2});
    c.push_back(makeCase("ChannelShuffle_last_axis_g" + std::to_string(groups), "ChannelShuffle", {f32Tensor({2, 2, ch}, x)},
                         {f32Tensor({2, 2, ch}, want)}, {{"num_groups", sdk::scalarU32(groups)}}));
  }
  auto x = rng.floats(4 * 3);
  c.push_back(makeCase("ChannelShuffle_axis0", "ChannelShuffle", {f32Tensor({4, 3}, x)},
                       {f32Tensor({4, 3}, ref::transposeN(x, {2, 2, 3}, {1, 0, 2}))},
                       {{"num_groups", sdk::scalarU32(2)}, {"axis", sdk::scalarU32(0)}}));
}

void statsCases(std::vector<OpCase>& c) {
  CaseRng rng(171);
  struct S { const char* tag; Dims in; std::vector<uint32_t> axes; bool keep; };
  const S ss[] = {{"last", {3, 4}, {1}, false}, {"first_keep", {3, 4}, {0}, true}, {"nhw_of_nhwc", {2, 3, 2, 4}, {0, 1, 2}, false},
                  {"middle", {2, 5, 3}, {1}, true}};
  for (const S& s : ss) {
    auto x = rng.floats(ref::count(s.in), -2.f, 2.f);
    Dims kept = s.in;
    for (uint32_t a : s.axes) kept[a] = 1;
    const size_t nk = ref::count(kept);
    std::vector<double> sum(nk, 0), sq(nk, 0);
    std::vector<size_t> cnt(nk, 0);
    auto keptIndex = [&](size_t i) {
      auto idx = ref::unravel(i, s.in);
      for (uint32_t a : s.axes) idx[a] = 0;
      return ref::ravel(idx, kept);
    };
    for (size_t i = 0; i < x.size(); ++i) {
      sum[keptIndex(i)] += x[i];
      sq[keptIndex(i)] += double(x[i]) * x[i];
      ++cnt[keptIndex(i)];
    }
    std::vector<float> l2(x.size()), mean(nk), var(nk);
    for (size_t i = 0; i < x.size(); ++i) l2[i] = float(x[i] / std::max(std::sqrt(sq[keptIndex(i)]), 1e-12));
    for (size_t k = 0; k < nk; ++k) {
      mean[k] = float(sum[k] / double(cnt[k]));
      var[k] = float(sq[k] / double(cnt[k]) - (sum[k] / double(cnt[k])) * (sum[k] / double(cnt[k])));
    }
    Dims od;
    for (size_t d = 0; d < s.in.size(); ++d) {
      const bool red = std::find(s.axes.begin(), s.axes.end(), d) != s.axes.end();
      if (!red) od.push_back(s.in[d]);
      else if (s.keep) od.push_back(1);
    }
    const ParamValue axesU = sdk::tensorU32({uint32_t(s.axes.size())}, s.axes);
    std::vector<int32_t> axesI(s.axes.begin(), s.axes.end());
    c.push_back(makeCase(std::string("L2Norm_axes_") + s.tag, "L2Norm", {f32Tensor(s.in, x)}, {f32Tensor(s.in, l2)},
                         {{"axes", axesU}}, 1e-6, 1e-5));
    c.push_back(makeCase(std::string("Moments_") + s.tag, "Moments", {f32Tensor(s.in, x)},
                         {f32Tensor(od, mean), f32Tensor(od, var)},
                         {{"axes", sdk::tensorI32({uint32_t(axesI.size())}, axesI)}, {"keep_dims", sdk::scalarBool(s.keep)}},
                         1e-5, 1e-4));
  }
  auto x = rng.floats(12);
  std::vector<float> want(12);
  for (size_t r = 0; r < 3; ++r) {
    double s = 0;
    for (size_t i = 0; i < 4; ++i) s += double(x[r * 4 + i]) * x[r * 4 + i];
    for (size_t i = 0; i < 4; ++i) want[r * 4 + i] = float(x[r * 4 + i] / std::sqrt(s));
  }
  c.push_back(makeCase("L2Norm_axis_param", "L2Norm", {f32Tensor({3, 4}, x)}, {f32Tensor({3, 4}, want)},
                       {{"axis", sdk::scalarU32(1)}}, 1e-6, 1e-5));
}

// PoolMax2d on plain integers: every window's maximum by direct loops (2x2, stride 2, no padding; 3x3,
// stride 1, padding 1, where padding never wins).
template <typename T>
void intMaxPoolCase(std::vector<OpCase>& c, DType dt, const char* tag, uint32_t f, uint32_t st, uint32_t pad) {
  CaseRng rng(181 + f);
  const uint32_t h = 5, w = 4, ch = 3;
  std::vector<T> x(h * w * ch);
  for (auto& v : x) v = T(int64_t(rng.next() % 200) - (std::is_signed_v<T> ? 100 : 0));
  const uint32_t oh = (h + 2 * pad - f) / st + 1, ow = (w + 2 * pad - f) / st + 1;
  std::vector<T> want(oh * ow * ch);
  for (uint32_t y = 0; y < oh; ++y)
    for (uint32_t xx = 0; xx < ow; ++xx)
      for (uint32_t k = 0; k < ch; ++k) {
        bool any = false;
        T best = 0;
        for (uint32_t i = 0; i < f; ++i)
          for (uint32_t j = 0; j < f; ++j) {
            const int64_t r = int64_t(y * st + i) - pad, q = int64_t(xx * st + j) - pad;
            if (r < 0 || q < 0 || r >= h || q >= w) continue;
            const T v = x[(size_t(r) * w + size_t(q)) * ch + k];
            if (!any || v > best) best = v;
            any = true;
          }
        want[(y * ow + xx) * ch + k] = best;
      }
  c.push_back(makeCase(std::string("PoolMax2d_") + tag, "PoolMax2d", {makeTensor(dt, {1, h, w, ch}, x)},
                       {makeTensor(dt, {1, oh, ow, ch}, want)},
                       {{"filter_size", sdk::tensorU32({2}, {f, f})}, {"stride", sdk::tensorU32({2}, {st, st})},
                        {"pad_amount", sdk::tensorU32({2, 2}, {pad, pad, pad, pad})}}));
}

std::vector<OpCase> shapeStatsCases() {
  std::vector<OpCase> c;
  shapeCases(c);
  packCases(c);
  channelShuffleCases(c);
  statsCases(c);
  intMaxPoolCase<uint8_t>(c, DType::kUInt8, "uint8_2x2_stride2", 2, 2, 0);
  intMaxPoolCase<int8_t>(c, DType::kInt8, "int8_3x3_pad1", 3, 1, 1);
  intMaxPoolCase<int32_t>(c, DType::kInt32, "int32_3x3_pad1", 3, 1, 1);
  return c;
}

}  // namespace

static const bool kReg = qnn::conformance::registerCaseSource("shape_stats", shapeStatsCases);

}  // namespace qnn::conformance
