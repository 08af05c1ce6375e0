// QnnGraph_validate / QnnGraph_freeValidationResult (API 2.39) on libQnnCpu.so and
// libQnnHtp.so, through the 2.39 table: the result of a valid graph, of a graph with one
// node whose input no node produces, of a node added before its producer, of a cycle; the
// refusals (no nodes, finalized, null out-pointer, unknown config); the result owned by the
// backend until freed, a second free, a forged pointer and null refused with one line each.
// Also the opt-in 2.39 provider of QnnInterface_getProviders.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "QnnOpDef.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

std::mutex gMu;
std::vector<std::string> gErrors;
void captureErrors(const char* fmt, QnnLog_Level_t level, uint64_t, va_list args) {
  if (level != QNN_LOG_LEVEL_ERROR) return;
  char buf[1024];
  std::vsnprintf(buf, sizeof buf, fmt, args);
  std::lock_guard<std::mutex> lock(gMu);
  gErrors.emplace_back(buf);
}
size_t errorCount() {
  std::lock_guard<std::mutex> lock(gMu);
  return gErrors.size();
}

class GraphValidate : public ::testing::TestWithParam<bool> {  // param: HTP
 protected:
  void SetUp() override {
    lib_ = std::make_unique<LoadedBackend>(GetParam() ? htpBackendPath() : cpuBackendPath());
    ASSERT_TRUE(lib_->ok()) << lib_->error();
    ASSERT_NE(lib_->provider2_39(), nullptr);
    ASSERT_EQ(api().logCreate(captureErrors, QNN_LOG_LEVEL_WARN, &log_), QNN_SUCCESS);
    ASSERT_EQ(api().backendCreate(log_, nullptr, &backend_), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend_, nullptr, nullptr, &context_), QNN_SUCCESS);
    ASSERT_EQ(api().graphCreate(context_, "g", nullptr, &graph_), QNN_SUCCESS);
  }
  void TearDown() override {
    if (backend_) api().backendFree(backend_);
    if (log_) api().logFree(log_);
  }
  const QNN_INTERFACE_VER_TYPE& api() const { return lib_->api(); }
  const LoadedBackend::Table2_39& api39() const { return lib_->api2_39(); }

  TensorSpec& tensor(const char* name, Qnn_TensorType_t type) {
    specs_.emplace_back(name, type, QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{1, 4});
    EXPECT_EQ(api().tensorCreateGraphTensor(graph_, &specs_.back().tensor), QNN_SUCCESS) << name;
    return specs_.back();
  }
  void relu(const char* name, TensorSpec& in, TensorSpec& out) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, QNN_OP_PACKAGE_NAME_QTI_AISW, QNN_OP_RELU, 0, nullptr, 1, &in.tensor, 1, &out.tensor};
    ASSERT_EQ(api().graphAddNode(graph_, op), QNN_SUCCESS) << name;
  }
  struct Node {
    std::string name;
    QnnGraph_NodeValidationStatus_t status;
    Qnn_ErrorHandle_t code;
    bool hasMessage;
  };
  // Validates, copies the result and frees it.
  std::vector<Node> validate(Qnn_ErrorHandle_t expected, Qnn_ErrorHandle_t* overall) {
    QnnGraph_ValidationResult_t* r = nullptr;
    EXPECT_EQ(api39().graphValidate(graph_, nullptr, &r), expected);
    std::vector<Node> nodes;
    if (!r) return nodes;
    *overall = r->overallStatus;
    for (uint32_t k = 0; k < r->numResults; ++k)
      nodes.push_back({r->results[k].nodeName, r->results[k].status, r->results[k].errorCode,
                       r->results[k].errorMessage != nullptr});
    EXPECT_EQ(api39().graphFreeValidationResult(r), QNN_SUCCESS);
    return nodes;
  }

  std::unique_ptr<LoadedBackend> lib_;
  Qnn_LogHandle_t log_ = nullptr;
  Qnn_BackendHandle_t backend_ = nullptr;
  Qnn_ContextHandle_t context_ = nullptr;
  Qnn_GraphHandle_t graph_ = nullptr;
  std::deque<TensorSpec> specs_;
};

