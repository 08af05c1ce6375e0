// Conformance cases of the compute-heavy ops (convolutions, matrix products,
// pooling, softmax, normalizations, resizes). Expected outputs come from the
// independent loops in reference_compute.cpp. Weights are static in some cases
// and dynamic in others so both the pack-at-prepare and pack-per-execute paths
// of the kernels run.
#include <algorithm>
#include <cmath>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_compute.h"

namespace qnn::conformance {
namespace {

using ref::Dims;
using ref::Floats;
using Params = std::vector<std::pair<std::string, ParamValue>>;

size_t count(const Dims& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

ParamValue u32s(std::vector<uint32_t> dims, std::vector<uint32_t> v) { return sdk::tensorU32(std::move(dims), v); }
ParamValue pair(uint32_t a, uint32_t b) { return u32s({2}, {a, b}); }
ParamValue pads(uint32_t top, uint32_t bottom, uint32_t left, uint32_t right) {
  return u32s({2, 2}, {top, bottom, left, right});
}

OpCase makeCase(std::string name, std::string op, std::vector<CaseTensor> inputs, Params params, const Dims& outDims,
                const Floats& expected, double atol, double rtol) {
  OpCase c;
  c.name = std::move(name);
  c.opType = std::move(op);
  c.inputs = std::move(inputs);
  c.params = std::move(params);
  c.expected.push_back(f32Tensor(outDims, expected));
  c.atol = atol;
  c.rtol = rtol;
  return c;
}

// float32 sums of K products of values in [-1, 1] in a different order than
// the double reference: the error grows ~ sqrt(K) ulps of the partial sums.
double dotTolerance(size_t k) { return 1e-5 * std::sqrt(double(k)) + 1e-6; }
constexpr double kDotRtol = 1e-4;

// ---------------------------------------------------------------------------
enum class ConvOp { kConv, kDepthwise, kTranspose };

struct ConvSpec {
  std::string name;
  ConvOp op;
  Dims x, w;
  ref::ConvGeometry g;
  bool bias;
  bool staticWeights;
};

OpCase convCase(const ConvSpec& s, uint64_t seed) {
  CaseRng rng(seed);
  Floats x = rng.floats(count(s.x)), w = rng.floats(count(s.w));
  const uint32_t cout = s.op == ConvOp::kTranspose ? s.w[3] * s.g.group : s.w[3];
  Floats bias = s.bias ? rng.floats(cout) : Floats{};
  Dims outDims;
  Floats expected;
  Params params{{"stride", pair(s.g.strideH, s.g.strideW)},
                {"pad_amount", pads(s.g.padTop, s.g.padBottom, s.g.padLeft, s.g.padRight)}};
  std::string opType;
  size_t k = 0;
  switch (s.op) {
    case ConvOp::kConv:
      opType = "Conv2d";
      expected = ref::conv2d(x, s.x, w, s.w, bias, s.g, &outDims);
      params.push_back({"dilation", pair(s.g.dilH, s.g.dilW)});
      if (s.g.group != 1) params.push_back({"group", sdk::scalarU32(s.g.group)});
      k = size_t(s.w[0]) * s.w[1] * s.w[2];
      break;
    case ConvOp::kDepthwise:
      opType = "DepthWiseConv2d";
      expected = ref::depthwiseConv2d(x, s.x, w, s.w, bias, s.g, &outDims);
      if (s.g.dilH != 1 || s.g.dilW != 1) params.push_back({"dilation", pair(s.g.dilH, s.g.dilW)});
      k = size_t(s.w[0]) * s.w[1];
      break;
    case ConvOp::kTranspose:
      opType = "TransposeConv2d";
      expected = ref::transposeConv2d(x, s.x, w, s.w, bias, s.g, &outDims);
      if (s.g.group != 1) params.push_back({"group", sdk::scalarU32(s.g.group)});
      if (s.g.outPadH || s.g.outPadW) params.push_back({"output_padding", pair(s.g.outPadH, s.g.outPadW)});
      k = size_t(s.w[0]) * s.w[1] * s.w[2];
      break;
  }
  std::vector<CaseTensor> inputs{f32Tensor(s.x, x), f32Tensor(s.w, w, s.staticWeights)};
  if (s.bias) inputs.push_back(f32Tensor({cout}, bias, s.staticWeights));
  return makeCase(s.name, opType, inputs, params, outDims, expected, dotTolerance(k), kDotRtol);
}

ref::ConvGeometry geom(uint32_t sh, uint32_t sw, uint32_t pt, uint32_t pb, uint32_t pl, uint32_t pr, uint32_t dh = 1,
                       uint32_t dw = 1, uint32_t group = 1) {
  ref::ConvGeometry g;
  g.strideH = sh, g.strideW = sw, g.padTop = pt, g.padBottom = pb, g.padLeft = pl, g.padRight = pr;
  g.dilH = dh, g.dilW = dw, g.group = group;
  return g;
}

void addConvCases(std::vector<OpCase>& out) {
  ref::ConvGeometry tGroup = geom(1, 1, 1, 1, 1, 1, 1, 1, 2);
  ref::ConvGeometry tOutPad = geom(2, 2, 1, 1, 1, 2);
  tOutPad.outPadH = 1, tOutPad.outPadW = 1;
  const std::vector<ConvSpec> specs = {
      {"Conv2d_3x3_pad1_odd_bias_static", ConvOp::kConv, {1, 7, 5, 3}, {3, 3, 3, 8}, geom(1, 1, 1, 1, 1, 1), true, true},
      {"Conv2d_stride2_asympad_batch2_nobias", ConvOp::kConv, {2, 9, 7, 13}, {3, 3, 13, 5}, geom(2, 2, 0, 2, 1, 0), false, false},
      {"Conv2d_dilation2_pad2", ConvOp::kConv, {1, 11, 9, 4}, {3, 3, 4, 6}, geom(1, 1, 2, 2, 2, 2, 2, 2), true, true},
      {"Conv2d_group2_bias_dynamic", ConvOp::kConv, {2, 6, 7, 6}, {3, 3, 3, 8}, geom(1, 1, 1, 1, 1, 1, 1, 1, 2), true, false},
      {"Conv2d_1x1_direct_static", ConvOp::kConv, {2, 5, 7, 24}, {1, 1, 24, 40}, geom(1, 1, 0, 0, 0, 0), true, true},
      {"Conv2d_1x1_group2_dynamic", ConvOp::kConv, {1, 4, 5, 8}, {1, 1, 4, 6}, geom(1, 1, 0, 0, 0, 0, 1, 1, 2), false, false},
      {"Conv2d_1x1_stride2", ConvOp::kConv, {1, 7, 7, 5}, {1, 1, 5, 17}, geom(2, 2, 0, 0, 0, 0), true, true},
      {"Conv2d_5x5_im2col_tiles", ConvOp::kConv, {1, 30, 30, 64}, {5, 5, 64, 20}, geom(1, 1, 2, 2, 2, 2), true, true},
      {"Conv2d_5x1_stride1x2_dil2x1", ConvOp::kConv, {1, 13, 8, 3}, {5, 1, 3, 4}, geom(1, 2, 1, 0, 0, 1, 2, 1), true, false},
      {"Conv2d_7x7_stride2_pad3_rgb", ConvOp::kConv, {1, 23, 19, 3}, {7, 7, 3, 16}, geom(2, 2, 3, 3, 3, 3), true, true},
      // Large enough for the pixel-tile split over threads (one tile per image here, and the
      // per-tap copies of a grouped, row-dilated window); then a stem-like 3-channel 7x7 in two
      // tiles; then 49 pixels with K > 256 (several GEMM K blocks, split over output channels).
      {"Conv2d_group2_batch2_dil2x1_tiles", ConvOp::kConv, {2, 15, 14, 8}, {3, 3, 4, 12}, geom(1, 2, 2, 2, 1, 2, 2, 1, 2), true, true},
      {"Conv2d_7x7_stride2_rgb_tiles", ConvOp::kConv, {1, 45, 41, 3}, {7, 7, 3, 16}, geom(2, 2, 3, 3, 3, 3), true, true},
      {"Conv2d_3x3_7x7map_deepK", ConvOp::kConv, {1, 7, 7, 40}, {3, 3, 40, 37}, geom(1, 1, 1, 1, 1, 1), true, true},
      // The row-GEMM path (padded input read in place, fh accumulating GEMMs per output row):
      // row stride 2 with asymmetric padding, batch 2, weights given at execute; then row
      // dilation with padding beyond the filter's reach and output channels off the 16-lane panels.
      {"Conv2d_rowgemm_stride2x1_asympad_batch2", ConvOp::kConv, {2, 17, 29, 24}, {3, 3, 24, 19}, geom(2, 1, 0, 1, 1, 2), true, false},
      {"Conv2d_rowgemm_dil2x1_bigpad", ConvOp::kConv, {1, 16, 30, 32}, {3, 3, 32, 33}, geom(1, 1, 3, 2, 2, 1, 2, 1), false, true},
      // Winograd (3x3 stride 1, 32+ channels), F(4x4, 3x3) on these maps of 8+ outputs each way: odd
      // output sizes (partial tiles), asymmetric padding, batch 2, weights at execute; padding of 2
      // (outputs beyond the input on every side).
      {"Conv2d_winograd_asympad_batch2_oddsize", ConvOp::kConv, {2, 9, 12, 32}, {3, 3, 32, 48}, geom(1, 1, 0, 2, 1, 0), true, false},
      // Enough tiles (220 over a batch of 2) for several blocks taken by whichever thread is free,
      // blocks crossing the image boundary.
      {"Conv2d_winograd_blocks_batch2", ConvOp::kConv, {2, 20, 21, 32}, {3, 3, 32, 48}, geom(1, 1, 1, 1, 1, 1), true, true},
      {"Conv2d_winograd_pad2_c33_c35", ConvOp::kConv, {1, 10, 9, 33}, {3, 3, 33, 35}, geom(1, 1, 2, 2, 2, 2), false, true},
      // F(2x2, 3x3): maps under 8 outputs, enough tiles over a batch of 4 (48), a partial tile column.
      {"Conv2d_winograd_f2_smallmap_batch4", ConvOp::kConv, {4, 6, 7, 32}, {3, 3, 32, 40}, geom(1, 1, 1, 1, 1, 1), true, true},
      // The small-channel direct kernel (1-4 input channels, 16-64 output channels): batch 2 with
      // dilation, asymmetric padding and weights given at execute; one input channel into 64.
      {"Conv2d_smallcin_dil2_asympad_batch2", ConvOp::kConv, {2, 13, 17, 3}, {3, 3, 3, 48}, geom(2, 1, 1, 3, 0, 2, 2, 2), true, false},
      {"Conv2d_smallcin_1to64_5x5", ConvOp::kConv, {1, 11, 23, 1}, {5, 5, 1, 64}, geom(1, 2, 2, 2, 2, 2), false, true},
      // A MobileNet-like RGB stem (3x3 over 3 channels at dilation 1: its taps unrolled at compile time).
      {"Conv2d_smallcin_3x3_rgb_stride2", ConvOp::kConv, {1, 17, 19, 3}, {3, 3, 3, 32}, geom(2, 2, 1, 1, 1, 1), true, true},
      {"DepthWiseConv2d_3x3_pad1_bias_static", ConvOp::kDepthwise, {1, 7, 5, 13}, {3, 3, 1, 13}, geom(1, 1, 1, 1, 1, 1), true, true},
      {"DepthWiseConv2d_stride2_asympad_batch2", ConvOp::kDepthwise, {2, 9, 8, 16}, {3, 3, 1, 16}, geom(2, 2, 0, 1, 1, 1), false, false},
      {"DepthWiseConv2d_dilation2", ConvOp::kDepthwise, {1, 10, 9, 8}, {3, 3, 1, 8}, geom(1, 1, 2, 2, 2, 2, 2, 2), true, true},
      {"DepthWiseConv2d_multiplier2", ConvOp::kDepthwise, {1, 6, 5, 3}, {3, 3, 1, 6}, geom(1, 1, 1, 1, 1, 1), true, false},
      {"DepthWiseConv2d_5x5_stride2_c40", ConvOp::kDepthwise, {1, 11, 11, 40}, {5, 5, 1, 40}, geom(2, 2, 2, 2, 2, 2), true, true},
      // The 3x3 row kernel (16-channel blocks, weights in registers): rows of 27 (7 + 7 + 7 + 6) and
      // 15 (8 + 7) pixels, top/bottom rows with missing taps, asymmetric padding, batch 2, stride 2.
      {"DepthWiseConv2d_3x3_c32_wide_batch2", ConvOp::kDepthwise, {2, 6, 27, 32}, {3, 3, 1, 32}, geom(1, 1, 1, 1, 1, 1), true, true},
      {"DepthWiseConv2d_3x3_c48_asympad_w15", ConvOp::kDepthwise, {1, 5, 15, 48}, {3, 3, 1, 48}, geom(1, 1, 0, 2, 1, 0), false, false},
      {"DepthWiseConv2d_3x3_stride2_c16_w40", ConvOp::kDepthwise, {1, 9, 40, 16}, {3, 3, 1, 16}, geom(2, 2, 1, 1, 1, 1), true, true},
      {"DepthWiseConv2d_3x3_stride2_c64_odd", ConvOp::kDepthwise, {1, 8, 21, 64}, {3, 3, 1, 64}, geom(2, 2, 0, 1, 0, 1), true, false},
      {"TransposeConv2d_stride2_bias_static", ConvOp::kTranspose, {1, 4, 5, 3}, {3, 3, 3, 4}, geom(2, 2, 0, 0, 0, 0), true, true},
      {"TransposeConv2d_pad_outpad_batch2", ConvOp::kTranspose, {2, 3, 4, 6}, {4, 4, 6, 5}, tOutPad, false, false},
      {"TransposeConv2d_group2", ConvOp::kTranspose, {1, 5, 5, 4}, {3, 3, 4, 3}, tGroup, true, false},
      {"TransposeConv2d_stride3x1_2x3", ConvOp::kTranspose, {1, 3, 4, 5}, {2, 3, 5, 7}, geom(3, 1, 0, 1, 1, 1), true, true},
      // The 3x3 row kernel's equal groups: 7 pixels in one (both edges), 11 (stride 2) in 6 + 5, 3 alone.
      {"DepthWiseConv2d_3x3_w7_one_group", ConvOp::kDepthwise, {1, 7, 7, 32}, {3, 3, 1, 32}, geom(1, 1, 1, 1, 1, 1), true, true},
      {"DepthWiseConv2d_3x3_stride2_w11", ConvOp::kDepthwise, {1, 5, 22, 16}, {3, 3, 1, 16}, geom(2, 2, 1, 1, 1, 1), true, false},
      {"DepthWiseConv2d_3x3_w3", ConvOp::kDepthwise, {1, 4, 3, 16}, {3, 3, 1, 16}, geom(1, 1, 1, 1, 1, 1), false, true},
  };
  uint64_t seed = 100;
  for (const auto& s : specs) out.push_back(convCase(s, seed++));
}

// ---------------------------------------------------------------------------
void addFullyConnectedCases(std::vector<OpCase>& out) {
  struct Spec {
    std::string name;
    Dims x, w;
    bool bias, keepDims, staticWeights;
  };
  const std::vector<Spec> specs = {
      {"FullyConnected_basic_bias_static", {3, 20}, {7, 20}, true, false, true},
      {"FullyConnected_rank1_nobias", {20}, {5, 20}, false, false, false},
      {"FullyConnected_flatten_rank4", {2, 3, 4, 5}, {11, 60}, true, false, true},
      {"FullyConnected_keep_dims", {2, 3, 16}, {9, 16}, true, true, false},
      {"FullyConnected_deep_k300", {4, 300}, {130, 300}, true, false, true},
      {"FullyConnected_batch1_wide", {1, 64}, {1000, 64}, true, false, true},
      // Large enough for one level of Strassen on AVX-512 (gemm::useStrassen): the weights' quadrant
      // sums packed at prepare, the bias on the first write of each quadrant of C.
      {"FullyConnected_strassen_512", {512, 1024}, {512, 1024}, true, false, true},
  };
  uint64_t seed = 200;
  for (const auto& s : specs) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.x)), w = rng.floats(count(s.w));
    Floats bias = s.bias ? rng.floats(s.w[0]) : Floats{};
    Dims outDims;
    Floats expected = ref::fullyConnected(x, s.x, w, s.w, bias, s.keepDims, &outDims);
    std::vector<CaseTensor> inputs{f32Tensor(s.x, x), f32Tensor(s.w, w, s.staticWeights)};
    if (s.bias) inputs.push_back(f32Tensor({s.w[0]}, bias, s.staticWeights));
    Params params;
    if (s.keepDims) params.push_back({"keep_dims", sdk::scalarBool(true)});
    out.push_back(makeCase(s.name, "FullyConnected", inputs, params, outDims, expected, dotTolerance(s.w[1]), kDotRtol));
  }
}

