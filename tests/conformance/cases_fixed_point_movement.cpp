// Fixed-point conformance cases of the data-movement ops, each with the output
// in the input's encoding (a pure copy) and in a different encoding
// (requantized with the fixed-point rule). Expected outputs: moveByCoordinates
// + requantizeValues of reference_fixed_point.cpp.
#include <algorithm>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {
namespace {

using fxref::Dims;
using Params = std::vector<std::pair<std::string, ParamValue>>;
using Coord = std::vector<long>;

size_t count(const Dims& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

ParamValue u32s(std::vector<uint32_t> dims, std::vector<uint32_t> v) { return sdk::tensorU32(std::move(dims), v); }

struct MoveSpec {
  std::string name, op;
  Dims x, out;
  Params params;
  fxref::CoordinateMap where;
  int64_t padStored = 0;  // stored value (in x's encoding) of padded elements
};

Enc encodingA(DType t) { return encodingCovering(-2.0, 6.0, t); }
Enc encodingB(DType t) { return encodingCovering(-1.0, 3.5, t); }

std::vector<OpCase> singleInputCases() {
  std::vector<MoveSpec> specs;
  specs.push_back({"Reshape", "Reshape", {2, 3, 4}, {6, 4}, {}, [](const Coord& o, Coord* i) {
                     const long flat = o[0] * 4 + o[1];
                     *i = {flat / 12, flat / 4 % 3, flat % 4};
                     return true;
                   }});
  specs.push_back({"Squeeze", "Squeeze", {1, 3, 1, 4}, {3, 4}, {}, [](const Coord& o, Coord* i) {
                     *i = {0, o[0], 0, o[1]};
                     return true;
                   }});
  specs.push_back({"ExpandDims", "ExpandDims", {3, 4}, {3, 1, 4}, {{"axis", sdk::scalarU32(1)}},
                   [](const Coord& o, Coord* i) {
                     *i = {o[0], o[2]};
                     return true;
                   }});
  specs.push_back({"Transpose_0231", "Transpose", {2, 3, 4, 5}, {2, 4, 5, 3}, {{"perm", u32s({4}, {0, 2, 3, 1})}},
                   [](const Coord& o, Coord* i) {
                     *i = {o[0], o[3], o[1], o[2]};
                     return true;
                   }});
  specs.push_back({"Tile_2x3", "Tile", {2, 3}, {4, 9}, {{"multiples", u32s({2}, {2, 3})}},
                   [](const Coord& o, Coord* i) {
                     *i = {o[0] % 2, o[1] % 3};
                     return true;
                   }});
  // ranges rows: [1,5,2], [-1,0,-2] (backwards), [0,7,3] with begin_mask on axis 2.
  specs.push_back({"StridedSlice_negative_stride", "StridedSlice", {5, 6, 7}, {2, 3, 3},
                   {{"ranges", sdk::tensorI32({3, 3}, {1, 5, 2, -1, 0, -2, 4, 7, 3})}, {"begin_mask", sdk::scalarU32(4)}},
                   [](const Coord& o, Coord* i) {
                     *i = {1 + 2 * o[0], 5 - 2 * o[1], 3 * o[2]};
                     return true;
                   }});
  specs.push_back({"StridedSlice_shrink", "StridedSlice", {5, 6, 7}, {6, 3},
                   {{"ranges", sdk::tensorI32({3, 3}, {2, 3, 1, 0, 6, 1, 1, 6, 2})}, {"shrink_axes", sdk::scalarU32(1)}},
                   [](const Coord& o, Coord* i) {
                     *i = {2, o[0], 1 + 2 * o[1]};
                     return true;
                   }});
  const Dims padX{2, 3, 4};
  auto padded = [](long before1, long before2, std::function<long(long, long)> source) {
    return [=](const Coord& o, Coord* i) {
      const long a = source(o[1] - before1, 3), b = source(o[2] - before2, 4);
      if (a < 0 || b < 0) return false;
      *i = {o[0], a, b};
      return true;
    };
  };
  auto constant = [](long v, long n) { return v >= 0 && v < n ? v : -1; };
  auto reflect = [](long v, long n) { return v < 0 ? -v : v >= n ? 2 * n - 2 - v : v; };
  auto edge = [](long v, long n) { return v < 0 ? 0 : v >= n ? n - 1 : v; };
  const ParamValue padAmount = u32s({3, 2}, {0, 0, 1, 2, 2, 1});
  specs.push_back({"Pad_constant_int", "Pad", padX, {2, 6, 7},
                   {{"scheme", sdk::scalarU32(0)}, {"pad_amount", padAmount}, {"pad_constant_value", sdk::scalarI32(7)}},
                   padded(1, 2, constant), 7});
  specs.push_back({"Pad_reflect", "Pad", padX, {2, 6, 7}, {{"scheme", sdk::scalarU32(2)}, {"pad_amount", padAmount}},
                   padded(1, 2, reflect)});
  specs.push_back({"Pad_edge", "Pad", padX, {2, 6, 7}, {{"scheme", sdk::scalarU32(3)}, {"pad_amount", padAmount}},
                   padded(1, 2, edge)});

  std::vector<OpCase> out;
  uint64_t seed = 1300;
  for (const auto& s : specs)
    for (DType t : activationTypes())
      for (bool same : {true, false}) {
        CaseRng rng(seed++);
        const Enc ex = encodingA(t), eo = same ? ex : encodingB(t);
        const Ints x = randomInts(rng, count(s.x), t);
        const Ints moved = fxref::moveByCoordinates(x, s.x, s.out, s.where, s.padStored);
        OpCase c;
        c.name = s.name + "_" + typeTag(t) + (same ? "_copy" : "_requantized");
        c.opType = s.op;
        c.inputs = {qTensor(t, s.x, x, ex)};
        c.params = s.params;
        c.expected = {qTensor(t, s.out, fxref::requantizeValues(moved, ex, eo, t), eo)};
        out.push_back(std::move(c));
      }
  // A float pad constant is a real value, quantized with in[0]'s encoding.
  for (DType t : activationTypes()) {
    CaseRng rng(seed++);
    const Enc ex = encodingA(t), eo = encodingB(t);
    const Ints x = randomInts(rng, count(padX), t);
    const int64_t padStored = fxref::quantize(0.5, ex, t);
    const Ints moved = fxref::moveByCoordinates(x, padX, {2, 6, 7}, padded(1, 2, constant), padStored);
    OpCase c;
    c.name = std::string("Pad_constant_float_") + typeTag(t);
    c.opType = "Pad";
    c.inputs = {qTensor(t, padX, x, ex)};
    c.params = {{"scheme", sdk::scalarU32(0)}, {"pad_amount", padAmount}, {"pad_constant_value", sdk::scalarF32(0.5f)}};
    c.expected = {qTensor(t, {2, 6, 7}, fxref::requantizeValues(moved, ex, eo, t), eo)};
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<OpCase> multiTensorCases() {
  std::vector<OpCase> out;
  uint64_t seed = 1500;
  for (DType t : activationTypes()) {
    // Concat of three inputs with three encodings along axis 1.
    {
      CaseRng rng(seed++);
      const std::vector<Dims> dims = {{2, 3, 4}, {2, 1, 4}, {2, 2, 4}};
      const std::vector<Enc> encs = {encodingA(t), encodingB(t), encodingCovering(-4.0, 1.0, t)};
      const Enc eo = encodingCovering(-3.0, 5.0, t);
      OpCase c;
      c.name = std::string("Concat_axis1_three_encodings_") + typeTag(t);
      c.opType = "Concat";
      c.params = {{"axis", sdk::scalarU32(1)}};
      std::vector<Ints> parts;
      for (size_t k = 0; k < 3; ++k) {
        const Ints x = randomInts(rng, count(dims[k]), t);
        c.inputs.push_back(qTensor(t, dims[k], x, encs[k]));
        parts.push_back(fxref::requantizeValues(x, encs[k], eo, t));
      }
      Ints expected;
      for (long b = 0; b < 2; ++b)
        for (size_t k = 0; k < 3; ++k)
          for (long r = 0; r < long(dims[k][1]); ++r)
            for (long j = 0; j < 4; ++j) expected.push_back(parts[k][(b * dims[k][1] + r) * 4 + j]);
      c.expected = {qTensor(t, {2, 6, 4}, expected, eo)};
      out.push_back(std::move(c));
    }
    // Split into three outputs with their own encodings.
    {
      CaseRng rng(seed++);
      const Dims xd{4, 6, 5};
      const Enc ex = encodingA(t);
      const Ints x = randomInts(rng, count(xd), t);
      OpCase c;
      c.name = std::string("Split_axis1_") + typeTag(t);
      c.opType = "Split";
      c.params = {{"axis", sdk::scalarU32(1)}, {"split_index", u32s({2}, {2, 5})}};
      c.inputs = {qTensor(t, xd, x, ex)};
      const long bounds[] = {0, 2, 5, 6};
      const Enc encs[] = {ex, encodingB(t), encodingCovering(0.0, 4.0, t)};
      for (int k = 0; k < 3; ++k) {
        const Dims od{4, uint32_t(bounds[k + 1] - bounds[k]), 5};
        const long from = bounds[k];
        const Ints moved = fxref::moveByCoordinates(x, xd, od, [from](const Coord& o, Coord* i) {
          *i = {o[0], o[1] + from, o[2]};
          return true;
        });
        c.expected.push_back(qTensor(t, od, fxref::requantizeValues(moved, ex, encs[k], t), encs[k]));
      }
      out.push_back(std::move(c));
    }
    // Gather along axis 1 with a negative index.
    for (bool same : {true, false}) {
      CaseRng rng(seed++);
      const Dims xd{5, 4, 3};
      const Enc ex = encodingA(t), eo = same ? ex : encodingB(t);
      const Ints x = randomInts(rng, count(xd), t);
      const std::vector<int32_t> idx = {3, 0, -1, 2, 2, 1};
      OpCase c;
      c.name = std::string("Gather_axis1_") + typeTag(t) + (same ? "_copy" : "_requantized");
      c.opType = "Gather";
      c.params = {{"axis", sdk::scalarI32(1)}};
      c.inputs = {qTensor(t, xd, x, ex), makeTensor(DType::kInt32, {2, 3}, idx)};
      const Dims od{5, 2, 3, 3};
      const Ints moved = fxref::moveByCoordinates(x, xd, od, [&idx](const Coord& o, Coord* i) {
        long k = idx[size_t(o[1] * 3 + o[2])];
        if (k < 0) k += 4;
        *i = {o[0], k, o[3]};
        return true;
      });
      c.expected = {qTensor(t, od, fxref::requantizeValues(moved, ex, eo, t), eo)};
      out.push_back(std::move(c));
    }
  }
  return out;
}

const bool kRegistered = registerFixedPointCaseSource("Movement", singleInputCases) &&
                         registerFixedPointCaseSource("MovementMulti", multiTensorCases);

}  // namespace
}  // namespace qnn::conformance
