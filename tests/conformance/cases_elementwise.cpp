// Conformance cases of the element-wise, data-movement, reduction and
// conversion ops. Expected outputs come from reference_elementwise.h.
// Tolerances: ops that are exact in float (add, compare, copies, min/max,
// floor...) use atol = rtol = 0; ops computed through libm or with a
// different summation order get rtol 1e-5 / atol 1e-6 (the reference evaluates
// in double, the kernels in float: a few ulps apart).
#include <cmath>
#include <cstdint>
#include <string>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_elementwise.h"

namespace qnn::conformance {
namespace {

using ref::Dims;
using Params = std::vector<std::pair<std::string, ParamValue>>;

constexpr double kLibmRtol = 1e-5, kLibmAtol = 1e-6;

CaseTensor i32(Dims d, const std::vector<int32_t>& v) { return makeTensor(DType::kInt32, std::move(d), v); }
CaseTensor u32(Dims d, const std::vector<uint32_t>& v) { return makeTensor(DType::kUInt32, std::move(d), v); }
CaseTensor b8(Dims d, const std::vector<uint8_t>& v) { return makeTensor(DType::kBool8, std::move(d), v); }
ParamValue u32s(const std::vector<uint32_t>& v) { return sdk::tensorU32({uint32_t(v.size())}, v); }

std::vector<int32_t> ints(CaseRng& rng, size_t n, int lo, int hi) {
  std::vector<int32_t> v(n);
  for (auto& x : v) x = lo + static_cast<int32_t>(rng.next() % uint32_t(hi - lo + 1));
  return v;
}
std::vector<uint8_t> bools(CaseRng& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& x : v) x = rng.next() & 1;
  return v;
}
// Floats that are small integers, so that comparisons see equal values.
std::vector<float> smallIntFloats(CaseRng& rng, size_t n) {
  std::vector<float> v(n);
  for (auto& x : v) x = float(int(rng.next() % 5) - 2);
  return v;
}
// Magnitudes in [0.5, 2] with random sign: safe divisors.
std::vector<float> divisors(CaseRng& rng, size_t n) {
  auto v = rng.floats(n, 0.5f, 2.f);
  for (auto& x : v) x = (rng.next() & 1) ? x : -x;
  return v;
}

struct ShapePair {
  const char* tag;
  Dims a, b;
};
const ShapePair kShapes[] = {
    {"same_rank1_odd", {7}, {7}},
    {"broadcast_rank3", {2, 1, 3}, {4, 1}},
    {"scalar_rhs", {3, 5}, {1}},
    {"scalar_lhs", {1}, {2, 3}},
    {"channel_rank4", {2, 3, 4, 5}, {3, 1, 1}},
    {"both_ways_rank5", {2, 1, 3, 1, 2}, {1, 2, 1, 4, 1}},
    {"same_large", {3, 129, 65}, {3, 129, 65}},  // above the parallel grain
    {"rank0_both", {}, {}},                      // scalars: rank-0 tensors broadcast as one value
    {"rank0_rhs", {2, 3}, {}},
};

template <typename T, typename O, typename F>
void addBinary(std::vector<OpCase>& cases, const char* op, DType dt, DType outDt, const char* suffix,
               std::vector<T> (*gen)(CaseRng&, size_t), F f, double atol = 0, double rtol = 0) {
  uint64_t seed = 1;
  for (const ShapePair& s : kShapes) {
    CaseRng rng(seed++ * 7919 + std::string(op).size());
    auto a = gen(rng, ref::count(s.a)), b = gen(rng, ref::count(s.b));
    auto out = ref::binary<T, O>(a, s.a, b, s.b, f);
    cases.push_back(makeCase(std::string(op) + "_" + s.tag + suffix, op,
                             {makeTensor(dt, s.a, a), makeTensor(dt, s.b, b)},
                             {makeTensor(outDt, ref::broadcast(s.a, s.b), out)}, {}, atol, rtol));
  }
}

std::vector<float> anyFloat(CaseRng& r, size_t n) { return r.floats(n, -3.f, 3.f); }
std::vector<float> positive(CaseRng& r, size_t n) { return r.floats(n, 0.1f, 2.f); }
std::vector<float> safeDiv(CaseRng& r, size_t n) { return divisors(r, n); }
std::vector<float> eqFloat(CaseRng& r, size_t n) { return smallIntFloats(r, n); }
std::vector<int32_t> anyInt(CaseRng& r, size_t n) { return ints(r, n, -50, 50); }
std::vector<int32_t> nonZeroInt(CaseRng& r, size_t n) {
  auto v = ints(r, n, -9, 9);
  for (auto& x : v) x = x == 0 ? 3 : x;
  return v;
}
std::vector<int32_t> eqInt(CaseRng& r, size_t n) { return ints(r, n, -2, 2); }
std::vector<uint8_t> anyBool(CaseRng& r, size_t n) { return bools(r, n); }

// Values across the whole range of T (so sums and products wrap), and divisors
// without 0.
template <typename T>
std::vector<T> fullRange(CaseRng& r, size_t n) {
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(r.next());
  return v;
}
template <typename T>
std::vector<T> nonZeroSmall(CaseRng& r, size_t n) {
  std::vector<T> v(n);
  for (auto& x : v) {
    int64_t k = int64_t(r.next() % 19) - (std::is_signed_v<T> ? 9 : 0);
    x = static_cast<T>(k == 0 ? 7 : k);
  }
  return v;
}

// The arithmetic ops on 8/16-bit integers (and Mod/Fmod on every integer type):
// references computed in int64, the result brought back into T modulo 2^bits.
template <typename T>
void smallIntCases(std::vector<OpCase>& c, DType dt, const char* suffix) {
  auto wrap = [](int64_t v) { return static_cast<T>(static_cast<uint64_t>(v)); };
  if (sizeof(T) < 4) {
    addBinary<T, T>(c, "ElementWiseAdd", dt, dt, suffix, fullRange<T>, [&](T a, T b) { return wrap(int64_t(a) + b); });
    addBinary<T, T>(c, "ElementWiseSubtract", dt, dt, suffix, fullRange<T>,
                    [&](T a, T b) { return wrap(int64_t(a) - b); });
    addBinary<T, T>(c, "ElementWiseMultiply", dt, dt, suffix, fullRange<T>,
                    [&](T a, T b) { return wrap(int64_t(a) * b); });
    addBinary<T, T>(c, "ElementWiseMaximum", dt, dt, suffix, fullRange<T>, [](T a, T b) { return a > b ? a : b; });
    addBinary<T, T>(c, "ElementWiseMinimum", dt, dt, suffix, fullRange<T>, [](T a, T b) { return a < b ? a : b; });
    addBinary<T, T>(c, "ElementWiseDivide", dt, dt, suffix, nonZeroSmall<T>,
                    [&](T a, T b) { return wrap(int64_t(a) / int64_t(b)); });
  }
  addBinary<T, T>(c, "ElementWiseMod", dt, dt, suffix, nonZeroSmall<T>, [&](T a, T b) {
    int64_t x = a, y = b;
    return wrap(((x % y) + y) % y);
  });
  addBinary<T, T>(c, "ElementWiseFmod", dt, dt, suffix, nonZeroSmall<T>,
                  [&](T a, T b) { return wrap(int64_t(a) % int64_t(b)); });
}

void binaryCases(std::vector<OpCase>& c) {
  const DType F = DType::kFloat32, I = DType::kInt32, B = DType::kBool8;
  addBinary<float, float>(c, "ElementWiseAdd", F, F, "", anyFloat, [](float a, float b) { return a + b; });
  addBinary<float, float>(c, "ElementWiseSubtract", F, F, "", anyFloat, [](float a, float b) { return a - b; });
  addBinary<float, float>(c, "ElementWiseMultiply", F, F, "", anyFloat, [](float a, float b) { return a * b; });
  addBinary<float, float>(c, "ElementWiseDivide", F, F, "", safeDiv, [](float a, float b) { return a / b; });
  addBinary<float, float>(c, "ElementWiseMaximum", F, F, "", anyFloat, [](float a, float b) { return a > b ? a : b; });
  addBinary<float, float>(c, "ElementWiseMinimum", F, F, "", anyFloat, [](float a, float b) { return a < b ? a : b; });
  addBinary<float, float>(c, "ElementWisePower", F, F, "", positive,
                          [](float a, float b) { return std::pow(double(a), double(b)); }, kLibmAtol, kLibmRtol);
  addBinary<float, float>(c, "ElementWiseSquaredDifference", F, F, "", anyFloat,
                          [](float a, float b) { return (double(a) - b) * (double(a) - b); }, kLibmAtol, kLibmRtol);
  addBinary<float, float>(c, "ElementWiseFloorDiv", F, F, "", safeDiv, [](float a, float b) { return std::floor(a / b); });
  addBinary<float, float>(c, "ElementWiseFmod", F, F, "", safeDiv, [](float a, float b) { return std::fmod(a, b); });
  addBinary<int32_t, int32_t>(c, "ElementWiseAdd", I, I, "_int32", anyInt, [](int a, int b) { return a + b; });
  addBinary<int32_t, int32_t>(c, "ElementWiseSubtract", I, I, "_int32", anyInt, [](int a, int b) { return a - b; });
  addBinary<int32_t, int32_t>(c, "ElementWiseMultiply", I, I, "_int32", anyInt, [](int a, int b) { return a * b; });
  addBinary<int32_t, int32_t>(c, "ElementWiseMaximum", I, I, "_int32", anyInt, [](int a, int b) { return std::max(a, b); });
  addBinary<int32_t, int32_t>(c, "ElementWiseMinimum", I, I, "_int32", anyInt, [](int a, int b) { return std::min(a, b); });
  addBinary<int32_t, int32_t>(c, "ElementWiseDivide", I, I, "_int32", nonZeroInt, [](int a, int b) { return a / b; });
  // Python-style modulo: the result takes the divisor's sign.
  addBinary<int32_t, int32_t>(c, "ElementWiseMod", I, I, "_int32", nonZeroInt,
                              [](int a, int b) { return ((a % b) + b) % b; });
  smallIntCases<int8_t>(c, DType::kInt8, "_int8");
  smallIntCases<uint8_t>(c, DType::kUInt8, "_uint8");
  smallIntCases<int16_t>(c, DType::kInt16, "_int16");
  smallIntCases<uint16_t>(c, DType::kUInt16, "_uint16");
  smallIntCases<uint32_t>(c, DType::kUInt32, "_uint32_mod");
  struct Cmp { const char* op; bool (*f)(double, double); };
  const Cmp cmps[] = {{"ElementWiseEqual", [](double a, double b) { return a == b; }},
                      {"ElementWiseNotEqual", [](double a, double b) { return a != b; }},
                      {"ElementWiseGreater", [](double a, double b) { return a > b; }},
                      {"ElementWiseGreaterEqual", [](double a, double b) { return a >= b; }},
                      {"ElementWiseLess", [](double a, double b) { return a < b; }},
                      {"ElementWiseLessEqual", [](double a, double b) { return a <= b; }}};
  for (const Cmp& k : cmps) {
    addBinary<float, uint8_t>(c, k.op, F, B, "", eqFloat, k.f);
    addBinary<int32_t, uint8_t>(c, k.op, I, B, "_int32", eqInt, k.f);
  }
  addBinary<uint8_t, uint8_t>(c, "ElementWiseAnd", B, B, "", anyBool, [](int a, int b) { return a && b; });
  addBinary<uint8_t, uint8_t>(c, "ElementWiseOr", B, B, "", anyBool, [](int a, int b) { return a || b; });
  addBinary<uint8_t, uint8_t>(c, "ElementWiseXor", B, B, "", anyBool, [](int a, int b) { return (a != 0) != (b != 0); });

  CaseRng rng(99);
  struct Sel { const char* tag; Dims c, a, b; };
  const Sel sels[] = {{"same", {3, 4}, {3, 4}, {3, 4}},
                      {"threeway_rank3", {2, 1, 3}, {4, 1}, {1}},
                      {"cond_scalar", {1}, {2, 5}, {2, 5}},
                      {"rank4", {2, 1, 1, 5}, {1, 3, 1, 5}, {2, 3, 4, 1}}};
  for (const Sel& s : sels) {
    auto cond = bools(rng, ref::count(s.c));
    auto a = rng.floats(ref::count(s.a)), b = rng.floats(ref::count(s.b));
    auto ai = ints(rng, ref::count(s.a), -9, 9), bi = ints(rng, ref::count(s.b), -9, 9);
    Dims out = ref::broadcast(ref::broadcast(s.c, s.a), s.b);
    c.push_back(makeCase(std::string("ElementWiseSelect_") + s.tag, "ElementWiseSelect",
                         {b8(s.c, cond), f32Tensor(s.a, a), f32Tensor(s.b, b)},
                         {f32Tensor(out, ref::select(cond, s.c, a, s.a, b, s.b))}));
    c.push_back(makeCase(std::string("ElementWiseSelect_") + s.tag + "_int32", "ElementWiseSelect",
                         {b8(s.c, cond), i32(s.a, ai), i32(s.b, bi)},
                         {i32(out, ref::select(cond, s.c, ai, s.a, bi, s.b))}));
  }
}

void unaryCases(std::vector<OpCase>& c) {
  struct U { const char* op; float lo, hi; double (*f)(double); bool exact; };
  const U ops[] = {
      {"ElementWiseSquareRoot", 0.f, 10.f, [](double x) { return std::sqrt(x); }, false},
      {"ElementWiseRsqrt", 0.1f, 10.f, [](double x) { return 1 / std::sqrt(x); }, false},
      {"ElementWiseExp", -5.f, 5.f, [](double x) { return std::exp(x); }, false},
      {"ElementWiseLog", 0.01f, 10.f, [](double x) { return std::log(x); }, false},
      {"ElementWiseAbs", -3.f, 3.f, [](double x) { return std::fabs(x); }, true},
      {"ElementWiseNeg", -3.f, 3.f, [](double x) { return -x; }, true},
      {"ElementWiseFloor", -3.f, 3.f, [](double x) { return std::floor(x); }, true},
      {"ElementWiseCeil", -3.f, 3.f, [](double x) { return std::ceil(x); }, true},
      {"ElementWiseSin", -6.f, 6.f, [](double x) { return std::sin(x); }, false},
      {"ElementWiseCos", -6.f, 6.f, [](double x) { return std::cos(x); }, false},
      {"ElementWiseAsin", -0.99f, 0.99f, [](double x) { return std::asin(x); }, false},
      {"ElementWiseAtan", -5.f, 5.f, [](double x) { return std::atan(x); }, false},
      {"ElementWiseSoftplus", -20.f, 20.f, [](double x) { return std::log1p(std::exp(x)); }, false},
      {"Relu", -3.f, 3.f, [](double x) { return x > 0 ? x : 0; }, true},
      {"Relu1", -3.f, 3.f, [](double x) { return std::min(1.0, std::max(-1.0, x)); }, true},
      {"Relu6", -3.f, 9.f, [](double x) { return std::min(6.0, std::max(0.0, x)); }, true},
      {"Gelu", -4.f, 4.f, [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }, false},
      {"Sigmoid", -8.f, 8.f, [](double x) { return 1 / (1 + std::exp(-x)); }, false},
      {"Tanh", -4.f, 4.f, [](double x) { return std::tanh(x); }, false},
      {"HardSwish", -5.f, 5.f, [](double x) { return x * std::min(6.0, std::max(0.0, x + 3)) / 6; }, false},
      {"Elu", -4.f, 4.f, [](double x) { return x > 0 ? x : std::exp(x) - 1; }, false},
  };
  const Dims shapes[] = {{1}, {3, 5, 7}, {2, 1, 3, 2}, {2, 3, 1, 2, 3}, {5, 100, 41}};
  CaseRng rng(5);
  for (const U& u : ops) {
    for (const Dims& d : shapes) {
      auto x = rng.floats(ref::count(d), u.lo, u.hi);
      std::string name = std::string(u.op) + "_rank" + std::to_string(d.size()) + "_n" + std::to_string(ref::count(d));
      c.push_back(makeCase(name, u.op, {f32Tensor(d, x)}, {f32Tensor(d, ref::map(x, u.f))}, {},
                           u.exact ? 0 : kLibmAtol, u.exact ? 0 : kLibmRtol));
    }
  }
  // Round: ties go to even.
  std::vector<float> r = {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 0.3f, -0.7f, 3.49f};
  c.push_back(makeCase("ElementWiseRound_ties_even", "ElementWiseRound", {f32Tensor({9}, r)},
                       {f32Tensor({9}, {-2, -2, -0.f, 0, 2, 2, 0, -1, 3})}));
  std::vector<float> s = {-2.f, 0.f, 3.f, -0.1f, 7.f};
  c.push_back(makeCase("ElementWiseSign_float", "ElementWiseSign", {f32Tensor({5}, s)}, {f32Tensor({5}, {-1, 0, 1, -1, 1})}));
  c.push_back(makeCase("ElementWiseSign_int32", "ElementWiseSign", {i32({5}, {-7, 0, 3, -1, 9})}, {i32({5}, {-1, 0, 1, -1, 1})}));
  c.push_back(makeCase("ElementWiseNeg_int32", "ElementWiseNeg", {i32({2, 2}, {-7, 0, 3, 5})}, {i32({2, 2}, {7, 0, -3, -5})}));
  auto nb = bools(rng, 11);
  c.push_back(makeCase("ElementWiseNot_bool", "ElementWiseNot", {b8({11}, nb)}, {b8({11}, ref::map(nb, [](int v) { return !v; }))}));
  // Softplus with beta and a threshold above which it returns x.
  auto sx = rng.floats(30, -5.f, 5.f);
  auto sy = ref::map(sx, [](double x) { return 2 * x > 3 ? x : std::log1p(std::exp(2 * x)) / 2; });
  c.push_back(makeCase("ElementWiseSoftplus_beta2_threshold3", "ElementWiseSoftplus", {f32Tensor({5, 6}, sx)},
                       {f32Tensor({5, 6}, sy)}, {{"beta", sdk::scalarF32(2)}, {"threshold", sdk::scalarF32(3)}},
                       kLibmAtol, kLibmRtol));
  auto ex = rng.floats(12, -3.f, 3.f);
  c.push_back(makeCase("Elu_alpha0p5", "Elu", {f32Tensor({3, 4}, ex)},
                       {f32Tensor({3, 4}, ref::map(ex, [](double x) { return x > 0 ? x : 0.5 * (std::exp(x) - 1); }))},
                       {{"alpha", sdk::scalarF32(0.5f)}}, kLibmAtol, kLibmRtol));
  auto rx = rng.floats(15, -3.f, 3.f);
  c.push_back(makeCase("ReluMinMax_float", "ReluMinMax", {f32Tensor({3, 5}, rx)},
                       {f32Tensor({3, 5}, ref::map(rx, [](float x) { return std::min(1.5f, std::max(-0.5f, x)); }))},
                       {{"min_value", sdk::scalarF32(-0.5f)}, {"max_value", sdk::scalarF32(1.5f)}}));
  c.push_back(makeCase("ReluMinMax_int32", "ReluMinMax", {i32({6}, {-5, -1, 0, 1, 2, 9})}, {i32({6}, {-1, -1, 0, 1, 2, 2})},
                       {{"min_value", sdk::scalarF32(-1.5f)}, {"max_value", sdk::scalarF32(2.5f)}}));
  // Prelu: slope broadcast onto the input.
  struct P { const char* tag; Dims x, s; };
  const P prelus[] = {{"channel_last", {2, 3, 4, 5}, {5}}, {"channel_rank3", {2, 3, 4, 5}, {3, 1, 1}},
                      {"same_shape", {4, 7}, {4, 7}}, {"scalar_slope", {3, 3}, {1}}};
  for (const P& p : prelus) {
    auto x = rng.floats(ref::count(p.x), -2.f, 2.f), sl = rng.floats(ref::count(p.s), 0.f, 0.5f);
    auto y = ref::binary<float, float>(x, p.x, sl, p.s, [](float v, float k) { return v >= 0 ? v : k * v; });
    c.push_back(makeCase(std::string("Prelu_") + p.tag, "Prelu", {f32Tensor(p.x, x), f32Tensor(p.s, sl)},
                         {f32Tensor(p.x, y)}));
  }
}

void shapeCases(std::vector<OpCase>& c) {
  CaseRng rng(11);
  auto x = rng.floats(24);
  c.push_back(makeCase("Reshape_rank3_to_rank2", "Reshape", {f32Tensor({2, 3, 4}, x)}, {f32Tensor({6, 4}, x)}));
  auto bb = bools(rng, 6);
  c.push_back(makeCase("Reshape_bool", "Reshape", {b8({6}, bb)}, {b8({2, 3}, bb)}));
  c.push_back(makeCase("Squeeze_middle_and_last", "Squeeze", {f32Tensor({2, 1, 12, 1}, x)}, {f32Tensor({2, 12}, x)}));
  c.push_back(makeCase("ExpandDims_axis0", "ExpandDims", {f32Tensor({4, 6}, x)}, {f32Tensor({1, 4, 6}, x)},
                       {{"axis", sdk::scalarU32(0)}}));
  c.push_back(makeCase("ExpandDims_axis_last", "ExpandDims", {f32Tensor({4, 6}, x)}, {f32Tensor({4, 6, 1}, x)},
                       {{"axis", sdk::scalarU32(2)}}));

  struct T { const char* tag; Dims in; std::vector<uint32_t> perm; };
  const T ts[] = {{"nchw_to_nhwc", {2, 5, 7, 3}, {0, 2, 3, 1}}, {"nhwc_to_nchw", {2, 7, 3, 5}, {0, 3, 1, 2}},
                  {"rows_kept_rank3", {3, 4, 5}, {1, 0, 2}},   {"rank5", {2, 3, 1, 4, 2}, {4, 2, 0, 3, 1}},
                  {"rank2_large", {67, 131}, {1, 0}},          {"rank1_identity", {9}, {0}},
                  {"reverse_rank4", {3, 2, 4, 5}, {3, 2, 1, 0}},
                  // A transformer's K to K^T per head ([seq, heads, dim] -> [heads, dim, seq]): one
                  // 64 x 192 matrix transpose in 16 x 16 register blocks on AVX-512.
                  {"heads_to_keys_transposed", {1, 64, 4, 48}, {0, 2, 3, 1}}};
  for (const T& t : ts) {
    auto v = rng.floats(ref::count(t.in));
    Dims out;
    for (uint32_t p : t.perm) out.push_back(t.in[p]);
    c.push_back(makeCase(std::string("Transpose_") + t.tag, "Transpose", {f32Tensor(t.in, v)},
                         {f32Tensor(out, ref::transpose(v, t.in, t.perm))}, {{"perm", u32s(t.perm)}}));
  }
  auto iv = ints(rng, 24, -100, 100);
  c.push_back(makeCase("Transpose_int32_rank3", "Transpose", {i32({2, 3, 4}, iv)},
                       {i32({4, 2, 3}, ref::transpose(iv, {2, 3, 4}, {2, 0, 1}))}, {{"perm", u32s({2, 0, 1})}}));
  auto iv2 = ints(rng, 40 * 70, -100000, 100000);  // 4-byte integers through the register blocks too
  c.push_back(makeCase("Transpose_int32_rank2_blocks", "Transpose", {i32({40, 70}, iv2)},
                       {i32({70, 40}, ref::transpose(iv2, {40, 70}, {1, 0}))}, {{"perm", u32s({1, 0})}}));
  auto bv = bools(rng, 30);
  c.push_back(makeCase("Transpose_bool_rank3", "Transpose", {b8({2, 3, 5}, bv)},
                       {b8({5, 3, 2}, ref::transpose(bv, {2, 3, 5}, {2, 1, 0}))}, {{"perm", u32s({2, 1, 0})}}));

  struct Tl { const char* tag; Dims in; std::vector<uint32_t> m; };
  const Tl tiles[] = {{"rank1", {5}, {3}}, {"rank3", {2, 1, 3}, {2, 4, 1}}, {"rank4_ones", {2, 3, 1, 2}, {1, 1, 3, 2}}};
  for (const Tl& t : tiles) {
    auto v = rng.floats(ref::count(t.in));
    Dims out;
    for (size_t d = 0; d < t.in.size(); ++d) out.push_back(t.in[d] * t.m[d]);
    c.push_back(makeCase(std::string("Tile_") + t.tag, "Tile", {f32Tensor(t.in, v)},
                         {f32Tensor(out, ref::tile(v, t.in, t.m))}, {{"multiples", u32s(t.m)}}));
  }
  auto ti = ints(rng, 6, -9, 9);
  c.push_back(makeCase("Tile_int32", "Tile", {i32({2, 3}, ti)}, {i32({4, 6}, ref::tile(ti, {2, 3}, {2, 2}))},
                       {{"multiples", u32s({2, 2})}}));
}

void concatSplitCases(std::vector<OpCase>& c) {
  CaseRng rng(21);
  struct Cc { const char* tag; std::vector<Dims> ins; int axis; };  // axis -1: param absent (last)
  const Cc cs[] = {{"axis0", {{2, 3}, {1, 3}, {4, 3}}, 0},
                   {"axis_middle_rank3", {{2, 1, 4}, {2, 3, 4}}, 1},
                   {"default_last_axis", {{2, 2, 3}, {2, 2, 1}, {2, 2, 2}}, -1},
                   {"single_input", {{3, 5}}, 1},
                   {"rank5_axis4", {{1, 2, 1, 2, 3}, {1, 2, 1, 2, 2}}, 4}};
  for (const Cc& k : cs) {
    std::vector<std::vector<float>> vals;
    std::vector<CaseTensor> ins;
    for (const Dims& d : k.ins) {
      vals.push_back(rng.floats(ref::count(d)));
      ins.push_back(f32Tensor(d, vals.back()));
    }
    size_t axis = k.axis < 0 ? k.ins[0].size() - 1 : size_t(k.axis);
    Dims out = k.ins[0];
    out[axis] = 0;
    for (const Dims& d : k.ins) out[axis] += d[axis];
    Params p;
    if (k.axis >= 0) p.push_back({"axis", sdk::scalarU32(k.axis)});
    c.push_back(makeCase(std::string("Concat_") + k.tag, "Concat", ins, {f32Tensor(out, ref::concat(vals, k.ins, axis))}, p));
  }
  auto a = ints(rng, 6, -9, 9), b = ints(rng, 4, -9, 9);
  c.push_back(makeCase("Concat_int32", "Concat", {i32({3, 2}, a), i32({2, 2}, b)},
                       {i32({5, 2}, ref::concat<int32_t>({a, b}, {{3, 2}, {2, 2}}, 0))}, {{"axis", sdk::scalarU32(0)}}));

  // Split is checked as slices of the input.
  struct S { const char* tag; Dims in; uint32_t axis; std::vector<uint32_t> idx; };
  const S ss[] = {{"axis0", {5, 3}, 0, {1, 3}}, {"last_axis_rank3", {2, 3, 7}, 2, {2}}, {"middle_rank4", {2, 6, 2, 1}, 1, {1, 2, 4}}};
  for (const S& s : ss) {
    auto v = rng.floats(ref::count(s.in));
    std::vector<CaseTensor> outs;
    std::vector<uint32_t> bounds = s.idx;
    bounds.insert(bounds.begin(), 0);
    bounds.push_back(s.in[s.axis]);
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
      std::vector<int64_t> begin(s.in.size(), 0), step(s.in.size(), 1);
      Dims size = s.in;
      begin[s.axis] = bounds[i];
      size[s.axis] = bounds[i + 1] - bounds[i];
      outs.push_back(f32Tensor(size, ref::slice(v, s.in, begin, step, size)));
    }
    c.push_back(makeCase(std::string("Split_") + s.tag, "Split", {f32Tensor(s.in, v)}, outs,
                         {{"axis", sdk::scalarU32(s.axis)}, {"split_index", u32s(s.idx)}}));
  }
}

