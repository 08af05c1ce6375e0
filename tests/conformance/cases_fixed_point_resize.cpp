// Fixed-point conformance cases of Resize (ONNX), ResizeBilinear and
// ResizeNearestNeighbor (TensorFlow): the source taps are derived here from the
// op definitions, the integer interpolation is reference_fixed_point.cpp's.
#include <algorithm>
#include <cmath>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {
namespace {

using fxref::Dims;
using fxref::ResizeTap;

size_t count(const Dims& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

ResizeTap linear(double s, long in) {
  s = std::min(std::max(s, 0.0), double(in - 1));
  const long lo = long(std::floor(s));
  return {lo, std::min(lo + 1, in - 1), s - double(lo)};
}
ResizeTap nearest(double idx, long in) {
  const long i = std::min(std::max(long(idx), 0L), in - 1);
  return {i, i, 0.0};
}

// ONNX Resize: transformation 0 half_pixel, 1 pytorch_half_pixel, 2 align_corners, 3 asymmetric;
// nearest mode 0 round_prefer_floor, 1 round_prefer_ceil, 2 floor, 3 ceil.
std::vector<ResizeTap> onnxTaps(long in, long out, uint32_t transformation, bool isLinear, uint32_t nearestMode) {
  std::vector<ResizeTap> t;
  for (long o = 0; o < out; ++o) {
    const double scale = double(out) / double(in);
    double s = transformation == 0   ? (double(o) + 0.5) / scale - 0.5
               : transformation == 1 ? (out > 1 ? (double(o) + 0.5) / scale - 0.5 : 0.0)
               : transformation == 2 ? (out == 1 ? 0.0 : double(o) * double(in - 1) / double(out - 1))
                                     : double(o) / scale;
    if (isLinear) {
      t.push_back(linear(s, in));
      continue;
    }
    const bool tie = s - std::floor(s) == 0.5;
    const double idx = nearestMode == 0   ? (tie ? std::floor(s) : std::round(s))
                       : nearestMode == 1 ? (tie ? std::ceil(s) : std::round(s))
                       : nearestMode == 2 ? std::floor(s)
                                          : std::ceil(s);
    t.push_back(nearest(idx, in));
  }
  return t;
}

std::vector<ResizeTap> tfTaps(long in, long out, bool isLinear, bool alignCorners, bool halfPixel) {
  std::vector<ResizeTap> t;
  const double scale = alignCorners && out > 1 ? double(in - 1) / double(out - 1) : double(in) / double(out);
  for (long o = 0; o < out; ++o) {
    if (isLinear) {
      const double s = halfPixel ? (double(o) + 0.5) * scale - 0.5 : double(o) * scale;
      const long lo = std::max(long(std::floor(s)), 0L), hi = std::min(long(std::ceil(s)), in - 1);
      t.push_back({std::min(lo, in - 1), hi, s - std::floor(s)});
    } else {
      const double s = halfPixel ? (double(o) + 0.5) * scale : double(o) * scale;
      t.push_back(nearest(alignCorners ? std::round(s) : std::floor(s), in));
    }
  }
  return t;
}

std::vector<OpCase> resizeCases() {
  struct Spec {
    std::string name, op;
    Dims x, out;
    std::vector<std::pair<std::string, ParamValue>> params;
    std::vector<ResizeTap> rows, cols;
  };
  auto onnx = [](std::string name, Dims x, Dims out, uint32_t t, bool isLinear, uint32_t n) {
    return Spec{name, "Resize", x, out,
                {{"transformation_mode", sdk::scalarU32(t)}, {"interpolation_mode", sdk::scalarU32(isLinear)},
                 {"nearest_mode", sdk::scalarU32(n)}},
                onnxTaps(x[1], out[1], t, isLinear, n), onnxTaps(x[2], out[2], t, isLinear, n)};
  };
  auto tf = [](std::string name, bool isLinear, Dims x, Dims out, bool align, bool half) {
    return Spec{name, isLinear ? "ResizeBilinear" : "ResizeNearestNeighbor", x, out,
                {{"align_corners", sdk::scalarBool(align)}, {"half_pixel_centers", sdk::scalarBool(half)}},
                tfTaps(x[1], out[1], isLinear, align, half), tfTaps(x[2], out[2], isLinear, align, half)};
  };
  const std::vector<Spec> specs = {
      onnx("Resize_linear_half_pixel_up2", {1, 4, 5, 3}, {1, 8, 10, 3}, 0, true, 0),
      onnx("Resize_linear_align_corners", {1, 5, 4, 2}, {1, 7, 9, 2}, 2, true, 0),
      onnx("Resize_nearest_asymmetric_floor", {1, 4, 4, 3}, {1, 8, 6, 3}, 3, false, 2),
      onnx("Resize_nearest_half_pixel_down", {1, 9, 7, 2}, {1, 4, 3, 2}, 0, false, 0),
      tf("ResizeBilinear_half_pixel", true, {1, 4, 5, 3}, {1, 7, 8, 3}, false, true),
      tf("ResizeBilinear_align_corners", true, {2, 3, 4, 2}, {2, 5, 7, 2}, true, false),
      tf("ResizeNearestNeighbor_default", false, {1, 3, 5, 2}, {1, 6, 7, 2}, false, false),
      tf("ResizeNearestNeighbor_align_corners", false, {1, 4, 4, 2}, {1, 7, 3, 2}, true, false),
  };
  std::vector<OpCase> out;
  uint64_t seed = 2700;
  for (const auto& s : specs)
    for (DType t : activationTypes()) {
      CaseRng rng(seed++);
      const Enc ex = encodingCovering(-2, 6, t), eo = encodingCovering(-1, 5, t);
      const Ints x = randomInts(rng, count(s.x), t);
      OpCase c;
      c.name = s.name + "_" + typeTag(t);
      c.opType = s.op;
      c.inputs = {qTensor(t, s.x, x, ex)};
      c.params = s.params;
      c.expected = {qTensor(t, s.out, fxref::resize(x, s.x, ex, s.out, s.rows, s.cols, eo, t), eo)};
      out.push_back(std::move(c));
    }
  return out;
}

const bool kRegistered = registerFixedPointCaseSource("Resize", resizeCases);

}  // namespace
}  // namespace qnn::conformance
