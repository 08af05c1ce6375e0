// Op package registration and execution on libQnnCpu.so through the public C
// API: the test package (packages/test_cpu_package.cpp, public headers only) is
// registered with QnnBackend_registerOpPackage and used in graphs that mix
// built-in and custom ops; results are compared with a double-precision
// reference computed here. The broken packages cover each registration error.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "QnnOpDef.h"
#include "tests/api/backend_loader.h"

namespace {

using qnn::test::LoadedBackend;
using qnn::test::TensorSpec;

const char* const kPackage = "openqnn.test.CpuPackage";
const char* const kProvider = "OpenQnnTestCpuPackageInterfaceProvider";

std::mutex gLogMutex;
std::vector<std::string> gLog;

void captureLog(const char* fmt, QnnLog_Level_t level, uint64_t, va_list args) {
  char text[2048];
  std::vsnprintf(text, sizeof text, fmt, args);
  std::lock_guard<std::mutex> lock(gLogMutex);
  gLog.push_back(std::to_string(static_cast<int>(level)) + " " + text);
}

// Error lines logged since `from` that contain `needle`.
int errorLinesWith(size_t from, const std::string& needle) {
  std::lock_guard<std::mutex> lock(gLogMutex);
  int n = 0;
  for (size_t i = from; i < gLog.size(); ++i)
    if (gLog[i].rfind("1 ", 0) == 0 && gLog[i].find(needle) != std::string::npos) ++n;
  return n;
}

size_t logSize() {
  std::lock_guard<std::mutex> lock(gLogMutex);
  return gLog.size();
}

const LoadedBackend& cpu() {
  static LoadedBackend lib(qnn::test::cpuBackendPath());
  return lib;
}

// The test package's counters. The test holds its own reference on the
// library, so counters survive the backend unloading it.
struct PackageStats {
  int inits = 0, terminates = 0, liveImpls = 0, executes = 0;
};
PackageStats packageStats() {
  static void* lib = dlopen(TEST_CPU_PACKAGE, RTLD_NOW | RTLD_LOCAL);
  using StatsFn = void (*)(int*, int*, int*, int*);
  static auto fn = lib ? reinterpret_cast<StatsFn>(dlsym(lib, "OpenQnnTestCpuPackage_stats")) : nullptr;
  PackageStats s;
  if (fn) fn(&s.inits, &s.terminates, &s.liveImpls, &s.executes);
  return s;
}

// Inputs in [-3, 3) from a fixed LCG: reproducible, no library randomness.
std::vector<float> pseudoRandom(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>((seed >> 8) / double(1u << 24) * 6.0 - 3.0);
  }
  return v;
}

constexpr float kAlpha = 2.5f;
constexpr float kW0 = 0.75f, kW1 = -1.25f;

// out = relu(w0 * (softsign(x) * alpha + y) + w1 * x), in double.
std::vector<double> reference(const std::vector<float>& x, const std::vector<float>& y) {
  std::vector<double> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double t1 = double(kAlpha) * x[i] / (1.0 + std::fabs(double(x[i])));
    const double t3 = double(kW0) * (t1 + y[i]) + double(kW1) * x[i];
    out[i] = t3 > 0 ? t3 : 0;
  }
  return out;
}

Qnn_Param_t scalarParam(const char* name, float v) {
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_SCALAR;
  p.name = name;
  p.scalarParam.dataType = QNN_DATATYPE_FLOAT_32;
  p.scalarParam.floatValue = v;
  return p;
}

class OpPackageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cpu().ok()) << cpu().error();
    ASSERT_EQ(api().logCreate(captureLog, QNN_LOG_LEVEL_INFO, &log_), QNN_SUCCESS);
    backend_ = newBackend();
    ASSERT_NE(backend_, nullptr);
  }
  void TearDown() override {
    for (auto b : extraBackends_) api().backendFree(b);
    if (backend_) {
      EXPECT_EQ(api().backendFree(backend_), QNN_SUCCESS);
    }
    api().logFree(log_);
  }
  static const QNN_INTERFACE_VER_TYPE& api() { return cpu().api(); }

  Qnn_BackendHandle_t newBackend() {
    Qnn_BackendHandle_t b = nullptr;
    EXPECT_EQ(api().backendCreate(log_, nullptr, &b), QNN_SUCCESS);
    return b;
  }
  Qnn_ErrorHandle_t registerPackage(Qnn_BackendHandle_t b, const char* path = TEST_CPU_PACKAGE,
                                    const char* provider = kProvider, const char* target = nullptr) {
    return api().backendRegisterOpPackage(b, path, provider, target);
  }

  // The mixed graph: x, y [2,3,4] -> custom ScaledSoftsign -> built-in add ->
  // custom WeightedSum -> built-in Relu -> out.
  struct MixedGraph {
    Qnn_ContextHandle_t context = nullptr;
    Qnn_GraphHandle_t graph = nullptr;
    std::vector<uint32_t> dims{2, 3, 4};
    TensorSpec x{"x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, dims};
    TensorSpec y{"y", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, dims};
    TensorSpec t1{"t1", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, dims};
    TensorSpec t2{"t2", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, dims};
    TensorSpec t3{"t3", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, dims};
    TensorSpec out{"out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, dims};
    std::vector<float> weights{kW0, kW1};
    std::vector<uint32_t> weightDims{2};
  };

  static Qnn_OpConfig_t opConfig(const char* name, const char* package, const char* type,
                                 std::vector<Qnn_Param_t>& params, std::vector<Qnn_Tensor_t>& ins,
                                 Qnn_Tensor_t* out) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1.name = name;
    op.v1.packageName = package;
    op.v1.typeName = type;
    op.v1.numOfParams = static_cast<uint32_t>(params.size());
    op.v1.params = params.empty() ? nullptr : params.data();
    op.v1.numOfInputs = static_cast<uint32_t>(ins.size());
    op.v1.inputTensors = ins.data();
    op.v1.numOfOutputs = 1;
    op.v1.outputTensors = out;
    return op;
  }

  static Qnn_Param_t weightsParam(MixedGraph& g) {
    Qnn_Param_t w = QNN_PARAM_INIT;
    w.paramType = QNN_PARAMTYPE_TENSOR;
    w.name = "weights";
    w.tensorParam = QNN_TENSOR_INIT;
    w.tensorParam.v1.name = "weights";
    w.tensorParam.v1.type = QNN_TENSOR_TYPE_STATIC;
    w.tensorParam.v1.dataType = QNN_DATATYPE_FLOAT_32;
    w.tensorParam.v1.rank = 1;
    w.tensorParam.v1.dimensions = g.weightDims.data();
    w.tensorParam.v1.memType = QNN_TENSORMEMTYPE_RAW;
    w.tensorParam.v1.clientBuf.data = g.weights.data();
    w.tensorParam.v1.clientBuf.dataSize = 8;
    return w;
  }

  void buildMixedGraph(Qnn_BackendHandle_t b, MixedGraph* g, bool finalize = true) {
    ASSERT_EQ(api().contextCreate(b, nullptr, nullptr, &g->context), QNN_SUCCESS);
    ASSERT_EQ(api().graphCreate(g->context, "mixed", nullptr, &g->graph), QNN_SUCCESS);
    for (TensorSpec* t : {&g->x, &g->y, &g->t1, &g->t2, &g->t3, &g->out})
      ASSERT_EQ(api().tensorCreateGraphTensor(g->graph, &t->tensor), QNN_SUCCESS) << t->name;
    std::vector<Qnn_Param_t> alpha{scalarParam("alpha", kAlpha)}, none, weights{weightsParam(*g)};
    std::vector<Qnn_Tensor_t> in1{g->x.tensor}, in2{g->t1.tensor, g->y.tensor}, in3{g->t2.tensor, g->x.tensor},
        in4{g->t3.tensor};
    ASSERT_EQ(api().graphAddNode(g->graph, opConfig("softsign", kPackage, "ScaledSoftsign", alpha, in1, &g->t1.tensor)),
              QNN_SUCCESS);
    ASSERT_EQ(api().graphAddNode(g->graph, opConfig("add", QNN_OP_PACKAGE_NAME_QTI_AISW, QNN_OP_ELEMENT_WISE_ADD,
                                                    none, in2, &g->t2.tensor)),
              QNN_SUCCESS);
    ASSERT_EQ(api().graphAddNode(g->graph, opConfig("wsum", kPackage, "WeightedSum", weights, in3, &g->t3.tensor)),
              QNN_SUCCESS);
    ASSERT_EQ(api().graphAddNode(g->graph, opConfig("relu", QNN_OP_PACKAGE_NAME_QTI_AISW, QNN_OP_RELU, none, in4,
                                                    &g->out.tensor)),
              QNN_SUCCESS);
    if (finalize) {
      ASSERT_EQ(api().graphFinalize(g->graph, nullptr, nullptr), QNN_SUCCESS);
    }
  }

  // Executes graph (inputs x, y; output out) and compares with the reference.
  void executeAndCheck(Qnn_GraphHandle_t graph, const MixedGraph& shapes, uint32_t seed,
                       std::vector<float>* got = nullptr) {
    const size_t n = 24;
    std::vector<float> x = pseudoRandom(n, seed), y = pseudoRandom(n, seed * 7 + 1), out(n, -1.f);
    TensorSpec xi = shapes.x, yi = shapes.y, oi = shapes.out;
    xi.tensor.v1.clientBuf = {x.data(), static_cast<uint32_t>(n * 4)};
    yi.tensor.v1.clientBuf = {y.data(), static_cast<uint32_t>(n * 4)};
    oi.tensor.v1.clientBuf = {out.data(), static_cast<uint32_t>(n * 4)};
    Qnn_Tensor_t ins[] = {xi.tensor, yi.tensor};
    ASSERT_EQ(api().graphExecute(graph, ins, 2, &oi.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
    std::vector<double> ref = reference(x, y);
    int positives = 0;
    for (size_t i = 0; i < n; ++i) {
      // Four float32 roundings of values below 16 in magnitude: a few ulp (< 2e-6) each.
      EXPECT_NEAR(out[i], ref[i], 1e-5) << "element " << i;
      positives += ref[i] > 0;
    }
    EXPECT_GT(positives, 0);  // the data exercises both sides of the relu
    EXPECT_LT(positives, static_cast<int>(n));
    if (got) *got = out;
  }

  Qnn_LogHandle_t log_ = nullptr;
  Qnn_BackendHandle_t backend_ = nullptr;
  std::vector<Qnn_BackendHandle_t> extraBackends_;
};

TEST_F(OpPackageTest, PropertyReportsOpPackageSupport) {
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_BACKEND_SUPPORT_OP_PACKAGE), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_OP_PACKAGE_SUPPORTS_VALIDATION), QNN_PROPERTY_SUPPORTED);
}