void addMatMulCases(std::vector<OpCase>& out) {
  struct Spec {
    std::string name;
    Dims a, b;
    bool transA, transB, bias, staticB;
  };
  const std::vector<Spec> specs = {
      {"MatMul_basic_static", {7, 13}, {13, 9}, false, false, false, true},
      {"MatMul_transpose_in0", {13, 7}, {13, 9}, true, false, false, false},
      {"MatMul_transpose_in1_bias", {7, 13}, {9, 13}, false, true, true, true},
      {"MatMul_transpose_both_batch", {2, 3, 13, 7}, {2, 3, 9, 13}, true, true, false, false},
      {"MatMul_broadcast_batch", {2, 1, 5, 6}, {3, 6, 4}, false, false, false, false},
      {"MatMul_broadcast_rank2_rhs_static", {4, 5, 6}, {6, 7}, false, false, true, true},
      {"MatMul_large_k_blocking", {100, 300}, {300, 70}, false, false, true, false},
      {"MatMul_batch3_inner_parallel", {3, 20, 30}, {3, 20, 30}, false, true, false, false},
      {"MatMul_attention_like", {2, 4, 16, 8}, {2, 4, 16, 8}, false, true, false, false},
      // A right-hand side given at execute with N a multiple of 16: read in place on AVX-512
      // (gemm::multiplyUnpackedB), per head and broadcast over batches, with a bias.
      {"MatMul_dynamic_rhs_in_place_heads", {2, 4, 30, 64}, {2, 4, 64, 32}, false, false, false, false},
      {"MatMul_dynamic_rhs_in_place_broadcast_bias", {3, 20, 40}, {40, 48}, false, false, true, false},
      // A's rows 4 KiB apart (K = 1024): tiles of at most 11 rows read A in place.
      {"MatMul_k1024_rows_4k_apart", {30, 1024}, {1024, 20}, false, false, true, true},
      // Large enough for one level of Strassen on AVX-512 (gemm::useStrassen), over two batches,
      // B transposed; then K odd (the classic product).
      {"MatMul_strassen_batch2_transpose_in1_bias", {2, 512, 512}, {512, 512}, false, true, true, true},
      {"MatMul_k_odd_not_strassen", {512, 513}, {513, 512}, false, false, false, true},
  };
  uint64_t seed = 300;
  for (const auto& s : specs) {
    CaseRng rng(seed++);
    Floats a = rng.floats(count(s.a)), b = rng.floats(count(s.b));
    const uint32_t n = s.transB ? s.b[s.b.size() - 2] : s.b.back();
    const uint32_t k = s.transA ? s.a[s.a.size() - 2] : s.a.back();
    Floats bias = s.bias ? rng.floats(n) : Floats{};
    Dims outDims;
    Floats expected = ref::matMul(a, s.a, b, s.b, bias, s.transA, s.transB, &outDims);
    std::vector<CaseTensor> inputs{f32Tensor(s.a, a), f32Tensor(s.b, b, s.staticB)};
    if (s.bias) inputs.push_back(f32Tensor({n}, bias, s.staticB));
    Params params;
    if (s.transA) params.push_back({"transpose_in0", sdk::scalarBool(true)});
    if (s.transB) params.push_back({"transpose_in1", sdk::scalarBool(true)});
    out.push_back(makeCase(s.name, "MatMul", inputs, params, outDims, expected, dotTolerance(k), kDotRtol));
  }
}

