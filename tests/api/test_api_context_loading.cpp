// Loading context binaries the ways the 2.32 headers add: several at once
// (QnnContext_createFromBinaryListAsync: worker threads, a notification per
// graph and per context, the signal in use until the last load ends) and with
// deferred graph initialization (QNN_CONTEXT_CONFIG_OPTION_DEFER_GRAPH_INIT:
// a graph is initialized at its first retrieval or by QnnContext_finalize).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

struct Notification {
  Qnn_ContextHandle_t context;
  Qnn_GraphHandle_t graph;
  std::string graphName;
  QnnContext_createFromBinaryAsyncNotifyType_t type;
  Qnn_ErrorHandle_t status;
};

struct Inbox {
  std::mutex m;
  std::condition_variable cv;
  std::vector<Notification> got;
  size_t contextsDone = 0;
  bool waitForContexts(size_t n) {
    std::unique_lock<std::mutex> lock(m);
    return cv.wait_for(lock, std::chrono::seconds(30), [&] { return contextsDone >= n; });
  }
};

void notify(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, const char* graphName,
            QnnContext_createFromBinaryAsyncNotifyType_t type, void* param, Qnn_ErrorHandle_t status) {
  auto* inbox = static_cast<Inbox*>(param);
  std::lock_guard<std::mutex> lock(inbox->m);
  inbox->got.push_back({context, graph, graphName ? graphName : "", type, status});
  if (type == QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT) ++inbox->contextsDone;
  inbox->cv.notify_all();
}

class ContextLoading : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    // Two binaries: "a" holds relu graphs a0, a1; "b" holds one graph b0 (y = x + 1).
    binaries.push_back(makeBinary({"a0", "a1"}, false));
    binaries.push_back(makeBinary({"b0"}, true));
  }
  void TearDown() override { EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS); }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  std::vector<uint8_t> makeBinary(std::vector<std::string> names, bool addOne) {
    Qnn_ContextHandle_t ctx = buildContext(names, addOne);
    std::vector<uint8_t> bin = contextBinary(api(), ctx);
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    return bin;
  }
  Qnn_ContextHandle_t buildContext(std::vector<std::string> names, bool addOne) {
    Qnn_ContextHandle_t ctx = nullptr;
    EXPECT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    static float one[4] = {1.f, 1.f, 1.f, 1.f};
    for (const std::string& name : names) {
      Qnn_GraphHandle_t g = nullptr;
      EXPECT_EQ(api().graphCreate(ctx, name.c_str(), nullptr, &g), QNN_SUCCESS);
      TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
      TensorSpec c("one", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {1, 4}, one, 16);
      TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
      EXPECT_EQ(api().tensorCreateGraphTensor(g, &in.tensor), QNN_SUCCESS);
      EXPECT_EQ(api().tensorCreateGraphTensor(g, &out.tensor), QNN_SUCCESS);
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      if (addOne) {
        EXPECT_EQ(api().tensorCreateGraphTensor(g, &c.tensor), QNN_SUCCESS);
        static Qnn_Tensor_t ins[2];
        ins[0] = in.tensor;
        ins[1] = c.tensor;
        op.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ins, 1, &out.tensor};
      } else {
        op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
      }
      EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
      EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    }
    return ctx;
  }

  // Runs a retrieved graph on x = {-1, 2, -3, 4}; its tensors are named x and y.
  std::vector<float> run(Qnn_ContextHandle_t ctx, const char* name) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphRetrieve(ctx, name, &g), QNN_SUCCESS) << name;
    std::vector<float> x{-1.f, 2.f, -3.f, 4.f}, y(4, 99.f);
    uint32_t dims[] = {1, 4};
    Qnn_Tensor_t in = QNN_TENSOR_INIT, out = QNN_TENSOR_INIT;
    in.v1.name = "x";
    in.v1.type = QNN_TENSOR_TYPE_APP_WRITE;
    in.v1.dataType = QNN_DATATYPE_FLOAT_32;
    in.v1.rank = 2;
    in.v1.dimensions = dims;
    in.v1.memType = QNN_TENSORMEMTYPE_RAW;
    in.v1.clientBuf = {x.data(), 16};
    out = in;
    out.v1.name = "y";
    out.v1.type = QNN_TENSOR_TYPE_APP_READ;
    out.v1.clientBuf = {y.data(), 16};
    in.v1.id = out.v1.id = 0xffffffffu;  // found by name
    EXPECT_EQ(api().graphExecute(g, &in, 1, &out, 1, nullptr, nullptr), QNN_SUCCESS) << name;
    return y;
  }

  QnnContext_Params_t params(size_t k, Inbox* inbox, const QnnContext_Config_t** config = nullptr) {
    QnnContext_ParamsV1_t v1{config, binaries[k].data(), binaries[k].size(), nullptr, notify, inbox};
    return QnnContext_Params_t{QNN_CONTEXT_PARAMS_VERSION_1, {v1}};
  }

  LoadedBackend lib{GetParam() ? htpBackendPath() : cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  std::vector<std::vector<uint8_t>> binaries;
};

