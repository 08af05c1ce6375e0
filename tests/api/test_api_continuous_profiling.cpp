// Continuous graph profiling (QnnGraph.h 2.32): a profile handle bound with
// QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE takes the finalize and execute events,
// SET_PROFILING_STATE pauses it, SET_PROFILING_NUM_EXECUTIONS caps it, a
// per-call handle alongside it takes that call, a bound handle belongs to one graph
// and cannot be freed; a profile reports each event once. Also QnnGraph_finalize
// on a retrieved graph (a no-op).
#include <gtest/gtest.h>

#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

class ContinuousProfiling : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(cpu.ok()) << cpu.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &profile), QNN_SUCCESS);
  }
  void TearDown() override {
    if (ctx) {
      EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    }
    if (profile) {  // unbound once its graph is gone
      EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
    }
    EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
  }
  const QNN_INTERFACE_VER_TYPE& api() { return cpu.api(); }

  static QnnGraph_Config_t bindConfig(Qnn_ProfileHandle_t p) {
    QnnGraph_Config_t c = QNN_GRAPH_CONFIG_INIT;
    c.option = QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE;
    c.profileHandle = p;
    return c;
  }
  Qnn_ErrorHandle_t setConfig(Qnn_GraphHandle_t g, QnnGraph_Config_t c) {
    const QnnGraph_Config_t* list[] = {&c, nullptr};
    return api().graphSetConfig(g, list);
  }
  // A one-Relu graph named `name`, created with `configs` (not finalized).
  Qnn_GraphHandle_t relu(const char* name, std::vector<QnnGraph_Config_t> configs = {}) {
    std::vector<const QnnGraph_Config_t*> list;
    for (auto& c : configs) list.push_back(&c);
    list.push_back(nullptr);
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphCreate(ctx, name, list.data(), &g), QNN_SUCCESS);
    EXPECT_EQ(api().tensorCreateGraphTensor(g, &in.tensor), QNN_SUCCESS);
    EXPECT_EQ(api().tensorCreateGraphTensor(g, &out.tensor), QNN_SUCCESS);
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
    return g;
  }
  Qnn_ErrorHandle_t run(Qnn_GraphHandle_t g, Qnn_ProfileHandle_t p = nullptr) {
    in.tensor.v1.clientBuf = {x, sizeof x};
    out.tensor.v1.clientBuf = {y, sizeof y};
    return api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, p, nullptr);
  }
  // The top-level events `p` reports now (each event is reported once).
  std::vector<QnnProfile_EventId_t> newEvents(Qnn_ProfileHandle_t p) {
    const QnnProfile_EventId_t* ids = nullptr;
    uint32_t n = 0;
    EXPECT_EQ(api().profileGetEvents(p, &ids, &n), QNN_SUCCESS);
    return ids ? std::vector<QnnProfile_EventId_t>(ids, ids + n) : std::vector<QnnProfile_EventId_t>();
  }
  QnnProfile_EventType_t typeOf(QnnProfile_EventId_t id) {
    QnnProfile_EventData_t d;
    EXPECT_EQ(api().profileGetEventData(id, &d), QNN_SUCCESS);
    return d.type;
  }
  // Top-level events of the bound profile of each type, over all it has reported so far.
  size_t count(QnnProfile_EventType_t type) {
    for (QnnProfile_EventId_t id : newEvents(profile)) reported.push_back(id);
    size_t k = 0;
    for (QnnProfile_EventId_t id : reported) k += typeOf(id) == type;
    return k;
  }
  std::vector<QnnProfile_EventId_t> reported;

  LoadedBackend cpu{cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_ProfileHandle_t profile = nullptr;
  TensorSpec in{"in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4}};
  TensorSpec out{"out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4}};
  float x[4] = {-1.f, 2.f, -3.f, 4.f}, y[4] = {};
};

TEST_F(ContinuousProfiling, BoundProfileTakesFinalizeAndExecuteEvents) {
  Qnn_GraphHandle_t g = relu("bound", {bindConfig(profile)});
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  ASSERT_EQ(run(g), QNN_SUCCESS);
  ASSERT_EQ(run(g), QNN_SUCCESS);
  EXPECT_EQ(count(QNN_PROFILE_EVENTTYPE_FINALIZE), 1u);
  EXPECT_EQ(count(QNN_PROFILE_EVENTTYPE_EXECUTE), 2u);
  // A per-call profile alongside the bound one: QnnGraph.h calls it invalid, but
  // the vendor's qnn-throughput-net-run does it, so the call's own profile is used.
  Qnn_ProfileHandle_t other = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &other), QNN_SUCCESS);
  EXPECT_EQ(run(g, other), QNN_SUCCESS);
  EXPECT_EQ(count(QNN_PROFILE_EVENTTYPE_EXECUTE), 2u);  // the bound one got nothing
  const QnnProfile_EventId_t* ids = nullptr;
  uint32_t n = 0;
  ASSERT_EQ(api().profileGetEvents(other, &ids, &n), QNN_SUCCESS);
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(api().profileFree(other), QNN_SUCCESS);
}

