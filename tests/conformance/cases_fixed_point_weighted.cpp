// Fixed-point conformance cases of the weighted ops (Conv2d, DepthWiseConv2d,
// FullyConnected, MatMul) in every QuantConfig: 8/16-bit activations,
// per-tensor / per-channel / asymmetric weights, INT32 and UFIXED_8 bias.
// Expected outputs: reference_fixed_point.cpp.
#include <algorithm>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {
namespace {

using fxref::Bias;
using fxref::Dims;
using fxref::Weights;
using Params = std::vector<std::pair<std::string, ParamValue>>;
using Wide = __int128;

size_t count(const Dims& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

DType outTypeFor(DType act) { return act == DType::kSFixed8 ? DType::kSFixed8 : act; }

Enc inputEncoding(const QuantConfig& cfg) {
  const DType act = cfg.act;
  if (cfg.pow2) return act == DType::kUFixed16 ? Enc{1.f / 2048, -30000} : Enc{1.f / 32, -120};
  switch (act) {
    case DType::kUFixed8: return {0.02f, -120};
    case DType::kSFixed8: return {0.02f, 10};
    default: return {0.0005f, -30000};
  }
}

// Random weights of the config with `channels` encodings (channel-last unless told).
Weights makeWeights(CaseRng& rng, const QuantConfig& cfg, Dims dims, uint32_t channels) {
  Weights w;
  w.dims = std::move(dims);
  const bool w16 = cfg.weight == DType::kSFixed16;
  w.values = w16 ? randomInts(rng, count(w.dims), -32767, 32767)
                 : cfg.weight == DType::kSFixed8 ? randomInts(rng, count(w.dims), -127, 127)
                                                  : randomInts(rng, count(w.dims), DType::kUFixed8);
  const float base = cfg.pow2 ? 1.f / 128 : w16 ? 1e-4f : 0.01f;
  for (uint32_t c = 0; c < channels; ++c) {
    float scale = cfg.perChannel ? base * rng.uniform(0.5f, 2.f) : base;
    if (cfg.pow2 && cfg.perChannel) scale = base / float(1 << (c % 3));
    w.enc.push_back(Enc{scale, cfg.perChannel ? 0 : cfg.weightOffset});
  }
  return w;
}

CaseTensor weightTensor(const QuantConfig& cfg, const Weights& w, int32_t axis, bool isStatic) {
  if (cfg.perChannel) return qTensorAxis(cfg.weight, w.dims, w.values, w.enc, axis, isStatic);
  return qTensor(cfg.weight, w.dims, w.values, w.enc[0], isStatic);
}

enum class BiasKind { kNone, kInt32, kUFixed8 };

Bias makeBias(CaseRng& rng, BiasKind kind, Enc ex, const Weights& w, uint32_t channels) {
  Bias b;
  if (kind == BiasKind::kNone) return b;
  if (kind == BiasKind::kInt32) {
    b.values = randomInts(rng, channels, -20000, 20000);
    for (uint32_t c = 0; c < channels; ++c) b.enc.push_back(Enc{ex.scale * w.enc[c % w.enc.size()].scale, 0});
  } else {
    b.values = randomInts(rng, channels, DType::kUFixed8);
    b.enc.assign(channels, Enc{0.05f, -128});
  }
  return b;
}

CaseTensor biasTensor(BiasKind kind, const QuantConfig& cfg, const Bias& b, uint32_t channels) {
  if (kind == BiasKind::kUFixed8) return qTensor(DType::kUFixed8, {channels}, b.values, b.enc[0], true);
  if (cfg.perChannel) return qTensorAxis(DType::kSFixed32, {channels}, b.values, b.enc, 0, true);
  return qTensor(DType::kSFixed32, {channels}, b.values, b.enc[0], true);
}

// Picks the output encoding from the accumulators' real range and requantizes.
CaseTensor finishOutput(const std::vector<Wide>& acc, Enc ex, const Weights& w, DType outType, const Dims& outDims,
                        bool pow2) {
  double lo = 0, hi = 0;
  for (size_t i = 0; i < acc.size(); ++i) {
    const double real = double(acc[i]) * ex.scale * w.enc[i % w.enc.size()].scale;
    lo = std::min(lo, real), hi = std::max(hi, real);
  }
  const Enc out = encodingCovering(lo, hi, outType, pow2);
  return qTensor(outType, outDims, fxref::requantizeAll(acc, ex, w.enc, out, outType), out);
}

ParamValue u32s(std::vector<uint32_t> dims, std::vector<uint32_t> v) { return sdk::tensorU32(std::move(dims), v); }

struct ConvSpec {
  std::string name;
  bool depthwiseOp;
  Dims x, w;
  fxref::ConvGeometry g;
  BiasKind bias;
};

fxref::ConvGeometry geom(uint32_t s, uint32_t pt, uint32_t pb, uint32_t pl, uint32_t pr, uint32_t dil = 1,
                         uint32_t group = 1) {
  fxref::ConvGeometry g;
  g.strideH = g.strideW = s;
  g.padTop = pt, g.padBottom = pb, g.padLeft = pl, g.padRight = pr;
  g.dilH = g.dilW = dil;
  g.group = group;
  return g;
}

OpCase convCase(const ConvSpec& s, const QuantConfig& cfg, uint64_t seed) {
  CaseRng rng(seed);
  const Enc ex = inputEncoding(cfg);
  const Ints x = randomInts(rng, count(s.x), cfg.act);
  const uint32_t cout = s.w[3];
  const Weights w = makeWeights(rng, cfg, s.w, cout);
  const Bias b = makeBias(rng, s.bias, ex, w, cout);
  Dims outDims;
  const auto acc = s.depthwiseOp ? fxref::depthwiseAcc(x, s.x, ex, w, b, s.g, &outDims)
                                 : fxref::conv2dAcc(x, s.x, ex, w, b, s.g, &outDims);
  OpCase c;
  c.name = s.name + "_" + cfg.tag;
  c.opType = s.depthwiseOp ? "DepthWiseConv2d" : "Conv2d";
  c.inputs = {qTensor(cfg.act, s.x, x, ex), weightTensor(cfg, w, 3, true)};
  if (s.bias != BiasKind::kNone) c.inputs.push_back(biasTensor(s.bias, cfg, b, cout));
  c.params = {{"stride", u32s({2}, {s.g.strideH, s.g.strideW})},
              {"pad_amount", u32s({2, 2}, {s.g.padTop, s.g.padBottom, s.g.padLeft, s.g.padRight})}};
  if (s.g.dilH != 1) c.params.push_back({"dilation", u32s({2}, {s.g.dilH, s.g.dilW})});
  if (s.g.group != 1) c.params.push_back({"group", sdk::scalarU32(s.g.group)});
  c.expected = {finishOutput(acc, ex, w, outTypeFor(cfg.act), outDims, cfg.pow2)};
  return c;
}

std::vector<OpCase> convCases() {
  const std::vector<ConvSpec> specs = {
      {"Conv2d_3x3_pad1_n19", false, {1, 7, 6, 5}, {3, 3, 5, 19}, geom(1, 1, 1, 1, 1), BiasKind::kInt32},
      {"Conv2d_stride2_asympad_batch2", false, {2, 9, 8, 16}, {3, 3, 16, 40}, geom(2, 0, 2, 1, 0), BiasKind::kNone},
      {"Conv2d_dilation2", false, {1, 10, 9, 4}, {3, 3, 4, 6}, geom(1, 2, 2, 2, 2, 2), BiasKind::kUFixed8},
      {"Conv2d_group2", false, {1, 6, 7, 6}, {3, 3, 3, 8}, geom(1, 1, 1, 1, 1, 1, 2), BiasKind::kInt32},
      {"Conv2d_1x1_k64_n70", false, {1, 5, 5, 64}, {1, 1, 64, 70}, geom(1, 0, 0, 0, 0), BiasKind::kInt32},
      {"Conv2d_depthwise_as_group", false, {1, 6, 6, 8}, {3, 3, 1, 8}, geom(1, 1, 1, 1, 1, 1, 8), BiasKind::kInt32},
      // Two 64-pixel tiles and 4.2M multiply-adds: the kernel splits the tiles across threads.
      {"Conv2d_threaded_1x1_k4096", false, {2, 8, 8, 4096}, {1, 1, 4096, 8}, geom(1, 0, 0, 0, 0), BiasKind::kInt32},
      {"DepthWiseConv2d_3x3_pad1", true, {1, 7, 7, 8}, {3, 3, 1, 8}, geom(1, 1, 1, 1, 1), BiasKind::kInt32},
      {"DepthWiseConv2d_mult2_stride2", true, {1, 8, 8, 4}, {3, 3, 1, 8}, geom(2, 0, 1, 0, 1), BiasKind::kNone},
      {"DepthWiseConv2d_dilation2", true, {1, 9, 9, 3}, {3, 3, 1, 3}, geom(1, 2, 2, 2, 2, 2), BiasKind::kUFixed8},
  };
  std::vector<OpCase> out;
  uint64_t seed = 100;
  for (const auto& s : specs)
    for (const auto& cfg : weightedConfigs()) out.push_back(convCase(s, cfg, seed++));
  return out;
}

std::vector<OpCase> fullyConnectedCases() {
  struct Spec {
    std::string name;
    Dims x;
    uint32_t n;
    BiasKind bias;
  };
  const std::vector<Spec> specs = {{"FullyConnected_3x37_n21_bias", {3, 37}, 21, BiasKind::kInt32},
                                   {"FullyConnected_rank3_nobias", {2, 3, 16}, 5, BiasKind::kNone},
                                   {"FullyConnected_k300_u8bias", {2, 300}, 33, BiasKind::kUFixed8},
                                   {"FullyConnected_threaded_256x512_n64", {256, 512}, 64, BiasKind::kInt32}};
  std::vector<OpCase> out;
  uint64_t seed = 300;
  for (const auto& s : specs)
    for (const auto& cfg : weightedConfigs()) {
      CaseRng rng(seed++);
      const Enc ex = inputEncoding(cfg);
      const Ints x = randomInts(rng, count(s.x), cfg.act);
      const Weights w = makeWeights(rng, cfg, {s.n, s.x.back()}, s.n);
      const Bias b = makeBias(rng, s.bias, ex, w, s.n);
      Dims outDims;
      const auto acc = fxref::fullyConnectedAcc(x, s.x, ex, w, b, &outDims);
      OpCase c;
      c.name = s.name + "_" + cfg.tag;
      c.opType = "FullyConnected";
      c.inputs = {qTensor(cfg.act, s.x, x, ex), weightTensor(cfg, w, 0, true)};
      if (s.bias != BiasKind::kNone) c.inputs.push_back(biasTensor(s.bias, cfg, b, s.n));
      c.expected = {finishOutput(acc, ex, w, outTypeFor(cfg.act), outDims, cfg.pow2)};
      out.push_back(std::move(c));
    }
  return out;
}

std::vector<OpCase> matMulCases() {
  struct Spec {
    std::string name;
    Dims a, b;
    bool transA, transB, staticB;
    BiasKind bias;
  };
  const std::vector<Spec> specs = {
      {"MatMul_batch2_static_bias", {2, 5, 24}, {24, 17}, false, false, true, BiasKind::kInt32},
      {"MatMul_batched_dynamic", {2, 3, 7}, {2, 7, 4}, false, false, false, BiasKind::kNone},
      {"MatMul_transposed", {1, 6, 5}, {9, 6}, true, true, true, BiasKind::kNone},
  };
  std::vector<OpCase> out;
  uint64_t seed = 500;
  for (const auto& s : specs)
    for (const auto& cfg : weightedConfigs()) {
      CaseRng rng(seed++);
      const uint32_t n = s.transB ? s.b[s.b.size() - 2] : s.b.back();
      const Enc ea = inputEncoding(cfg);
      const Ints a = randomInts(rng, count(s.a), cfg.act);
      const Weights w = makeWeights(rng, cfg, s.b, n);
      const Bias b = makeBias(rng, s.bias, ea, w, n);
      Dims outDims;
      const auto acc = fxref::matMulAcc(a, s.a, ea, w, b, s.transA, s.transB, &outDims);
      OpCase c;
      c.name = s.name + "_" + cfg.tag;
      c.opType = "MatMul";
      const int32_t axis = int32_t(s.b.size()) - (s.transB ? 2 : 1);
      c.inputs = {qTensor(cfg.act, s.a, a, ea), weightTensor(cfg, w, axis, s.staticB)};
      if (s.bias != BiasKind::kNone) c.inputs.push_back(biasTensor(s.bias, cfg, b, n));
      if (s.transA) c.params.push_back({"transpose_in0", sdk::scalarBool(true)});
      if (s.transB) c.params.push_back({"transpose_in1", sdk::scalarBool(true)});
      c.expected = {finishOutput(acc, ea, w, outTypeFor(cfg.act), outDims, cfg.pow2)};
      out.push_back(std::move(c));
    }
  return out;
}

std::vector<OpCase> transposeConvCases() {
  struct Spec {
    std::string name;
    Dims x, w;
    fxref::ConvGeometry g;
    uint32_t outPad;
    BiasKind bias;
  };
  const std::vector<Spec> specs = {
      {"TransposeConv2d_stride2_pad1", {1, 4, 5, 6}, {3, 3, 6, 5}, geom(2, 1, 1, 1, 1), 0, BiasKind::kInt32},
      {"TransposeConv2d_group2_outpad1", {1, 3, 3, 4}, {3, 3, 4, 3}, geom(2, 1, 1, 1, 1, 1, 2), 1, BiasKind::kUFixed8},
  };
  std::vector<OpCase> out;
  uint64_t seed = 600;
  for (const auto& s : specs)
    for (const auto& cfg : weightedConfigs()) {
      CaseRng rng(seed++);
      const Enc ex = inputEncoding(cfg);
      const Ints x = randomInts(rng, count(s.x), cfg.act);
      const uint32_t coutG = s.w[3], cout = coutG * s.g.group;
      const Weights w = makeWeights(rng, cfg, s.w, coutG);
      const Bias b = makeBias(rng, s.bias, ex, w, cout);
      Dims outDims;
      const auto acc = fxref::transposeConv2dAcc(x, s.x, ex, w, b, s.g, s.outPad, s.outPad, &outDims);
      OpCase c;
      c.name = s.name + "_" + cfg.tag;
      c.opType = "TransposeConv2d";
      c.inputs = {qTensor(cfg.act, s.x, x, ex), weightTensor(cfg, w, 3, true), biasTensor(s.bias, cfg, b, cout)};
      c.params = {{"stride", u32s({2}, {s.g.strideH, s.g.strideW})},
                  {"pad_amount", u32s({2, 2}, {s.g.padTop, s.g.padBottom, s.g.padLeft, s.g.padRight})}};
      if (s.g.group != 1) c.params.push_back({"group", sdk::scalarU32(s.g.group)});
      if (s.outPad) c.params.push_back({"output_padding", u32s({2}, {s.outPad, s.outPad})});
      c.expected = {finishOutput(acc, ex, w, outTypeFor(cfg.act), outDims, cfg.pow2)};
      out.push_back(std::move(c));
    }
  return out;
}

std::vector<OpCase> batchnormCases() {
  std::vector<OpCase> out;
  uint64_t seed = 650;
  const Dims xd{2, 3, 4, 7};
  for (const auto& cfg : weightedConfigs())
    for (BiasKind kind : {BiasKind::kInt32, BiasKind::kUFixed8}) {
      CaseRng rng(seed++);
      const Enc ex = inputEncoding(cfg);
      const Ints x = randomInts(rng, count(xd), cfg.act);
      const Weights w = makeWeights(rng, cfg, {7}, 7);
      const Bias b = makeBias(rng, kind, ex, w, 7);
      OpCase c;
      c.name = std::string("Batchnorm_") + (kind == BiasKind::kInt32 ? "i32bias_" : "u8bias_") + cfg.tag;
      c.opType = "Batchnorm";
      c.inputs = {qTensor(cfg.act, xd, x, ex), weightTensor(cfg, w, 0, true), biasTensor(kind, cfg, b, 7)};
      c.expected = {finishOutput(fxref::batchnormAcc(x, xd, ex, w, b), ex, w, outTypeFor(cfg.act), xd, cfg.pow2)};
      out.push_back(std::move(c));
    }
  return out;
}

// Conv3d / TransposeConv3d: accumulators computed here in the plain forms (the
// conv gathering its taps; the transpose scattering every input voxel's
// products to the outputs they reach), then the shared output stage.
struct Conv3dSpec {
  std::string name;
  bool transpose;
  Dims x, w;  // NDHWC; filter [kd, kh, kw, cin/group | cin, cout | cout/group]
  uint32_t stride, pad, dil, group, outPad;
  BiasKind bias;
};

std::vector<Wide> conv3dAcc(const Conv3dSpec& s, const Ints& x, Enc ex, const Weights& w, const Bias& b,
                            Dims* outDims) {
  const long B = s.x[0], C = s.x[4], K0 = s.w[0], K1 = s.w[1], K2 = s.w[2];
  const long in[3] = {long(s.x[1]), long(s.x[2]), long(s.x[3])}, k[3] = {K0, K1, K2};
  const long cinG = s.transpose ? C / s.group : long(s.w[3]);
  const long coutG = s.transpose ? long(s.w[4]) : long(s.w[4]) / s.group, cout = coutG * s.group;
  long out[3];
  for (int d = 0; d < 3; ++d) {
    const long dilated = (k[d] - 1) * s.dil + 1;
    out[d] = s.transpose ? long(s.stride) * (in[d] - 1) + dilated - 2 * long(s.pad) + s.outPad
                         : (in[d] + 2 * long(s.pad) - dilated) / long(s.stride) + 1;
  }
  *outDims = {uint32_t(B), uint32_t(out[0]), uint32_t(out[1]), uint32_t(out[2]), uint32_t(cout)};
  const size_t voxels = size_t(out[0] * out[1] * out[2]);
  std::vector<Wide> acc(size_t(B) * voxels * size_t(cout));
  for (size_t i = 0; i < acc.size(); ++i) {
    const size_t c = i % size_t(cout);
    acc[i] = b.values.empty() ? 0 : fxref::biasAccumulator(b.values[c], b.enc[c], ex, w.enc[c % w.enc.size()]);
  }
  auto wAt = [&](long a, long bb, long cc, long ci, long co) {
    const size_t idx = ((((size_t(a) * K1 + size_t(bb)) * K2 + size_t(cc)) * s.w[3] + size_t(ci)) * s.w[4] + size_t(co));
    return Wide(w.values[idx] + w.enc[size_t(co) % w.enc.size()].offset);
  };
  auto xAt = [&](long n, long z, long y, long xx, long ci) {
    return Wide(x[((((size_t(n) * in[0] + size_t(z)) * in[1] + size_t(y)) * in[2] + size_t(xx)) * C + size_t(ci))] + ex.offset);
  };
  for (long n = 0; n < B; ++n) {
    if (!s.transpose) {
      for (long oz = 0; oz < out[0]; ++oz)
        for (long oy = 0; oy < out[1]; ++oy)
          for (long ox = 0; ox < out[2]; ++ox)
            for (long co = 0; co < cout; ++co) {
              const long g = co / coutG;
              Wide sum = 0;
              for (long a = 0; a < K0; ++a)
                for (long bb = 0; bb < K1; ++bb)
                  for (long cc = 0; cc < K2; ++cc) {
                    const long z = oz * s.stride - s.pad + a * s.dil, y = oy * s.stride - s.pad + bb * s.dil,
                               xx = ox * s.stride - s.pad + cc * s.dil;
                    if (z < 0 || y < 0 || xx < 0 || z >= in[0] || y >= in[1] || xx >= in[2]) continue;
                    for (long ci = 0; ci < cinG; ++ci) sum += xAt(n, z, y, xx, g * cinG + ci) * wAt(a, bb, cc, ci, co);
                  }
              acc[((size_t(n) * out[0] + size_t(oz)) * out[1] + size_t(oy)) * out[2] * cout + size_t(ox) * cout + size_t(co)] += sum;
            }
    } else {
      for (long z = 0; z < in[0]; ++z)
        for (long y = 0; y < in[1]; ++y)
          for (long xx = 0; xx < in[2]; ++xx)
            for (long ci = 0; ci < C; ++ci) {
              const long g = ci / cinG;
              for (long a = 0; a < K0; ++a)
                for (long bb = 0; bb < K1; ++bb)
                  for (long cc = 0; cc < K2; ++cc) {
                    const long oz = z * s.stride - s.pad + a * s.dil, oy = y * s.stride - s.pad + bb * s.dil,
                               ox = xx * s.stride - s.pad + cc * s.dil;
                    if (oz < 0 || oy < 0 || ox < 0 || oz >= out[0] || oy >= out[1] || ox >= out[2]) continue;
                    for (long co = 0; co < coutG; ++co)
                      acc[(((size_t(n) * out[0] + size_t(oz)) * out[1] + size_t(oy)) * out[2] + size_t(ox)) * cout +
                          size_t(g * coutG + co)] += xAt(n, z, y, xx, ci) * wAt(a, bb, cc, ci, co);
                  }
            }
    }
  }
  return acc;
}

std::vector<OpCase> conv3dCases() {
  const std::vector<Conv3dSpec> specs = {
      {"Conv3d_k3_pad1", false, {1, 3, 4, 5, 3}, {3, 3, 3, 3, 4}, 1, 1, 1, 1, 0, BiasKind::kInt32},
      {"Conv3d_k2_stride2_group2_dil1", false, {1, 4, 4, 4, 4}, {2, 2, 2, 2, 6}, 2, 0, 1, 2, 0, BiasKind::kUFixed8},
      {"Conv3d_k2_dilation2", false, {2, 5, 4, 5, 2}, {2, 2, 2, 2, 3}, 1, 1, 2, 1, 0, BiasKind::kNone},
      {"TransposeConv3d_k3_stride2_pad1", true, {1, 2, 3, 2, 3}, {3, 3, 3, 3, 2}, 2, 1, 1, 1, 1, BiasKind::kInt32},
      {"TransposeConv3d_k2_group2", true, {1, 2, 2, 3, 4}, {2, 2, 2, 4, 2}, 1, 0, 1, 2, 0, BiasKind::kUFixed8},
  };
  std::vector<OpCase> out;
  uint64_t seed = 4500;
  for (const auto& s : specs)
    for (const auto& cfg : weightedConfigs()) {
      CaseRng rng(seed++);
      const Enc ex = inputEncoding(cfg);
      const Ints x = randomInts(rng, count(s.x), cfg.act);
      const uint32_t channels = s.w[4], cout = s.transpose ? channels * s.group : channels;
      const Weights w = makeWeights(rng, cfg, s.w, channels);
      const Bias b = makeBias(rng, s.bias, ex, w, cout);
      Dims outDims;
      const auto acc = conv3dAcc(s, x, ex, w, b, &outDims);
      OpCase c;
      c.name = s.name + "_" + cfg.tag;
      c.opType = s.transpose ? "TransposeConv3d" : "Conv3d";
      c.inputs = {qTensor(cfg.act, s.x, x, ex), weightTensor(cfg, w, 4, true)};
      if (s.bias != BiasKind::kNone) c.inputs.push_back(biasTensor(s.bias, cfg, b, cout));
      c.params = {{"stride", u32s({3}, {s.stride, s.stride, s.stride})},
                  {"pad_amount", u32s({3, 2}, {s.pad, s.pad, s.pad, s.pad, s.pad, s.pad})}};
      if (s.dil != 1) c.params.push_back({"dilation", u32s({3}, {s.dil, s.dil, s.dil})});
      if (s.group != 1) c.params.push_back({"group", sdk::scalarU32(s.group)});
      if (s.outPad) c.params.push_back({"output_padding", u32s({3}, {s.outPad, s.outPad, s.outPad})});
      c.expected = {finishOutput(acc, ex, w, outTypeFor(cfg.act), outDims, cfg.pow2)};
      out.push_back(std::move(c));
    }
  return out;
}

const bool kRegistered = registerFixedPointCaseSource("Conv", convCases) &&
                         registerFixedPointCaseSource("TransposeConv2d", transposeConvCases) &&
                         registerFixedPointCaseSource("Batchnorm", batchnormCases) &&
                         registerFixedPointCaseSource("FullyConnected", fullyConnectedCases) &&
                         registerFixedPointCaseSource("MatMul", matMulCases) &&
                         registerFixedPointCaseSource("Conv3d", conv3dCases);

}  // namespace
}  // namespace qnn::conformance