// ---------------------------------------------------------------------------
void addPoolCases(std::vector<OpCase>& out) {
  struct Spec {
    std::string name;
    bool isMax;
    Dims x;
    ref::PoolGeometry g;
  };
  auto pg = [](uint32_t f, uint32_t s, uint32_t pt, uint32_t pb, uint32_t pl, uint32_t pr, bool ceil, bool countPad) {
    ref::PoolGeometry g;
    g.filterH = g.filterW = f, g.strideH = g.strideW = s;
    g.padTop = pt, g.padBottom = pb, g.padLeft = pl, g.padRight = pr, g.ceilMode = ceil, g.countPadForEdges = countPad;
    return g;
  };
  ref::PoolGeometry rect = pg(1, 1, 0, 1, 1, 0, false, false);
  rect.filterH = 2, rect.filterW = 3, rect.strideH = 1, rect.strideW = 2;
  const std::vector<Spec> specs = {
      {"PoolMax2d_3x3_s2_pad1_batch2", true, {2, 9, 7, 13}, pg(3, 2, 1, 1, 1, 1, false, false)},
      {"PoolMax2d_3x3_s2_ceil", true, {1, 8, 8, 5}, pg(3, 2, 0, 0, 0, 0, true, false)},
      {"PoolMax2d_2x2_s2_odd_floor", true, {1, 7, 5, 3}, pg(2, 2, 0, 0, 0, 0, false, false)},
      {"PoolMax2d_rect_2x3_asympad", true, {1, 6, 9, 4}, rect},
      {"PoolAvg2d_3x3_pad1_exclude_pad", false, {1, 7, 5, 3}, pg(3, 1, 1, 1, 1, 1, false, false)},
      {"PoolAvg2d_3x3_pad1_count_pad", false, {1, 7, 5, 3}, pg(3, 1, 1, 1, 1, 1, false, true)},
      {"PoolAvg2d_asympad_s2_count_pad_batch2", false, {2, 9, 8, 4}, pg(3, 2, 0, 2, 1, 0, false, true)},
      {"PoolAvg2d_asympad_s2_exclude_pad", false, {2, 9, 8, 4}, pg(3, 2, 0, 2, 1, 0, false, false)},
      {"PoolAvg2d_ceil_exclude_pad", false, {1, 8, 7, 6}, pg(3, 2, 0, 0, 0, 0, true, false)},
      {"PoolAvg2d_ceil_count_pad", false, {1, 8, 7, 6}, pg(3, 2, 1, 1, 1, 1, true, true)},
      {"PoolAvg2d_global_7x7", false, {1, 7, 7, 32}, pg(7, 1, 0, 0, 0, 0, false, false)},
      // Channel counts over one 16-lane block with a partial one (the CPU backend's row kernel).
      {"PoolMax2d_3x3_s2_pad1_c37", true, {1, 15, 14, 37}, pg(3, 2, 1, 1, 1, 1, false, false)},
      {"PoolAvg2d_3x3_s2_c40_count_pad_batch2", false, {2, 11, 10, 40}, pg(3, 2, 1, 0, 0, 1, false, true)},
      {"PoolMax2d_2x2_s2_c80", true, {1, 6, 7, 80}, pg(2, 2, 0, 0, 0, 1, false, false)},
      {"PoolAvg2d_3x3_s2_c70_ceil_count_pad", false, {1, 6, 5, 70}, pg(3, 2, 1, 1, 1, 1, true, true)},
  };
  uint64_t seed = 400;
  for (const auto& s : specs) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.x));
    Dims outDims;
    Floats expected = s.isMax ? ref::poolMax2d(x, s.x, s.g, &outDims) : ref::poolAvg2d(x, s.x, s.g, &outDims);
    Params params{{"filter_size", pair(s.g.filterH, s.g.filterW)},
                  {"stride", pair(s.g.strideH, s.g.strideW)},
                  {"pad_amount", pads(s.g.padTop, s.g.padBottom, s.g.padLeft, s.g.padRight)}};
    if (s.g.ceilMode) params.push_back({"rounding_mode", sdk::scalarU32(1)});
    if (!s.isMax) params.push_back({"count_pad_for_edges", sdk::scalarBool(s.g.countPadForEdges)});
    // Max is exact; an average of <= 49 terms is within a few ulps.
    out.push_back(makeCase(s.name, s.isMax ? "PoolMax2d" : "PoolAvg2d", {f32Tensor(s.x, x)}, params, outDims, expected,
                           s.isMax ? 0.0 : 1e-6, 1e-5));
  }
}

