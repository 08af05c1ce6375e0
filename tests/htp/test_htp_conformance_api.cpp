// Every fixed-point conformance case (tests/conformance: expected outputs from
// the independent integer reference) through libQnnHtp.so's C API, bit-exact;
// the real-valued ops on the quantized CPU cases (real_valued_cases.h); and the
// float cases in fp16 mode (QNN_PRECISION_FLOAT16) within an fp16 tolerance.
// Cases whose op the HTP does not run (no kernel yet) or whose datatypes or
// encodings the HTP column refuses are skipped with the reason.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "api_case_runner.h"
#include "quant/half.h"
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

// fp16 mode: every FLOAT_32 case (the CPU backend's float cases, references in
// float64/float32) in a graph with QNN_PRECISION_FLOAT16, so each input is rounded
// to half, each op computes in float32 and its output is rounded to half. The
// tolerance covers those roundings: half has an 11-bit significand (relative
// step 2^-11 ~ 4.9e-4); an input error of that size moves an output by up to
// the op's condition number times it, and ops summing n products (norms, softmax
// denominators) add their output rounding on top. rtol 1e-2 with an absolute
// floor of 1e-2 x the output's largest magnitude is what the vendor's own fp16
// accuracy guidance tolerates (docs/htp-simulator.md). Cases with a float value
// beyond half's range (65504) are skipped: on the device they saturate to inf.
// So are cases of ops with steps (floor, ceil, round, floor division, sign)
// whose inputs are not exact halves: rounding an input across a step moves
// the output by a whole step, which no tolerance on the reference covers.
bool hasSteps(const std::string& op) {
  return op == "ElementWiseFloor" || op == "ElementWiseCeil" || op == "ElementWiseRound" ||
         op == "ElementWiseFloorDiv" || op == "ElementWiseSign" || op == "ElementWiseMod" ||
         op == "ElementWiseFmod";
}
std::vector<float> floatsOf(const conformance::CaseTensor& t) {  // the bytes present (a null input has none)
  std::vector<float> v(t.dtype == sdk::DType::kFloat32 ? t.bytes.size() / sizeof(float) : 0);
  if (!v.empty()) std::memcpy(v.data(), t.bytes.data(), v.size() * sizeof(float));
  return v;
}
bool halfRepresentable(const conformance::CaseTensor& t, bool exactly) {
  for (float v : floatsOf(t))
    if ((std::isfinite(v) && std::fabs(v) > 65504.f) || (exactly && std::isfinite(v) && sdk::quant::roundToHalf(v) != v))
      return false;
  return true;
}
std::vector<OpCase> fp16Cases() {
  std::vector<OpCase> out;
  for (const OpCase& c : conformance::allCases()) {
    bool anyFloat = false, fits = true;
    for (const auto* set : {&c.inputs, &c.expected})
      for (const auto& t : *set) {
        anyFloat |= t.dtype == sdk::DType::kFloat32;
        fits &= halfRepresentable(t, set == &c.inputs && hasSteps(c.opType));
      }
    if (!anyFloat || !fits) continue;
    OpCase f = c;
    f.name = "fp16_" + c.name;
    for (auto& e : f.expected) {
      if (e.dtype != sdk::DType::kFloat32) continue;
      double maxAbs = 0;
      for (float v : floatsOf(e))
        if (std::isfinite(v)) maxAbs = std::max(maxAbs, double(std::fabs(v)));
      f.atol = std::max(f.atol, 1e-2 * std::max(maxAbs, 1.0));
    }
    f.rtol = std::max(f.rtol, 1e-2);
    out.push_back(std::move(f));
  }
  return out;
}
class HtpFp16Case : public ::testing::TestWithParam<OpCase> {};
TEST_P(HtpFp16Case, WithinFp16ToleranceOnHtp) {
  ASSERT_TRUE(htpLib().ok()) << htpLib().error();
  const OpCase& c = GetParam();
  if (!htpRunsOp(c.opType)) GTEST_SKIP() << c.opType << " has no HTP kernel yet";
  QnnHtpGraph_CustomConfig_t precision{};
  precision.option = QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION;
  precision.precision = QNN_PRECISION_FLOAT16;
  QnnGraph_Config_t config{};
  config.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
  config.customConfig = &precision;
  const QnnGraph_Config_t* configs[] = {&config, nullptr};
  bool refused = false;
  runCaseThroughApi(&htpLib(), c, configs, &refused);
  if (refused) GTEST_SKIP() << "refused at graphAddNode: outside what the HTP runs in fp16 mode";
}
INSTANTIATE_TEST_SUITE_P(Fp16, HtpFp16Case, ::testing::ValuesIn(fp16Cases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });
}  // namespace
}  // namespace qnn::test
