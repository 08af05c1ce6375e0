// Fixed-point conformance cases of Cast (every pair of the HTP's Cast datatypes;
// encodings are present and must be ignored) and ElementWisePower (8- and 16-bit
// bases; static scalar exponents that the kernel turns into a table, static and
// dynamic per-element exponents of every exponent datatype, broadcasting up to
// rank 5). Expected outputs: reference_fixed_point.cpp.
#include <algorithm>
#include <cmath>
#include <limits>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {
namespace {

using fxref::Dims;

std::string castTag(DType t) {
  switch (t) {
    case DType::kFloat32: return "f32";
    case DType::kInt32: return "i32";
    case DType::kUInt32: return "u32";
    case DType::kUFixed8: return "ufp8";
    case DType::kSFixed8: return "sfp8";
    case DType::kBool8: return "bool";
    case DType::kUInt8: return "uint8";
    case DType::kUFixed16: return "ufp16";
    default: return "t";
  }
}

// Source values of a Cast case, exact in double: ranges that make the target
// wrap or saturate, fractions either side of zero, and the float specials.
std::vector<double> castInputs(CaseRng& rng, DType from, size_t n) {
  std::vector<double> v(n);
  Ints ints;
  switch (from) {
    case DType::kFloat32: {
      const std::vector<float> f = rng.floats(n, -400.f, 70000.f);
      const float inf = std::numeric_limits<float>::infinity();
      const float specials[] = {-0.5f, 0.5f, 1.999f, -1.999f, 255.7f, 256.f, -129.f, 65535.9f,
                                3e9f,  -3e9f, 5e9f,  inf,     -inf,   std::nanf(""), 0.f, -0.f};
      for (size_t i = 0; i < n; ++i) v[i] = double(i < 16 ? specials[i] : f[i]);
      for (size_t i = 16; i < n; i += 3) v[i] = double(float(rng.uniform(-3.f, 3.f)));  // small values too
      return v;
    }
    case DType::kInt32:
      ints = randomInts(rng, n, -70000, 70000);
      ints[0] = INT32_MIN, ints[1] = INT32_MAX, ints[2] = -1, ints[3] = 256, ints[4] = 0;
      break;
    case DType::kUInt32:  // the HTP constraint: 0..INT32_MAX
      ints = randomInts(rng, n, 0, 140000);
      ints[0] = INT32_MAX, ints[1] = 65536, ints[2] = 0, ints[3] = 255;
      break;
    case DType::kBool8: ints = randomInts(rng, n, 0, 1); break;
    case DType::kSFixed8: ints = randomInts(rng, n, -128, 127); ints[0] = 0; break;
    case DType::kUFixed16: ints = randomInts(rng, n, 0, 65535); ints[0] = 0; break;
    default: ints = randomInts(rng, n, 0, 255); ints[0] = 0; break;
  }
  for (size_t i = 0; i < n; ++i) v[i] = double(ints[i]);
  return v;
}

// A tensor of `values` (exact in `dtype`); fixed-point tensors get an arbitrary
// encoding that Cast must ignore.
CaseTensor castTensor(DType dtype, const Dims& d, const std::vector<double>& values) {
  if (dtype == DType::kFloat32) {
    std::vector<float> f(values.begin(), values.end());
    return f32Tensor(d, f);
  }
  Ints q(values.size());
  for (size_t i = 0; i < q.size(); ++i) q[i] = int64_t(values[i]);
  return qTensor(dtype, d, q, Enc{0.037f, dtype == DType::kSFixed8 ? 0 : -11});
}

std::vector<OpCase> castCases() {
  const DType types[] = {DType::kFloat32, DType::kInt32, DType::kUInt32, DType::kUFixed8,
                         DType::kSFixed8, DType::kBool8, DType::kUInt8,  DType::kUFixed16};
  std::vector<OpCase> out;
  uint64_t seed = 3100;
  const Dims d{2, 3, 4, 5};
  for (DType from : types)
    for (DType to : types) {
      CaseRng rng(seed++);
      const std::vector<double> x = castInputs(rng, from, elementCount(d));
      std::vector<double> y(x.size());
      for (size_t i = 0; i < x.size(); ++i) y[i] = fxref::castValue(x[i], from, to);
      OpCase c;
      c.name = "Cast_" + castTag(from) + "_to_" + castTag(to);
      c.opType = "Cast";
      c.inputs = {castTensor(from, d, x)};
      c.expected = {castTensor(to, d, y)};
      c.atol = c.rtol = 0;
      out.push_back(std::move(c));
    }
  return out;
}

// ---------------------------------------------------------------------------
enum class ExponentKind { kStaticScalarInt, kStaticScalarFloat, kStaticScalarFixed, kStaticFloatVector,
                          kDynamicInt, kDynamicFixed };

struct PowerSpec {
  const char* tag;
  ExponentKind kind;
  DType exponentType;
  double baseLo, baseHi;  // real range of the base
};

std::vector<OpCase> powerCases() {
  const PowerSpec specs[] = {
      {"square_static_i32", ExponentKind::kStaticScalarInt, DType::kInt32, -2.5, 3.0},
      {"sqrt_static_f32", ExponentKind::kStaticScalarFloat, DType::kFloat32, -0.5, 9.0},
      {"static_scalar_sfp8", ExponentKind::kStaticScalarFixed, DType::kSFixed8, 0.0, 4.0},
      {"static_vector_f32", ExponentKind::kStaticFloatVector, DType::kFloat32, 0.0, 3.0},
      {"dynamic_i32_negative", ExponentKind::kDynamicInt, DType::kInt32, -2.0, 2.0},
      {"dynamic_ufp8", ExponentKind::kDynamicFixed, DType::kUFixed8, 0.0, 2.5},
      {"dynamic_sfp8", ExponentKind::kDynamicFixed, DType::kSFixed8, 0.1, 2.5},
      {"dynamic_ufp16", ExponentKind::kDynamicFixed, DType::kUFixed16, 0.0, 2.5},
      {"dynamic_sfp16", ExponentKind::kDynamicFixed, DType::kSFixed16, 0.1, 2.5},
  };
  std::vector<OpCase> out;
  uint64_t seed = 3300;
  for (const PowerSpec& s : specs)
    for (DType t : {DType::kUFixed8, DType::kUFixed16}) {
      CaseRng rng(seed++);
      const Enc ea = encodingCovering(s.baseLo, s.baseHi, t);
      const bool scalar = s.kind == ExponentKind::kStaticScalarInt || s.kind == ExponentKind::kStaticScalarFloat ||
                          s.kind == ExponentKind::kStaticScalarFixed;
      // Scalar exponents: every stored 8-bit base (a sample at 16 bits); else a
      // rank-5 base broadcast against a rank-3 exponent.
      Dims ad, pd;
      Ints a;
      if (scalar) {
        if (t == DType::kUFixed8)
          for (int64_t v = 0; v <= 255; ++v) a.push_back(v);
        else {
          a = randomInts(rng, 512, t);
          a[0] = 0, a[1] = 65535, a[2] = std::clamp<int64_t>(-ea.offset, 0, 65535);
        }
        ad = {uint32_t(a.size() / 16), 16};
        pd = {1};
      } else {
        ad = {2, 1, 3, 4, 5};
        pd = {3, 1, 5};
        a = randomInts(rng, elementCount(ad), t);
      }
      const size_t np = elementCount(pd);
      std::vector<double> p(np);
      CaseTensor exponent;
      switch (s.kind) {
        case ExponentKind::kStaticScalarInt:
        case ExponentKind::kDynamicInt: {
          Ints e = scalar ? Ints{2} : randomInts(rng, np, -2, 3);
          for (size_t i = 0; i < np; ++i) p[i] = double(e[i]);
          exponent = qTensor(DType::kInt32, pd, e, {}, scalar);
          break;
        }
        case ExponentKind::kStaticScalarFloat:
        case ExponentKind::kStaticFloatVector: {
          std::vector<float> e = scalar ? std::vector<float>{0.5f} : rng.floats(np, -1.5f, 2.5f);
          for (size_t i = 0; i < np; ++i) p[i] = double(e[i]);
          exponent = f32Tensor(pd, e, true);
          break;
        }
        case ExponentKind::kStaticScalarFixed:
        case ExponentKind::kDynamicFixed: {
          const DType et = s.exponentType;
          const Enc ee = encodingCovering(-1.0, 3.0, et);
          Ints e = randomInts(rng, np, et);
          if (scalar) e = {fxref::quantize(1.5, ee, et)};
          for (size_t i = 0; i < np; ++i) p[i] = double(fxref::dequantize(e[i], ee));
          exponent = qTensor(et, pd, e, ee, scalar);
          break;
        }
      }
      // The output range: the results' finite values (capped), so some saturate.
      double lo = 0, hi = 0;
      for (int64_t v : a)
        for (double pe : p) {
          const double r = std::pow(double(fxref::dequantize(v, ea)), pe);
          if (std::isfinite(r)) lo = std::min(lo, r), hi = std::max(hi, r);
        }
      const Enc eo = encodingCovering(lo, std::min(hi, 30.0), t);
      Dims od;
      const Ints q = fxref::power(a, ad, ea, p, pd, eo, t, &od);
      OpCase c;
      c.name = std::string("ElementWisePower_") + s.tag + "_" + typeTag(t);
      c.opType = "ElementWisePower";
      c.inputs = {qTensor(t, ad, a, ea), exponent};
      c.expected = {qTensor(t, od, q, eo)};
      out.push_back(std::move(c));
    }
  return out;
}

const bool kRegistered =
    registerFixedPointCaseSource("Cast", castCases) && registerFixedPointCaseSource("Power", powerCases);

}  // namespace
}  // namespace qnn::conformance
