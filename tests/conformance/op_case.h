// One conformance case: an op type, its inputs and params, and the outputs an
// independent reference computed (plain loops in tests/conformance/reference_*,
// never the kernels under test). Runners execute the case on a backend and
// compare with the stated tolerances.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/op_params.h"
#include "core/tensor_view.h"

namespace qnn::conformance {

using sdk::DType;
using sdk::ParamValue;
using sdk::QuantInfo;

struct CaseTensor {
  DType dtype = DType::kFloat32;
  std::vector<uint32_t> dims;
  std::vector<uint8_t> bytes;  // inputs: the data; outputs: the expected data
  QuantInfo quant;
  bool isStatic = false;       // inputs only: passed as a STATIC tensor (weights)
  bool isNull = false;         // inputs only: an absent optional input (a NULL tensor of rank 0)

  size_t numElements() const {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return n;
  }
  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(bytes.data()); }
  template <typename T>
  std::vector<T> values() const {
    std::vector<T> v(numElements());
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
  }
};

template <typename T>
CaseTensor makeTensor(DType dtype, std::vector<uint32_t> dims, const std::vector<T>& values,
                      bool isStatic = false) {
  CaseTensor t;
  t.dtype = dtype;
  t.dims = std::move(dims);
  t.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  t.isStatic = isStatic;
  return t;
}
inline CaseTensor f32Tensor(std::vector<uint32_t> dims, const std::vector<float>& v, bool isStatic = false) {
  return makeTensor(DType::kFloat32, std::move(dims), v, isStatic);
}

// An absent optional input in the middle of an op's input list.
inline CaseTensor nullTensor() {
  CaseTensor t;
  t.isNull = true;
  return t;
}

struct OpCase {
  std::string name;    // unique, e.g. "Conv2d/stride2_pad1_odd"
  std::string opType;  // QNN op type, package qti.aisw
  std::vector<CaseTensor> inputs;
  std::vector<std::pair<std::string, ParamValue>> params;
  std::vector<CaseTensor> expected;  // dims + dtype + expected bytes of every output
  // Float outputs pass when |got - want| <= atol + rtol * |want|; integer and
  // bool outputs must match exactly.
  double atol = 1e-5;
  double rtol = 1e-5;
  // Fixed-point outputs compared as real values, (q + offset) * scale, within atol/rtol (cases whose
  // expected values are the float reference quantized, not the backend's exact integer result).
  bool fixedPointAsReal = false;
};

// A case with exact (integer) or given float tolerances.
inline OpCase makeCase(std::string name, std::string op, std::vector<CaseTensor> in, std::vector<CaseTensor> out,
                       std::vector<std::pair<std::string, ParamValue>> params = {}, double atol = 0, double rtol = 0) {
  OpCase c;
  c.name = std::move(name);
  c.opType = std::move(op);
  c.inputs = std::move(in);
  c.expected = std::move(out);
  c.params = std::move(params);
  c.atol = atol;
  c.rtol = rtol;
  return c;
}

// Test output names a case by its name, not its bytes.
inline void PrintTo(const OpCase& c, std::ostream* os) { *os << c.name; }

// Deterministic pseudo-random data for cases (xorshift; same on every machine).
class CaseRng {
 public:
  explicit CaseRng(uint64_t seed) : s_(seed * 2654435761u + 1) {}
  uint32_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return static_cast<uint32_t>(s_ >> 11);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * (next() % 1000003) / 1000003.0f; }
  std::vector<float> floats(size_t n, float lo = -1.f, float hi = 1.f) {
    std::vector<float> v(n);
    for (auto& x : v) x = uniform(lo, hi);
    return v;
  }

 private:
  uint64_t s_;
};

// Case sources register themselves at static-init time:
//   static const bool kRegistered = registerCaseSource("Conv2d", conv2dCases);
using CaseSource = std::function<std::vector<OpCase>()>;
bool registerCaseSource(const std::string& family, CaseSource source);
// Every case of every registered source, in registration-independent (sorted) order; built on the
// first call (after static initialization has registered the sources).
const std::vector<OpCase>& allCases();

// Fixed-point cases: quantized tensors whose expected outputs follow the integer
// rule of docs/htp-fixed-point.md (reference_fixed_point.*). Backends that
// implement that rule (htp_sim) must match them bit-exactly; they are kept apart
// from allCases() because float-emulating backends (cpu) round differently.
bool registerFixedPointCaseSource(const std::string& family, CaseSource source);
const std::vector<OpCase>& allFixedPointCases();

}  // namespace qnn::conformance
