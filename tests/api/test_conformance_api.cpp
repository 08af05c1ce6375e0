// Runs every conformance case through the QNN C API on each backend library:
// one single-node graph per case, executed and compared with the independent
// reference's expected outputs.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "tests/api/api_case_runner.h"

namespace qnn::test {
namespace {

class ApiCase : public ::testing::TestWithParam<OpCase> {};

std::shared_ptr<LoadedBackend> cpuBackend() {
  static auto lib = std::make_shared<LoadedBackend>(cpuBackendPath());
  return lib;
}

TEST_P(ApiCase, MatchesReferenceOnCpu) {
  auto lib = cpuBackend();
  ASSERT_TRUE(lib->ok()) << lib->error();
  runCaseThroughApi(lib.get(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(Conformance, ApiCase, ::testing::ValuesIn(conformance::allCases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });

// The CPU backend runs float kernels on fixed-point tensors and quantizes their
// outputs as ONNX Runtime's QuantizeLinear does (the Quantize_float32_quotient_ties
// case states the rule): Relu on 0.05f * q (float32 products, as DequantizeLinear:
// 0.35f, 0.45f, 0.75f, 0.85f, 0.95f, 1.15f) requantized to scale 0.1 gives the
// float32 quotients 3.5, 4.5, 7.5, 8.5, 9.5, 11.5, rounded half to even.
TEST(CpuFloatEmulation, OutputsRoundTheFloat32QuotientHalfToEven) {
  auto lib = cpuBackend();
  ASSERT_TRUE(lib->ok()) << lib->error();
  auto u8 = [](std::vector<uint8_t> q, float scale) {
    CaseTensor t;
    t.dtype = sdk::DType::kUFixed8;
    t.dims = {uint32_t(q.size())};
    t.bytes = std::move(q);
    t.quant.kind = sdk::QuantInfo::Kind::kScaleOffset;
    t.quant.scale = scale;
    return t;
  };
  runCaseThroughApi(lib.get(), conformance::makeCase("Relu_ufixed8_float32_quotient_ties", "Relu",
                                                     {u8({7, 9, 15, 17, 19, 23}, 0.05f)},
                                                     {u8({4, 4, 8, 8, 10, 12}, 0.1f)}));
}

// Omitted optional inputs as ONNX Runtime's QNN EP sends them (NULL tensors of
// datatype UNDEFINED and dims {0}), in the middle of the inputs and after the
// last given one: accepted, and absent to the kernel.
class OmittedInputs : public ::testing::TestWithParam<OpCase> {};

TEST_P(OmittedInputs, NullTensorsAreAbsentOnCpu) {
  auto lib = cpuBackend();
  ASSERT_TRUE(lib->ok()) << lib->error();
  runCaseThroughApi(lib.get(), GetParam(), nullptr, nullptr, true);
}

INSTANTIATE_TEST_SUITE_P(Conformance, OmittedInputs,
                         ::testing::ValuesIn(casesWithOmittedInputs(conformance::allCases())),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });

}  // namespace
}  // namespace qnn::test
