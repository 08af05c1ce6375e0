// The example op packages (oppackages/) registered in libQnnCpu.so through the C
// API, the way an application does: graphs that mix built-in ops with the
// packages' ops run and match a reference computed here in double precision;
// the validation generated from the XML rejects what the XML forbids.
//
// Paths come from CMake (the project's build of the packages) and can be
// overridden, which is how the acceptance test runs this same program on an
// installed SDK and on packages built with their generated CMakeLists.txt:
//   OPENQNN_TEST_CPU_BACKEND   libQnnCpu.so to load
//   OPENQNN_TEST_OPPACKAGE_DIR directory holding libExampleElementwise.so, libExampleNorm.so
//   OPENQNN_TEST_UNFILLED_PACKAGE a freshly generated ExampleElementwise whose kernels
//                                 were never written (its test is skipped otherwise)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

std::string fromEnv(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string backendPath() { return fromEnv("OPENQNN_TEST_CPU_BACKEND", QNN_TEST_CPU_BACKEND_PATH); }
std::string packagePath(const std::string& pkg) {
  return fromEnv("OPENQNN_TEST_OPPACKAGE_DIR", QNN_TEST_OPPACKAGE_DIR) + "/lib" + pkg + ".so";
}

constexpr uint32_t kA = 2, kB = 3, kC = 4, kN = kA * kB * kC;

// ---- independent reference (double precision) ----
double softplus(double x, double beta) { return std::log1p(std::exp(beta * x)) / beta; }

// RMS norm of a [kA, kB, kC] tensor over the axes flagged in reduce.
std::vector<double> rmsNorm(const std::vector<double>& x, const std::vector<double>& gamma, const bool reduce[3],
                            double eps, bool scale) {
  std::vector<double> out(kN);
  const uint32_t dims[3] = {kA, kB, kC};
  for (uint32_t a = 0; a < kA; ++a)
    for (uint32_t b = 0; b < kB; ++b)
      for (uint32_t c = 0; c < kC; ++c) {
        double sum = 0;
        uint32_t n = 0;
        for (uint32_t i = 0; i < dims[0]; ++i)
          for (uint32_t j = 0; j < dims[1]; ++j)
            for (uint32_t k = 0; k < dims[2]; ++k) {
              if ((!reduce[0] && i != a) || (!reduce[1] && j != b) || (!reduce[2] && k != c)) continue;
              const double v = x[(i * kB + j) * kC + k];
              sum += v * v;
              ++n;
            }
        const size_t at = (a * kB + b) * kC + c;
        out[at] = x[at] / std::sqrt(sum / n + eps) * (scale ? gamma[c] : 1.0);
      }
  return out;
}

// Float32 kernels against a double reference: a handful of roundings of about
// 6e-8 relative each, on values below 10, stay far below 2e-5.
constexpr double kTolerance = 2e-5;

Qnn_Param_t floatParam(const char* name, float v) {
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_SCALAR;
  p.name = name;
  p.scalarParam.dataType = QNN_DATATYPE_FLOAT_32;
  p.scalarParam.floatValue = v;
  return p;
}

Qnn_Param_t uintParam(const char* name, uint32_t v) {
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_SCALAR;
  p.name = name;
  p.scalarParam.dataType = QNN_DATATYPE_UINT_32;
  p.scalarParam.uint32Value = v;
  return p;
}

class ExamplePackages : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << backendPath() << ": " << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api().backendRegisterOpPackage(backend, packagePath("ExampleElementwise").c_str(),
                                             "ExampleElementwiseCpuInterfaceProvider", "CPU"),
              QNN_SUCCESS);
    ASSERT_EQ(api().backendRegisterOpPackage(backend, packagePath("ExampleNorm").c_str(),
                                             "ExampleNormCpuInterfaceProvider", nullptr),
              QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &context), QNN_SUCCESS);
    ASSERT_EQ(api().graphCreate(context, "mixed", nullptr, &graph), QNN_SUCCESS);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-2.f, 2.f);
    for (auto* v : {&x, &scale, &y}) {
      v->resize(kN);
      for (auto& e : *v) e = u(rng);
    }
    gamma = {0.5f, -1.25f, 2.f, 0.75f};
  }
  void TearDown() override {
    if (context) {
      EXPECT_EQ(api().contextFree(context, nullptr), QNN_SUCCESS);
    }
    if (backend) {
      EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
    }
  }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  TensorSpec& add(const std::string& name, Qnn_TensorType_t type, Qnn_DataType_t dtype, std::vector<uint32_t> dims,
                  void* data = nullptr, uint32_t bytes = 0) {
    tensors.push_back(std::make_unique<TensorSpec>(name, type, dtype, std::move(dims), data, bytes));
    EXPECT_EQ(api().tensorCreateGraphTensor(graph, &tensors.back()->tensor), QNN_SUCCESS) << name;
    return *tensors.back();
  }

  Qnn_ErrorHandle_t node(const char* name, const char* pkg, const char* type, std::vector<Qnn_Param_t> params,
                         std::vector<Qnn_Tensor_t> ins, std::vector<Qnn_Tensor_t> outs) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, pkg,          type, uint32_t(params.size()), params.data(), uint32_t(ins.size()), ins.data(),
             uint32_t(outs.size()), outs.data()};
    return api().graphAddNode(graph, op);
  }

  Qnn_ErrorHandle_t validate(const char* pkg, const char* type, std::vector<Qnn_Param_t> params,
                             std::vector<Qnn_Tensor_t> ins, std::vector<Qnn_Tensor_t> outs) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"check", pkg, type, uint32_t(params.size()), params.data(), uint32_t(ins.size()), ins.data(),
             uint32_t(outs.size()), outs.data()};
    return api().backendValidateOpConfig(backend, op);
  }

  // Runs graph with the given APP_WRITE tensors bound to data and returns the APP_READ output.
  std::vector<float> execute(std::vector<std::pair<TensorSpec*, std::vector<float>*>> inputs, TensorSpec& output) {
    std::vector<float> result(kN, -100.f);
    std::vector<Qnn_Tensor_t> ins;
    for (auto& [spec, data] : inputs) {
      Qnn_Tensor_t t = spec->tensor;
      t.v1.clientBuf = {data->data(), uint32_t(data->size() * sizeof(float))};
      ins.push_back(t);
    }
    Qnn_Tensor_t out = output.tensor;
    out.v1.clientBuf = {result.data(), uint32_t(result.size() * sizeof(float))};
    lastExecute = api().graphExecute(graph, ins.data(), uint32_t(ins.size()), &out, 1, nullptr, nullptr);
    return result;
  }

  LoadedBackend lib{backendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t context = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  std::vector<std::unique_ptr<TensorSpec>> tensors;
  std::vector<float> x, scale, y, gamma;
  uint32_t axesLast[1] = {2};
  Qnn_ErrorHandle_t lastExecute = QNN_SUCCESS;
};

