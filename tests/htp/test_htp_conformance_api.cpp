// Every fixed-point conformance case (tests/conformance: expected outputs from
// the independent integer reference) through libQnnHtp.so's C API, bit-exact;
// the real-valued ops on the quantized CPU cases (real_valued_cases.h); and the
// float cases in fp16 mode (QNN_PRECISION_FLOAT16) within an fp16 tolerance.
// Cases whose op the HTP does not run (no kernel yet) or whose datatypes or
// encodings the HTP column refuses are skipped with the reason.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "tests/api/api_case_runner.h"
#include "quant/half.h"
#include "tests/htp/htp_test_util.h"
#include "tests/conformance/real_valued_cases.h"

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

// Omitted optional inputs as ONNX Runtime's QNN EP sends them (NULL tensors of
// datatype UNDEFINED and dims {0}), in the fixed-point and the real-valued cases.
class HtpOmittedInputs : public ::testing::TestWithParam<OpCase> {};

TEST_P(HtpOmittedInputs, NullTensorsAreAbsentOnHtp) {
  ASSERT_TRUE(htpLib().ok()) << htpLib().error();
  const OpCase& c = GetParam();
  if (!htpRunsOp(c.opType)) GTEST_SKIP() << c.opType << " has no HTP kernel yet";
  bool refused = false;
  runCaseThroughApi(&htpLib(), c, nullptr, &refused, true);
  if (!refused) return;
  // Refused: so must the case be without its trailing NULLs and with rank-0 ones.
  OpCase plain = c;
  while (!plain.inputs.empty() && plain.inputs.back().isNull) plain.inputs.pop_back();
  bool plainRefused = false;
  runCaseThroughApi(&htpLib(), plain, nullptr, &plainRefused);
  ASSERT_TRUE(plainRefused) << "refused with ONNX Runtime's NULL tensors, run without them";
  GTEST_SKIP() << "refused at graphAddNode: outside the HTP column of the op definitions";
}

std::vector<OpCase> htpCasesWithOmittedInputs() {
  std::vector<OpCase> all = conformance::allFixedPointCases();
  for (OpCase& c : realValuedCases()) {
    c.name = "RealValued_" + c.name;
    all.push_back(std::move(c));
  }
  return casesWithOmittedInputs(all);
}

INSTANTIATE_TEST_SUITE_P(All, HtpOmittedInputs, ::testing::ValuesIn(htpCasesWithOmittedInputs()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });

// A NULL tensor where the op needs an input (below its minimum input count) is
// refused at graphAddNode and backendValidateOpConfig on both backends, naming the
// op, the node and the input; the same tensor is accepted at creation.
class OmittedMandatoryInput : public ::testing::TestWithParam<const char*> {};