ParamValue ranges(const std::vector<int32_t>& flat) {
  return sdk::tensorI32({uint32_t(flat.size() / 3), 3}, flat);
}

void sliceGatherPadCases(std::vector<OpCase>& c) {
  CaseRng rng(31);
  // StridedSlice: each case states the box it selects (begin, step, size),
  // worked out by hand from the TensorFlow rules.
  struct SS { const char* tag; Dims in; std::vector<int32_t> r; Params masks; std::vector<int64_t> begin, step; Dims box, out; };
  const SS ss[] = {
      {"stride2_rank2", {5, 6}, {0, 5, 2, 1, 6, 2}, {}, {0, 1}, {2, 2}, {3, 3}, {3, 3}},
      {"negative_stride", {7}, {-1, 0, -2}, {}, {6}, {-2}, {3}, {3}},
      {"negative_begin_end", {4, 5}, {-3, -1, 1, 0, 5, 1}, {}, {1, 0}, {1, 1}, {2, 5}, {2, 5}},
      {"begin_end_mask", {4, 6}, {2, 4, 1, 4, 1, 1}, {{"begin_mask", sdk::scalarU32(1)}, {"end_mask", sdk::scalarU32(2)}},
       {0, 4}, {1, 1}, {4, 2}, {4, 2}},
      {"shrink_axis0", {3, 4, 2}, {1, 2, 1, 0, 4, 3, 0, 2, 1}, {{"shrink_axes", sdk::scalarU32(1)}},
       {1, 0, 0}, {1, 3, 1}, {1, 2, 2}, {2, 2}},
      {"new_axis_front", {3, 4}, {0, 1, 1, 0, 3, 1, 1, 4, 2}, {{"new_axes_mask", sdk::scalarU32(1)}},
       {0, 1}, {1, 2}, {3, 2}, {1, 3, 2}},
      {"clamped_end_rank4", {2, 3, 4, 5}, {0, 9, 1, 1, 3, 1, 0, 4, 3, 4, -9, -2}, {}, {0, 1, 0, 4}, {1, 1, 3, -2}, {2, 2, 2, 3}, {2, 2, 2, 3}},
  };
  for (const SS& s : ss) {
    auto v = rng.floats(ref::count(s.in));
    Params p = s.masks;
    p.push_back({"ranges", ranges(s.r)});
    c.push_back(makeCase(std::string("StridedSlice_") + s.tag, "StridedSlice", {f32Tensor(s.in, v)},
                         {f32Tensor(s.out, ref::slice(v, s.in, s.begin, s.step, s.box))}, p));
  }
  auto iv = ints(rng, 12, -9, 9);
  c.push_back(makeCase("StridedSlice_int32", "StridedSlice", {i32({12}, iv)},
                       {i32({4}, ref::slice(iv, {12}, {1}, {3}, {4}))}, {{"ranges", ranges({1, 12, 3})}}));

  struct G { const char* tag; Dims in; int axis; Dims di; std::vector<int32_t> idx; };
  const G gs[] = {{"axis0_rank2", {5, 3}, 0, {4}, {4, 0, 2, 2}},
                  {"axis1_2d_indices", {2, 4, 3}, 1, {2, 2}, {3, 0, 1, 3}},
                  {"last_axis", {3, 5}, 1, {3}, {4, 4, 0}},
                  {"negative_indices", {6}, 0, {3}, {-1, -6, 2}}};
  for (const G& g : gs) {
    auto v = rng.floats(ref::count(g.in));
    auto out = ref::gather(v, g.in, g.idx, g.di, g.axis);
    Dims od(g.in.begin(), g.in.begin() + g.axis);
    od.insert(od.end(), g.di.begin(), g.di.end());
    od.insert(od.end(), g.in.begin() + g.axis + 1, g.in.end());
    c.push_back(makeCase(std::string("Gather_") + g.tag, "Gather", {f32Tensor(g.in, v), i32(g.di, g.idx)},
                         {f32Tensor(od, out)}, {{"axis", sdk::scalarI32(g.axis)}}));
  }
  // GatherElements, reference: the definition written out with explicit loops over
  // the indices' multi-index (rank 2 and 3, every axis, negative indices).
  struct GE { const char* tag; Dims in; uint32_t axis; Dims di; std::vector<int32_t> idx; };
  const GE ges[] = {{"axis0", {3, 4}, 0, {2, 4}, {0, 2, -1, 1, 2, 0, 0, -3}},
                    {"axis1_smaller", {3, 4}, 1, {3, 2}, {3, 0, -4, 1, 2, 2}},
                    {"rank3_axis2", {2, 3, 4}, 2, {2, 2, 3}, {0, 3, 1, 2, 2, -1, 1, 0, 3, 3, 0, 1}},
                    {"rank3_axis1", {2, 3, 2}, 1, {2, 3, 2}, {2, 1, 0, 0, 1, 2, -1, -2, 0, 1, 2, 0}}};
  for (const GE& g : ges) {
    auto v = rng.floats(ref::count(g.in));
    std::vector<float> out;
    const size_t r = g.in.size();
    std::vector<uint32_t> pos(r, 0);
    for (size_t k = 0; k < g.idx.size(); ++k) {
      size_t off = 0, stride = 1;
      for (size_t d = r; d-- > 0;) {
        int64_t i = d == g.axis ? (g.idx[k] < 0 ? g.idx[k] + int64_t(g.in[d]) : g.idx[k]) : int64_t(pos[d]);
        off += size_t(i) * stride;
        stride *= g.in[d];
      }
      out.push_back(v[off]);
      for (size_t d = r; d-- > 0;) {
        if (++pos[d] < g.di[d]) break;
        pos[d] = 0;
      }
    }
    c.push_back(makeCase(std::string("GatherElements_") + g.tag, "GatherElements", {f32Tensor(g.in, v), i32(g.di, g.idx)},
                         {f32Tensor(g.di, out)}, {{"axis", sdk::scalarU32(g.axis)}}));
  }
  // CumulativeSum: every exclusive/reverse combination, reference summing each
  // position's predecessors (or successors) directly.
  for (int flags = 0; flags < 4; ++flags) {
    const bool exclusive = flags & 1, reverse = flags & 2;
    const Dims in = {2, 5, 3};
    auto v = rng.floats(ref::count(in));
    std::vector<float> want(v.size());
    for (uint32_t o = 0; o < 2; ++o)
      for (uint32_t a = 0; a < 5; ++a)
        for (uint32_t i = 0; i < 3; ++i) {
          double sum = 0;
          for (uint32_t b = 0; b < 5; ++b) {
            const bool take = reverse ? (exclusive ? b > a : b >= a) : (exclusive ? b < a : b <= a);
            if (take) sum += v[(o * 5 + b) * 3 + i];
          }
          want[(o * 5 + a) * 3 + i] = float(sum);
        }
    c.push_back(makeCase(std::string("CumulativeSum_axis1") + (exclusive ? "_exclusive" : "") +
                             (reverse ? "_reverse" : ""),
                         "CumulativeSum", {f32Tensor(in, v)}, {f32Tensor(in, want)},
                         {{"axis", sdk::scalarU32(1)}, {"exclusive", sdk::scalarBool(exclusive)},
                          {"reverse", sdk::scalarBool(reverse)}},
                         1e-5, 1e-5));
  }
  c.push_back(makeCase("CumulativeSum_int32", "CumulativeSum", {i32({5}, {1, -2, 3, 4, -5})},
                       {i32({5}, {1, -1, 2, 6, 1})}, {{"axis", sdk::scalarU32(0)}}));
  std::vector<uint32_t> uidx = {2, 0};
  auto gi = ints(rng, 6, -9, 9);
  c.push_back(makeCase("Gather_uint32_indices_int32_data", "Gather", {i32({3, 2}, gi), u32({2}, uidx)},
                       {i32({2, 2}, ref::gather(gi, {3, 2}, uidx, {2}, 0))}, {{"axis", sdk::scalarI32(0)}}));

  const char* schemes[] = {"constant", "mirror_symmetric", "mirror_reflect", "edge"};
  struct Pd { const char* tag; Dims in; std::vector<uint32_t> amounts; };
  const Pd pads[] = {{"rank1", {5}, {2, 3}}, {"rank2", {3, 4}, {1, 2, 2, 0}}, {"rank3", {2, 3, 4}, {0, 1, 2, 2, 3, 1}},
                     {"rank4", {2, 2, 3, 2}, {1, 0, 0, 1, 2, 2, 1, 1}}};
  for (int scheme = 0; scheme < 4; ++scheme) {
    for (const Pd& p : pads) {
      auto v = rng.floats(ref::count(p.in));
      Dims out;
      for (size_t d = 0; d < p.in.size(); ++d) out.push_back(p.in[d] + p.amounts[2 * d] + p.amounts[2 * d + 1]);
      Params prm = {{"scheme", sdk::scalarU32(scheme)},
                    {"pad_amount", sdk::tensorU32({uint32_t(p.in.size()), 2}, p.amounts)}};
      if (scheme == 0) prm.push_back({"pad_constant_value", sdk::scalarF32(1.5f)});
      c.push_back(makeCase(std::string("Pad_") + schemes[scheme] + "_" + p.tag, "Pad", {f32Tensor(p.in, v)},
                           {f32Tensor(out, ref::pad(v, p.in, p.amounts, scheme, scheme == 0 ? 1.5f : 0.f))}, prm));
    }
  }
  auto pi = ints(rng, 6, -9, 9);
  c.push_back(makeCase("Pad_int32_default_zero", "Pad", {i32({2, 3}, pi)},
                       {i32({3, 4}, ref::pad(pi, {2, 3}, {1, 0, 0, 1}, 0, 0))},
                       {{"scheme", sdk::scalarU32(0)}, {"pad_amount", sdk::tensorU32({2, 2}, {1, 0, 0, 1})}}));
}