TEST_F(ExamplePackages, GraphMixingBuiltInAndPackageOpsMatchesTheReference) {
  const auto F = QNN_DATATYPE_FLOAT_32;
  auto& in = add("x", QNN_TENSOR_TYPE_APP_WRITE, F, {kA, kB, kC});
  auto& s = add("scale", QNN_TENSOR_TYPE_STATIC, F, {kA, kB, kC}, scale.data(), kN * 4);
  auto& g = add("gamma", QNN_TENSOR_TYPE_STATIC, F, {kC}, gamma.data(), kC * 4);
  auto& addend = add("y", QNN_TENSOR_TYPE_APP_WRITE, F, {kA, kB, kC});
  auto& t1 = add("t1", QNN_TENSOR_TYPE_NATIVE, F, {kA, kB, kC});
  auto& t2 = add("t2", QNN_TENSOR_TYPE_NATIVE, F, {kA, kB, kC});
  auto& t3 = add("t3", QNN_TENSOR_TYPE_NATIVE, F, {kA, kB, kC});
  auto& t4 = add("t4", QNN_TENSOR_TYPE_NATIVE, F, {kA, kB, kC});
  auto& out = add("out", QNN_TENSOR_TYPE_APP_READ, F, {kA, kB, kC});
  TensorSpec axes("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {1}, axesLast, 4);

  ASSERT_EQ(node("mul", "qti.aisw", "ElementWiseMultiply", {}, {in.tensor, s.tensor}, {t1.tensor}), QNN_SUCCESS);
  ASSERT_EQ(node("softplus", "ExampleElementwise", "ScaledSoftplus", {floatParam("beta", 2.0f)}, {t1.tensor},
                 {t2.tensor}),
            QNN_SUCCESS);
  ASSERT_EQ(node("norm", "ExampleNorm", "RmsNorm", {floatParam("epsilon", 1e-3f), tensorParam("axes", axes)},
                 {t2.tensor, g.tensor}, {t3.tensor}),
            QNN_SUCCESS);
  ASSERT_EQ(node("add", "qti.aisw", "ElementWiseAdd", {}, {t3.tensor, addend.tensor}, {t4.tensor}), QNN_SUCCESS);
  ASSERT_EQ(node("relu6", "ExampleElementwise", "Relu6Custom", {}, {t4.tensor}, {out.tensor}), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);

  const std::vector<float> got = execute({{&in, &x}, {&addend, &y}}, out);
  ASSERT_EQ(lastExecute, QNN_SUCCESS);

  std::vector<double> sp(kN);
  for (uint32_t i = 0; i < kN; ++i) sp[i] = softplus(double(x[i]) * scale[i], 2.0);
  const bool lastAxis[3] = {false, false, true};
  const std::vector<double> gammaD(gamma.begin(), gamma.end());
  const std::vector<double> norm = rmsNorm(sp, gammaD, lastAxis, double(1e-3f), true);
  size_t clamped = 0;
  for (uint32_t i = 0; i < kN; ++i) {
    const double want = std::min(std::max(norm[i] + y[i], 0.0), 6.0);
    clamped += (want == 0.0 || want == 6.0) ? 1 : 0;
    EXPECT_NEAR(got[i], want, kTolerance) << "element " << i;
  }
  // The data exercise both the clamp and the pass-through of Relu6Custom.
  EXPECT_GT(clamped, 0u);
  EXPECT_LT(clamped, size_t(kN));

  // A second execution with new data gives new, still correct results.
  for (auto& v : x) v = -v;
  const std::vector<float> again = execute({{&in, &x}, {&addend, &y}}, out);
  ASSERT_EQ(lastExecute, QNN_SUCCESS);
  for (uint32_t i = 0; i < kN; ++i) sp[i] = softplus(double(x[i]) * scale[i], 2.0);
  const std::vector<double> norm2 = rmsNorm(sp, gammaD, lastAxis, double(1e-3f), true);
  for (uint32_t i = 0; i < kN; ++i)
    EXPECT_NEAR(again[i], std::min(std::max(norm2[i] + y[i], 0.0), 6.0), kTolerance) << "element " << i;
}

TEST_F(ExamplePackages, DefaultsAndEnumerationReachTheKernel) {
  const auto F = QNN_DATATYPE_FLOAT_32;
  auto& in = add("x", QNN_TENSOR_TYPE_APP_WRITE, F, {kA, kB, kC});
  auto& g = add("gamma", QNN_TENSOR_TYPE_STATIC, F, {kC}, gamma.data(), kC * 4);
  auto& t1 = add("t1", QNN_TENSOR_TYPE_NATIVE, F, {kA, kB, kC});
  auto& out = add("out", QNN_TENSOR_TYPE_APP_READ, F, {kA, kB, kC});
  uint32_t axesData[2] = {2, 1};
  TensorSpec axes("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, axesData, 8);
  // No beta: the XML default 1.0. No epsilon: the XML default 1e-6. mode = no_scale (1).
  ASSERT_EQ(node("softplus", "ExampleElementwise", "ScaledSoftplus", {}, {in.tensor}, {t1.tensor}), QNN_SUCCESS);
  ASSERT_EQ(node("norm", "ExampleNorm", "RmsNorm", {tensorParam("axes", axes), uintParam("mode", 1)},
                 {t1.tensor, g.tensor}, {out.tensor}),
            QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  const std::vector<float> got = execute({{&in, &x}}, out);
  ASSERT_EQ(lastExecute, QNN_SUCCESS);
  std::vector<double> sp(kN);
  for (uint32_t i = 0; i < kN; ++i) sp[i] = softplus(x[i], 1.0);
  const bool lastTwo[3] = {false, true, true};
  const std::vector<double> want = rmsNorm(sp, {}, lastTwo, double(1e-6f), false);
  for (uint32_t i = 0; i < kN; ++i) EXPECT_NEAR(got[i], want[i], kTolerance) << "element " << i;
}

TEST_F(ExamplePackages, GeneratedValidationRejectsWhatTheXmlForbids) {
  const auto F = QNN_DATATYPE_FLOAT_32;
  TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, F, {kA, kB, kC});
  TensorSpec g("gamma", QNN_TENSOR_TYPE_STATIC, F, {kC}, gamma.data(), kC * 4);
  TensorSpec g2d("gamma2", QNN_TENSOR_TYPE_STATIC, F, {1, kC}, gamma.data(), kC * 4);
  TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, F, {kA, kB, kC});
  TensorSpec ints("xi", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {kA, kB, kC});
  TensorSpec axes("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {1}, axesLast, 4);
  TensorSpec axesF("axesf", QNN_TENSOR_TYPE_STATIC, F, {1}, gamma.data(), 4);
  const Qnn_Param_t axesP = tensorParam("axes", axes);

  EXPECT_EQ(validate("ExampleNorm", "RmsNorm", {axesP}, {in.tensor, g.tensor}, {out.tensor}), QNN_SUCCESS);
  EXPECT_EQ(validate("ExampleNorm", "RmsNorm", {axesP, uintParam("mode", 1)}, {in.tensor, g.tensor}, {out.tensor}),
            QNN_SUCCESS);
  // The enumeration has two values.
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {axesP, uintParam("mode", 2)}, {in.tensor, g.tensor}, {out.tensor}),
            QNN_SUCCESS);
  // axes is mandatory.
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {}, {in.tensor, g.tensor}, {out.tensor}), QNN_SUCCESS);
  // axes is a UINT_32 tensor, not FLOAT_32, and not a scalar.
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {tensorParam("axes", axesF)}, {in.tensor, g.tensor}, {out.tensor}),
            QNN_SUCCESS);
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {uintParam("axes", 2)}, {in.tensor, g.tensor}, {out.tensor}),
            QNN_SUCCESS);
  // epsilon is FLOAT_32.
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {axesP, uintParam("epsilon", 1)}, {in.tensor, g.tensor}, {out.tensor}),
            QNN_SUCCESS);
  // Unknown parameter, wrong input count, gamma of rank 2, INT_32 input (the CPU supplement narrows to FLOAT_32).
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {axesP, floatParam("alpha", 1)}, {in.tensor, g.tensor}, {out.tensor}),
            QNN_SUCCESS);
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {axesP}, {in.tensor}, {out.tensor}), QNN_SUCCESS);
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {axesP}, {in.tensor, g2d.tensor}, {out.tensor}), QNN_SUCCESS);
  EXPECT_NE(validate("ExampleNorm", "RmsNorm", {axesP}, {ints.tensor, g.tensor}, {out.tensor}), QNN_SUCCESS);
  EXPECT_NE(validate("ExampleElementwise", "Relu6Custom", {}, {in.tensor, in.tensor}, {out.tensor}), QNN_SUCCESS);
  EXPECT_EQ(validate("ExampleElementwise", "Relu6Custom", {}, {in.tensor}, {out.tensor}), QNN_SUCCESS);

  // graphAddNode runs the same validation.
  auto& gin = add("x", QNN_TENSOR_TYPE_APP_WRITE, F, {kA, kB, kC});
  auto& gg = add("gamma", QNN_TENSOR_TYPE_STATIC, F, {kC}, gamma.data(), kC * 4);
  auto& gout = add("out", QNN_TENSOR_TYPE_APP_READ, F, {kA, kB, kC});
  EXPECT_EQ(node("bad", "ExampleNorm", "RmsNorm", {axesP, uintParam("mode", 7)}, {gin.tensor, gg.tensor}, {gout.tensor}),
            QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
}