// ---------------------------------------------------------------------------
void addSoftmaxCases(std::vector<OpCase>& out) {
  struct Spec {
    std::string name;
    bool isLog;
    Dims d;
    int axis;  // -1: param absent (Softmax default N-1)
    float beta;
    float range;
  };
  const std::vector<Spec> specs = {
      {"Softmax_default_axis", false, {4, 10}, -1, 1.f, 3.f},
      {"Softmax_axis1_strided", false, {2, 5, 3}, 1, 1.f, 3.f},
      {"Softmax_beta_half", false, {3, 17}, 1, 0.5f, 3.f},
      {"Softmax_large_logits", false, {2, 50}, 1, 1.f, 60.f},
      {"Softmax_axis0_rank4", false, {3, 2, 2, 5}, 0, 2.f, 2.f},
      // The vector rows: two 32-wide steps and a 13 tail; an attention row of 128 with negative beta.
      {"Softmax_len77_tail", false, {3, 77}, 1, 1.f, 20.f},
      {"Softmax_attention128_negative_beta", false, {1, 2, 4, 128}, 3, -0.7f, 5.f},
      {"LogSoftmax_last_axis", true, {4, 10}, 1, 1.f, 3.f},
      {"LogSoftmax_axis0_beta2", true, {5, 3}, 0, 2.f, 3.f},
      {"LogSoftmax_large_logits_rank3", true, {2, 3, 40}, 2, 1.f, 50.f},
      // 14 rows: the AVX-512 path's groups of four rows and two rows alone; 45 = a 32-wide step and a 13 tail.
      {"Softmax_row_groups_and_rest", false, {2, 7, 45}, 2, 1.5f, 6.f},
  };
  uint64_t seed = 500;
  for (const auto& s : specs) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.d), -s.range, s.range);
    const uint32_t axis = s.axis < 0 ? uint32_t(s.d.size() - 1) : uint32_t(s.axis);
    Floats expected = ref::softmax(x, s.d, axis, s.beta, s.isLog);
    Params params;
    if (s.axis >= 0) params.push_back({"axis", sdk::scalarU32(axis)});
    if (s.beta != 1.f) params.push_back({"beta", sdk::scalarF32(s.beta)});
    // exp/log in float: a few ulps relative; log-softmax values reach ~100 so rtol matters there.
    out.push_back(makeCase(s.name, s.isLog ? "LogSoftmax" : "Softmax", {f32Tensor(s.d, x)}, params, s.d, expected,
                           s.isLog ? 1e-5 : 1e-6, 1e-5));
  }
  {
    // Logits around 8192 (float32 step there 1/1024; 8192 + 8m are exact halves too, for the
    // HTP's fp16 run): log(sum) + max rounded to float first loses log(sum)'s low bits (errors
    // up to 5e-4); (x - max) - log(sum) keeps them.
    CaseRng rng(seed++);
    const Dims d = {3, 24};
    Floats x = rng.floats(count(d), -1.5f, 1.5f);
    for (float& v : x) v = 8192.f + 8.f * std::round(v);
    out.push_back(makeCase("LogSoftmax_logits_near_8192", "LogSoftmax", {f32Tensor(d, x)},
                           {{"axis", sdk::scalarU32(1)}}, d, ref::softmax(x, d, 1, 1.f, true), 1e-5, 1e-5));
  }
}