TEST_P(GraphValidate, ValidGraphHasEveryNodeSupported) {
  TensorSpec &in = tensor("in", QNN_TENSOR_TYPE_APP_WRITE), &mid = tensor("mid", QNN_TENSOR_TYPE_NATIVE),
             &out = tensor("out", QNN_TENSOR_TYPE_APP_READ);
  relu("first", in, mid);
  relu("second", mid, out);
  Qnn_ErrorHandle_t overall = 1;
  std::vector<Node> nodes = validate(QNN_SUCCESS, &overall);
  EXPECT_EQ(overall, QNN_SUCCESS);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].name, "first");
  EXPECT_EQ(nodes[1].name, "second");
  for (const Node& n : nodes) {
    EXPECT_EQ(n.status, QNN_GRAPH_NODE_VALIDATION_STATUS_SUPPORTED);
    EXPECT_EQ(n.code, QNN_SUCCESS);
    EXPECT_FALSE(n.hasMessage);
  }
  // Validation changes nothing: the graph still finalizes, and then is not validated again.
  EXPECT_EQ(api().graphFinalize(graph_, nullptr, nullptr), QNN_SUCCESS);
  QnnGraph_ValidationResult_t* r = reinterpret_cast<QnnGraph_ValidationResult_t*>(0x5e5e);
  EXPECT_EQ(api39().graphValidate(graph_, nullptr, &r), QNN_GRAPH_ERROR_GRAPH_FINALIZED);
  EXPECT_EQ(r, reinterpret_cast<QnnGraph_ValidationResult_t*>(0x5e5e));
}

TEST_P(GraphValidate, NodeReadingWhatNoNodeProducesIsUnconnected) {
  TensorSpec &in = tensor("in", QNN_TENSOR_TYPE_APP_WRITE), &mid = tensor("mid", QNN_TENSOR_TYPE_NATIVE),
             &orphan = tensor("orphan", QNN_TENSOR_TYPE_NATIVE), &out = tensor("out", QNN_TENSOR_TYPE_APP_READ),
             &out2 = tensor("out2", QNN_TENSOR_TYPE_APP_READ);
  relu("first", in, mid);
  relu("dangling", orphan, out2);
  relu("second", mid, out);
  Qnn_ErrorHandle_t overall = 0;
  const size_t before = errorCount();
  std::vector<Node> nodes = validate(QNN_GRAPH_ERROR_UNCONNECTED_NODE, &overall);
  EXPECT_EQ(errorCount(), before + 1);  // one line for the failing call
  EXPECT_EQ(overall, QNN_GRAPH_ERROR_UNCONNECTED_NODE);
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0].status, QNN_GRAPH_NODE_VALIDATION_STATUS_SUPPORTED);
  EXPECT_EQ(nodes[1].name, "dangling");
  EXPECT_EQ(nodes[1].status, QNN_GRAPH_NODE_VALIDATION_STATUS_UNSUPPORTED);
  EXPECT_EQ(nodes[1].code, QNN_GRAPH_ERROR_UNCONNECTED_NODE);
  EXPECT_TRUE(nodes[1].hasMessage);
  EXPECT_EQ(nodes[2].status, QNN_GRAPH_NODE_VALIDATION_STATUS_SUPPORTED);
  // Finalize refuses the same graph.
  EXPECT_NE(api().graphFinalize(graph_, nullptr, nullptr), QNN_SUCCESS);
}

TEST_P(GraphValidate, NodeAddedBeforeItsProducerIsUnconnectedACycleIsDetected) {
  TensorSpec &in = tensor("in", QNN_TENSOR_TYPE_APP_WRITE), &mid = tensor("mid", QNN_TENSOR_TYPE_NATIVE),
             &out = tensor("out", QNN_TENSOR_TYPE_APP_READ);
  relu("late_reader", mid, out);  // reads `mid` before "producer" is added
  relu("producer", in, mid);
  Qnn_ErrorHandle_t overall = 0;
  std::vector<Node> nodes = validate(QNN_GRAPH_ERROR_UNCONNECTED_NODE, &overall);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].code, QNN_GRAPH_ERROR_UNCONNECTED_NODE);
  EXPECT_EQ(nodes[1].code, QNN_SUCCESS);

  // A second graph: a -> b -> a.
  ASSERT_EQ(api().graphCreate(context_, "cycle", nullptr, &graph_), QNN_SUCCESS);
  TensorSpec &x = tensor("x", QNN_TENSOR_TYPE_NATIVE), &y = tensor("y", QNN_TENSOR_TYPE_NATIVE);
  relu("a", y, x);
  relu("b", x, y);
  nodes = validate(QNN_GRAPH_ERROR_CYCLE_DETECTED, &overall);
  EXPECT_EQ(overall, QNN_GRAPH_ERROR_CYCLE_DETECTED);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].code, QNN_GRAPH_ERROR_CYCLE_DETECTED);
  EXPECT_EQ(nodes[0].status, QNN_GRAPH_NODE_VALIDATION_STATUS_UNSUPPORTED);
  EXPECT_EQ(nodes[1].code, QNN_SUCCESS);  // b reads a's output, added before it
}

