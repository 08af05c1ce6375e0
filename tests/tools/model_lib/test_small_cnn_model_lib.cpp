// Loads the model library that qnn-model-lib-generator built from small_cnn/model.cpp
// (+ model.bin) the way qnn-net-run does: dlopen, QnnModel_composeGraphs against
// libQnnCpu.so, finalize, execute, compare with the plain-loop reference in
// small_cnn/reference.h, QnnModel_freeGraphsInfo.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "QnnWrapperUtils.hpp"
#include "tests/api/backend_loader.h"
#include "tests/tools/model_lib/small_cnn/reference.h"

namespace {

using qnn_wrapper_api::GraphConfigInfo_t;
using qnn_wrapper_api::GraphInfo_t;
using qnn_wrapper_api::GraphInfoPtr_t;
using qnn_wrapper_api::ModelError_t;

// The two entry points every model library exports (docs/model-library.md).
using ComposeFn = ModelError_t (*)(Qnn_BackendHandle_t, QNN_INTERFACE_VER_TYPE, Qnn_ContextHandle_t,
                                   const GraphConfigInfo_t**, const uint32_t, GraphInfoPtr_t**, uint32_t*, bool,
                                   QnnLog_Callback_t, QnnLog_Level_t);
using FreeFn = ModelError_t (*)(GraphInfoPtr_t**, uint32_t);

// Tolerances: the backend accumulates in float32 in its own order (blocked GEMM,
// FMA), the reference in double. Logits are sums of up to 64 products of values
// below 1 in magnitude.
constexpr double kLogitsAbsTol = 1e-4, kLogitsRelTol = 1e-4, kProbsAbsTol = 1e-5;

class ModelLibrary {
 public:
  explicit ModelLibrary(const char* path) {
    lib_ = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib_) {
      error_ = dlerror();
      return;
    }
    compose_ = reinterpret_cast<ComposeFn>(dlsym(lib_, "QnnModel_composeGraphs"));
    free_ = reinterpret_cast<FreeFn>(dlsym(lib_, "QnnModel_freeGraphsInfo"));
    if (!compose_ || !free_) error_ = "model library lacks QnnModel_composeGraphs/QnnModel_freeGraphsInfo";
  }
  ~ModelLibrary() {
    if (lib_) dlclose(lib_);
  }
  bool ok() const { return compose_ && free_; }
  const std::string& error() const { return error_; }
  ComposeFn compose() const { return compose_; }
  FreeFn freeInfo() const { return free_; }

 private:
  void* lib_ = nullptr;
  ComposeFn compose_ = nullptr;
  FreeFn free_ = nullptr;
  std::string error_;
};

// The library the fixture test built; SMALL_CNN_MODEL_LIB in the environment
// overrides it (e.g. to check a library built with another compiler).
const char* modelLibPath() {
  const char* env = std::getenv("SMALL_CNN_MODEL_LIB");
  return env && *env ? env : SMALL_CNN_MODEL_LIB;
}

class SmallCnnModelLib : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(backend_.ok()) << backend_.error();
    ASSERT_TRUE(model_.ok()) << model_.error() << " (" << modelLibPath() << ")";
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backendHandle_), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backendHandle_, nullptr, nullptr, &context_), QNN_SUCCESS);
  }
  void TearDown() override {
    if (context_) api().contextFree(context_, nullptr);
    if (backendHandle_) api().backendFree(backendHandle_);
  }
  const QNN_INTERFACE_VER_TYPE& api() const { return backend_.api(); }

  ModelError_t compose(GraphInfoPtr_t** info, uint32_t* n, bool debug = false,
                       const GraphConfigInfo_t** configs = nullptr, uint32_t numConfigs = 0) {
    return model_.compose()(backendHandle_, api(), context_, configs, numConfigs, info, n, debug, nullptr,
                            QNN_LOG_LEVEL_ERROR);
  }

  qnn::test::LoadedBackend backend_{qnn::test::cpuBackendPath()};
  ModelLibrary model_{modelLibPath()};
  Qnn_BackendHandle_t backendHandle_ = nullptr;
  Qnn_ContextHandle_t context_ = nullptr;
};

std::vector<uint32_t> dims(const Qnn_Tensor_t& t) {
  return std::vector<uint32_t>(t.v1.dimensions, t.v1.dimensions + t.v1.rank);
}

