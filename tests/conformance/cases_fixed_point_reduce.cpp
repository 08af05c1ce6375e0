// Fixed-point conformance cases of pooling, reductions, Softmax, the
// quantize/dequantize/convert casts and Argmax/Argmin at 8 and 16 bits.
// Expected outputs: reference_fixed_point.cpp.
#include <algorithm>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {
namespace {

using fxref::Dims;

size_t count(const Dims& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

ParamValue u32s(std::vector<uint32_t> dims, std::vector<uint32_t> v) { return sdk::tensorU32(std::move(dims), v); }

std::vector<OpCase> poolCases() {
  struct Spec {
    std::string name;
    bool isMax;
    Dims x;
    fxref::PoolGeometry g;
  };
  auto geom = [](uint32_t f, uint32_t s, uint32_t pt, uint32_t pb, uint32_t pl, uint32_t pr, bool ceil, bool countPad) {
    fxref::PoolGeometry g;
    g.fh = g.fw = f, g.sh = g.sw = s, g.padTop = pt, g.padBottom = pb, g.padLeft = pl, g.padRight = pr;
    g.ceil = ceil, g.countPad = countPad;
    return g;
  };
  const std::vector<Spec> specs = {
      {"PoolMax2d_3x3_s2_pad1", true, {1, 9, 8, 5}, geom(3, 2, 1, 1, 1, 1, false, false)},
      {"PoolMax2d_2x2_ceil", true, {2, 7, 7, 3}, geom(2, 2, 0, 0, 0, 0, true, false)},
      {"PoolAvg2d_3x3_s1_pad1", false, {1, 6, 7, 4}, geom(3, 1, 1, 1, 1, 1, false, false)},
      {"PoolAvg2d_3x3_countpad", false, {1, 6, 7, 4}, geom(3, 2, 1, 1, 1, 1, false, true)},
      {"PoolAvg2d_global_7x7", false, {2, 7, 7, 6}, geom(7, 7, 0, 0, 0, 0, false, false)},
  };
  std::vector<OpCase> out;
  uint64_t seed = 1700;
  for (const auto& s : specs)
    for (DType t : activationTypes())
      for (bool same : {true, false}) {
        CaseRng rng(seed++);
        const Enc ex = encodingCovering(-2, 6, t), eo = same ? ex : encodingCovering(-1, 4, t);
        const Ints x = randomInts(rng, count(s.x), t);
        Dims outDims;
        const Ints q = fxref::pool(s.isMax, x, s.x, ex, s.g, eo, t, &outDims);
        OpCase c;
        c.name = s.name + "_" + typeTag(t) + (same ? "_same_encoding" : "_requantized");
        c.opType = s.isMax ? "PoolMax2d" : "PoolAvg2d";
        c.inputs = {qTensor(t, s.x, x, ex)};
        c.params = {{"filter_size", u32s({2}, {s.g.fh, s.g.fw})},
                    {"stride", u32s({2}, {s.g.sh, s.g.sw})},
                    {"pad_amount", u32s({2, 2}, {s.g.padTop, s.g.padBottom, s.g.padLeft, s.g.padRight})}};
        if (s.g.ceil) c.params.push_back({"rounding_mode", sdk::scalarU32(1)});
        if (s.g.countPad) c.params.push_back({"count_pad_for_edges", sdk::scalarBool(true)});
        c.expected = {qTensor(t, outDims, q, eo)};
        out.push_back(std::move(c));
      }
  return out;
}

std::vector<OpCase> reduceCases() {
  struct Spec {
    const char* op;
    fxref::Reduce kind;
    std::vector<uint32_t> axes;
    bool keepDims;
  };
  const Spec specs[] = {{"ReduceMean", fxref::Reduce::kMean, {1, 2}, true},  // global average pool
                        {"ReduceMean", fxref::Reduce::kMean, {3}, false},
                        {"ReduceSum", fxref::Reduce::kSum, {0, 3}, false},
                        {"ReduceMax", fxref::Reduce::kMax, {2}, true},
                        {"ReduceMin", fxref::Reduce::kMin, {1}, false}};
  const Dims xd{2, 5, 4, 6};
  std::vector<OpCase> out;
  uint64_t seed = 1900;
  for (const auto& s : specs)
    for (DType t : activationTypes()) {
      CaseRng rng(seed++);
      const Ints x = randomInts(rng, count(xd), t);
      const Enc ex = encodingCovering(-2, 6, t);
      const bool isSum = s.kind == fxref::Reduce::kSum;
      const Enc eo = isSum ? encodingCovering(-2 * 12, 6 * 12, t) : encodingCovering(-1, 4, t);
      Dims outDims;
      for (size_t d = 0; d < xd.size(); ++d) {
        const bool r = std::find(s.axes.begin(), s.axes.end(), d) != s.axes.end();
        if (!r) outDims.push_back(xd[d]);
        else if (s.keepDims) outDims.push_back(1);
      }
      OpCase c;
      c.name = std::string(s.op) + "_axes";
      for (uint32_t a : s.axes) c.name += std::to_string(a);
      c.name += std::string(s.keepDims ? "_keepdims_" : "_") + typeTag(t);
      c.opType = s.op;
      c.inputs = {qTensor(t, xd, x, ex)};
      c.params = {{"axes", u32s({uint32_t(s.axes.size())}, s.axes)}};
      if (s.keepDims) c.params.push_back({"keep_dims", sdk::scalarBool(true)});
      c.expected = {qTensor(t, outDims, fxref::reduce(s.kind, x, xd, ex, s.axes, eo, t), eo)};
      out.push_back(std::move(c));
    }
  return out;
}

std::vector<OpCase> softmaxCases() {
  std::vector<OpCase> out;
  uint64_t seed = 2100;
  for (DType t : activationTypes())
    for (float beta : {1.f, 0.5f}) {
      CaseRng rng(seed++);
      const Dims xd{3, 4, 10};
      const Ints x = randomInts(rng, count(xd), t);
      const Enc ex = encodingCovering(-6, 6, t);
      // The usual fixed softmax output encodings: 1/256 (or 1/65536), offset 0.
      const Enc eo = t == DType::kUFixed16 ? Enc{1.f / 65536, 0} : t == DType::kSFixed8 ? Enc{1.f / 128, 0}
                                                                                         : Enc{1.f / 256, 0};
      OpCase c;
      c.name = std::string("Softmax_beta") + (beta == 1.f ? "1_" : "0p5_") + typeTag(t);
      c.opType = "Softmax";
      c.inputs = {qTensor(t, xd, x, ex)};
      if (beta != 1.f) c.params = {{"beta", sdk::scalarF32(beta)}};
      c.expected = {qTensor(t, xd, fxref::softmax(x, xd, ex, beta, eo, t), eo)};
      out.push_back(std::move(c));
    }
  return out;
}

std::vector<OpCase> layerNormCases() {
  std::vector<OpCase> out;
  uint64_t seed = 2200;
  for (DType t : activationTypes())
    for (int variant = 0; variant < 3; ++variant) {  // gamma+beta(int32), gamma+beta(u8), no gamma/beta
      CaseRng rng(seed++);
      const Dims xd{2, 3, 24};
      const Enc ex = encodingCovering(-3, 5, t), eo = encodingCovering(-4, 4, t);
      const Ints x = randomInts(rng, count(xd), t);
      Ints gamma, beta;
      Enc eg{1.f, 0}, eb{1.f, 0};
      OpCase c;
      c.name = std::string("LayerNorm_") + (variant == 0 ? "gamma_beta_i32_" : variant == 1 ? "gamma_beta_u8_" : "plain_") +
               typeTag(t);
      c.opType = "LayerNorm";
      c.params = {{"axes", u32s({1}, {2})}, {"epsilon", sdk::scalarF32(1e-3f)}};
      c.inputs = {qTensor(t, xd, x, ex)};
      if (variant < 2) {
        eg = Enc{1.f / 128, -64};
        gamma = randomInts(rng, 24, DType::kUFixed8);
        c.inputs.push_back(qTensor(DType::kUFixed8, {24}, gamma, eg, true));
        if (variant == 0) {
          eb = Enc{1.f / 4096, 0};
          beta = randomInts(rng, 24, -4000, 4000);
          c.inputs.push_back(qTensor(DType::kSFixed32, {24}, beta, eb, true));
        } else {
          eb = Enc{1.f / 64, -128};
          beta = randomInts(rng, 24, DType::kUFixed8);
          c.inputs.push_back(qTensor(DType::kUFixed8, {24}, beta, eb, true));
        }
      }
      c.expected = {qTensor(t, xd, fxref::layerNorm(x, xd, ex, gamma, eg, beta, eb, 1e-3f, eo, t), eo)};
      out.push_back(std::move(c));
    }
  return out;
}

std::vector<OpCase> instanceNormCases() {
  std::vector<OpCase> out;
  uint64_t seed = 2250;
  for (DType t : activationTypes())
    for (bool withBeta : {true, false}) {
      CaseRng rng(seed++);
      const Dims xd{2, 4, 5, 6};
      const Enc ex = encodingCovering(-3, 5, t), eo = encodingCovering(-4, 4, t);
      const Enc eg{1.f / 128, -64}, eb{1.f / 4096, 0};
      const Ints x = randomInts(rng, count(xd), t), gamma = randomInts(rng, 6, DType::kUFixed8);
      const Ints beta = withBeta ? randomInts(rng, 6, -4000, 4000) : Ints{};
      OpCase c;
      c.name = std::string("InstanceNorm_") + (withBeta ? "gamma_beta_" : "gamma_") + typeTag(t);
      c.opType = "InstanceNorm";
      c.params = {{"epsilon", sdk::scalarF32(1e-3f)}};
      c.inputs = {qTensor(t, xd, x, ex), qTensor(DType::kUFixed8, {6}, gamma, eg, true)};
      if (withBeta) c.inputs.push_back(qTensor(DType::kSFixed32, {6}, beta, eb, true));
      c.expected = {qTensor(t, xd, fxref::instanceNorm(x, xd, ex, gamma, eg, beta, eb, 1e-3f, eo, t), eo)};
      out.push_back(std::move(c));
    }
  return out;
}

std::vector<OpCase> logSoftmaxTopKCases() {
  std::vector<OpCase> out;
  uint64_t seed = 2280;
  for (DType t : activationTypes()) {
    CaseRng rng(seed++);
    const Dims xd{3, 4, 10};
    const Ints x = randomInts(rng, count(xd), t);
    const Enc ex = encodingCovering(-6, 6, t), eo = encodingCovering(-14, 0, t);
    OpCase c;
    c.name = std::string("LogSoftmax_") + typeTag(t);
    c.opType = "LogSoftmax";
    c.inputs = {qTensor(t, xd, x, ex)};
    c.params = {{"axis", sdk::scalarU32(2)}};
    c.expected = {qTensor(t, xd, fxref::logSoftmax(x, xd, ex, 1.f, eo, t), eo)};
    out.push_back(std::move(c));

    for (bool same : {true, false}) {
      // Few distinct values so ties are common.
      const Ints v = randomInts(rng, count(xd), fxref::typeMin(t), fxref::typeMin(t) + 5);
      const Enc ev = encodingCovering(-1, 1, t), evo = same ? ev : encodingCovering(-2, 2, t);
      Ints values, indices;
      fxref::topK(v, xd, ev, 4, evo, t, &values, &indices);
      OpCase k;
      k.name = std::string("TopK_k4_") + typeTag(t) + (same ? "_copy" : "_requantized");
      k.opType = "TopK";
      k.inputs = {qTensor(t, xd, v, ev)};
      k.params = {{"k", sdk::scalarU32(4)}};
      k.expected = {qTensor(t, {3, 4, 4}, values, evo), qTensor(DType::kInt32, {3, 4, 4}, indices, {})};
      out.push_back(std::move(k));
    }
  }
  return out;
}

std::vector<OpCase> castCases() {
  std::vector<OpCase> out;
  uint64_t seed = 2300;
  const Dims d{4, 25};
  for (DType t : activationTypes()) {
    CaseRng rng(seed++);
    const Enc e = encodingCovering(-3, 5, t);
    {  // Quantize: reals spanning past both ends, plus exact .5 ties of the scale.
      std::vector<float> x = rng.floats(count(d), -4.f, 6.f);
      for (size_t i = 0; i < 10; ++i) x[i] = e.scale * (float(i) - 4.5f);
      Ints q(x.size());
      for (size_t i = 0; i < x.size(); ++i) q[i] = fxref::quantize(double(x[i]), e, t);
      OpCase c;
      c.name = std::string("Quantize_") + typeTag(t);
      c.opType = "Quantize";
      c.inputs = {f32Tensor(d, x)};
      c.expected = {qTensor(t, d, q, e)};
      out.push_back(std::move(c));
    }
    const Ints stored = randomInts(rng, count(d), t);
    {
      std::vector<float> y(stored.size());
      for (size_t i = 0; i < y.size(); ++i) y[i] = fxref::dequantize(stored[i], e);
      OpCase c;
      c.name = std::string("Dequantize_") + typeTag(t);
      c.opType = "Dequantize";
      c.inputs = {qTensor(t, d, stored, e)};
      c.expected = {f32Tensor(d, y)};
      c.atol = c.rtol = 0;
      out.push_back(std::move(c));
    }
    for (DType to : activationTypes()) {
      const Enc eo = encodingCovering(-2, 4, to);
      OpCase c;
      c.name = std::string("Convert_") + typeTag(t) + "_to_" + typeTag(to);
      c.opType = "Convert";
      c.inputs = {qTensor(t, d, stored, e)};
      c.expected = {qTensor(to, d, fxref::requantizeValues(stored, e, eo, to), eo)};
      out.push_back(std::move(c));
    }
  }
  {  // Every 16-bit stored value to 8 bits (a kernel may tabulate the requantization).
    Ints every(65536);
    for (size_t i = 0; i < every.size(); ++i) every[i] = int64_t(i);
    const Enc e = encodingCovering(-3, 5, DType::kUFixed16), eo = encodingCovering(-2, 4, DType::kUFixed8);
    OpCase c;
    c.name = "Convert_ufixed16_to_ufixed8_every_value";
    c.opType = "Convert";
    c.inputs = {qTensor(DType::kUFixed16, Dims{256, 256}, every, e)};
    c.expected = {qTensor(DType::kUFixed8, Dims{256, 256}, fxref::requantizeValues(every, e, eo, DType::kUFixed8), eo)};
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<OpCase> argCases() {
  std::vector<OpCase> out;
  uint64_t seed = 2500;
  const Dims xd{3, 7, 5};
  for (DType t : activationTypes())
    for (bool isMax : {true, false})
      for (uint32_t axis : {1u, 2u}) {
        CaseRng rng(seed++);
        // A narrow value range so ties (first index wins) happen.
        const Ints x = randomInts(rng, count(xd), fxref::typeMin(t), fxref::typeMin(t) + 6);
        Dims od;
        for (uint32_t dd = 0; dd < 3; ++dd)
          if (dd != axis) od.push_back(xd[dd]);
        OpCase c;
        c.name = std::string(isMax ? "Argmax" : "Argmin") + "_axis" + std::to_string(axis) + "_" + typeTag(t);
        c.opType = isMax ? "Argmax" : "Argmin";
        c.inputs = {qTensor(t, xd, x, encodingCovering(-1, 1, t))};
        c.params = {{"axis", sdk::scalarU32(axis)}};
        c.expected = {qTensor(DType::kInt32, od, fxref::argExtreme(isMax, x, xd, axis), {})};
        out.push_back(std::move(c));
      }
  return out;
}

const bool kRegistered = registerFixedPointCaseSource("Pool", poolCases) &&
                         registerFixedPointCaseSource("Reduce", reduceCases) &&
                         registerFixedPointCaseSource("Softmax", softmaxCases) &&
                         registerFixedPointCaseSource("LayerNorm", layerNormCases) &&
                         registerFixedPointCaseSource("InstanceNorm", instanceNormCases) &&
                         registerFixedPointCaseSource("LogSoftmaxTopK", logSoftmaxTopKCases) &&
                         registerFixedPointCaseSource("QuantCast", castCases) &&
                         registerFixedPointCaseSource("ArgMinMax", argCases);

}  // namespace
}  // namespace qnn::conformance