TEST_P(OmittedMandatoryInput, IsRefusedNamingTheOpAndInput) {
  LoadedBackend cpu(QNN_TEST_CPU_BACKEND_PATH);
  LoadedBackend& lib = std::string(GetParam()) == "Cpu" ? cpu : htpLib();
  ASSERT_TRUE(lib.ok()) << lib.error();
  const auto& api = lib.api();
  Qnn_LogHandle_t log = nullptr;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  ASSERT_EQ(api.logCreate(LogCapture::callback, QNN_LOG_LEVEL_ERROR, &log), QNN_SUCCESS);
  ASSERT_EQ(api.backendCreate(log, nullptr, &backend), QNN_SUCCESS);
  ASSERT_EQ(api.contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  ASSERT_EQ(api.graphCreate(ctx, "g", nullptr, &graph), QNN_SUCCESS);
  QuantSpec a("a", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 4}, 0.1f, 0);
  QuantSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 4}, 0.2f, 0);
  TensorSpec absent("null_tensor", QNN_TENSOR_TYPE_NULL, QNN_DATATYPE_UNDEFINED, {0});  // as ONNX Runtime sends it
  LogCapture::take();
  for (TensorSpec* t : {(TensorSpec*)&a, (TensorSpec*)&y, &absent})
    ASSERT_EQ(api.tensorCreateGraphTensor(graph, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
  Qnn_Tensor_t ins[2] = {a.tensor, absent.tensor};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ins, 1, &y.tensor};
  const std::string want =
      "ElementWiseAdd node 'add': input 1 ('null_tensor') is a NULL tensor, but in[1] of ElementWiseAdd is mandatory";
  EXPECT_EQ(api.graphAddNode(graph, op), QNN_GRAPH_ERROR_INVALID_TENSOR);
  std::string text = LogCapture::take();
  EXPECT_NE(text.find(want), std::string::npos) << text;
  EXPECT_NE(api.backendValidateOpConfig(backend, op), QNN_SUCCESS);
  text = LogCapture::take();
  EXPECT_NE(text.find(want), std::string::npos) << text;
  // The graph is unchanged: the node with both inputs given is taken.
  QuantSpec b("b", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 4}, 0.1f, 0);
  ASSERT_EQ(api.tensorCreateGraphTensor(graph, &b.tensor), QNN_SUCCESS);
  ins[1] = b.tensor;
  EXPECT_EQ(api.graphAddNode(graph, op), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(api.graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
  EXPECT_EQ(api.logFree(log), QNN_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Both, OmittedMandatoryInput, ::testing::Values("Cpu", "Htp"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

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
    // Float32 quotient ties (ONNX Runtime's QuantizeLinear, the HTP's rule too): an fp16
    // graph rounds the inputs to half first, which moves them off the ties.
    if (c.name == "Quantize_float32_quotient_ties") continue;
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

// Op set 2.13 in the HTP's quantized configurations, each case against its own
// independent float reference (tests/conformance/cases_op_set_2_13.cpp): the
// inputs and the reference quantized to UFIXED_POINT_8 / _16, the outputs compared
// as real values within what quantizing the inputs and the output moves them.
// GroupQueryAttention and ElementWiseMux in INT8/INT16 and RandomNormalLike in
// INT16 (HTP op support history 2.49.0); NonMaxSuppression center_point_box on
// quantized boxes and scores (the QNN EP's HTP path): the selected indices exactly.
// The fp16 mode of these ops runs in the Fp16 suite above.
std::vector<OpCase> opSet213QuantizedCases() {
  std::vector<OpCase> out;
  for (const OpCase& c : conformance::allCases()) {
    const bool gqa = c.opType == "GroupQueryAttention", mux = c.opType == "ElementWiseMux";
    const bool nms = c.name == "NonMaxSuppression_center_point_box" || c.name == "NonMaxSuppression_diag_corners_explicit";
    const bool normal = c.opType == "RandomNormalLike";
    if (!gqa && !mux && !nms && !normal) continue;
    // Values within [-3, 3] (GQA's softmax-weighted sums of values in [-1, 1]): an 8-bit step is
    // up to 6/255, a 16-bit one 6/65535; each input off by half a step moves a weighted sum by
    // about as much, the output's rounding adds half of its own step.
    if (!normal) out.push_back(conformance::quantizedAgainstReference(c, sdk::DType::kUFixed8, gqa ? 4e-2 : 2e-2));
    out.push_back(conformance::quantizedAgainstReference(c, sdk::DType::kUFixed16, gqa ? 3e-4 : 1e-4));
  }
  return out;
}
class HtpOpSet213Quantized : public ::testing::TestWithParam<OpCase> {};
TEST_P(HtpOpSet213Quantized, MatchesFloatReference) {
  ASSERT_TRUE(htpLib().ok()) << htpLib().error();
  bool refused = false;
  runCaseThroughApi(&htpLib(), GetParam(), nullptr, &refused);
  EXPECT_FALSE(refused) << "the HTP runs this configuration";
}
INSTANTIATE_TEST_SUITE_P(OpSet213, HtpOpSet213Quantized, ::testing::ValuesIn(opSet213QuantizedCases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });

// The op set 2.13 ops with no public record of HTP support (Erf, Identity, ThresholdedRelu,
// Inverse) are refused at backendValidateOpConfig and graphAddNode, in float and fp16 mode alike,
// with a line naming the op.
class HtpRefusesOp : public ::testing::TestWithParam<OpCase> {};
TEST_P(HtpRefusesOp, NamingTheOp) {
  ASSERT_TRUE(htpLib().ok()) << htpLib().error();
  const OpCase& c = GetParam();
  const auto& api = htpLib().api();
  Qnn_LogHandle_t log = nullptr;
  Qnn_BackendHandle_t backend = nullptr;
  ASSERT_EQ(api.logCreate(LogCapture::callback, QNN_LOG_LEVEL_ERROR, &log), QNN_SUCCESS);
  ASSERT_EQ(api.backendCreate(log, nullptr, &backend), QNN_SUCCESS);
  std::vector<std::unique_ptr<TensorHolder>> holders;
  std::vector<Qnn_Tensor_t> ins, outs;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    holders.push_back(std::make_unique<TensorHolder>("in" + std::to_string(i), QNN_TENSOR_TYPE_APP_WRITE, c.inputs[i], false));
    ins.push_back(holders.back()->t);
  }
  for (size_t i = 0; i < c.expected.size(); ++i) {
    holders.push_back(std::make_unique<TensorHolder>("out" + std::to_string(i), QNN_TENSOR_TYPE_APP_READ, c.expected[i], false));
    outs.push_back(holders.back()->t);
  }
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"node", "qti.aisw", c.opType.c_str(), 0, nullptr, uint32_t(ins.size()), ins.data(), uint32_t(outs.size()), outs.data()};
  LogCapture::take();
  EXPECT_NE(api.backendValidateOpConfig(backend, op), QNN_SUCCESS);
  const std::string text = LogCapture::take();
  EXPECT_NE(text.find("op " + c.opType + " is not supported by the HTP backend"), std::string::npos) << text;
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
  EXPECT_EQ(api.logFree(log), QNN_SUCCESS);
  bool refused = false;
  runCaseThroughApi(&htpLib(), c, nullptr, &refused);
  EXPECT_TRUE(refused) << "graphAddNode took " << c.opType;
}
std::vector<OpCase> refusedOpSet213Cases() {
  std::vector<OpCase> out;
  for (const OpCase& c : conformance::allCases())
    if ((c.opType == "Erf" || c.opType == "Identity" || c.opType == "ThresholdedRelu" || c.opType == "Inverse") &&
        c.params.empty())
      out.push_back(c);
  return out;
}
INSTANTIATE_TEST_SUITE_P(OpSet213, HtpRefusesOp, ::testing::ValuesIn(refusedOpSet213Cases()),
                         [](const ::testing::TestParamInfo<OpCase>& info) { return info.param.name; });
}  // namespace
}  // namespace qnn::test
