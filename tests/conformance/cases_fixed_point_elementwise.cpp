// Fixed-point conformance cases of the element-wise ops: binary arithmetic with
// broadcasting (different encodings per input), table ops (dequantize ->
// double function -> quantize) and the clamp family, at 8 and 16 bits.
// Expected outputs: reference_fixed_point.cpp.
#include <algorithm>
#include <cmath>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {
namespace {

using fxref::Dims;

size_t count(const Dims& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

// An encoding of t covering about [lo, hi] (pow2: power-of-two scale).
Enc inputEncoding(DType t, double lo, double hi, bool pow2 = false) { return encodingCovering(lo, hi, t, pow2); }

std::pair<double, double> realRange(const Ints& q, Enc e) {
  double lo = 0, hi = 0;
  for (int64_t v : q) {
    const double r = fxref::dequantize(v, e);
    lo = std::min(lo, r), hi = std::max(hi, r);
  }
  return {lo, hi};
}

// ---------------------------------------------------------------------------
std::vector<OpCase> binaryCases() {
  struct OpSpec {
    const char* op;
    fxref::Binary kind;
  };
  const OpSpec ops[] = {{"ElementWiseAdd", fxref::Binary::kAdd},
                        {"ElementWiseSubtract", fxref::Binary::kSubtract},
                        {"ElementWiseMultiply", fxref::Binary::kMultiply},
                        {"ElementWiseMaximum", fxref::Binary::kMaximum},
                        {"ElementWiseMinimum", fxref::Binary::kMinimum},
                        {"ElementWiseDivide", fxref::Binary::kDivide},
                        {"ElementWiseSquaredDifference", fxref::Binary::kSquaredDifference},
                        {"ElementWiseFloorDiv", fxref::Binary::kFloorDiv}};
  struct ShapeSpec {
    const char* tag;
    Dims a, b;
  };
  const ShapeSpec shapes[] = {{"same", {2, 3, 4, 5}, {2, 3, 4, 5}},
                              {"broadcast", {2, 1, 4, 5}, {3, 1, 5}},
                              {"scalar", {3, 7}, {1}},
                              {"channel", {2, 3, 4, 5}, {5}}};
  std::vector<OpCase> out;
  uint64_t seed = 700;
  for (const auto& op : ops)
    for (DType t : activationTypes())
      for (const auto& sh : shapes)
        for (bool pow2 : {false, true}) {
          CaseRng rng(seed++);
          const bool divide = op.kind == fxref::Binary::kDivide || op.kind == fxref::Binary::kFloorDiv;
          const Enc ea = inputEncoding(t, -3.0, 5.0, pow2), eb = inputEncoding(t, divide ? 0.25 : -1.5, 2.5, pow2);
          const Ints a = randomInts(rng, count(sh.a), t), b = randomInts(rng, count(sh.b), t);
          // The output range: the op on the input ranges' corners.
          const auto [alo, ahi] = realRange(a, ea);
          const auto [blo, bhi] = realRange(b, eb);
          double lo = 0, hi = 0;
          for (double x : {alo, ahi})
            for (double y : {blo, bhi}) {
              double r = divide                                   ? (y > 0.2 ? x / y : 0.0) + (y > 0.2 ? -1.0 : 0.0)
                         : op.kind == fxref::Binary::kSquaredDifference ? (x - y) * (x - y)
                         : op.kind == fxref::Binary::kAdd        ? x + y
                         : op.kind == fxref::Binary::kSubtract ? x - y
                         : op.kind == fxref::Binary::kMultiply ? x * y
                         : op.kind == fxref::Binary::kMaximum  ? std::max(x, y)
                                                               : std::min(x, y);
              lo = std::min(lo, r), hi = std::max(hi, r);
            }
          const Enc eo = encodingCovering(lo, hi, t, pow2);
          Dims outDims;
          const Ints q = fxref::binary(op.kind, a, sh.a, ea, b, sh.b, eb, eo, t, &outDims);
          OpCase c;
          c.name = std::string(op.op) + "_" + sh.tag + "_" + typeTag(t) + (pow2 ? "_pow2" : "");
          c.opType = op.op;
          c.inputs = {qTensor(t, sh.a, a, ea), qTensor(t, sh.b, b, eb)};
          c.expected = {qTensor(t, outDims, q, eo)};
          out.push_back(std::move(c));
        }
  // INT_32 arithmetic: plain integers, saturated.
  for (const auto& op : {ops[0], ops[1], ops[2]}) {
    CaseRng rng(seed++);
    const Dims d{4, 6};
    const Ints a = randomInts(rng, 24, -50000, 50000), b = randomInts(rng, 24, -50000, 50000);
    Ints q(24);
    for (size_t i = 0; i < 24; ++i) {
      const int64_t v = op.kind == fxref::Binary::kAdd ? a[i] + b[i]
                        : op.kind == fxref::Binary::kSubtract ? a[i] - b[i] : a[i] * b[i];
      q[i] = std::min<int64_t>(std::max<int64_t>(v, INT32_MIN), INT32_MAX);
    }
    OpCase c;
    c.name = std::string(op.op) + "_i32";
    c.opType = op.op;
    c.inputs = {qTensor(DType::kInt32, d, a, {}), qTensor(DType::kInt32, d, b, {})};
    c.expected = {qTensor(DType::kInt32, d, q, {})};
    out.push_back(std::move(c));
  }
  return out;
}

// ---------------------------------------------------------------------------
struct TableSpec {
  const char* op;
  double lo, hi;  // input real range
  std::function<double(double)> f;
  std::vector<std::pair<std::string, ParamValue>> params;
};

std::vector<TableSpec> tableSpecs() {
  return {
      {"Sigmoid", -8, 8, [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, {}},
      {"Tanh", -4, 4, [](double x) { return std::tanh(x); }, {}},
      {"Gelu", -4, 4, [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }, {}},
      {"HardSwish", -5, 5, [](double x) { return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; }, {}},
      {"Elu", -4, 4, [](double x) { return x > 0 ? x : 0.7 * (std::exp(x) - 1.0); },
       {{"alpha", sdk::scalarF32(0.7f)}}},
      {"ElementWiseExp", -4, 2, [](double x) { return std::exp(x); }, {}},
      {"ElementWiseLog", -0.5, 6, [](double x) { return std::log(x); }, {}},
      {"ElementWiseSquareRoot", -0.5, 9, [](double x) { return std::sqrt(x); }, {}},
      {"ElementWiseRsqrt", 0, 4, [](double x) { return 1.0 / std::sqrt(x); }, {}},
      {"ElementWiseAbs", -3, 5, [](double x) { return std::fabs(x); }, {}},
      {"ElementWiseNeg", -3, 5, [](double x) { return -x; }, {}},
      {"ElementWiseFloor", -3, 5, [](double x) { return std::floor(x); }, {}},
      {"ElementWiseCeil", -3, 5, [](double x) { return std::ceil(x); }, {}},
      {"ElementWiseRound", -3, 5, [](double x) { return std::nearbyint(x); }, {}},
      {"ElementWiseSign", -3, 5, [](double x) { return double((0 < x) - (x < 0)); }, {}},
      {"ElementWiseSin", -4, 4, [](double x) { return std::sin(x); }, {}},
      {"ElementWiseCos", -4, 4, [](double x) { return std::cos(x); }, {}},
      {"ElementWiseAsin", -1.2, 1.2, [](double x) { return std::asin(x); }, {}},
      {"ElementWiseAtan", -6, 6, [](double x) { return std::atan(x); }, {}},
  };
}

std::vector<OpCase> tableCases() {
  std::vector<OpCase> out;
  uint64_t seed = 900;
  for (const auto& s : tableSpecs())
    for (DType t : activationTypes()) {
      CaseRng rng(seed++);
      const Enc ex = inputEncoding(t, s.lo, s.hi);
      // Every stored value once (8-bit) or a random sample (16-bit), in a 2-D tensor.
      Ints x;
      if (sdk::dtypeSize(t) == 1)
        for (int64_t v = fxref::typeMin(t); v <= fxref::typeMax(t); ++v) x.push_back(v);
      else {  // a sample that includes both ends and the zero point
        x = randomInts(rng, 512, t);
        x[0] = fxref::typeMin(t), x[1] = fxref::typeMax(t);
        x[2] = std::clamp<int64_t>(-ex.offset, fxref::typeMin(t), fxref::typeMax(t));
      }
      double lo = 0, hi = 0;
      for (int64_t v : x) {
        const double r = s.f(double(fxref::dequantize(v, ex)));
        if (std::isfinite(r)) lo = std::min(lo, r), hi = std::max(hi, r);
      }
      hi = std::min(hi, 1e3);
      const Enc eo = encodingCovering(lo, hi, t);
      const Dims d{uint32_t(x.size() / 16), 16};
      OpCase c;
      c.name = std::string(s.op) + "_" + typeTag(t);
      c.opType = s.op;
      c.inputs = {qTensor(t, d, x, ex)};
      c.params = s.params;
      c.expected = {qTensor(t, d, fxref::table(x, ex, s.f, eo, t), eo)};
      out.push_back(std::move(c));
    }
  return out;
}

// ---------------------------------------------------------------------------
std::vector<OpCase> clampCases() {
  struct Spec {
    const char* op;
    double lo, hi;
  };
  const Spec specs[] = {{"Relu", 0, INFINITY}, {"Relu1", -1, 1}, {"Relu6", 0, 6}, {"ReluMinMax", -0.5, 2.5}};
  std::vector<OpCase> out;
  uint64_t seed = 1100;
  for (const auto& s : specs)
    for (DType t : activationTypes())
      for (bool sameEncoding : {true, false}) {
        CaseRng rng(seed++);
        const Enc ex = inputEncoding(t, -4, 8);
        const Enc eo = sameEncoding ? ex : inputEncoding(t, -1.3, 7.1);
        const Dims d{3, 5, 8};
        const Ints x = randomInts(rng, count(d), t);
        OpCase c;
        c.name = std::string(s.op) + "_" + typeTag(t) + (sameEncoding ? "_same_encoding" : "_requantized");
        c.opType = s.op;
        c.inputs = {qTensor(t, d, x, ex)};
        if (std::string(s.op) == "ReluMinMax")
          c.params = {{"min_value", sdk::scalarF32(float(s.lo))}, {"max_value", sdk::scalarF32(float(s.hi))}};
        c.expected = {qTensor(t, d, fxref::clamp(x, ex, s.lo, s.hi, eo, t), eo)};
        out.push_back(std::move(c));
      }
  return out;
}

std::vector<OpCase> compareCases() {
  struct Spec {
    const char* op;
    fxref::Predicate p;
  };
  const Spec specs[] = {{"ElementWiseEqual", fxref::Predicate::kEqual},
                        {"ElementWiseNotEqual", fxref::Predicate::kNotEqual},
                        {"ElementWiseGreater", fxref::Predicate::kGreater},
                        {"ElementWiseGreaterEqual", fxref::Predicate::kGreaterEqual},
                        {"ElementWiseLess", fxref::Predicate::kLess},
                        {"ElementWiseLessEqual", fxref::Predicate::kLessEqual},
                        {"ElementWiseAnd", fxref::Predicate::kAnd}};
  std::vector<OpCase> out;
  uint64_t seed = 1250;
  for (const auto& s : specs)
    for (DType t : activationTypes())
      for (bool int32Out : {false, true}) {
        CaseRng rng(seed++);
        // Scales 2:1 and a narrow value range: many equal reals across the encodings.
        const Enc ea{0.5f, int32_t(-fxref::typeMin(t) - 8)}, eb{0.25f, int32_t(-fxref::typeMin(t) - 16)};
        const Dims ad{4, 6}, bd{6};
        Ints a = randomInts(rng, count(ad), fxref::typeMin(t), fxref::typeMin(t) + 16);
        Ints b = randomInts(rng, count(bd), fxref::typeMin(t), fxref::typeMin(t) + 32);
        for (size_t j = 0; j < 6; j += 2) b[j] = 2 * (a[j] + ea.offset) - eb.offset;  // equal to row 0 of a
        a[7] = -ea.offset, b[3] = -eb.offset;  // real zeros (false for And)
        const DType ot = int32Out ? DType::kInt32 : DType::kUFixed8;
        const Enc eo = int32Out ? Enc{} : Enc{1.f / 255, 0};
        Dims od;
        const Ints q = fxref::compare(s.p, a, ad, ea, b, bd, eb, eo, ot, &od);
        OpCase c;
        c.name = std::string(s.op) + "_" + typeTag(t) + (int32Out ? "_to_i32" : "_to_u8");
        c.opType = s.op;
        c.inputs = {qTensor(t, ad, a, ea), qTensor(t, bd, b, eb)};
        c.expected = {qTensor(ot, od, q, eo)};
        out.push_back(std::move(c));
      }
  // Not: a real value of 0 is false.
  for (DType t : activationTypes()) {
    CaseRng rng(seed++);
    const Enc ex{0.5f, int32_t(-fxref::typeMin(t) - 3)};
    const Dims d{5, 4};
    const Ints x = randomInts(rng, count(d), fxref::typeMin(t), fxref::typeMin(t) + 6);
    Ints q(x.size());
    for (size_t i = 0; i < x.size(); ++i) q[i] = x[i] + ex.offset == 0 ? 255 : 0;
    OpCase c;
    c.name = std::string("ElementWiseNot_") + typeTag(t);
    c.opType = "ElementWiseNot";
    c.inputs = {qTensor(t, d, x, ex)};
    c.expected = {qTensor(DType::kUFixed8, d, q, Enc{1.f / 255, 0})};
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<OpCase> preluSelectCases() {
  std::vector<OpCase> out;
  uint64_t seed = 1200;
  for (DType t : activationTypes()) {
    for (bool channelSlope : {true, false}) {
      CaseRng rng(seed++);
      const Dims xd{2, 3, 4, 5}, ad = channelSlope ? Dims{5} : xd;
      const Enc ex = inputEncoding(t, -4, 4), ea = inputEncoding(t, -0.5, 1.5), eo = inputEncoding(t, -3, 4);
      const Ints x = randomInts(rng, count(xd), t), a = randomInts(rng, count(ad), t);
      OpCase c;
      c.name = std::string("Prelu_") + (channelSlope ? "channel_slope_" : "full_slope_") + typeTag(t);
      c.opType = "Prelu";
      c.inputs = {qTensor(t, xd, x, ex), qTensor(t, ad, a, ea, channelSlope)};
      c.expected = {qTensor(t, xd, fxref::prelu(x, xd, ex, a, ad, ea, eo, t), eo)};
      out.push_back(std::move(c));
    }
    {
      CaseRng rng(seed++);
      const Dims cd{3, 1}, ad{3, 6}, bd{6};
      const Enc ec{1.f / 255, 0}, ea = inputEncoding(t, -4, 4), eb = inputEncoding(t, -1, 2);
      const Enc eo = inputEncoding(t, -3, 3);
      Ints cond = randomInts(rng, 3, DType::kUFixed8);
      cond[1] = 0;  // real 0: false
      const Ints a = randomInts(rng, count(ad), t), b = randomInts(rng, count(bd), t);
      Dims od;
      const Ints q = fxref::select(cond, cd, ec, a, ad, ea, b, bd, eb, eo, t, &od);
      OpCase c;
      c.name = std::string("ElementWiseSelect_broadcast_") + typeTag(t);
      c.opType = "ElementWiseSelect";
      c.inputs = {qTensor(DType::kUFixed8, cd, cond, ec), qTensor(t, ad, a, ea), qTensor(t, bd, b, eb)};
      c.expected = {qTensor(t, od, q, eo)};
      out.push_back(std::move(c));
    }
  }
  return out;
}

const bool kRegistered = registerFixedPointCaseSource("PreluSelect", preluSelectCases) &&
                         registerFixedPointCaseSource("Compare", compareCases) &&
                         registerFixedPointCaseSource("Binary", binaryCases) &&
                         registerFixedPointCaseSource("Table", tableCases) &&
                         registerFixedPointCaseSource("Clamp", clampCases);

}  // namespace
}  // namespace qnn::conformance
