// Every fixed-point conformance case (tests/conformance: expected outputs from
// the independent integer reference) through libQnnHtp.so's C API, bit-exact;
// and the real-valued ops on the quantized CPU cases (real_valued_cases.h).
// Cases whose op the HTP does not run (no kernel yet) or whose datatypes or
// encodings the HTP column refuses are skipped with the reason.
#include "api_case_runner.h"
#include "htp_test_util.h"
#include "real_valued_cases.h"

namespace qnn::test {

std::mutex LogCapture::mutex;
std::string LogCapture::text;

namespace {

class HtpApiCase : public ::testing::TestWithParam<OpCase> {};

bool htpRunsOp(const std::string& op) {
  static std::set<std::string> ops = [] {
    std::set<std::string> s;
    Qnn_BackendHandle_t b = nullptr;
    if (htpLib().api().backendCreate(nullptr, nullptr, &b) != QNN_SUCCESS) return s;
    uint32_t n = 0;
    const QnnBackend_OperationName_t* names = nullptr;
    if (htpLib().api().backendGetSupportedOperations(b, &n, &names) == QNN_SUCCESS)
      for (uint32_t i = 0; i < n; ++i) s.insert(names[i].name);
    htpLib().api().backendFree(b);
    return s;
  }();
  return ops.count(op) != 0;
}

TEST_P(HtpApiCase, BitExactOnHtp) {
  ASSERT_TRUE(htpLib().ok()) << htpLib().error();
  const OpCase& c = GetParam();
  if (!htpRunsOp(c.opType)) GTEST_SKIP() << c.opType << " has no HTP kernel yet";
  bool refused = false;
  runCaseThroughApi(&htpLib(), c, nullptr, &refused);
  if (refused) GTEST_SKIP() << "refused at graphAddNode: outside the HTP column of the op definitions";
}

INSTANTIATE_TEST_SUITE_P(FixedPoint, HtpApiCase, ::testing::ValuesIn(conformance::allFixedPointCases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });

// The real-valued ops on the CPU cases quantized to UFIXED_POINT_16 (real_valued_cases.h).
std::vector<OpCase> realValuedCases() {
  std::vector<OpCase> out;
  for (const OpCase& c : conformance::allCases())
    if (conformance::isRealValuedHtpOp(c.opType)) out.push_back(conformance::quantizedRealValuedCase(c));
  return out;
}

INSTANTIATE_TEST_SUITE_P(RealValued, HtpApiCase, ::testing::ValuesIn(realValuedCases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });

}  // namespace
}  // namespace qnn::test
