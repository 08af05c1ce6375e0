// Conformance cases of BatchToSpace, SpaceToBatch, BatchPermutation, ArgbToRgb,
// ExtractPatches, GroupNorm, CropAndResize and Correlation1D. References:
//  * batch/space: TensorFlow's definition as reshape + transpose (+ pad / slice)
//    through the generic reference transpose, where the kernels map pixels;
//  * ExtractPatches: slices of an explicitly zero-padded image;
//  * GroupNorm: two-pass mean and variance in double over an explicit element list;
//  * CropAndResize: a hand-computed grid, then TF's formula in double with a
//    bilinear helper; Correlation1D: double sums with the displacement loop outside.
#include <algorithm>
#include <cmath>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_elementwise.h"

namespace qnn::conformance {
namespace {

using ref::count;
using ref::Dims;
using Params = std::vector<std::pair<std::string, ParamValue>>;
ParamValue u32s(std::vector<uint32_t> dims, std::vector<uint32_t> v) { return sdk::tensorU32(std::move(dims), v); }

void batchSpaceCases(std::vector<OpCase>& c) {
  CaseRng rng(1401);
  {  // BatchToSpace: [bh*bw*N, H, W, C] -> reshape [bh, bw, N, H, W, C] -> [N, H, bh, W, bw, C] -> crop.
    const uint32_t bh = 2, bw = 3, n = 2, h = 3, w = 2, ch = 4;
    const Dims in{bh * bw * n, h, w, ch};
    auto x = rng.floats(count(in));
    auto t = ref::transpose(x, {bh, bw, n, h, w, ch}, {2, 3, 0, 4, 1, 5});
    const Dims full{n, h * bh, w * bw, ch};
    const uint32_t top = 1, bottom = 0, left = 1, right = 2;
    const Dims out{n, h * bh - top - bottom, w * bw - left - right, ch};
    auto want = ref::slice(t, full, {0, top, left, 0}, {1, 1, 1, 1}, out);
    c.push_back(makeCase("BatchToSpace_block2x3_crops", "BatchToSpace", {f32Tensor(in, x)}, {f32Tensor(out, want)},
                         {{"block_size", u32s({2}, {bh, bw})}, {"crops", u32s({2, 2}, {top, bottom, left, right})}}));
    // No crops, int8 data.
    std::vector<int8_t> xi(count(in));
    for (auto& v : xi) v = int8_t(rng.next());
    auto ti = ref::transpose(xi, {bh, bw, n, h, w, ch}, {2, 3, 0, 4, 1, 5});
    c.push_back(makeCase("BatchToSpace_int8_no_crops", "BatchToSpace", {makeTensor(DType::kInt8, in, xi)},
                         {makeTensor(DType::kInt8, full, ti)}, {{"block_size", u32s({2}, {bh, bw})}}));
  }
  {  // SpaceToBatch: pad -> reshape [N, H'/bh, bh, W'/bw, bw, C] -> [bh, bw, N, H'/bh, W'/bw, C].
    const uint32_t bh = 2, bw = 2, n = 2, h = 3, w = 5, ch = 3;
    const Dims in{n, h, w, ch};
    auto x = rng.floats(count(in));
    const std::vector<uint32_t> pads{0, 0, 1, 0, 2, 1, 0, 0};
    auto padded = ref::pad(x, in, pads, 0, 0.f);
    const uint32_t ph = h + 1, pw = w + 3;
    auto want = ref::transpose(padded, {n, ph / bh, bh, pw / bw, bw, ch}, {2, 4, 0, 1, 3, 5});
    c.push_back(makeCase("SpaceToBatch_block2_pads", "SpaceToBatch", {f32Tensor(in, x)},
                         {f32Tensor({bh * bw * n, ph / bh, pw / bw, ch}, want)},
                         {{"block_size", u32s({2}, {bh, bw})}, {"pad_amount", u32s({2, 2}, {1, 0, 2, 1})}}));
    // Fixed point pads with the quantized zero (-offset).
    std::vector<uint8_t> q(count(in));
    for (auto& v : q) v = uint8_t(rng.next());
    auto qp = ref::pad(q, in, pads, 0, uint8_t(128));
    auto qw = ref::transpose(qp, {n, ph / bh, bh, pw / bw, bw, ch}, {2, 4, 0, 1, 3, 5});
    CaseTensor qi = makeTensor(DType::kUFixed8, in, q), qo = makeTensor(DType::kUFixed8, {bh * bw * n, ph / bh, pw / bw, ch}, qw);
    qi.quant.kind = qo.quant.kind = QuantInfo::Kind::kScaleOffset;
    qi.quant.scale = qo.quant.scale = 0.05f;
    qi.quant.offset = qo.quant.offset = -128;
    c.push_back(makeCase("SpaceToBatch_ufixed8_pads_quantized_zero", "SpaceToBatch", {qi}, {qo},
                         {{"block_size", u32s({2}, {bh, bw})}, {"pad_amount", u32s({2, 2}, {1, 0, 2, 1})}}));
  }
  {
    const Dims in{4, 2, 3};
    auto x = rng.floats(count(in));
    const std::vector<int32_t> perm{2, 0, 3, 1};
    auto want = ref::gather(x, in, perm, {4}, 0);
    c.push_back(makeCase("BatchPermutation_rank3", "BatchPermutation",
                         {f32Tensor(in, x), makeTensor(DType::kInt32, {4}, perm)}, {f32Tensor(in, want)}));
  }
}

void argbCases(std::vector<OpCase>& c) {
  // One pixel per channel layout, values = channel tags: A=9, R=1, G=2, B=3.
  const std::vector<float> argb{9, 1, 2, 3, 9, 4, 5, 6};
  c.push_back(makeCase("ArgbToRgb_argb", "ArgbToRgb", {f32Tensor({1, 1, 2, 4}, argb)}, {f32Tensor({1, 1, 2, 3}, {1, 2, 3, 4, 5, 6})},
                       {{"input_order", sdk::scalarU32(0)}, {"reverse_output", sdk::scalarBool(false)}}));
  c.push_back(makeCase("ArgbToRgb_argb_to_bgr", "ArgbToRgb", {f32Tensor({1, 1, 2, 4}, argb)}, {f32Tensor({1, 1, 2, 3}, {3, 2, 1, 6, 5, 4})},
                       {{"reverse_output", sdk::scalarBool(true)}}));
  c.push_back(makeCase("ArgbToRgb_rgba_uint8", "ArgbToRgb",
                       {makeTensor(DType::kUInt8, {2, 1, 1, 4}, std::vector<uint8_t>{1, 2, 3, 9, 4, 5, 6, 9})},
                       {makeTensor(DType::kUInt8, {2, 1, 1, 3}, std::vector<uint8_t>{1, 2, 3, 4, 5, 6})},
                       {{"input_order", sdk::scalarU32(1)}, {"reverse_output", sdk::scalarBool(false)}}));
}

void extractPatchesCases(std::vector<OpCase>& c) {
  struct S {
    const char* name;
    Dims in;
    uint32_t size[2], stride[2], rate[2];
    bool same;
  };
  const S specs[] = {{"ExtractPatches_valid_2x2_s1", {1, 4, 5, 2}, {2, 2}, {1, 1}, {1, 1}, false},
                     {"ExtractPatches_valid_rate2_stride2_batch2", {2, 7, 6, 3}, {2, 3}, {2, 1}, {2, 2}, false},
                     {"ExtractPatches_same_3x3_s2", {1, 5, 6, 2}, {3, 3}, {2, 2}, {1, 1}, true}};
  CaseRng rng(1501);
  for (const S& s : specs) {
    auto x = rng.floats(count(s.in));
    uint32_t out[2], before[2] = {0, 0}, after[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
      const uint32_t dil = (s.size[i] - 1) * s.rate[i] + 1, n = s.in[i + 1];
      if (s.same) {
        out[i] = (n + s.stride[i] - 1) / s.stride[i];
        const int64_t total = std::max<int64_t>(0, int64_t(out[i] - 1) * s.stride[i] + dil - n);
        before[i] = uint32_t(total / 2), after[i] = uint32_t(total - total / 2);
      } else {
        out[i] = (n - dil) / s.stride[i] + 1;
      }
    }
    const Dims pd{s.in[0], s.in[1] + before[0] + after[0], s.in[2] + before[1] + after[1], s.in[3]};
    auto padded = ref::pad(x, s.in, {0, 0, before[0], after[0], before[1], after[1], 0, 0}, 0, 0.f);
    // Patch (i, j) of every output pixel: a strided slice of the padded image; then interleave.
    const uint32_t ch = s.in[3], taps = s.size[0] * s.size[1];
    std::vector<float> want(size_t(s.in[0]) * out[0] * out[1] * taps * ch);
    for (uint32_t i = 0; i < s.size[0]; ++i)
      for (uint32_t j = 0; j < s.size[1]; ++j) {
        auto tap = ref::slice(padded, pd, {0, int64_t(i * s.rate[0]), int64_t(j * s.rate[1]), 0},
                              {1, s.stride[0], s.stride[1], 1}, {s.in[0], out[0], out[1], ch});
        for (size_t p = 0; p < tap.size() / ch; ++p)
          for (uint32_t k = 0; k < ch; ++k) want[(p * taps + i * s.size[1] + j) * ch + k] = tap[p * ch + k];
      }
    c.push_back(makeCase(s.name, "ExtractPatches", {f32Tensor(s.in, x)},
                         {f32Tensor({s.in[0], out[0], out[1], taps * ch}, want)},
                         {{"size", u32s({2}, {s.size[0], s.size[1]})},
                          {"stride", u32s({2}, {s.stride[0], s.stride[1]})},
                          {"rate", u32s({2}, {s.rate[0], s.rate[1]})},
                          {"padding", sdk::scalarU32(s.same ? 1 : 0)}}));
  }
}

void groupNormCases(std::vector<OpCase>& c) {
  struct S {
    const char* name;
    Dims in;
    uint32_t group;
    bool affine;
  };
  const S specs[] = {{"GroupNorm_nhwc_g2_affine", {2, 3, 4, 6}, 2, true},
                     {"GroupNorm_rank3_g4_no_affine", {2, 5, 8}, 4, false},
                     {"GroupNorm_g1_is_layer_norm_over_all", {1, 7, 3}, 1, true}};
  CaseRng rng(1601);
  const float eps = 1e-3f;
  for (const S& s : specs) {
    auto x = rng.floats(count(s.in), -3.f, 5.f);
    const uint32_t ch = s.in.back(), b = s.in[0], per = ch / s.group;
    const size_t pos = count(s.in) / (size_t(b) * ch);
    auto gamma = rng.floats(ch, 0.5f, 1.5f), beta = rng.floats(ch);
    std::vector<float> want(x.size());
    for (uint32_t n = 0; n < b; ++n)
      for (uint32_t g = 0; g < s.group; ++g) {
        std::vector<size_t> members;
        for (size_t p = 0; p < pos; ++p)
          for (uint32_t k = 0; k < per; ++k) members.push_back((size_t(n) * pos + p) * ch + g * per + k);
        double mean = 0, var = 0;
        for (size_t i : members) mean += x[i];
        mean /= double(members.size());
        for (size_t i : members) var += (x[i] - mean) * (x[i] - mean);
        var /= double(members.size());
        for (size_t i : members) {
          const size_t k = i % ch;
          const double v = (x[i] - mean) / std::sqrt(var + eps);
          want[i] = float(s.affine ? v * gamma[k] + beta[k] : v);
        }
      }
    std::vector<CaseTensor> inputs{f32Tensor(s.in, x)};
    if (s.affine) inputs.push_back(f32Tensor({ch}, gamma)), inputs.push_back(f32Tensor({ch}, beta));
    c.push_back(makeCase(s.name, "GroupNorm", inputs, {f32Tensor(s.in, want)},
                         {{"epsilon", sdk::scalarF32(eps)}, {"group", sdk::scalarU32(s.group)}}, 1e-5, 1e-4));
  }
}

double bilinearAt(const std::vector<float>& img, uint32_t w, uint32_t ch, uint32_t k, double y, double x) {
  const double y0 = std::floor(y), x0 = std::floor(x);
  const double fy = y - y0, fx = x - x0;
  auto at = [&](double yy, double xx) { return double(img[(size_t(yy) * w + size_t(xx)) * ch + k]); };
  const double y1 = std::ceil(y), x1 = std::ceil(x);
  return (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x1)) + fy * ((1 - fx) * at(y1, x0) + fx * at(y1, x1));
}

void cropAndResizeCases(std::vector<OpCase>& c) {
  // 2x2 image [[0, 10], [20, 30]], whole-image box on a 3x3 grid: the corners and midpoints.
  c.push_back(makeCase("CropAndResize_whole_image_3x3_by_hand", "CropAndResize",
                       {f32Tensor({1, 2, 2, 1}, {0, 10, 20, 30}), f32Tensor({1, 4}, {0, 0, 1, 1}),
                        makeTensor(DType::kInt32, {1}, std::vector<int32_t>{0})},
                       {f32Tensor({1, 3, 3, 1}, {0, 5, 10, 10, 15, 20, 20, 25, 30})},
                       {{"resize_dims", u32s({2}, {3, 3})}}, 1e-5, 1e-6));
  CaseRng rng(1701);
  const uint32_t b = 2, h = 6, w = 7, ch = 3, oh = 4, ow = 5;
  auto img = rng.floats(size_t(b) * h * w * ch);
  // Boxes partly outside the image, flipped, and a single-row box.
  // Coordinates keep nearest sampling off exact .5 ties, where float and double may round apart.
  const std::vector<float> boxes{0.12f, 0.2f, 0.81f, 0.9f, -0.2f, 0.5f, 0.6f, 1.3f, 0.93f, 0.7f, 0.2f, 0.13f, 0.55f, 0.0f, 0.55f, 0.95f};
  const std::vector<int32_t> idx{1, 0, 1, 0};
  const float extrap = -7.f;
  for (int nearest = 0; nearest < 2; ++nearest) {
    std::vector<float> want;
    for (uint32_t k = 0; k < 4; ++k) {
      const float* bx = &boxes[k * 4];
      std::vector<float> plane(img.begin() + size_t(idx[k]) * h * w * ch, img.begin() + size_t(idx[k] + 1) * h * w * ch);
      for (uint32_t y = 0; y < oh; ++y)
        for (uint32_t x = 0; x < ow; ++x)
          for (uint32_t kk = 0; kk < ch; ++kk) {
            const double iy = bx[0] * double(h - 1) + y * double(bx[2] - bx[0]) * (h - 1) / (oh - 1);
            const double ix = bx[1] * double(w - 1) + x * double(bx[3] - bx[1]) * (w - 1) / (ow - 1);
            if (iy < 0 || iy > h - 1 || ix < 0 || ix > w - 1) want.push_back(extrap);
            else if (nearest) want.push_back(plane[(size_t(std::round(iy)) * w + size_t(std::round(ix))) * ch + kk]);
            else want.push_back(float(bilinearAt(plane, w, ch, kk, iy, ix)));
          }
    }
    c.push_back(makeCase(nearest ? "CropAndResize_nearest_outside_flipped" : "CropAndResize_bilinear_outside_flipped",
                         "CropAndResize",
                         {f32Tensor({b, h, w, ch}, img), f32Tensor({4, 4}, boxes), makeTensor(DType::kInt32, {4}, idx)},
                         {f32Tensor({4, oh, ow, ch}, want)},
                         {{"resize_dims", u32s({2}, {oh, ow})}, {"interpolation_mode", sdk::scalarU32(uint32_t(nearest))},
                          {"extrapolation_value", sdk::scalarF32(extrap)}},
                         1e-5, 1e-5));
  }
}

void correlationCases(std::vector<OpCase>& c) {
  CaseRng rng(1801);
  const uint32_t n = 2, h = 3, w = 6, ch = 4;
  auto a = rng.floats(size_t(n) * h * w * ch), bb = rng.floats(size_t(n) * h * w * ch);
  for (int32_t shift : {0, 2, -1}) {
    const uint32_t disp = 2, taps = 2 * disp + 1;
    std::vector<float> want(size_t(n) * h * w * taps, 0.f);
    for (uint32_t d = 0; d < taps; ++d)
      for (size_t r = 0; r < size_t(n) * h; ++r)
        for (uint32_t x = 0; x < w; ++x) {
          const int64_t xb = int64_t(x) + d - disp + shift;
          if (xb < 0 || xb >= w) continue;
          double s = 0;
          for (uint32_t k = 0; k < ch; ++k) s += double(a[(r * w + x) * ch + k]) * bb[(r * w + size_t(xb)) * ch + k];
          want[(r * w + x) * taps + d] = float(s / ch);
        }
    c.push_back(makeCase("Correlation1D_disp2_shift" + std::string(shift < 0 ? "minus" : "") + std::to_string(std::abs(shift)), "Correlation1D",
                         {f32Tensor({n, h, w, ch}, a), f32Tensor({n, h, w, ch}, bb)}, {f32Tensor({n, h, w, taps}, want)},
                         {{"displacement", sdk::scalarU32(disp)}, {"shift", sdk::scalarI32(shift)}}, 1e-6, 1e-5));
  }
}

std::vector<OpCase> imageBatchCases() {
  std::vector<OpCase> c;
  batchSpaceCases(c);
  argbCases(c);
  extractPatchesCases(c);
  groupNormCases(c);
  cropAndResizeCases(c);
  correlationCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("image_batch", qnn::conformance::imageBatchCases);