// ---------------------------------------------------------------------------
void addNormCases(std::vector<OpCase>& out) {
  // Normalized values are O(1); float two-pass statistics over <= 100 values
  // and one rsqrt keep the error around 1e-6.
  constexpr double kNormAtol = 2e-5, kNormRtol = 1e-4;
  struct LnSpec {
    std::string name;
    Dims d;
    std::vector<uint32_t> axes;
    bool gamma, beta;
    float epsilon;  // < 0: param absent (default 0.001)
  };
  const std::vector<LnSpec> ln = {
      {"LayerNorm_last_axis_gamma_beta", {2, 5, 16}, {2}, true, true, 1e-5f},
      {"LayerNorm_two_trailing_axes", {3, 4, 6}, {1, 2}, true, true, -1.f},
      {"LayerNorm_leading_axis", {4, 3}, {0}, true, false, 1e-5f},
      {"LayerNorm_non_contiguous_axes", {2, 3, 4, 5}, {3, 1}, true, true, 1e-3f},
      {"LayerNorm_no_gamma_beta", {3, 33}, {1}, false, false, 1e-6f},
      // The CPU backend's vector rows: a transformer hidden size, and 37 (a masked / scalar tail) with gamma only.
      {"LayerNorm_hidden256_rows41", {41, 256}, {1}, true, true, 1e-5f},
      {"LayerNorm_last_axis37_gamma_only", {5, 3, 37}, {2}, true, false, 1e-5f},
  };
  uint64_t seed = 600;
  for (const auto& s : ln) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.d), -2.f, 3.f);
    std::vector<uint32_t> sorted = s.axes;
    std::sort(sorted.begin(), sorted.end());
    Dims pd;
    for (uint32_t a : sorted) pd.push_back(s.d[a]);
    Floats gamma = s.gamma ? rng.floats(count(pd), 0.5f, 1.5f) : Floats{};
    Floats beta = s.beta ? rng.floats(count(pd)) : Floats{};
    const float eps = s.epsilon < 0 ? 1e-3f : s.epsilon;
    Floats expected = ref::layerNorm(x, s.d, s.axes, gamma, beta, eps);
    std::vector<CaseTensor> inputs{f32Tensor(s.d, x)};
    if (s.gamma) inputs.push_back(f32Tensor(pd, gamma, true));
    if (s.beta) inputs.push_back(f32Tensor(pd, beta, false));
    Params params{{"axes", u32s({uint32_t(s.axes.size())}, s.axes)}};
    if (s.epsilon >= 0) params.push_back({"epsilon", sdk::scalarF32(s.epsilon)});
    out.push_back(makeCase(s.name, "LayerNorm", inputs, params, s.d, expected, kNormAtol, kNormRtol));
  }

  struct BnSpec {
    std::string name;
    Dims d;
    bool bias;
  };
  const std::vector<BnSpec> bn = {
      {"Batchnorm_rank4_bias", {2, 3, 4, 5}, true}, {"Batchnorm_rank2_nobias", {7, 3}, false}, {"Batchnorm_rank1", {6}, true}};
  for (const auto& s : bn) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.d)), w = rng.floats(s.d.back()), b = s.bias ? rng.floats(s.d.back()) : Floats{};
    std::vector<CaseTensor> inputs{f32Tensor(s.d, x), f32Tensor({s.d.back()}, w, true)};
    if (s.bias) inputs.push_back(f32Tensor({s.d.back()}, b, true));
    // One multiply-add: exact up to one rounding.
    out.push_back(makeCase(s.name, "Batchnorm", inputs, {}, s.d, ref::batchnorm(x, s.d, w, b), 1e-6, 1e-6));
  }

  struct InSpec {
    std::string name;
    Dims d;
    bool beta, normalizeVariance;
    float epsilon;  // < 0: param absent (default 1e-12)
  };
  const std::vector<InSpec> inorm = {
      {"InstanceNorm_rank4_eps", {2, 5, 4, 3}, true, true, 1e-5f},
      {"InstanceNorm_default_eps_nobeta", {1, 7, 6, 13}, false, true, -1.f},
      {"InstanceNorm_mean_only", {2, 3, 3, 4}, true, false, 1e-5f},
      {"InstanceNorm_rank3", {2, 9, 4}, true, true, 1e-3f},
  };
  for (const auto& s : inorm) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.d), -1.f, 2.f), gamma = rng.floats(s.d.back(), 0.5f, 1.5f);
    Floats beta = s.beta ? rng.floats(s.d.back()) : Floats{};
    const float eps = s.epsilon < 0 ? 1e-12f : s.epsilon;
    std::vector<CaseTensor> inputs{f32Tensor(s.d, x), f32Tensor({s.d.back()}, gamma, true)};
    if (s.beta) inputs.push_back(f32Tensor({s.d.back()}, beta, false));
    Params params;
    if (s.epsilon >= 0) params.push_back({"epsilon", sdk::scalarF32(s.epsilon)});
    if (!s.normalizeVariance) params.push_back({"normalize_variance", sdk::scalarBool(false)});
    out.push_back(makeCase(s.name, "InstanceNorm", inputs, params, s.d,
                           ref::instanceNorm(x, s.d, gamma, beta, eps, s.normalizeVariance), kNormAtol, kNormRtol));
  }
}