TEST_F(SmallCnnModelLib, ComposeFinalizeExecuteMatchesReference) {
  GraphInfoPtr_t* info = nullptr;
  uint32_t n = 0;
  ASSERT_EQ(compose(&info, &n), qnn_wrapper_api::MODEL_NO_ERROR);
  ASSERT_EQ(n, 1u);
  GraphInfo_t& g = *info[0];
  EXPECT_STREQ(g.graphName, "small_cnn");
  ASSERT_EQ(g.numInputTensors, 2u);
  ASSERT_EQ(g.numOutputTensors, 2u);
  EXPECT_STREQ(g.inputTensors[0].v1.name, "input");
  EXPECT_EQ(dims(g.inputTensors[0]), (std::vector<uint32_t>{1, 8, 8, 3}));
  EXPECT_STREQ(g.inputTensors[1].v1.name, "residual");
  EXPECT_EQ(g.inputTensors[1].version, QNN_TENSOR_VERSION_2);
  EXPECT_EQ(dims(g.inputTensors[1]), (std::vector<uint32_t>{1, 4, 4, 4}));
  EXPECT_STREQ(g.outputTensors[0].v1.name, "logits");
  EXPECT_STREQ(g.outputTensors[1].v1.name, "probs");
  EXPECT_EQ(dims(g.outputTensors[1]), (std::vector<uint32_t>{1, 10}));

  ASSERT_EQ(api().graphFinalize(g.graph, nullptr, nullptr), QNN_GRAPH_NO_ERROR);

  std::vector<float> in = small_cnn_ref::input(), res = small_cnn_ref::residual();
  std::vector<float> logits(10, -1.f), probs(10, -1.f);
  // Bind buffers to copies of the returned descriptions, as a client would.
  std::vector<Qnn_Tensor_t> inputs(g.inputTensors, g.inputTensors + 2);
  std::vector<Qnn_Tensor_t> outputs(g.outputTensors, g.outputTensors + 2);
  inputs[0].v1.clientBuf = {in.data(), uint32_t(in.size() * sizeof(float))};
  inputs[1].v1.clientBuf = {res.data(), uint32_t(res.size() * sizeof(float))};
  outputs[0].v1.clientBuf = {logits.data(), uint32_t(logits.size() * sizeof(float))};
  outputs[1].v1.clientBuf = {probs.data(), uint32_t(probs.size() * sizeof(float))};
  ASSERT_EQ(api().graphExecute(g.graph, inputs.data(), 2, outputs.data(), 2, nullptr, nullptr), QNN_GRAPH_NO_ERROR);

  const small_cnn_ref::Outputs ref = small_cnn_ref::compute(in, res);
  for (int i = 0; i < 10; ++i) {
    EXPECT_NEAR(logits[i], ref.logits[i], kLogitsAbsTol + kLogitsRelTol * std::fabs(ref.logits[i])) << "logits[" << i << "]";
    EXPECT_NEAR(probs[i], ref.probs[i], kProbsAbsTol) << "probs[" << i << "]";
  }
  EXPECT_EQ(model_.freeInfo()(&info, n), qnn_wrapper_api::MODEL_NO_ERROR);
  EXPECT_EQ(info, nullptr);
}

TEST_F(SmallCnnModelLib, DebugModeMakesEveryIntermediateReadable) {
  GraphInfoPtr_t* info = nullptr;
  uint32_t n = 0;
  ASSERT_EQ(compose(&info, &n, /*debug=*/true), qnn_wrapper_api::MODEL_NO_ERROR);
  ASSERT_EQ(n, 1u);
  std::set<std::string> names;
  for (uint32_t i = 0; i < info[0]->numOutputTensors; ++i) names.insert(info[0]->outputTensors[i].v1.name);
  EXPECT_EQ(names, (std::set<std::string>{"conv1_out", "relu1_out", "pool1_out", "add1_out", "flat", "logits", "probs"}));
  EXPECT_EQ(info[0]->numInputTensors, 2u);
  EXPECT_EQ(model_.freeInfo()(&info, n), qnn_wrapper_api::MODEL_NO_ERROR);
}

TEST_F(SmallCnnModelLib, GraphConfigsForAnotherGraphAreRejectedBeforeAnyGraphIsCreated) {
  char other[] = "not_small_cnn";
  GraphConfigInfo_t cfg{other, nullptr};
  const GraphConfigInfo_t* cfgs[] = {&cfg};
  GraphInfoPtr_t* info = nullptr;
  uint32_t n = 0;
  EXPECT_EQ(compose(&info, &n, false, cfgs, 1), qnn_wrapper_api::MODEL_INVALID_ARGUMENT_ERROR);
  EXPECT_EQ(info, nullptr);
  // The name is still free: a matching config entry composes normally.
  char mine[] = "small_cnn";
  GraphConfigInfo_t ok{mine, nullptr};
  const GraphConfigInfo_t* okCfgs[] = {&ok};
  ASSERT_EQ(compose(&info, &n, false, okCfgs, 1), qnn_wrapper_api::MODEL_NO_ERROR);
  EXPECT_EQ(model_.freeInfo()(&info, n), qnn_wrapper_api::MODEL_NO_ERROR);
}

TEST_F(SmallCnnModelLib, ComposingTheSameGraphTwiceInOneContextFailsCleanly) {
  GraphInfoPtr_t* info = nullptr;
  uint32_t n = 0;
  ASSERT_EQ(compose(&info, &n), qnn_wrapper_api::MODEL_NO_ERROR);
  GraphInfoPtr_t* again = nullptr;
  uint32_t m = 0;
  // The backend refuses a second graph of the same name; the error comes back as a code.
  EXPECT_NE(compose(&again, &m), qnn_wrapper_api::MODEL_NO_ERROR);
  EXPECT_EQ(again, nullptr);
  EXPECT_EQ(model_.freeInfo()(&info, n), qnn_wrapper_api::MODEL_NO_ERROR);
}

TEST_F(SmallCnnModelLib, FreeGraphsInfoRejectsNull) {
  EXPECT_NE(model_.freeInfo()(nullptr, 1), qnn_wrapper_api::MODEL_NO_ERROR);
  GraphInfoPtr_t* none = nullptr;
  EXPECT_NE(model_.freeInfo()(&none, 1), qnn_wrapper_api::MODEL_NO_ERROR);
}

}  // namespace