void reduceCases(std::vector<OpCase>& c) {
  CaseRng rng(41);
  const char* ops[] = {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd"};
  struct R { const char* tag; Dims in; std::vector<uint32_t> axes; };
  const R rs[] = {{"last_axis", {3, 4, 5}, {2}}, {"first_axis", {3, 4, 5}, {0}}, {"middle_axis", {2, 7, 3}, {1}},
                  {"two_axes_rank4", {2, 3, 4, 5}, {1, 3}}, {"all_axes", {3, 5}, {0, 1}}, {"rank1", {11}, {0}},
                  {"large_last", {4, 5000}, {1}}};
  for (int kind = 0; kind < 5; ++kind) {
    for (const R& r : rs) {
      // Prod over many values: stay near 1 so the product neither vanishes nor overflows.
      auto v = kind == 4 ? rng.floats(ref::count(r.in), 0.9f, 1.1f) : rng.floats(ref::count(r.in), -2.f, 2.f);
      auto out = ref::reduce(v, r.in, r.axes, kind);
      for (bool keep : {false, true}) {
        Dims od;
        for (size_t d = 0; d < r.in.size(); ++d) {
          bool red = std::find(r.axes.begin(), r.axes.end(), d) != r.axes.end();
          if (!red) od.push_back(r.in[d]);
          else if (keep) od.push_back(1);
        }
        // K = max(1, N - M): a full reduction without keep_dims is [1] (a rank-0 output is accepted too,
        // see the *_rank0_out cases).
        if (od.empty()) od.push_back(1);
        // Sums/means: float accumulation order differs from the double reference.
        c.push_back(makeCase(std::string(ops[kind]) + "_" + r.tag + (keep ? "_keepdims" : ""), ops[kind],
                             {f32Tensor(r.in, v)}, {f32Tensor(od, out)},
                             {{"axes", u32s(r.axes)}, {"keep_dims", sdk::scalarBool(keep)}}, 1e-5, 1e-4));
      }
    }
  }
  // A scalar held as [1] and one held as rank 0: the one-element result may be rank 0.
  c.push_back(makeCase("ElementWiseMinimum_rank0_out_of_rank1_and_rank0", "ElementWiseMinimum",
                       {f32Tensor({}, {1.5f}), f32Tensor({1}, {-0.25f})}, {f32Tensor({}, {-0.25f})}));
  c.push_back(makeCase("Cast_rank0_float_to_uint8", "Cast", {f32Tensor({}, {7.f})},
                       {makeTensor(DType::kUInt8, {}, std::vector<uint8_t>{7})}));
  c.push_back(makeCase("Cast_uint16_to_int32", "Cast", {makeTensor(DType::kUInt16, {3}, std::vector<uint16_t>{0, 7, 65535})},
                       {i32({3}, {0, 7, 65535})}));
  c.push_back(makeCase("Cast_float_to_int16_saturates", "Cast", {f32Tensor({3}, {-40000.f, -2.7f, 123.9f})},
                       {makeTensor(DType::kInt16, {3}, std::vector<int16_t>{-32768, -2, 123})}));
  c.push_back(makeCase("Reshape_rank0_to_rank1", "Reshape", {f32Tensor({}, {3.5f})}, {f32Tensor({1}, {3.5f})}));
  auto rv = rng.floats(6, -2.f, 2.f);
  c.push_back(makeCase("ReduceSum_all_axes_rank0_out", "ReduceSum", {f32Tensor({2, 3}, rv)},
                       {f32Tensor({}, ref::reduce(rv, {2, 3}, {0, 1}, 1))},
                       {{"axes", u32s({0, 1})}, {"keep_dims", sdk::scalarBool(false)}}, 1e-5, 1e-4));
  auto iv = ints(rng, 12, -50, 50);
  std::vector<int32_t> sums(3, 0);
  for (size_t i = 0; i < 12; ++i) sums[i / 4] += iv[i];
  c.push_back(makeCase("ReduceSum_int32", "ReduceSum", {i32({3, 4}, iv)}, {i32({3}, sums)}, {{"axes", u32s({1})}}));
}

void argTopKCases(std::vector<OpCase>& c) {
  CaseRng rng(51);
  struct A { const char* tag; Dims in; uint32_t axis; };
  const A as[] = {{"last_axis", {3, 7}, 1}, {"first_axis", {5, 4}, 0}, {"middle_rank3", {2, 6, 3}, 1}, {"rank1", {9}, 0}};
  for (const char* op : {"Argmax", "Argmin"}) {
    for (const A& a : as) {
      auto v = smallIntFloats(rng, ref::count(a.in));  // ties: the first index wins
      auto out = ref::argExtreme(v, a.in, a.axis, std::string(op) == "Argmax");
      for (bool keep : {false, true}) {
        Dims od = a.in;
        if (keep) od[a.axis] = 1;
        else od.erase(od.begin() + a.axis);
        if (od.empty()) od.push_back(1);
        c.push_back(makeCase(std::string(op) + "_" + a.tag + (keep ? "_keepdims" : ""), op, {f32Tensor(a.in, v)},
                             {i32(od, out)}, {{"axis", sdk::scalarU32(a.axis)}, {"keep_dims", sdk::scalarBool(keep)}}));
      }
    }
  }
  auto iv = ints(rng, 12, -5, 5);
  std::vector<float> ivf(iv.begin(), iv.end());
  auto am = ref::argExtreme(ivf, {3, 4}, 1, true);
  c.push_back(makeCase("Argmax_int32_in_uint32_out", "Argmax", {i32({3, 4}, iv)},
                       {u32({3}, std::vector<uint32_t>(am.begin(), am.end()))}, {{"axis", sdk::scalarU32(1)}}));

  struct K { const char* tag; Dims in; uint32_t k; };
  const K ks[] = {{"k1_rank1", {8}, 1}, {"k3_ties_rank2", {4, 9}, 3}, {"k_full_rank3", {2, 3, 5}, 5}};
  for (const K& k : ks) {
    auto v = smallIntFloats(rng, ref::count(k.in));
    std::vector<float> vals;
    std::vector<int32_t> idx;
    ref::topK(v, k.in, k.k, &vals, &idx);
    Dims od = k.in;
    od.back() = k.k;
    c.push_back(makeCase(std::string("TopK_") + k.tag, "TopK", {f32Tensor(k.in, v)}, {f32Tensor(od, vals), i32(od, idx)},
                         {{"k", sdk::scalarU32(k.k)}}));
  }
}

CaseTensor quantized(DType dt, Dims d, const std::vector<int64_t>& q, float scale, int32_t offset) {
  CaseTensor t;
  t.dtype = dt;
  t.dims = std::move(d);
  const size_t es = sdk::dtypeSize(dt);
  t.bytes.resize(q.size() * es);
  for (size_t i = 0; i < q.size(); ++i) std::memcpy(&t.bytes[i * es], &q[i], es);  // little-endian low bytes
  t.quant.kind = QuantInfo::Kind::kScaleOffset;
  t.quant.scale = scale;
  t.quant.offset = offset;
  return t;
}

void quantCastCases(std::vector<OpCase>& c) {
  CaseRng rng(61);
  struct Q { const char* tag; DType dt; int64_t lo, hi; float scale; int32_t offset; };
  const Q qs[] = {{"ufixed8", DType::kUFixed8, 0, 255, 0.02f, -128},
                  {"sfixed8", DType::kSFixed8, -128, 127, 0.015f, 0},
                  {"ufixed16", DType::kUFixed16, 0, 65535, 0.0001f, -30000},
                  {"sfixed16", DType::kSFixed16, -32768, 32767, 0.0002f, 100}};
  for (const Q& q : qs) {
    Dims d = {3, 17};
    auto x = rng.floats(ref::count(d), -4.f, 4.f);  // partly outside the range: clamps
    std::vector<int64_t> qv;
    for (float v : x) qv.push_back(ref::quantize(v, q.scale, q.offset, q.lo, q.hi));
    c.push_back(makeCase(std::string("Quantize_") + q.tag, "Quantize", {f32Tensor(d, x)},
                         {quantized(q.dt, d, qv, q.scale, q.offset)}));
    std::vector<float> back;
    for (int64_t v : qv) back.push_back(static_cast<float>(ref::dequantize(v, q.scale, q.offset)));
    c.push_back(makeCase(std::string("Dequantize_") + q.tag, "Dequantize", {quantized(q.dt, d, qv, q.scale, q.offset)},
                         {f32Tensor(d, back)}, {}, 1e-6, 1e-6));
  }
  // Float32 quotients that are ties where the double ones are not: ONNX Runtime's
  // QuantizeLinear (and the vendor's CPU backend, which passes its tests) divides in
  // float32 and rounds half to even. x / 0.1f in float32: 3.5, 4.5, 7.5, 8.5, 9.5,
  // 11.5, 2.5, 125 (in double 3.4999999, 4.4999998, 7.4999999, 8.5000001, ...);
  // rounded 4, 4, 8, 8, 10, 12, 2, 125; plus the zero point 3 (offset -3).
  c.push_back(makeCase("Quantize_float32_quotient_ties", "Quantize",
                       {f32Tensor({8}, {0.35f, 0.45f, 0.75f, 0.85f, 0.95f, 1.15f, 0.25f, 12.5f})},
                       {quantized(DType::kUFixed8, {8}, {7, 7, 11, 11, 13, 15, 5, 128}, 0.1f, -3)}));
  // Convert: requantize ufixed8 -> sfixed8 with another scale.
  std::vector<int64_t> qin, qout;
  for (int i = 0; i < 40; ++i) qin.push_back(rng.next() % 256);
  for (int64_t v : qin) qout.push_back(ref::quantize(ref::dequantize(v, 0.05, -100), 0.03, 5, -128, 127));
  c.push_back(makeCase("Convert_ufixed8_to_sfixed8", "Convert", {quantized(DType::kUFixed8, {5, 8}, qin, 0.05f, -100)},
                       {quantized(DType::kSFixed8, {5, 8}, qout, 0.03f, 5)}));
  std::vector<float> cf;
  for (int64_t v : qin) cf.push_back(static_cast<float>(ref::dequantize(v, 0.05, -100)));
  c.push_back(makeCase("Convert_ufixed8_to_float", "Convert", {quantized(DType::kUFixed8, {40}, qin, 0.05f, -100)},
                       {f32Tensor({40}, cf)}, {}, 1e-6, 1e-6));

  // Cast: float -> int truncates toward zero; int -> narrower int keeps the low bits.
  std::vector<float> fx = {-2.7f, -0.5f, 0.f, 0.5f, 1.99f, 100.25f};
  c.push_back(makeCase("Cast_float_to_int32", "Cast", {f32Tensor({6}, fx)}, {i32({6}, {-2, 0, 0, 0, 1, 100})}));
  c.push_back(makeCase("Cast_float_to_bool", "Cast", {f32Tensor({6}, fx)}, {b8({6}, {1, 1, 0, 1, 1, 1})}));
  c.push_back(makeCase("Cast_int32_to_float", "Cast", {i32({2, 2}, {-3, 0, 7, 123456})}, {f32Tensor({2, 2}, {-3, 0, 7, 123456})}));
  c.push_back(makeCase("Cast_bool_to_float", "Cast", {b8({3}, {0, 1, 1})}, {f32Tensor({3}, {0, 1, 1})}));
  c.push_back(makeCase("Cast_int32_to_uint8_wraps", "Cast", {i32({3}, {300, -1, 7})},
                       {makeTensor<uint8_t>(DType::kUInt8, {3}, {44, 255, 7})}));
  c.push_back(makeCase("Cast_int32_to_int64", "Cast", {i32({3}, {-5, 0, 2147483647})},
                       {makeTensor<int64_t>(DType::kInt64, {3}, {-5, 0, 2147483647})}));
  c.push_back(makeCase("Cast_uint32_to_int32", "Cast", {u32({2}, {5, 7})}, {i32({2}, {5, 7})}));
}

std::vector<OpCase> elementwiseCases() {
  std::vector<OpCase> c;
  binaryCases(c);
  unaryCases(c);
  shapeCases(c);
  concatSplitCases(c);
  sliceGatherPadCases(c);
  reduceCases(c);
  argTopKCases(c);
  quantCastCases(c);
  return c;
}

static const bool kReg = registerCaseSource("elementwise", elementwiseCases);

}  // namespace
}  // namespace qnn::conformance
