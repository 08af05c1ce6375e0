// Builders for fixed-point conformance cases: quantized case tensors from
// stored integer values, random values over a dtype's range, output encodings
// that cover a range of reals, and the dtype configurations every op runs in.
#pragma once

#include <string>
#include <vector>

#include "tests/conformance/op_case.h"
#include "tests/conformance/reference_fixed_point.h"

namespace qnn::conformance {

using fxref::Enc;
using fxref::Ints;

// A per-tensor (scale, offset) quantized tensor of stored values.
CaseTensor qTensor(DType dtype, std::vector<uint32_t> dims, const Ints& values, Enc enc, bool isStatic = false);
// A per-axis quantized tensor.
CaseTensor qTensorAxis(DType dtype, std::vector<uint32_t> dims, const Ints& values, const std::vector<Enc>& enc,
                       int32_t axis, bool isStatic = true);
// Uniform stored values over [lo, hi] (or the dtype's whole range).
Ints randomInts(CaseRng& rng, size_t n, DType dtype);
Ints randomInts(CaseRng& rng, size_t n, int64_t lo, int64_t hi);
// An encoding of `dtype` whose range covers [lo, hi] with ~5% headroom trimmed
// off both ends, so some values saturate.
// pow2: the scale rounded up to a power of two, so requantization hits exact
// .5 ties often (the rounding rule is then visible in the results).
Enc encodingCovering(double lo, double hi, DType dtype, bool pow2 = false);

// Activation / weight datatype configuration of one case.
struct QuantConfig {
  std::string tag;
  DType act;
  DType weight;
  bool perChannel;
  int32_t weightOffset;  // per-tensor weights: the offset (-zero point)
  bool pow2 = false;     // power-of-two scales everywhere: many exact rounding ties
};
// 8 and 16 bit activations, per-tensor and per-channel weights, signed and
// asymmetric unsigned weights.
const std::vector<QuantConfig>& weightedConfigs();
// Activation types of the element-wise and data-movement cases.
const std::vector<DType>& activationTypes();
std::string typeTag(DType t);
// Number of elements of a tensor of dims d.
inline size_t elementCount(const std::vector<uint32_t>& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

}  // namespace qnn::conformance