// ONNX Runtime's QNN EP reads its profile after finalize and again after every
// execute and writes every event it gets: a second read reports only what
// happened since the first (the finalize event is not listed again), and
// events already reported stay readable until the profile is freed.
TEST_F(ContinuousProfiling, EachEventIsReportedOnce) {
  Qnn_GraphHandle_t g = relu("once");
  ASSERT_EQ(api().graphFinalize(g, profile, nullptr), QNN_SUCCESS);
  std::vector<QnnProfile_EventId_t> first = newEvents(profile);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(typeOf(first[0]), QNN_PROFILE_EVENTTYPE_FINALIZE);
  ASSERT_EQ(run(g, profile), QNN_SUCCESS);
  std::vector<QnnProfile_EventId_t> second = newEvents(profile);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(typeOf(second[0]), QNN_PROFILE_EVENTTYPE_EXECUTE);
  EXPECT_TRUE(newEvents(profile).empty());
  EXPECT_EQ(typeOf(first[0]), QNN_PROFILE_EVENTTYPE_FINALIZE);
  // The same through a bound handle: finalize, read, two executes, read.
  Qnn_ProfileHandle_t bound = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &bound), QNN_SUCCESS);
  Qnn_GraphHandle_t h = relu("once_bound", {bindConfig(bound)});
  ASSERT_EQ(api().graphFinalize(h, nullptr, nullptr), QNN_SUCCESS);
  ASSERT_EQ(newEvents(bound).size(), 1u);
  ASSERT_EQ(run(h), QNN_SUCCESS);
  ASSERT_EQ(run(h), QNN_SUCCESS);
  std::vector<QnnProfile_EventId_t> executes = newEvents(bound);
  ASSERT_EQ(executes.size(), 2u);
  EXPECT_EQ(typeOf(executes[0]), QNN_PROFILE_EVENTTYPE_EXECUTE);
  EXPECT_EQ(typeOf(executes[1]), QNN_PROFILE_EVENTTYPE_EXECUTE);
  ASSERT_EQ(setConfig(h, bindConfig(nullptr)), QNN_SUCCESS);
  EXPECT_EQ(api().profileFree(bound), QNN_SUCCESS);
}