TEST_F(ExamplePackages, SupportedOperationsListThePackagesOps) {
  uint32_t n = 0;
  const QnnBackend_OperationName_t* ops = nullptr;
  ASSERT_EQ(api().backendGetSupportedOperations(backend, &n, &ops), QNN_SUCCESS);
  std::vector<std::string> found;
  for (uint32_t i = 0; i < n; ++i)
    if (ops[i].packageName && std::strncmp(ops[i].packageName, "Example", 7) == 0)
      found.push_back(std::string(ops[i].packageName) + "::" + ops[i].name);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{"ExampleElementwise::Relu6Custom", "ExampleElementwise::ScaledSoftplus",
                                             "ExampleNorm::RmsNorm"}));
}

// The provider is exported as <Package>InterfaceProvider too, the name ONNX Runtime's QNN EP
// takes the package's name from (op_packages drops the suffix): registered under it in a
// backend of its own, it is the same package, ops listed under "ExampleNorm".
TEST(ExamplePackageAlias, ProviderUnderThePackagesNameRegistersTheSamePackage) {
  LoadedBackend lib{backendPath()};
  ASSERT_TRUE(lib.ok()) << lib.error();
  const auto& api = lib.api();
  Qnn_BackendHandle_t backend = nullptr;
  ASSERT_EQ(api.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  ASSERT_EQ(api.backendRegisterOpPackage(backend, packagePath("ExampleNorm").c_str(), "ExampleNormInterfaceProvider",
                                         "CPU"),
            QNN_SUCCESS);
  uint32_t n = 0;
  const QnnBackend_OperationName_t* ops = nullptr;
  ASSERT_EQ(api.backendGetSupportedOperations(backend, &n, &ops), QNN_SUCCESS);
  std::vector<std::string> found;
  for (uint32_t i = 0; i < n; ++i)
    if (ops[i].packageName && std::strncmp(ops[i].packageName, "Example", 7) == 0)
      found.push_back(std::string(ops[i].packageName) + "::" + ops[i].name);
  EXPECT_EQ(found, (std::vector<std::string>{"ExampleNorm::RmsNorm"}));
  // Both names at once: one package, registered once.
  EXPECT_EQ(api.backendRegisterOpPackage(backend, packagePath("ExampleNorm").c_str(), "ExampleNormCpuInterfaceProvider",
                                         "CPU"),
            QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE);
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
}

std::mutex gLogMutex;
std::string gLogText;

void captureLog(const char* fmt, QnnLog_Level_t, uint64_t, va_list args) {
  char line[1024];
  std::vsnprintf(line, sizeof(line), fmt, args);
  std::lock_guard<std::mutex> lock(gLogMutex);
  gLogText += std::string(line) + "\n";
}

// A package generated and built without writing its kernels fails loudly when run.
TEST(UnfilledPackage, ExecutionFailsUntilTheKernelIsWritten) {
  const char* path = std::getenv("OPENQNN_TEST_UNFILLED_PACKAGE");
  if (!path || !*path) GTEST_SKIP() << "OPENQNN_TEST_UNFILLED_PACKAGE not set (the acceptance test sets it)";
  LoadedBackend lib{backendPath()};
  ASSERT_TRUE(lib.ok()) << lib.error();
  const auto& api = lib.api();
  Qnn_LogHandle_t logger = nullptr;
  ASSERT_EQ(api.logCreate(captureLog, QNN_LOG_LEVEL_ERROR, &logger), QNN_SUCCESS);
  Qnn_BackendHandle_t backend = nullptr;
  ASSERT_EQ(api.backendCreate(logger, nullptr, &backend), QNN_SUCCESS);
  ASSERT_EQ(api.backendRegisterOpPackage(backend, path, "ExampleElementwiseCpuInterfaceProvider", "CPU"), QNN_SUCCESS);
  Qnn_ContextHandle_t context = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  ASSERT_EQ(api.contextCreate(backend, nullptr, nullptr, &context), QNN_SUCCESS);
  ASSERT_EQ(api.graphCreate(context, "unfilled", nullptr, &graph), QNN_SUCCESS);
  TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {4});
  TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {4});
  ASSERT_EQ(api.tensorCreateGraphTensor(graph, &in.tensor), QNN_SUCCESS);
  ASSERT_EQ(api.tensorCreateGraphTensor(graph, &out.tensor), QNN_SUCCESS);
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"relu6", "ExampleElementwise", "Relu6Custom", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
  ASSERT_EQ(api.graphAddNode(graph, op), QNN_SUCCESS);
  ASSERT_EQ(api.graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  float data[4] = {1, 2, 3, 4}, result[4] = {0, 0, 0, 0};
  in.tensor.v1.clientBuf = {data, sizeof(data)};
  out.tensor.v1.clientBuf = {result, sizeof(result)};
  EXPECT_NE(api.graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
  {
    std::lock_guard<std::mutex> lock(gLogMutex);
    EXPECT_NE(gLogText.find("Relu6Custom is not implemented: write its kernel in src/ops/Relu6Custom.cpp"),
              std::string::npos)
        << gLogText;
  }
  EXPECT_EQ(api.contextFree(context, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
  EXPECT_EQ(api.logFree(logger), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