TEST_F(OpPackageTest, RegisteredOpsAreListedWithTheirPackage) {
  uint32_t before = 0;
  const QnnBackend_OperationName_t* ops = nullptr;
  ASSERT_EQ(api().backendGetSupportedOperations(backend_, &before, &ops), QNN_SUCCESS);
  ASSERT_EQ(registerPackage(backend_), QNN_SUCCESS);
  uint32_t after = 0;
  ASSERT_EQ(api().backendGetSupportedOperations(backend_, &after, &ops), QNN_SUCCESS);
  ASSERT_EQ(after, before + 2);
  std::vector<std::string> custom;
  bool relu = false;
  for (uint32_t i = 0; i < after; ++i) {
    if (std::string(ops[i].packageName) == kPackage) custom.push_back(ops[i].name);
    relu = relu || (std::string(ops[i].packageName) == QNN_OP_PACKAGE_NAME_QTI_AISW && std::string(ops[i].name) == "Relu");
  }
  EXPECT_EQ(custom, (std::vector<std::string>{"ScaledSoftsign", "WeightedSum"}));
  EXPECT_TRUE(relu);
}

TEST_F(OpPackageTest, MixedGraphMatchesReference) {
  const PackageStats start = packageStats();
  ASSERT_EQ(registerPackage(backend_, TEST_CPU_PACKAGE, kProvider, "CPU"), QNN_SUCCESS);
  EXPECT_EQ(packageStats().inits, start.inits + 1);
  MixedGraph g;
  buildMixedGraph(backend_, &g);
  EXPECT_EQ(packageStats().liveImpls, start.liveImpls + 2);  // one op impl per custom node
  executeAndCheck(g.graph, g, 11);
  executeAndCheck(g.graph, g, 12345);  // new buffers: the package must see the new data pointers
  EXPECT_EQ(packageStats().executes, start.executes + 4);
  ASSERT_EQ(api().backendFree(backend_), QNN_SUCCESS);
  backend_ = nullptr;
  const PackageStats end = packageStats();
  EXPECT_EQ(end.liveImpls, start.liveImpls);  // every op impl freed
  EXPECT_EQ(end.terminates, start.terminates + 1);
}