TEST_F(ContinuousProfiling, StateAndCountDecideWhatIsRecorded) {
  QnnGraph_Config_t two = QNN_GRAPH_CONFIG_INIT;
  two.option = QNN_GRAPH_CONFIG_OPTION_SET_PROFILING_NUM_EXECUTIONS;
  two.numProfilingExecutions = 2;
  Qnn_GraphHandle_t g = relu("capped", {bindConfig(profile), two});
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(run(g), QNN_SUCCESS);
  EXPECT_EQ(count(QNN_PROFILE_EVENTTYPE_EXECUTE), 2u);

  QnnGraph_Config_t state = QNN_GRAPH_CONFIG_INIT;
  state.option = QNN_GRAPH_CONFIG_OPTION_SET_PROFILING_STATE;
  state.profilingState = QNN_GRAPH_PROFILING_STATE_DISABLED;
  two.numProfilingExecutions = 10;  // setting the count starts it again
  ASSERT_EQ(setConfig(g, two), QNN_SUCCESS);
  ASSERT_EQ(setConfig(g, state), QNN_SUCCESS);
  ASSERT_EQ(run(g), QNN_SUCCESS);
  EXPECT_EQ(count(QNN_PROFILE_EVENTTYPE_EXECUTE), 2u);  // disabled
  state.profilingState = QNN_GRAPH_PROFILING_STATE_ENABLED;
  ASSERT_EQ(setConfig(g, state), QNN_SUCCESS);
  ASSERT_EQ(run(g), QNN_SUCCESS);
  EXPECT_EQ(count(QNN_PROFILE_EVENTTYPE_EXECUTE), 3u);
  state.profilingState = static_cast<QnnGraph_ProfilingState_t>(7);
  EXPECT_EQ(setConfig(g, state), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
}

TEST_F(ContinuousProfiling, AHandleBelongsToOneGraphAndIsNotFreedWhileBound) {
  Qnn_GraphHandle_t a = relu("a", {bindConfig(profile)});
  Qnn_GraphHandle_t b = relu("b");
  EXPECT_EQ(setConfig(b, bindConfig(profile)), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().profileFree(profile), QNN_PROFILE_ERROR_HANDLE_IN_USE);
  // Unbinding (a null handle) releases it; then b may take it.
  ASSERT_EQ(setConfig(a, bindConfig(nullptr)), QNN_SUCCESS);
  EXPECT_EQ(setConfig(b, bindConfig(profile)), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(a, nullptr, nullptr), QNN_SUCCESS);
  ASSERT_EQ(run(a, profile), QNN_SUCCESS);  // a has no bound profile: a per-call one is fine
  // Freeing the context frees b, which releases the handle (TearDown frees it).
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  ctx = nullptr;
}

TEST_F(ContinuousProfiling, BinarySectionWeightUpdatesOptionIsAccepted) {
  QnnGraph_Config_t updates = QNN_GRAPH_CONFIG_INIT;
  updates.option = QNN_GRAPH_CONFIG_OPTION_ENABLE_BINARY_SECTION_WEIGHTS_UPDATES;
  updates.enableBinarySectionWeightsUpdates = 0;
  Qnn_GraphHandle_t g = relu("sections", {updates});
  updates.enableBinarySectionWeightsUpdates = 1;  // what it does: test_api_updatable_tensors.cpp
  EXPECT_EQ(setConfig(g, updates), QNN_SUCCESS);
}

// "Some runtimes may require that this function is called before execution of a
// graph retrieved from a context binary" (QnnGraph.h): clients call it; it succeeds.
TEST_F(ContinuousProfiling, FinalizeOfARetrievedGraphSucceeds) {
  Qnn_GraphHandle_t g = relu("saved");
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  Qnn_ContextBinarySize_t size = 0, written = 0;
  ASSERT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
  std::vector<uint8_t> bin(size);
  ASSERT_EQ(api().contextGetBinary(ctx, bin.data(), size, &written), QNN_SUCCESS);
  Qnn_ContextHandle_t loaded = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, bin.data(), written, &loaded, nullptr),
            QNN_SUCCESS);
  Qnn_GraphHandle_t r = nullptr;
  ASSERT_EQ(api().graphRetrieve(loaded, "saved", &r), QNN_SUCCESS);
  EXPECT_EQ(api().graphFinalize(r, nullptr, nullptr), QNN_SUCCESS);
  ASSERT_EQ(run(r), QNN_SUCCESS);
  EXPECT_EQ(y[1], 2.f);
  EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_GRAPH_ERROR_GRAPH_FINALIZED);  // built here: twice is misuse
  EXPECT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
