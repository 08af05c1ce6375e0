// Conformance cases of the generic element-wise ops (ElementWiseBinary,
// ElementWiseUnary, ElementWiseNeuron): every `operation` value, each against
// its formula written here with <cmath>, on a broadcasting shape pair.
#include <cmath>
#include <functional>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_elementwise.h"

namespace qnn::conformance {
namespace {

using ref::Dims;
using Params = std::vector<std::pair<std::string, ParamValue>>;

void binaryCases(std::vector<OpCase>& c) {
  struct B { uint32_t op; const char* tag; std::function<double(double, double)> f; bool boolOut; };
  const B bs[] = {
      {0, "ADD", [](double a, double b) { return a + b; }, false},
      {2, "DIVIDE", [](double a, double b) { return a / b; }, false},
      {3, "EQUAL", [](double a, double b) { return double(a == b); }, true},
      {4, "FLOOR_DIV", [](double a, double b) { return std::floor(a / b); }, false},
      {5, "FMOD", [](double a, double b) { return std::fmod(a, b); }, false},
      {6, "GREATER", [](double a, double b) { return double(a > b); }, true},
      {7, "GREATER_EQUAL", [](double a, double b) { return double(a >= b); }, true},
      {8, "LESS", [](double a, double b) { return double(a < b); }, true},
      {9, "LESS_EQUAL", [](double a, double b) { return double(a <= b); }, true},
      {10, "MAXIMUM", [](double a, double b) { return std::max(a, b); }, false},
      {11, "MINIMUM", [](double a, double b) { return std::min(a, b); }, false},
      {13, "MULTIPLY", [](double a, double b) { return a * b; }, false},
      {14, "NOT_EQUAL", [](double a, double b) { return double(a != b); }, true},
      {16, "POWER", [](double a, double b) { return std::pow(std::fabs(a), b); }, false},
      {17, "SQUARED_DIFFERENCE", [](double a, double b) { return (a - b) * (a - b); }, false},
      {18, "SUBTRACT", [](double a, double b) { return a - b; }, false},
  };
  const Dims da = {2, 3}, db = {3};
  CaseRng rng(101);
  for (const B& b : bs) {
    // Small integers (as floats) so comparisons meet equal values; divisors away from 0.
    std::vector<float> x(6), y(3);
    for (auto& v : x) v = float(int(rng.next() % 7) - 3) + (b.op == 16 ? 0.f : 0.5f);
    for (auto& v : y) v = float(int(rng.next() % 3) + 1) * ((rng.next() & 1) ? 1.f : -1.f);
    if (b.op == 16)
      for (auto& v : x) v = std::fabs(v) + 0.5f;   // POWER: positive bases
    std::vector<float> want(6);
    std::vector<uint8_t> wantBool(6);
    for (size_t i = 0; i < 6; ++i) {
      const double r = b.f(x[i], y[i % 3]);
      want[i] = float(r);
      wantBool[i] = r != 0;
    }
    CaseTensor out = b.boolOut ? makeTensor(DType::kBool8, da, wantBool) : f32Tensor(da, want);
    c.push_back(makeCase(std::string("ElementWiseBinary_") + b.tag, "ElementWiseBinary",
                         {f32Tensor(da, x), f32Tensor(db, y)}, {out}, {{"operation", sdk::scalarU32(b.op)}}, 1e-6,
                         1e-5));
  }
  // MOD (integer types): the remainder with the divisor's sign.
  const std::vector<int32_t> ma = {7, -7, 5, -5, 3, 0}, mb = {3, -3, 4};
  std::vector<int32_t> mw(6);
  for (size_t i = 0; i < 6; ++i) mw[i] = int32_t(ma[i] - mb[i % 3] * std::floor(double(ma[i]) / mb[i % 3]));
  c.push_back(makeCase("ElementWiseBinary_MOD_int32", "ElementWiseBinary",
                       {makeTensor(DType::kInt32, da, ma), makeTensor(DType::kInt32, db, mb)},
                       {makeTensor(DType::kInt32, da, mw)}, {{"operation", sdk::scalarU32(12)}}));
  // AND / OR / XOR on bool.
  const std::vector<uint8_t> p = {0, 0, 1, 1}, q = {0, 1, 0, 1};
  const struct { uint32_t op; const char* tag; std::vector<uint8_t> want; } logic[] = {
      {1, "AND", {0, 0, 0, 1}}, {15, "OR", {0, 1, 1, 1}}, {19, "XOR", {0, 1, 1, 0}}};
  for (const auto& l : logic)
    c.push_back(makeCase(std::string("ElementWiseBinary_") + l.tag, "ElementWiseBinary",
                         {makeTensor(DType::kBool8, {4}, p), makeTensor(DType::kBool8, {4}, q)},
                         {makeTensor(DType::kBool8, {4}, l.want)}, {{"operation", sdk::scalarU32(l.op)}}));
}

void unaryCases(std::vector<OpCase>& c) {
  struct U { uint32_t op; const char* tag; std::function<double(double)> f; float lo, hi; };
  const U us[] = {
      {0, "ABS", [](double x) { return std::fabs(x); }, -2, 2},
      {1, "ASIN", [](double x) { return std::asin(x); }, -0.9f, 0.9f},
      {2, "ATAN", [](double x) { return std::atan(x); }, -3, 3},
      {3, "CEIL", [](double x) { return std::ceil(x); }, -3, 3},
      {4, "COS", [](double x) { return std::cos(x); }, -3, 3},
      {5, "EXP", [](double x) { return std::exp(x); }, -3, 3},
      {6, "FLOOR", [](double x) { return std::floor(x); }, -3, 3},
      {7, "LOG", [](double x) { return std::log(x); }, 0.1f, 4},
      {8, "NEG", [](double x) { return -x; }, -3, 3},
      {10, "RECIPROCAL", [](double x) { return 1.0 / x; }, 0.25f, 4},
      {11, "ROUND", [](double x) { return std::round(x); }, -3.4f, 3.4f},
      {12, "RSQRT", [](double x) { return 1.0 / std::sqrt(x); }, 0.1f, 4},
      {13, "SIGN", [](double x) { return double((x > 0) - (x < 0)); }, -3, 3},
      {14, "SIN", [](double x) { return std::sin(x); }, -3, 3},
      {15, "SQRT", [](double x) { return std::sqrt(x); }, 0, 4},
  };
  CaseRng rng(103);
  for (const U& u : us) {
    auto x = rng.floats(10, u.lo, u.hi);
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = float(u.f(x[i]));
    c.push_back(makeCase(std::string("ElementWiseUnary_") + u.tag, "ElementWiseUnary", {f32Tensor({2, 5}, x)},
                         {f32Tensor({2, 5}, want)}, {{"operation", sdk::scalarU32(u.op)}}, 1e-6, 1e-5));
  }
  c.push_back(makeCase("ElementWiseUnary_NOT", "ElementWiseUnary", {makeTensor(DType::kBool8, {3}, std::vector<uint8_t>{0, 1, 0})},
                       {makeTensor(DType::kBool8, {3}, std::vector<uint8_t>{1, 0, 1})}, {{"operation", sdk::scalarU32(9)}}));
}

void neuronCases(std::vector<OpCase>& c) {
  struct N { uint32_t op; const char* tag; std::function<double(double)> f; Params extra; };
  const N ns[] = {
      {0, "ELU", [](double x) { return x > 0 ? x : 0.7 * std::expm1(x); }, {{"alpha", sdk::scalarF32(0.7f)}}},
      {1, "GELU", [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }, {}},
      {2, "HARD_SIGMOID", [](double x) { return std::min(1.0, std::max(0.0, 0.25 * x + 0.4)); },
       {{"alpha", sdk::scalarF32(0.25f)}, {"beta", sdk::scalarF32(0.4f)}}},
      {3, "HARD_SWISH", [](double x) { return x * std::min(std::max(x + 3, 0.0), 6.0) / 6; }, {}},
      {4, "RELU", [](double x) { return std::max(x, 0.0); }, {}},
      {5, "RELU_MIN_MAX", [](double x) { return std::min(std::max(x, -1.0), 1.5); },
       {{"min_value", sdk::scalarF32(-1.f)}, {"max_value", sdk::scalarF32(1.5f)}}},
      {6, "SIGMOID", [](double x) { return 1 / (1 + std::exp(-x)); }, {}},
      {7, "SOFTPLUS", [](double x) { return std::log1p(std::exp(x)); }, {}},
      {8, "TANH", [](double x) { return std::tanh(x); }, {}},
  };
  CaseRng rng(107);
  for (const N& n : ns) {
    auto x = rng.floats(12, -4.f, 4.f);
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = float(n.f(x[i]));
    Params params = n.extra;
    params.push_back({"operation", sdk::scalarU32(n.op)});
    c.push_back(makeCase(std::string("ElementWiseNeuron_") + n.tag, "ElementWiseNeuron", {f32Tensor({3, 4}, x)},
                         {f32Tensor({3, 4}, want)}, params, 1e-5, 1e-4));
  }
}

std::vector<OpCase> genericCases() {
  std::vector<OpCase> c;
  binaryCases(c);
  unaryCases(c);
  neuronCases(c);
  return c;
}

}  // namespace

static const bool kReg = qnn::conformance::registerCaseSource("generic_elementwise", genericCases);

}  // namespace qnn::conformance