const std::vector<float> kRelu{0.f, 2.f, 0.f, 4.f}, kAddOne{0.f, 3.f, -2.f, 5.f};

TEST_P(ContextLoading, ListAsyncLoadsEveryBinaryAndNotifiesPerGraphAndContext) {
  Inbox inboxA, inboxB;
  QnnContext_Params_t a = params(0, &inboxA), b = params(1, &inboxB);
  const QnnContext_Params_t* list[] = {&a, &b, nullptr};
  Qnn_SignalHandle_t signal = nullptr;
  ASSERT_EQ(api().signalCreate(backend, nullptr, &signal), QNN_SUCCESS);
  ASSERT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, list, nullptr, signal), QNN_SUCCESS);
  ASSERT_TRUE(inboxA.waitForContexts(1));
  ASSERT_TRUE(inboxB.waitForContexts(1));
  // A: two graph notifications, then the context's, all with one context handle.
  ASSERT_EQ(inboxA.got.size(), 3u);
  EXPECT_EQ(inboxA.got[2].type, QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT);
  EXPECT_EQ(inboxA.got[2].status, QNN_SUCCESS);
  std::vector<std::string> names;
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(inboxA.got[i].type, QNN_CONTEXT_NOTIFY_TYPE_GRAPH_INIT);
    EXPECT_EQ(inboxA.got[i].status, QNN_SUCCESS);
    EXPECT_EQ(inboxA.got[i].context, inboxA.got[2].context);
    EXPECT_NE(inboxA.got[i].graph, nullptr);
    names.push_back(inboxA.got[i].graphName);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a0", "a1"}));
  ASSERT_EQ(inboxB.got.size(), 2u);
  EXPECT_EQ(inboxB.got[0].graphName, "b0");
  EXPECT_EQ(run(inboxA.got[2].context, "a1"), kRelu);
  EXPECT_EQ(run(inboxB.got[1].context, "b0"), kAddOne);
  // The graph handle notified is the one retrieve gives.
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphRetrieve(inboxB.got[1].context, "b0", &g), QNN_SUCCESS);
  EXPECT_EQ(g, inboxB.got[0].graph);
  EXPECT_EQ(api().contextFree(inboxA.got[2].context, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(inboxB.got[1].context, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().signalFree(signal), QNN_SUCCESS);
}

// ONNX Runtime's QNN EP keeps the binaries, params and configs of the list in
// locals and frees them when the call returns, then reads the contexts its
// notifications recorded: every load has ended and been notified by then.
TEST_P(ContextLoading, ListAsyncHasNotifiedEveryLoadWhenItReturns) {
  Inbox inbox;
  {
    std::vector<std::vector<uint8_t>> copies = binaries;
    std::vector<QnnContext_ParamsV1_t> v1;
    std::vector<QnnContext_Params_t> params;
    for (auto& bin : copies) v1.push_back({nullptr, bin.data(), bin.size(), nullptr, notify, &inbox});
    for (auto& p : v1) params.push_back(QnnContext_Params_t{QNN_CONTEXT_PARAMS_VERSION_1, {p}});
    std::vector<const QnnContext_Params_t*> list;
    for (auto& p : params) list.push_back(&p);
    list.push_back(nullptr);
    ASSERT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, list.data(), nullptr, nullptr), QNN_SUCCESS);
    for (auto& bin : copies) std::fill(bin.begin(), bin.end(), uint8_t(0xdd));  // gone, as far as a load knows
  }
  std::vector<Notification> got;
  {
    std::lock_guard<std::mutex> lock(inbox.m);
    EXPECT_EQ(inbox.contextsDone, 2u) << "the call returned before its loads were notified";
    got = inbox.got;
  }
  std::vector<Qnn_ContextHandle_t> contexts;
  for (const Notification& n : got)
    if (n.type == QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT) {
      EXPECT_EQ(n.status, QNN_SUCCESS);
      contexts.push_back(n.context);
    }
  ASSERT_EQ(contexts.size(), 2u);
  for (Qnn_ContextHandle_t ctx : contexts) {
    Qnn_GraphHandle_t g = nullptr;
    if (api().graphRetrieve(ctx, "b0", &g) == QNN_SUCCESS) {
      EXPECT_EQ(run(ctx, "b0"), kAddOne);
    }
    else EXPECT_EQ(run(ctx, "a1"), kRelu);
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
}