TEST_F(OpPackageTest, ValidateOpConfigRunsThePackagesValidation) {
  ASSERT_EQ(registerPackage(backend_), QNN_SUCCESS);
  MixedGraph g;
  std::vector<Qnn_Param_t> weights{weightsParam(g)}, none;
  std::vector<Qnn_Tensor_t> two{g.x.tensor, g.y.tensor}, one{g.x.tensor};
  EXPECT_EQ(api().backendValidateOpConfig(backend_, opConfig("w", kPackage, "WeightedSum", weights, two, &g.out.tensor)),
            QNN_SUCCESS);
  size_t mark = logSize();
  // One input where the package wants two; no weights.
  // QnnBackend.h: a refused op config is QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE.
  EXPECT_EQ(api().backendValidateOpConfig(backend_, opConfig("w", kPackage, "WeightedSum", weights, one, &g.out.tensor)),
            QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE);
  EXPECT_EQ(api().backendValidateOpConfig(backend_, opConfig("w", kPackage, "WeightedSum", none, two, &g.out.tensor)),
            QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE);
  EXPECT_EQ(errorLinesWith(mark, "validateOpConfig returned error 3110"), 2);
  EXPECT_EQ(api().backendValidateOpConfig(backend_, opConfig("w", kPackage, "NoSuchOp", none, one, &g.out.tensor)),
            QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE);
  EXPECT_EQ(api().backendValidateOpConfig(backend_, opConfig("w", "not.registered", "Op", none, one, &g.out.tensor)),
            QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND);
}

