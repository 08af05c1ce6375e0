// The context config options of the 2.32 headers on createFromBinary and
// create: ENABLE_GRAPHS loads only the listed graphs (an unknown name is an
// error), MEMORY_LIMIT_HINT / PERSISTENT_BINARY / BINARY_COMPATIBILITY /
// GRAPH_RETENTION_ORDER are accepted (DEFER_GRAPH_INIT: test_api_context_loading.cpp);
// malformed values are INVALID_CONFIG.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

// Triggers gTriggerSignal when the backend logs that it loads a graph.
const QNN_INTERFACE_VER_TYPE* gTriggerApi = nullptr;
Qnn_SignalHandle_t gTriggerSignal = nullptr;
void triggerOnLoad(const char* fmt, QnnLog_Level_t, uint64_t, va_list args) {
  char text[512];
  vsnprintf(text, sizeof text, fmt, args);
  if (gTriggerSignal && std::strstr(text, "loading graph")) {
    EXPECT_EQ(gTriggerApi->signalTrigger(gTriggerSignal), QNN_SUCCESS);
  }
}

class ContextConfigs : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cpu.ok()) << cpu.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    for (const char* name : {"prefill", "decode"}) {
      Qnn_GraphHandle_t g = nullptr;
      ASSERT_EQ(api().graphCreate(ctx, name, nullptr, &g), QNN_SUCCESS);
      TensorSpec in(std::string(name) + "_in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
      TensorSpec out(std::string(name) + "_out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
      ASSERT_EQ(api().tensorCreateGraphTensor(g, &in.tensor), QNN_SUCCESS);
      ASSERT_EQ(api().tensorCreateGraphTensor(g, &out.tensor), QNN_SUCCESS);
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
      ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
      ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    }
    Qnn_ContextBinarySize_t size = 0, written = 0;
    ASSERT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
    binary.resize(size);
    ASSERT_EQ(api().contextGetBinary(ctx, binary.data(), size, &written), QNN_SUCCESS);
    binary.resize(written);
    ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS); }
  const QNN_INTERFACE_VER_TYPE& api() { return cpu.api(); }

  Qnn_ErrorHandle_t load(QnnContext_Config_t c, Qnn_ContextHandle_t* ctx) {
    const QnnContext_Config_t* list[] = {&c, nullptr};
    return api().contextCreateFromBinary(backend, nullptr, list, binary.data(), binary.size(), ctx, nullptr);
  }
  static QnnContext_Config_t config(QnnContext_ConfigOption_t option) {
    QnnContext_Config_t c = QNN_CONTEXT_CONFIG_INIT;
    c.option = option;
    return c;
  }

  LoadedBackend cpu{cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  std::vector<uint8_t> binary;
};

