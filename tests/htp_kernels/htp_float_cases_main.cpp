// The HTP simulator's data-movement kernels (and the fp16-mode Argmax and
// Argmin) on the float conformance cases of tests/conformance (the CPU
// backend's cases, whose expected outputs come from independent references): in
// fp32 graphs (values unrounded, exact) and, for the movement ops' integer path,
// the same cases with every float tensor quantized to UFIXED_POINT_8 under one
// encoding (movement must reproduce the quantized expected values exactly; real
// zero is the quantized zero). The ops run on real values through the shared
// float algorithms (real_valued.cpp) also take the cases in fp32 graphs, and
// quantized to UFIXED_POINT_16 (each float tensor under an encoding covering its
// values): their bytes must equal quantize(the shared algorithm on the
// dequantized inputs), the bridge's rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "htp_sim/kernels/htp_kernel.h"
#include "tests/conformance/kernel_case_runner.h"
#include "tests/conformance/real_valued_cases.h"

namespace qnn::conformance {
namespace {

const std::set<std::string> kOps = {"DepthToSpace", "SpaceToDepth", "BatchToSpace", "SpaceToBatch",
                                    "ChannelShuffle", "Pack", "UnPack", "ArgbToRgb", "ExtractPatches", "GatherElements",
                                    "GatherNd", "ScatterElements", "ScatterNd", "Argmax", "Argmin"};
// The fp16-mode kernels of float element-wise ops, run in fp32 graphs on the cases whose tensors are all
// float (bool conditions / results allowed).
const std::set<std::string> kFloatKernelOps = {
    "ElementWiseAtan",    "ElementWiseCeil",     "ElementWiseFloor",   "ElementWiseRound",
    "ElementWiseSign",    "ElementWiseUnary",    "ElementWiseFloorDiv", "Prelu",
    "ElementWiseEqual",   "ElementWiseNotEqual", "ElementWiseGreater", "ElementWiseGreaterEqual",
    "ElementWiseLess",    "ElementWiseLessEqual", "ElementWiseNot",    "ElementWiseSelect",
    // float graphs through the shared float algorithms
    "TransposeConv2d",    "Conv3d",              "TransposeConv3d",    "PoolAvg3d",
    "Batchnorm",          "InstanceNorm",        "Resize",             "ResizeBilinear",
    "ResizeNearestNeighbor", "OneHot"};
bool allFloatOrBool(const OpCase& c) {
  auto ok = [](const CaseTensor& t) { return t.dtype == DType::kFloat32 || t.dtype == DType::kBool8; };
  if (c.opType == "OneHot")  // int32 indices in, float out
    return c.inputs[0].dtype == DType::kInt32 && c.expected[0].dtype == DType::kFloat32;
  return std::all_of(c.inputs.begin(), c.inputs.end(), ok) && std::all_of(c.expected.begin(), c.expected.end(), ok) &&
         std::any_of(c.inputs.begin(), c.inputs.end(), [](const CaseTensor& t) { return t.dtype == DType::kFloat32; });
}
// Ops whose result is not a pure movement of values: fp32 only.
const std::set<std::string> kFloatOnly = {"Argmax", "Argmin"};
std::unique_ptr<htp::Kernel> fp32Kernel(const std::string& op) {
  auto k = htp::findKernel(op)(op);
  k->setNumericMode(sdk::NumericMode{});  // fp32: values unrounded
  return k;
}

// Cases the HTP movement kernels take: float, int32/uint32 (indices), uint8, bool tensors; no scatter reduction.
bool htpMovable(const OpCase& c) {
  auto ok = [](const CaseTensor& t) {
    return t.dtype == DType::kFloat32 || t.dtype == DType::kInt32 || t.dtype == DType::kUInt32 ||
           t.dtype == DType::kUInt8 || t.dtype == DType::kBool8 || t.dtype == DType::kUFixed8;
  };
  for (auto& [name, value] : c.params)
    if (name == "reduction" && value.scalarAsDouble() != 0) return false;  // the HTP scatters take NONE only
  return std::all_of(c.inputs.begin(), c.inputs.end(), ok) && std::all_of(c.expected.begin(), c.expected.end(), ok);
}

// Float tensors as UFIXED_POINT_8 with scale 1/64, offset -128 (values of the cases lie in [-2, 2)).
void toUFixed8(CaseTensor* t) {
  if (t->dtype != DType::kFloat32) return;
  std::vector<float> v = t->values<float>();
  std::vector<uint8_t> q(v.size());
  for (size_t i = 0; i < v.size(); ++i) q[i] = uint8_t(std::clamp(std::lround(v[i] * 64.f) + 128, 0L, 255L));
  t->dtype = DType::kUFixed8;
  t->bytes = q;
  t->quant.kind = QuantInfo::Kind::kScaleOffset;
  t->quant.scale = 1.f / 64;
  t->quant.offset = -128;
}

class HtpMovementCase : public ::testing::Test {
 public:
  HtpMovementCase(OpCase c, bool quantized) : case_(std::move(c)), quantized_(quantized) {}
  void TestBody() override {
    if (!quantized_) return runCaseOnKernel(case_, fp32Kernel, case_.atol, case_.rtol, 2);
    if (isRealValuedHtpOp(case_.opType)) return runCaseOnKernel(quantizedRealValuedCase(case_), htp::findKernel(case_.opType), 0, 0, 2);
    OpCase q = case_;
    for (auto& t : q.inputs) toUFixed8(&t);
    for (auto& t : q.expected) toUFixed8(&t);
    runCaseOnKernel(q, htp::findKernel(q.opType), 0, 0, 2);
  }

 private:
  OpCase case_;
  bool quantized_;
};

}  // namespace
}  // namespace qnn::conformance

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (auto& c : qnn::conformance::allCases()) {
    if (qnn::conformance::kFloatKernelOps.count(c.opType)) {
      if (!qnn::conformance::allFloatOrBool(c)) continue;
      std::string suite = "HtpFloatKernelFp32_" + c.opType;
      ::testing::RegisterTest(suite.c_str(), c.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [c]() -> ::testing::Test* { return new qnn::conformance::HtpMovementCase(c, false); });
      continue;
    }
    const bool real = qnn::conformance::isRealValuedHtpOp(c.opType);
    if (!real && (!qnn::conformance::kOps.count(c.opType) || !qnn::conformance::htpMovable(c))) continue;
    for (bool quantized : {false, true}) {
      if (quantized && qnn::conformance::kFloatOnly.count(c.opType)) continue;
      std::string suite = std::string(real ? (quantized ? "HtpRealValuedUFixed16_" : "HtpRealValuedFp32_")
                                           : (quantized ? "HtpMovementUFixed8_" : "HtpMovementFp32_")) +
                          c.opType;
      ::testing::RegisterTest(suite.c_str(), c.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [c, quantized]() -> ::testing::Test* {
                                return new qnn::conformance::HtpMovementCase(c, quantized);
                              });
    }
  }
  return RUN_ALL_TESTS();
}