TEST_P(ContextLoading, ListAsyncRefusesBadListsAtTheCall) {
  Inbox inbox;
  QnnContext_Params_t good = params(0, &inbox);
  QnnContext_Params_t noNotify = good;
  noNotify.v1.notifyFunc = nullptr;
  const QnnContext_Params_t* empty[] = {nullptr};
  const QnnContext_Params_t* bad[] = {&good, &noNotify, nullptr};
  EXPECT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, nullptr, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, empty, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, bad, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  const QnnContext_Params_t* one[] = {&good, nullptr};
  EXPECT_EQ(api().contextCreateFromBinaryListAsync(nullptr, nullptr, one, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_HANDLE);
  QnnContext_Config_t unknown = QNN_CONTEXT_CONFIG_INIT;
  unknown.option = static_cast<QnnContext_ConfigOption_t>(77);
  const QnnContext_Config_t* listConfig[] = {&unknown, nullptr};
  EXPECT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, one, listConfig, nullptr),
            QNN_CONTEXT_ERROR_INVALID_CONFIG);
  EXPECT_TRUE(inbox.got.empty());  // nothing started
}

TEST_P(ContextLoading, ListAsyncReportsACorruptBinaryThroughItsNotification) {
  Inbox good, broken;
  binaries[1][binaries[1].size() / 2] ^= 0x40;
  QnnContext_Params_t a = params(0, &good), b = params(1, &broken);
  const QnnContext_Params_t* list[] = {&a, &b, nullptr};
  ASSERT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, list, nullptr, nullptr), QNN_SUCCESS);
  ASSERT_TRUE(good.waitForContexts(1));
  ASSERT_TRUE(broken.waitForContexts(1));
  ASSERT_EQ(broken.got.size(), 1u);
  EXPECT_EQ(broken.got[0].type, QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT);
  EXPECT_EQ(broken.got[0].context, nullptr);
  EXPECT_EQ(broken.got[0].status, QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
  EXPECT_EQ(good.got.back().status, QNN_SUCCESS);
  EXPECT_EQ(run(good.got.back().context, "a0"), kRelu);
  // The context is freed with the backend (TearDown) if the client does not.
}

TEST_P(ContextLoading, ASignalTriggeredBeforeTheLoadsStopsThem) {
  Inbox inbox;
  Qnn_SignalHandle_t signal = nullptr;
  ASSERT_EQ(api().signalCreate(backend, nullptr, &signal), QNN_SUCCESS);
  QnnSignal_Config_t timeout = QNN_SIGNAL_CONFIG_INIT;
  timeout.option = QNN_SIGNAL_CONFIG_OPTION_TIMEOUT;
  timeout.timeoutDurationUs = 1;  // expires before the first graph is loaded
  const QnnSignal_Config_t* cfg[] = {&timeout, nullptr};
  ASSERT_EQ(api().signalSetConfig(signal, cfg), QNN_SUCCESS);
  QnnContext_Params_t a = params(0, &inbox);
  const QnnContext_Params_t* list[] = {&a, nullptr};
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, list, nullptr, signal), QNN_SUCCESS);
  ASSERT_TRUE(inbox.waitForContexts(1));
  ASSERT_EQ(inbox.got.size(), 1u);
  EXPECT_EQ(inbox.got[0].status, QNN_CONTEXT_ERROR_TIMED_OUT);
  EXPECT_EQ(api().signalFree(signal), QNN_SUCCESS);  // no longer in use
}