TEST_F(OpPackageTest, AddNodeRefusesUnknownPackagesOpsAndInvalidConfigs) {
  MixedGraph g;
  ASSERT_EQ(api().contextCreate(backend_, nullptr, nullptr, &g.context), QNN_SUCCESS);
  ASSERT_EQ(api().graphCreate(g.context, "g", nullptr, &g.graph), QNN_SUCCESS);
  for (TensorSpec* t : {&g.x, &g.y, &g.out}) ASSERT_EQ(api().tensorCreateGraphTensor(g.graph, &t->tensor), QNN_SUCCESS);
  std::vector<Qnn_Param_t> none;
  std::vector<Qnn_Tensor_t> one{g.x.tensor};
  size_t mark = logSize();
  // Not registered yet.
  EXPECT_EQ(api().graphAddNode(g.graph, opConfig("s", kPackage, "ScaledSoftsign", none, one, &g.out.tensor)),
            QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
  EXPECT_EQ(errorLinesWith(mark, "op package 'openqnn.test.CpuPackage' is not registered"), 1);
  ASSERT_EQ(registerPackage(backend_), QNN_SUCCESS);
  EXPECT_EQ(api().graphAddNode(g.graph, opConfig("s", kPackage, "NoSuchOp", none, one, &g.out.tensor)),
            QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
  std::vector<Qnn_Param_t> badAlpha{scalarParam("alpha", 1.f)};
  badAlpha[0].scalarParam.dataType = QNN_DATATYPE_UINT_32;  // the package wants a float alpha
  EXPECT_EQ(api().graphAddNode(g.graph, opConfig("s", kPackage, "ScaledSoftsign", badAlpha, one, &g.out.tensor)),
            QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
  // The same node, valid, is accepted afterwards: the graph is unharmed.
  EXPECT_EQ(api().graphAddNode(g.graph, opConfig("s", kPackage, "ScaledSoftsign", none, one, &g.out.tensor)),
            QNN_SUCCESS);
  EXPECT_EQ(api().graphFinalize(g.graph, nullptr, nullptr), QNN_SUCCESS);
}

struct BadRegistration {
  const char* path;
  const char* provider;
  const char* target;
  Qnn_ErrorHandle_t expected;
  const char* logged;  // part of the error line
};

TEST_F(OpPackageTest, RegistrationErrorsLeaveTheBackendUsable) {
  const BadRegistration cases[] = {
      {"/nonexistent/libNoSuchPackage.so", kProvider, nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND,
       "cannot load op package library '/nonexistent/libNoSuchPackage.so'"},
      {TEST_CPU_PACKAGE, "NoSuchProvider", nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_IF_PROVIDER_NOT_FOUND,
       "has no interface provider 'NoSuchProvider'"},
      {TEST_BAD_PACKAGES, "ProviderReturnsError", nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
       "interface provider 'ProviderReturnsError' returned error 1100"},
      {TEST_BAD_PACKAGES, "ProviderInterfaceV2", nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_UNSUPPORTED_VERSION,
       "implements op package interface 2.0.0"},
      {TEST_BAD_PACKAGES, "ProviderOldCoreApi", nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_UNSUPPORTED_VERSION,
       "was built for QNN API 1."},
      {TEST_BAD_PACKAGES, "ProviderOtherBackendApi", nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_UNSUPPORTED_VERSION,
       "backend API 8."},
      {TEST_BAD_PACKAGES, "ProviderInitFails", nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
       "init returned error 3100"},
      {TEST_BAD_PACKAGES, "ProviderMissingFunctions", nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
       "leaves init, getInfo, createOpImpl or freeOpImpl null"},
      {TEST_BAD_PACKAGES, "ProviderBuiltinName", nullptr, QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE,
       "an op package named 'qti.aisw' is already registered"},
      {TEST_CPU_PACKAGE, kProvider, "HTP", QNN_BACKEND_ERROR_INVALID_ARGUMENT, "is for target 'HTP'"},
      {TEST_CPU_PACKAGE, "", nullptr, QNN_BACKEND_ERROR_INVALID_ARGUMENT, "interface provider name are required"},
  };
  for (const auto& c : cases) {
    size_t mark = logSize();
    EXPECT_EQ(registerPackage(backend_, c.path, c.provider, c.target), c.expected) << c.provider;
    EXPECT_EQ(errorLinesWith(mark, c.logged), 1) << c.provider;
  }
  EXPECT_EQ(api().backendRegisterOpPackage(nullptr, TEST_CPU_PACKAGE, kProvider, nullptr),
            QNN_BACKEND_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().backendRegisterOpPackage(backend_, nullptr, kProvider, nullptr), QNN_BACKEND_ERROR_INVALID_ARGUMENT);

  // Registering twice: the second is a duplicate, the first stays.
  ASSERT_EQ(registerPackage(backend_, TEST_CPU_PACKAGE, kProvider, "cpu"), QNN_SUCCESS);
  size_t mark = logSize();
  EXPECT_EQ(registerPackage(backend_), QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE);
  EXPECT_EQ(errorLinesWith(mark, "'openqnn.test.CpuPackage' is already registered"), 1);
  MixedGraph g;
  buildMixedGraph(backend_, &g);
  executeAndCheck(g.graph, g, 99);
}

TEST_F(OpPackageTest, FailingCreateOpImplFailsFinalize) {
  ASSERT_EQ(registerPackage(backend_, TEST_BAD_PACKAGES, "ProviderCreateFails"), QNN_SUCCESS);
  MixedGraph g;
  ASSERT_EQ(api().contextCreate(backend_, nullptr, nullptr, &g.context), QNN_SUCCESS);
  ASSERT_EQ(api().graphCreate(g.context, "g", nullptr, &g.graph), QNN_SUCCESS);
  for (TensorSpec* t : {&g.x, &g.out}) ASSERT_EQ(api().tensorCreateGraphTensor(g.graph, &t->tensor), QNN_SUCCESS);
  std::vector<Qnn_Param_t> none;
  std::vector<Qnn_Tensor_t> one{g.x.tensor};
  ASSERT_EQ(api().graphAddNode(g.graph, opConfig("nop", "openqnn.test.BadPackage", "Nop", none, one, &g.out.tensor)),
            QNN_SUCCESS);
  size_t mark = logSize();
  EXPECT_EQ(api().graphFinalize(g.graph, nullptr, nullptr), QNN_GRAPH_ERROR_FINALIZE_FAILED);
  EXPECT_EQ(errorLinesWith(mark, "createOpImpl returned error 1100"), 1);
}

TEST_F(OpPackageTest, SharedAcrossBackendHandlesAndInitializedOnce) {
  const PackageStats start = packageStats();
  Qnn_BackendHandle_t second = newBackend();
  ASSERT_EQ(registerPackage(backend_), QNN_SUCCESS);
  ASSERT_EQ(registerPackage(second), QNN_SUCCESS);
  EXPECT_EQ(packageStats().inits, start.inits + 1);
  MixedGraph g;
  buildMixedGraph(second, &g);
  executeAndCheck(g.graph, g, 5);
  ASSERT_EQ(api().backendFree(backend_), QNN_SUCCESS);
  backend_ = nullptr;
  EXPECT_EQ(packageStats().terminates, start.terminates);  // still used by `second`
  executeAndCheck(g.graph, g, 6);
  ASSERT_EQ(api().backendFree(second), QNN_SUCCESS);
  EXPECT_EQ(packageStats().terminates, start.terminates + 1);
  EXPECT_EQ(packageStats().liveImpls, start.liveImpls);
}

TEST_F(OpPackageTest, ContextBinaryNeedsThePackageRegistered) {
  ASSERT_EQ(registerPackage(backend_), QNN_SUCCESS);
  MixedGraph g;
  buildMixedGraph(backend_, &g);
  Qnn_ContextBinarySize_t size = 0;
  ASSERT_EQ(api().contextGetBinarySize(g.context, &size), QNN_SUCCESS);
  std::vector<uint8_t> binary(size);
  Qnn_ContextBinarySize_t written = 0;
  ASSERT_EQ(api().contextGetBinary(g.context, binary.data(), size, &written), QNN_SUCCESS);

  Qnn_BackendHandle_t other = newBackend();
  extraBackends_.push_back(other);
  Qnn_ContextHandle_t loaded = nullptr;
  size_t mark = logSize();
  EXPECT_EQ(api().contextCreateFromBinary(other, nullptr, nullptr, binary.data(), written, &loaded, nullptr),
            QNN_CONTEXT_ERROR_BINARY_CONFIGURATION);
  EXPECT_EQ(loaded, nullptr);
  EXPECT_EQ(errorLinesWith(mark, "needs op package 'openqnn.test.CpuPackage' (node 'softsign'"), 1);

  ASSERT_EQ(registerPackage(other), QNN_SUCCESS);
  ASSERT_EQ(api().contextCreateFromBinary(other, nullptr, nullptr, binary.data(), written, &loaded, nullptr),
            QNN_SUCCESS);
  Qnn_GraphHandle_t graph = nullptr;
  ASSERT_EQ(api().graphRetrieve(loaded, "mixed", &graph), QNN_SUCCESS);
  executeAndCheck(graph, g, 77);
}

// Backend handles registering, using and releasing the package from several
// threads at once: every registration succeeds (a package released by its last
// user is terminated before it is loaded again), and in the end every op impl
// is freed and every init matched by a terminate.
TEST_F(OpPackageTest, ConcurrentRegistrationAndRelease) {
  const PackageStats start = packageStats();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([this, t] {
      for (int round = 0; round < 5; ++round) {
        Qnn_BackendHandle_t b = newBackend();
        EXPECT_EQ(registerPackage(b), QNN_SUCCESS);
        MixedGraph g;
        buildMixedGraph(b, &g);
        executeAndCheck(g.graph, g, static_cast<uint32_t>(100 * t + round));
        EXPECT_EQ(api().backendFree(b), QNN_SUCCESS);
      }
    });
  for (auto& th : threads) th.join();
  const PackageStats end = packageStats();
  EXPECT_EQ(end.liveImpls, start.liveImpls);
  EXPECT_EQ(end.inits - start.inits, end.terminates - start.terminates);
  EXPECT_GE(end.inits - start.inits, 1);
  EXPECT_EQ(end.executes - start.executes, 4 * 5 * 2);
}

// Fixed-point tensors reach the package as FLOAT_32 (dequantized), and its
// float output is quantized back: real = scale * (q + offset) in, q =
// clamp(nearbyint(y / scale) - offset, 0, 255) out, the quotient y / scale in
// float32 (the CPU backend's float emulation, docs/op-packages.md). The softsign itself is the package's float
// math, repeated here in float, so the comparison is bit-exact.
TEST_F(OpPackageTest, QuantizedTensorsAreShownAsFloat) {
  ASSERT_EQ(registerPackage(backend_), QNN_SUCCESS);
  const float inScale = 0.05f, outScale = 0.02f;
  const int32_t inOffset = -128, outOffset = -100;
  TensorSpec x{"qx", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 256}};
  TensorSpec y{"qy", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 256}};
  for (auto* t : {&x, &y}) {
    t->tensor.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
    t->tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
  }
  x.tensor.v1.quantizeParams.scaleOffsetEncoding = {inScale, inOffset};
  y.tensor.v1.quantizeParams.scaleOffsetEncoding = {outScale, outOffset};
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  ASSERT_EQ(api().contextCreate(backend_, nullptr, nullptr, &ctx), QNN_SUCCESS);
  ASSERT_EQ(api().graphCreate(ctx, "q", nullptr, &graph), QNN_SUCCESS);
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &x.tensor), QNN_SUCCESS);
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &y.tensor), QNN_SUCCESS);
  std::vector<Qnn_Param_t> alpha{scalarParam("alpha", kAlpha)};
  std::vector<Qnn_Tensor_t> in{x.tensor};
  ASSERT_EQ(api().graphAddNode(graph, opConfig("qsoft", kPackage, "ScaledSoftsign", alpha, in, &y.tensor)), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  std::vector<uint8_t> qin(256), qout(256, 0);
  for (int i = 0; i < 256; ++i) qin[i] = static_cast<uint8_t>(i);
  TensorSpec xi = x, yi = y;
  xi.tensor.v1.clientBuf = {qin.data(), 256};
  yi.tensor.v1.clientBuf = {qout.data(), 256};
  ASSERT_EQ(api().graphExecute(graph, &xi.tensor, 1, &yi.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
  int clamped = 0;
  for (int i = 0; i < 256; ++i) {
    const float real = inScale * static_cast<float>(i + inOffset);
    const float soft = kAlpha * real / (1.f + std::fabs(real));
    const float quotient = soft / outScale;
    const double q = std::nearbyint(static_cast<double>(quotient)) - outOffset;
    const double want = std::min(255.0, std::max(0.0, q));
    clamped += want != q;
    EXPECT_EQ(qout[i], static_cast<uint8_t>(want)) << "q=" << i;
  }
  EXPECT_GT(clamped, 0);  // the range exercises saturation too
}

// API 2.39's QnnBackend_registerOpPackageFromBinary: the package's bytes from memory
// register and run exactly as the same package from its file (on another backend handle:
// the two are two loaded copies of one library).
std::vector<uint8_t> fileBytes(const char* path) {
  std::vector<uint8_t> bytes;
  if (FILE* f = std::fopen(path, "rb")) {
    uint8_t buf[65536];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.insert(bytes.end(), buf, buf + n);
    std::fclose(f);
  }
  return bytes;
}

TEST_F(OpPackageTest, FromBinaryRunsLikeTheSameFile) {
  const auto* v39 = cpu().provider2_39();
  ASSERT_NE(v39, nullptr);
  const std::vector<uint8_t> bytes = fileBytes(TEST_CPU_PACKAGE);
  ASSERT_GT(bytes.size(), 1000u);
  Qnn_BackendHandle_t fromMemory = newBackend();
  extraBackends_.push_back(fromMemory);
  ASSERT_EQ(registerPackage(backend_), QNN_SUCCESS);
  const size_t before = logSize();
  ASSERT_EQ(v39->table.backendRegisterOpPackageFromBinary(fromMemory, bytes.data(), bytes.size(), kProvider, "CPU"),
            QNN_SUCCESS);
  EXPECT_EQ(errorLinesWith(before, ""), 0);
  // The registered ops are listed under the package's name, as from the file.
  uint32_t num = 0;
  const QnnBackend_OperationName_t* ops = nullptr;
  ASSERT_EQ(api().backendGetSupportedOperations(fromMemory, &num, &ops), QNN_SUCCESS);
  int packageOps = 0;
  for (uint32_t k = 0; k < num; ++k) packageOps += std::string(ops[k].packageName) == kPackage;
  EXPECT_EQ(packageOps, 2);
  MixedGraph fromFileGraph, fromMemoryGraph;
  buildMixedGraph(backend_, &fromFileGraph);
  buildMixedGraph(fromMemory, &fromMemoryGraph);
  for (uint32_t seed : {11u, 4242u}) {
    std::vector<float> a, b;
    executeAndCheck(fromFileGraph.graph, fromFileGraph, seed, &a);
    executeAndCheck(fromMemoryGraph.graph, fromMemoryGraph, seed, &b);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0) << "seed " << seed;
  }
  // The same package again on that handle: a duplicate, as from a file.
  EXPECT_EQ(v39->table.backendRegisterOpPackageFromBinary(fromMemory, bytes.data(), bytes.size(), kProvider, "CPU"),
            QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE);
}

TEST_F(OpPackageTest, FromBinaryRefusesWhatIsNoPackage) {
  const auto* v39 = cpu().provider2_39();
  ASSERT_NE(v39, nullptr);
  const auto& reg = v39->table.backendRegisterOpPackageFromBinary;
  std::vector<uint8_t> garbage(8192);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = uint8_t(i * 37 + 11);
  size_t before = logSize();
  EXPECT_EQ(reg(backend_, garbage.data(), garbage.size(), kProvider, nullptr),
            QNN_BACKEND_ERROR_OP_PACKAGE_LOAD_FROM_BUFFER_FAILED);
  EXPECT_EQ(errorLinesWith(before, "QnnBackend_registerOpPackageFromBinary"), 1);
  EXPECT_EQ(reg(backend_, nullptr, 100, kProvider, nullptr), QNN_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(reg(backend_, garbage.data(), 0, kProvider, nullptr), QNN_BACKEND_ERROR_INVALID_ARGUMENT);
  const std::vector<uint8_t> bytes = fileBytes(TEST_CPU_PACKAGE);
  EXPECT_EQ(reg(backend_, bytes.data(), bytes.size(), nullptr, nullptr), QNN_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(reg(backend_, bytes.data(), bytes.size(), "NoSuchProvider", nullptr),
            QNN_BACKEND_ERROR_OP_PACKAGE_IF_PROVIDER_NOT_FOUND);
  EXPECT_EQ(reg(backend_, bytes.data(), bytes.size(), kProvider, "GPU"), QNN_BACKEND_ERROR_INVALID_ARGUMENT);
  // The backend still takes the package afterwards.
  EXPECT_EQ(reg(backend_, bytes.data(), bytes.size(), kProvider, nullptr), QNN_SUCCESS);
}

}  // namespace
