// Runs every conformance case through the QNN C API on each backend library:
// one single-node graph per case, executed and compared with the independent
// reference's expected outputs.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "api_case_runner.h"

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