TEST_P(ContextLoading, DeferredGraphsInitializeAtRetrieveOrContextFinalize) {
  QnnContext_Config_t defer = QNN_CONTEXT_CONFIG_INIT;
  defer.option = QNN_CONTEXT_CONFIG_OPTION_DEFER_GRAPH_INIT;
  defer.isGraphInitDeferred = 1;
  const QnnContext_Config_t* cfg[] = {&defer, nullptr};
  for (bool finalizeFirst : {false, true}) {
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, cfg, binaries[0].data(), binaries[0].size(), &ctx,
                                            nullptr),
              QNN_SUCCESS);
    Qnn_ProfileHandle_t profile = nullptr;
    ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &profile), QNN_SUCCESS);
    if (finalizeFirst) {
      ASSERT_EQ(api().contextFinalize(ctx, profile), QNN_SUCCESS);
      const QnnProfile_EventId_t* events = nullptr;
      uint32_t n = 0;
      ASSERT_EQ(api().profileGetEvents(profile, &events, &n), QNN_SUCCESS);
      ASSERT_EQ(n, 1u);
      QnnProfile_EventData_t data;
      ASSERT_EQ(api().profileGetEventData(events[0], &data), QNN_SUCCESS);
      EXPECT_STREQ(data.identifier, "context finalize (2 deferred graph(s))");
    }
    EXPECT_EQ(run(ctx, "a0"), kRelu);
    EXPECT_EQ(run(ctx, "a1"), kRelu);
    EXPECT_EQ(api().contextFinalize(ctx, nullptr), QNN_SUCCESS);  // nothing left: still fine
    EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
  EXPECT_EQ(api().contextFinalize(nullptr, nullptr), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_CONTEXT_SUPPORT_DEFERRED_GRAPH_INIT), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_CONTEXT_SUPPORT_CREATE_FROM_BINARY_LIST_ASYNC),
            QNN_PROPERTY_SUPPORTED);
}

TEST_P(ContextLoading, IncrementalBinaryPiecesMakeTheWholeBinary) {
  Qnn_ContextHandle_t ctx = buildContext({"a0", "a1"}, false);
  Qnn_ContextBinarySize_t size = 0, written = 0;
  ASSERT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
  std::vector<uint8_t> whole(size);
  ASSERT_EQ(api().contextGetBinary(ctx, whole.data(), size, &written), QNN_SUCCESS);
  whole.resize(written);
  for (int round = 0; round < 2; ++round) {
    std::vector<uint8_t> assembled(whole.size());
    std::vector<std::pair<const void*, Qnn_ContextBinarySize_t>> pieces;
    for (;;) {
      const void* piece = nullptr;
      Qnn_ContextBinarySize_t offset = 0, n = 0;
      ASSERT_EQ(api().contextGetIncrementalBinary(ctx, &piece, &offset, &n), QNN_SUCCESS);
      if (n == 0) break;
      ASSERT_LE(offset + n, assembled.size());
      std::memcpy(assembled.data() + offset, piece, n);
      pieces.emplace_back(piece, offset);
    }
    EXPECT_EQ(assembled, whole) << "round " << round;
    ASSERT_FALSE(pieces.empty());
    EXPECT_EQ(api().contextReleaseIncrementalBinary(ctx, pieces[0].first, pieces[0].second + 1),
              QNN_CONTEXT_ERROR_INCREMENT_INVALID_BUFFER);
    for (auto& [piece, offset] : pieces) EXPECT_EQ(api().contextReleaseIncrementalBinary(ctx, piece, offset), QNN_SUCCESS);
    EXPECT_EQ(api().contextReleaseIncrementalBinary(ctx, pieces[0].first, pieces[0].second),
              QNN_CONTEXT_ERROR_INCREMENT_INVALID_BUFFER);  // released twice
  }
  const void* piece = nullptr;
  Qnn_ContextBinarySize_t offset = 0, n = 0;
  EXPECT_EQ(api().contextGetIncrementalBinary(ctx, nullptr, &offset, &n), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextGetIncrementalBinary(nullptr, &piece, &offset, &n), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  // Not for a context re-created from a binary (QnnContext.h).
  Qnn_ContextHandle_t loaded = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, whole.data(), whole.size(), &loaded, nullptr),
            QNN_SUCCESS);
  EXPECT_EQ(api().contextGetIncrementalBinary(loaded, &piece, &offset, &n), QNN_COMMON_ERROR_OPERATION_NOT_PERMITTED);
  EXPECT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
}