TEST_P(GraphValidate, RefusalsAndTheResultsLifetime) {
  QnnGraph_ValidationResult_t* r = nullptr;
  EXPECT_EQ(api39().graphValidate(graph_, nullptr, &r), QNN_GRAPH_ERROR_INVALID_ARGUMENT);  // no nodes
  EXPECT_EQ(r, nullptr);
  TensorSpec &in = tensor("in", QNN_TENSOR_TYPE_APP_WRITE), &out = tensor("out", QNN_TENSOR_TYPE_APP_READ);
  relu("only", in, out);
  EXPECT_EQ(api39().graphValidate(graph_, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api39().graphValidate(nullptr, nullptr, &r), QNN_GRAPH_ERROR_INVALID_HANDLE);
  QnnGraph_ValidateConfig_t custom = QNN_GRAPH_VALIDATE_CONFIG_INIT;
  custom.option = QNN_GRAPH_VALIDATE_OPTION_CUSTOM;
  const QnnGraph_ValidateConfig_t* configs[] = {&custom, nullptr};
  EXPECT_EQ(api39().graphValidate(graph_, configs, &r), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(r, nullptr);

  ASSERT_EQ(api39().graphValidate(graph_, nullptr, &r), QNN_SUCCESS);
  ASSERT_NE(r, nullptr);
  // The result is the backend's until freed: it outlives the graph's context.
  ASSERT_EQ(api().contextFree(context_, nullptr), QNN_SUCCESS);
  ASSERT_EQ(r->numResults, 1u);
  EXPECT_STREQ(r->results[0].nodeName, "only");
  EXPECT_EQ(api39().graphFreeValidationResult(r), QNN_SUCCESS);
  for (QnnGraph_ValidationResult_t* bad : {r, reinterpret_cast<QnnGraph_ValidationResult_t*>(0x7f00deadbee0ull),
                                           static_cast<QnnGraph_ValidationResult_t*>(nullptr)}) {
    const size_t before = errorCount();
    EXPECT_EQ(api39().graphFreeValidationResult(bad), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(errorCount(), before + 1);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, GraphValidate, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Htp" : "Cpu"; });

// QnnInterface_getProviders: one 2.32 provider by default; one 2.39 provider whose first 71
// members are the 2.32 table's under QNN_OPENQNN_PROVIDER_API=2.39 (HTP backend API 5.50.0).
TEST(Provider2_39, OptInThroughTheEnvironment) {
  for (bool htp : {false, true}) {
    LoadedBackend lib(htp ? htpBackendPath() : cpuBackendPath());
    ASSERT_TRUE(lib.ok()) << lib.error();
    using GetProviders = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
    void* h = dlopen(htp ? htpBackendPath().c_str() : cpuBackendPath().c_str(), RTLD_NOW | RTLD_LOCAL);
    auto get = reinterpret_cast<GetProviders>(dlsym(h, "QnnInterface_getProviders"));
    const QnnInterface_t** list = nullptr;
    uint32_t n = 0;
    ASSERT_EQ(get(&list, &n), QNN_SUCCESS);
    ASSERT_EQ(n, 1u);
    const QnnInterface_t* v32 = list[0];
    EXPECT_EQ(v32->apiVersion.coreApiVersion.minor, 32u);
    ASSERT_EQ(setenv("QNN_OPENQNN_PROVIDER_API", "2.39", 1), 0);
    ASSERT_EQ(get(&list, &n), QNN_SUCCESS);
    ASSERT_EQ(n, 1u);
    const auto* v39 = reinterpret_cast<const LoadedBackend::Interface2_39*>(list[0]);
    EXPECT_EQ(v39->apiVersion.coreApiVersion.major, 2u);
    EXPECT_EQ(v39->apiVersion.coreApiVersion.minor, 39u);
    EXPECT_EQ(v39->apiVersion.coreApiVersion.patch, 0u);
    Qnn_ApiVersion_t reported{};
    EXPECT_EQ(v39->table.v2_32.backendGetApiVersion(&reported), QNN_SUCCESS);
    EXPECT_EQ(reported.coreApiVersion.minor, 39u);
    ASSERT_EQ(unsetenv("QNN_OPENQNN_PROVIDER_API"), 0);
    const Qnn_Version_t& b = v39->apiVersion.backendApiVersion;
    if (htp) {
      EXPECT_EQ(b.major, 5u);
      EXPECT_EQ(b.minor, 50u);
      EXPECT_EQ(b.patch, 0u);
    } else {
      EXPECT_EQ(std::memcmp(&b, &v32->apiVersion.backendApiVersion, sizeof b), 0);
    }
    EXPECT_EQ(std::memcmp(&v39->table.v2_32, &v32->QNN_INTERFACE_VER_NAME, sizeof(QNN_INTERFACE_VER_TYPE)), 0);
    EXPECT_NE(v39->table.graphValidate, nullptr);
    EXPECT_NE(v39->table.backendRegisterOpPackageFromBinary, nullptr);
    // Another value than 2.32 / 2.39: the 2.32 provider.
    ASSERT_EQ(setenv("QNN_OPENQNN_PROVIDER_API", "2.40", 1), 0);
    ASSERT_EQ(get(&list, &n), QNN_SUCCESS);
    EXPECT_EQ(list[0], v32);
    ASSERT_EQ(unsetenv("QNN_OPENQNN_PROVIDER_API"), 0);
    dlclose(h);
  }
}

}  // namespace
}  // namespace qnn::test