// ---------------------------------------------------------------------------
void addResizeCases(std::vector<OpCase>& out) {
  // Interpolation blends <= 4 values with weights summing to 1: a few ulps.
  constexpr double kResizeAtol = 1e-5, kResizeRtol = 1e-5;
  struct Spec {
    std::string name;
    Dims in, out;
    uint32_t transformation;
    bool linear;
    uint32_t nearestMode;
  };
  const std::vector<Spec> onnx = {
      {"Resize_linear_half_pixel_up", {1, 4, 5, 3}, {1, 7, 9, 3}, 0, true, 0},
      {"Resize_linear_align_corners_mixed", {2, 5, 4, 2}, {2, 9, 3, 2}, 2, true, 0},
      {"Resize_linear_asymmetric_2x", {1, 3, 4, 5}, {1, 6, 8, 5}, 3, true, 0},
      {"Resize_linear_pytorch_half_pixel_out1", {1, 4, 5, 2}, {1, 1, 8, 2}, 1, true, 0},
      {"Resize_linear_half_pixel_down", {1, 9, 8, 3}, {1, 4, 3, 3}, 0, true, 0},
      {"Resize_nearest_half_pixel_prefer_floor", {1, 4, 6, 2}, {1, 8, 3, 2}, 0, false, 0},
      {"Resize_nearest_half_pixel_prefer_ceil", {1, 4, 6, 2}, {1, 8, 3, 2}, 0, false, 1},
      {"Resize_nearest_asymmetric_floor", {1, 3, 5, 2}, {1, 7, 11, 2}, 3, false, 2},
      {"Resize_nearest_align_corners_prefer_ceil", {2, 5, 4, 3}, {2, 3, 7, 3}, 2, false, 1},
      {"Resize_nearest_half_pixel_ceil", {1, 5, 5, 1}, {1, 7, 3, 1}, 0, false, 3},
      {"Resize_rank3_linear_half_pixel", {2, 6, 3}, {2, 10, 3}, 0, true, 0},
  };
  uint64_t seed = 700;
  for (const auto& s : onnx) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.in));
    Params params;
    if (s.transformation) params.push_back({"transformation_mode", sdk::scalarU32(s.transformation)});
    if (s.linear) params.push_back({"interpolation_mode", sdk::scalarU32(1)});
    if (s.nearestMode) params.push_back({"nearest_mode", sdk::scalarU32(s.nearestMode)});
    out.push_back(makeCase(s.name, "Resize", {f32Tensor(s.in, x)}, params, s.out,
                           ref::resize(x, s.in, s.out, s.transformation, s.linear, s.nearestMode), kResizeAtol,
                           kResizeRtol));
  }

  // CUBIC: up and down, every transformation, ONNX's default a and PyTorch's -0.5, exclude_outside.
  struct CubicSpec {
    std::string name;
    Dims in, out;
    uint32_t transformation;
    float a;
    bool excludeOutside;
  };
  const std::vector<CubicSpec> cubic = {
      {"Resize_cubic_half_pixel_up", {1, 4, 4, 2}, {1, 8, 7, 2}, 0, -0.75f, false},
      {"Resize_cubic_half_pixel_down", {1, 9, 8, 1}, {1, 3, 5, 1}, 0, -0.75f, false},
      {"Resize_cubic_align_corners", {2, 4, 5, 2}, {2, 7, 9, 2}, 2, -0.75f, false},
      {"Resize_cubic_asymmetric", {1, 4, 4, 3}, {1, 8, 8, 3}, 3, -0.75f, false},
      {"Resize_cubic_pytorch_a_n0p5_exclude_outside", {1, 5, 4, 2}, {1, 9, 6, 2}, 1, -0.5f, true},
      {"Resize_cubic_half_pixel_exclude_outside_down", {1, 8, 8, 1}, {1, 3, 3, 1}, 0, -0.5f, true},
  };
  for (const auto& s : cubic) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.in));
    Params params = {{"interpolation_mode", sdk::scalarU32(2)}, {"transformation_mode", sdk::scalarU32(s.transformation)},
                     {"cubic_coeff", sdk::scalarF32(s.a)}, {"exclude_outside", sdk::scalarBool(s.excludeOutside)}};
    out.push_back(makeCase(s.name, "Resize", {f32Tensor(s.in, x)}, params, s.out,
                           ref::resizeCubic(x, s.in, s.out, s.transformation, s.a, s.excludeOutside), 1e-5, 1e-4));
  }

  struct TfSpec {
    std::string name;
    bool bilinear;
    Dims in, out;
    bool alignCorners, halfPixel;
  };
  const std::vector<TfSpec> tf = {
      {"ResizeBilinear_default_up", true, {1, 5, 4, 3}, {1, 9, 7, 3}, false, false},
      {"ResizeBilinear_align_corners", true, {2, 5, 4, 3}, {2, 9, 7, 3}, true, false},
      {"ResizeBilinear_half_pixel", true, {1, 5, 4, 3}, {1, 9, 7, 3}, false, true},
      {"ResizeBilinear_half_pixel_down", true, {1, 9, 8, 2}, {1, 4, 5, 2}, false, true},
      {"ResizeNearestNeighbor_default", false, {1, 5, 4, 3}, {1, 9, 7, 3}, false, false},
      {"ResizeNearestNeighbor_align_corners", false, {2, 5, 4, 3}, {2, 8, 7, 3}, true, false},
      {"ResizeNearestNeighbor_half_pixel", false, {1, 5, 4, 3}, {1, 9, 7, 3}, false, true},
      {"ResizeNearestNeighbor_half_pixel_down", false, {1, 9, 8, 2}, {1, 4, 3, 2}, false, true},
  };
  for (const auto& s : tf) {
    CaseRng rng(seed++);
    Floats x = rng.floats(count(s.in));
    Params params;
    if (s.alignCorners) params.push_back({"align_corners", sdk::scalarBool(true)});
    if (s.halfPixel) params.push_back({"half_pixel_centers", sdk::scalarBool(true)});
    Floats expected = s.bilinear ? ref::resizeBilinearTf(x, s.in, s.out, s.alignCorners, s.halfPixel)
                                 : ref::resizeNearestTf(x, s.in, s.out, s.alignCorners, s.halfPixel);
    out.push_back(makeCase(s.name, s.bilinear ? "ResizeBilinear" : "ResizeNearestNeighbor", {f32Tensor(s.in, x)}, params,
                           s.out, expected, kResizeAtol, kResizeRtol));
  }
}

std::vector<OpCase> computeCases() {
  std::vector<OpCase> cases;
  addConvCases(cases);
  addFullyConnectedCases(cases);
  addMatMulCases(cases);
  addPoolCases(cases);
  addSoftmaxCases(cases);
  addNormCases(cases);
  addResizeCases(cases);
  return cases;
}

}  // namespace

static const bool kReg = qnn::conformance::registerCaseSource("compute", computeCases);

}  // namespace qnn::conformance
