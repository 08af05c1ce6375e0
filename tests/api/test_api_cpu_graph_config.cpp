// QnnCpuGraph_CustomConfig_t on libQnnCpu.so: the op debug callback (called
// after each op with its outputs, QnnCpuGraph.h), USE_QMX, unknown options.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "CPU/QnnCpuGraph.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

// What the callback saw, copied while the backend's memory is valid.
struct SeenOp {
  std::string name, type;
  uint32_t outputId = 0;
  std::string outputName;
  std::vector<float> values;
};

Qnn_ErrorHandle_t recordOp(Qnn_OpConfig_t* op, void* param) {
  auto* seen = static_cast<std::vector<SeenOp>*>(param);
  SeenOp s;
  s.name = op->v1.name;
  s.type = op->v1.typeName;
  EXPECT_EQ(op->v1.numOfOutputs, 1u);
  const Qnn_TensorV1_t& out = op->v1.outputTensors[0].v1;
  s.outputId = out.id;
  s.outputName = out.name ? out.name : "";
  const auto* data = static_cast<const float*>(out.clientBuf.data);
  EXPECT_EQ(out.clientBuf.dataSize, 4u * sizeof(float));
  if (data) s.values.assign(data, data + out.clientBuf.dataSize / sizeof(float));
  seen->push_back(s);
  return QNN_SUCCESS;
}

QnnCpuGraph_CustomConfig_t debugConfig(QnnCpuGraph_OpDebugCallback_t fn, void* param) {
  QnnCpuGraph_CustomConfig_t c{};
  c.option = QNN_CPU_GRAPH_CONFIG_OPTION_OP_DEBUG_CALLBACK;
  c.cpuGraphOpDebug.cpuGraphOpDebugCallback = fn;
  c.cpuGraphOpDebug.callBackParam = param;
  return c;
}

class CpuGraphConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cpu.ok()) << cpu.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
  }
  const QNN_INTERFACE_VER_TYPE& api() { return cpu.api(); }

  Qnn_ErrorHandle_t create(const char* name, const QnnCpuGraph_CustomConfig_t* custom) {
    QnnGraph_Config_t config = QNN_GRAPH_CONFIG_INIT;
    config.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
    config.customConfig = const_cast<QnnCpuGraph_CustomConfig_t*>(custom);
    const QnnGraph_Config_t* list[] = {&config, nullptr};
    return api().graphCreate(ctx, name, custom ? list : nullptr, &graph);
  }
  Qnn_ErrorHandle_t setConfig(const QnnCpuGraph_CustomConfig_t& custom) {
    QnnGraph_Config_t config = QNN_GRAPH_CONFIG_INIT;
    config.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
    config.customConfig = const_cast<QnnCpuGraph_CustomConfig_t*>(&custom);
    const QnnGraph_Config_t* list[] = {&config, nullptr};
    return api().graphSetConfig(graph, list);
  }
  // in -> Relu "relu" -> mid -> ElementWiseAdd(mid, mid) "double" -> out.
  void build() {
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &in.tensor), QNN_SUCCESS);
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &mid.tensor), QNN_SUCCESS);
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &out.tensor), QNN_SUCCESS);
    Qnn_OpConfig_t relu = QNN_OPCONFIG_INIT;
    relu.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &mid.tensor};
    ASSERT_EQ(api().graphAddNode(graph, relu), QNN_SUCCESS);
    Qnn_Tensor_t addIn[] = {mid.tensor, mid.tensor};
    Qnn_OpConfig_t add = QNN_OPCONFIG_INIT;
    add.v1 = {"double", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &out.tensor};
    ASSERT_EQ(api().graphAddNode(graph, add), QNN_SUCCESS);
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }
  void run() {
    in.tensor.v1.clientBuf = {x, sizeof x};
    out.tensor.v1.clientBuf = {y, sizeof y};
    ASSERT_EQ(api().graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
  }

  LoadedBackend cpu{cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  TensorSpec in{"in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4}};
  TensorSpec mid{"mid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 4}};
  TensorSpec out{"out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4}};
  float x[4] = {-1.f, 2.f, -3.f, 4.5f}, y[4] = {};
};

TEST_F(CpuGraphConfig, DebugCallbackSeesEveryOpsOutputInOrder) {
  std::vector<SeenOp> seen;
  QnnCpuGraph_CustomConfig_t debug = debugConfig(recordOp, &seen);
  ASSERT_EQ(create("debug", &debug), QNN_SUCCESS);
  build();
  run();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].name, "relu");
  EXPECT_EQ(seen[0].type, "Relu");
  EXPECT_EQ(seen[0].outputId, mid.tensor.v1.id);
  EXPECT_EQ(seen[0].outputName, "mid");
  EXPECT_EQ(seen[0].values, (std::vector<float>{0.f, 2.f, 0.f, 4.5f}));  // the native tensor's data
  EXPECT_EQ(seen[1].name, "double");
  EXPECT_EQ(seen[1].outputId, out.tensor.v1.id);
  EXPECT_EQ(seen[1].values, (std::vector<float>{0.f, 4.f, 0.f, 9.f}));
  EXPECT_EQ(std::vector<float>(y, y + 4), seen[1].values);
}

TEST_F(CpuGraphConfig, DebugCallbackSetAndRemovedAfterFinalize) {
  ASSERT_EQ(create("later", nullptr), QNN_SUCCESS);
  build();
  std::vector<SeenOp> seen;
  ASSERT_EQ(setConfig(debugConfig(recordOp, &seen)), QNN_SUCCESS);
  run();
  EXPECT_EQ(seen.size(), 2u);
  ASSERT_EQ(setConfig(debugConfig(nullptr, nullptr)), QNN_SUCCESS);  // "NULL callback function indicate no debug option"
  run();
  EXPECT_EQ(seen.size(), 2u);
}

TEST_F(CpuGraphConfig, QmxAcceptedUnknownOptionRefused) {
  QnnCpuGraph_CustomConfig_t qmx{};
  qmx.option = QNN_CPU_GRAPH_CONFIG_OPTION_USE_QMX;
  qmx.cpuGraphUseQmx.useQmx = true;
  ASSERT_EQ(create("qmx", &qmx), QNN_SUCCESS);
  QnnCpuGraph_CustomConfig_t unknown{};
  unknown.option = static_cast<QnnCpuGraph_ConfigOption_t>(42);
  EXPECT_EQ(setConfig(unknown), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  Qnn_GraphHandle_t other = nullptr;
  QnnGraph_Config_t config = QNN_GRAPH_CONFIG_INIT;
  config.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
  config.customConfig = &unknown;
  const QnnGraph_Config_t* list[] = {&config, nullptr};
  EXPECT_EQ(api().graphCreate(ctx, "unknown", list, &other), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace qnn::test