TEST_F(ContextConfigs, EnableGraphsLoadsOnlyTheListedGraphs) {
  const char* decodeOnly[] = {"decode", nullptr};
  QnnContext_Config_t c = config(QNN_CONTEXT_CONFIG_ENABLE_GRAPHS);
  c.enableGraphs = decodeOnly;
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(load(c, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  EXPECT_EQ(api().graphRetrieve(ctx, "decode", &g), QNN_SUCCESS);
  EXPECT_EQ(api().graphRetrieve(ctx, "prefill", &g), QNN_GRAPH_ERROR_GRAPH_DOES_NOT_EXIST);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);

  const char* unknown[] = {"decode", "verify", nullptr};
  c.enableGraphs = unknown;
  ctx = nullptr;
  EXPECT_EQ(load(c, &ctx), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  EXPECT_EQ(ctx, nullptr);
  c.enableGraphs = nullptr;
  EXPECT_EQ(load(c, &ctx), QNN_CONTEXT_ERROR_INVALID_CONFIG);
}

TEST_F(ContextConfigs, HintsAndCompatibilityAreAccepted) {
  const char* order[] = {"prefill", "decode", nullptr};
  QnnContext_Config_t hint = config(QNN_CONTEXT_CONFIG_MEMORY_LIMIT_HINT);
  hint.memoryLimitHint = 512;
  QnnContext_Config_t persistent = config(QNN_CONTEXT_CONFIG_PERSISTENT_BINARY);
  persistent.isPersistentBinary = 1;
  QnnContext_Config_t strict = config(QNN_CONTEXT_CONFIG_BINARY_COMPATIBILITY);
  strict.binaryCompatibilityType = QNN_CONTEXT_BINARY_COMPATIBILITY_STRICT;
  QnnContext_Config_t retention = config(QNN_CONTEXT_CONFIG_GRAPH_RETENTION_ORDER);
  retention.graphRetentionOrder = order;
  QnnContext_Config_t notDeferred = config(QNN_CONTEXT_CONFIG_OPTION_DEFER_GRAPH_INIT);
  notDeferred.isGraphInitDeferred = 0;
  for (const QnnContext_Config_t& c : {hint, persistent, strict, retention, notDeferred}) {
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(load(c, &ctx), QNN_SUCCESS) << c.option;
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphRetrieve(ctx, "prefill", &g), QNN_SUCCESS);
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
  // The same options on QnnContext_create.
  const QnnContext_Config_t* list[] = {&hint, &strict, &retention, nullptr};
  Qnn_ContextHandle_t made = nullptr;
  EXPECT_EQ(api().contextCreate(backend, nullptr, list, &made), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(made, nullptr), QNN_SUCCESS);
}

TEST_F(ContextConfigs, RefusedValues) {
  Qnn_ContextHandle_t ctx = nullptr;
  QnnContext_Config_t compat = config(QNN_CONTEXT_CONFIG_BINARY_COMPATIBILITY);
  compat.binaryCompatibilityType = static_cast<QnnContext_BinaryCompatibilityType_t>(5);
  EXPECT_EQ(load(compat, &ctx), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  QnnContext_Config_t retention = config(QNN_CONTEXT_CONFIG_GRAPH_RETENTION_ORDER);
  retention.graphRetentionOrder = nullptr;
  EXPECT_EQ(load(retention, &ctx), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_CONTEXT_SUPPORT_CONFIG_ENABLE_GRAPHS), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(ctx, nullptr);
}

// API 2.39's priority scale (QnnTypes.h): LOWEST 0, NORMAL_LOW 50, NORMAL 100, NORMAL_HIGH 150, HIGH 200,
// HIGH_PLUS 300, CRITICAL 400, CRITICAL_PLUS 500 = HIGHEST. Each is a valid context and graph priority;
// above HIGHEST is refused.
TEST_F(ContextConfigs, EveryPriorityOfApi239) {
  for (uint32_t p : {0u, 50u, 100u, 150u, 200u, 300u, 400u, 500u}) {
    QnnContext_Config_t c = config(QNN_CONTEXT_CONFIG_OPTION_PRIORITY);
    c.priority = static_cast<Qnn_Priority_t>(p);
    const QnnContext_Config_t* list[] = {&c, nullptr};
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(api().contextCreate(backend, nullptr, list, &ctx), QNN_SUCCESS) << p;
    QnnGraph_Config_t gc = QNN_GRAPH_CONFIG_INIT;
    gc.option = QNN_GRAPH_CONFIG_OPTION_PRIORITY;
    gc.priority = static_cast<Qnn_Priority_t>(p);
    const QnnGraph_Config_t* glist[] = {&gc, nullptr};
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphCreate(ctx, "g", glist, &g), QNN_SUCCESS) << p;
    EXPECT_EQ(api().graphSetConfig(g, glist), QNN_SUCCESS) << p;
    gc.priority = static_cast<Qnn_Priority_t>(QNN_PRIORITY_HIGHEST + 1);
    EXPECT_EQ(api().graphSetConfig(g, glist), QNN_GRAPH_ERROR_INVALID_ARGUMENT) << p;
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
  EXPECT_EQ(QNN_PRIORITY_HIGHEST, 500);
  QnnContext_Config_t c = config(QNN_CONTEXT_CONFIG_OPTION_PRIORITY);
  c.priority = static_cast<Qnn_Priority_t>(501);
  const QnnContext_Config_t* list[] = {&c, nullptr};
  Qnn_ContextHandle_t ctx = nullptr;
  EXPECT_EQ(api().contextCreate(backend, nullptr, list, &ctx), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  EXPECT_EQ(ctx, nullptr);
}

// QnnContext_createFromBinaryWithSignal: an expired timeout stops the load and
// a trigger during it aborts it, the context handle untouched either way; a
// quiet signal loads and is free again afterwards.
TEST_F(ContextConfigs, CreateFromBinaryWithSignalHonoursTimeoutAndAbort) {
  auto withSignal = [&](const std::vector<uint8_t>& bin, Qnn_SignalHandle_t signal, Qnn_ContextHandle_t* ctx) {
    return api().contextCreateFromBinaryWithSignal(backend, nullptr, nullptr, bin.data(), bin.size(), ctx, nullptr,
                                                   signal);
  };
  Qnn_SignalHandle_t quiet = nullptr, aborting = nullptr, timed = nullptr;
  ASSERT_EQ(api().signalCreate(backend, nullptr, &quiet), QNN_SUCCESS);
  ASSERT_EQ(api().signalCreate(backend, nullptr, &aborting), QNN_SUCCESS);
  QnnSignal_Config_t timeout = QNN_SIGNAL_CONFIG_INIT;
  timeout.option = QNN_SIGNAL_CONFIG_OPTION_TIMEOUT;
  timeout.timeoutDurationUs = 1;  // loading takes longer than a microsecond
  const QnnSignal_Config_t* timeoutList[] = {&timeout, nullptr};
  ASSERT_EQ(api().signalCreate(backend, timeoutList, &timed), QNN_SUCCESS);

  for (int i = 0; i < 2; ++i) {
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(withSignal(binary, quiet, &ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphRetrieve(ctx, "decode", &g), QNN_SUCCESS);
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
  Qnn_ContextHandle_t untouched = reinterpret_cast<Qnn_ContextHandle_t>(0x1);
  EXPECT_EQ(withSignal(binary, timed, &untouched), QNN_CONTEXT_ERROR_TIMED_OUT);
  EXPECT_EQ(untouched, reinterpret_cast<Qnn_ContextHandle_t>(0x1));
  EXPECT_EQ(withSignal(binary, reinterpret_cast<Qnn_SignalHandle_t>(0x1234), &untouched),
            QNN_CONTEXT_ERROR_INVALID_HANDLE);

  // Abort: the backend's log callback triggers the signal while the load runs
  // (when it reports loading the first graph); the load stops before the next step.
  Qnn_LogHandle_t log = nullptr;
  ASSERT_EQ(api().logCreate(triggerOnLoad, QNN_LOG_LEVEL_DEBUG, &log), QNN_SUCCESS);
  Qnn_BackendHandle_t logged = nullptr;
  ASSERT_EQ(api().backendCreate(log, nullptr, &logged), QNN_SUCCESS);
  gTriggerApi = &api();
  gTriggerSignal = aborting;
  Qnn_ContextHandle_t ctx = reinterpret_cast<Qnn_ContextHandle_t>(0x1);
  EXPECT_EQ(api().contextCreateFromBinaryWithSignal(logged, nullptr, nullptr, binary.data(), binary.size(), &ctx,
                                                    nullptr, aborting),
            QNN_CONTEXT_ERROR_ABORTED);
  EXPECT_EQ(ctx, reinterpret_cast<Qnn_ContextHandle_t>(0x1));
  gTriggerSignal = nullptr;
  EXPECT_EQ(api().backendFree(logged), QNN_SUCCESS);
  EXPECT_EQ(api().logFree(log), QNN_SUCCESS);
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_CONTEXT_SUPPORT_CREATE_FROM_BINARY_WITH_SIGNALS),
            QNN_PROPERTY_SUPPORTED);
  for (Qnn_SignalHandle_t s : {quiet, aborting, timed}) EXPECT_EQ(api().signalFree(s), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