// Binaries here keep their weights inline: a load with a data callback takes
// everything from the buffer and never calls the client.
int gCallbackCalls = 0;
Qnn_ErrorHandle_t provide(Qnn_ContextBinaryDataRequest_t, Qnn_ContextBinaryRawDataResponse_t*, void*) {
  ++gCallbackCalls;
  return QNN_CONTEXT_ERROR_MEM_ALLOC;
}
Qnn_ErrorHandle_t release(Qnn_ContextBinaryRawDataMem_t, void*) {
  ++gCallbackCalls;
  return QNN_SUCCESS;
}

// Binaries whose weights are all small have no weights region: the callback is
// checked and never needed (file-mapped weights: test_api_file_mapped_weights.cpp).
TEST_P(ContextLoading, CreateFromBinaryWithCallbackLoadsFromTheBuffer) {
  Qnn_ContextBinaryCallback_t cb;
  std::memset(&cb, 0, sizeof cb);
  cb.type = QNN_CONTEXT_CALLBACK_RAW_BUFFER;
  cb.rawBufferCallback.version = QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1;
  cb.rawBufferCallback.v1 = {provide, release, nullptr};
  gCallbackCalls = 0;
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &cb, binaries[1].data(),
                                                      binaries[1].size(), &ctx, nullptr, nullptr),
            QNN_SUCCESS);
  EXPECT_EQ(run(ctx, "b0"), kAddOne);
  EXPECT_EQ(gCallbackCalls, 0);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  // The same through the list, with version-2 params.
  Inbox inbox;
  QnnContext_ParamsV2_t v2{nullptr, binaries[0].data(), binaries[0].size(), nullptr, notify, &inbox, &cb};
  QnnContext_Params_t p{QNN_CONTEXT_PARAMS_VERSION_2, {}};
  p.v2 = &v2;
  const QnnContext_Params_t* list[] = {&p, nullptr};
  ASSERT_EQ(api().contextCreateFromBinaryListAsync(backend, nullptr, list, nullptr, nullptr), QNN_SUCCESS);
  ASSERT_TRUE(inbox.waitForContexts(1));
  EXPECT_EQ(inbox.got.back().status, QNN_SUCCESS);
  EXPECT_EQ(run(inbox.got.back().context, "a0"), kRelu);
  // A callback missing a function, or of an unknown type, is refused.
  Qnn_ContextBinaryCallback_t bad = cb;
  bad.rawBufferCallback.v1.dataRelease = nullptr;
  EXPECT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &bad, binaries[1].data(),
                                                      binaries[1].size(), &ctx, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  bad = cb;
  bad.type = static_cast<Qnn_ContextBinaryCallbackType_t>(7);
  EXPECT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, &bad, binaries[1].data(),
                                                      binaries[1].size(), &ctx, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextCreateFromBinaryWithCallback(backend, nullptr, nullptr, nullptr, binaries[1].data(),
                                                      binaries[1].size(), &ctx, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(gCallbackCalls, 0);
}

// No op of either backend takes a sub-graph: the call checks its arguments as
// QnnGraph.h lists them and answers UNSUPPORTED_FEATURE.
TEST_P(ContextLoading, SubgraphsAreAnUnsupportedFeature) {
  Qnn_ContextHandle_t ctx = buildContext({"main"}, false);
  Qnn_GraphHandle_t main = nullptr, sub = nullptr;
  ASSERT_EQ(api().graphRetrieve(ctx, "main", &main), QNN_SUCCESS);
  EXPECT_EQ(api().graphCreateSubgraph(nullptr, "s", &sub), QNN_GRAPH_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().graphCreateSubgraph(main, "s", nullptr), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().graphCreateSubgraph(main, nullptr, &sub), QNN_GRAPH_ERROR_INVALID_NAME);
  EXPECT_EQ(api().graphCreateSubgraph(main, "main", &sub), QNN_GRAPH_ERROR_INVALID_NAME);
  EXPECT_EQ(api().graphCreateSubgraph(main, "s", &sub), QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(sub, nullptr);
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_SUBGRAPH), QNN_PROPERTY_NOT_SUPPORTED);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Backends, ContextLoading, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Htp" : "Cpu"; });

}  // namespace
}  // namespace qnn::test
