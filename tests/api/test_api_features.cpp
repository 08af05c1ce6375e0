// Features of the API beyond one execute: profiling events, signals (abort and
// timeout), asynchronous execution, registered fd memory, concurrent graphs.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tests/api/backend_loader.h"
#include "tests/api/relu_chain.h"

namespace qnn::test {
namespace {

class Features : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  }
  void TearDown() override {
    api().contextFree(ctx, nullptr);
    api().backendFree(backend);
  }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }
  // The number of sub-events of a profile that holds exactly one top-level event (0 otherwise).
  uint32_t subEventsOfTheOnlyEvent(Qnn_ProfileHandle_t profile) {
    const QnnProfile_EventId_t *events = nullptr, *subs = nullptr;
    uint32_t num = 0, numSubs = 0;
    EXPECT_EQ(api().profileGetEvents(profile, &events, &num), QNN_SUCCESS);
    EXPECT_EQ(num, 1u);
    if (num != 1) return 0;
    EXPECT_EQ(api().profileGetSubEvents(events[0], &subs, &numSubs), QNN_SUCCESS);
    return numSubs;
  }
  LoadedBackend lib{cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
};

TEST_F(Features, DetailedProfileHasOneSubEventPerNode) {
  ReluChain chain(api(), ctx, "chain", 64, 5);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  ASSERT_EQ(chain.execute(profile), QNN_SUCCESS);
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t num = 0;
  ASSERT_EQ(api().profileGetEvents(profile, &events, &num), QNN_SUCCESS);
  ASSERT_EQ(num, 1u);
  QnnProfile_EventData_t data;
  ASSERT_EQ(api().profileGetEventData(events[0], &data), QNN_SUCCESS);
  EXPECT_EQ(data.type, QNN_PROFILE_EVENTTYPE_EXECUTE);
  EXPECT_EQ(data.unit, QNN_PROFILE_EVENTUNIT_MICROSEC);
  const QnnProfile_EventId_t* subs = nullptr;
  uint32_t numSubs = 0;
  ASSERT_EQ(api().profileGetSubEvents(events[0], &subs, &numSubs), QNN_SUCCESS);
  ASSERT_EQ(numSubs, 6u);  // the queue wait, then one per node
  ASSERT_EQ(api().profileGetEventData(subs[0], &data), QNN_SUCCESS);
  EXPECT_EQ(data.type, QNN_PROFILE_EVENTTYPE_EXECUTE_QUEUE_WAIT);
  ASSERT_EQ(api().profileGetEventData(subs[3], &data), QNN_SUCCESS);
  EXPECT_EQ(data.type, QNN_PROFILE_EVENTTYPE_NODE);
  EXPECT_STREQ(data.identifier, "relu2 (Relu)");
  QnnProfile_EventId_t first = events[0];  // the array dies with the profile
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
  EXPECT_EQ(api().profileGetEventData(first, &data), QNN_PROFILE_ERROR_INVALID_HANDLE);
}

TEST_F(Features, BasicProfileHasNoNodeEvents) {
  ReluChain chain(api(), ctx, "chain", 64, 3);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &profile), QNN_SUCCESS);
  ASSERT_EQ(chain.execute(profile), QNN_SUCCESS);
  ASSERT_EQ(chain.execute(profile), QNN_SUCCESS);
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t num = 0, numSubs = 7;
  ASSERT_EQ(api().profileGetEvents(profile, &events, &num), QNN_SUCCESS);
  EXPECT_EQ(num, 2u);
  const QnnProfile_EventId_t* subs = nullptr;
  ASSERT_EQ(api().profileGetSubEvents(events[0], &subs, &numSubs), QNN_SUCCESS);
  ASSERT_EQ(numSubs, 1u);  // only the queue wait
  QnnProfile_EventData_t data;
  ASSERT_EQ(api().profileGetEventData(subs[0], &data), QNN_SUCCESS);
  EXPECT_EQ(data.type, QNN_PROFILE_EVENTTYPE_EXECUTE_QUEUE_WAIT);
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
}

TEST_F(Features, SignalTimeoutStopsExecution) {
  ReluChain chain(api(), ctx, "long", 1 << 16, 400);  // far longer than 1 us
  QnnSignal_Config_t timeout = QNN_SIGNAL_CONFIG_INIT;
  timeout.option = QNN_SIGNAL_CONFIG_OPTION_TIMEOUT;
  timeout.timeoutDurationUs = 1;
  const QnnSignal_Config_t* configs[] = {&timeout, nullptr};
  Qnn_SignalHandle_t signal = nullptr;
  ASSERT_EQ(api().signalCreate(backend, configs, &signal), QNN_SUCCESS);
  EXPECT_EQ(chain.execute(nullptr, signal), QNN_GRAPH_ERROR_TIMED_OUT);
  // Without the signal the same graph completes.
  EXPECT_EQ(chain.execute(), QNN_SUCCESS);
  EXPECT_TRUE(chain.outputCorrect());
  EXPECT_EQ(api().signalFree(signal), QNN_SUCCESS);
}

TEST_F(Features, SignalTriggerAbortsExecution) {
  ReluChain chain(api(), ctx, "long", 1 << 16, 4000);
  Qnn_SignalHandle_t signal = nullptr;
  ASSERT_EQ(api().signalCreate(backend, nullptr, &signal), QNN_SUCCESS);
  // A machine busy enough to run the whole execution before a trigger lands gets another attempt.
  int taken = 0;
  for (int attempt = 0; attempt < 10 && taken == 0; ++attempt) {
    const ReluChain::Interrupted got = chain.executeAndTrigger(signal);
    if (got.trigger == QNN_SUCCESS) {
      ++taken;
      EXPECT_EQ(got.execute, QNN_GRAPH_ERROR_ABORTED) << "the trigger was taken";
    } else {
      EXPECT_EQ(got.execute, QNN_SUCCESS) << "aborted without a taken trigger";
    }
  }
  EXPECT_EQ(taken, 1) << "no trigger landed while the execution ran, in 10 attempts";
  EXPECT_EQ(api().signalFree(signal), QNN_SUCCESS);
}

// QnnSignal_trigger's success means the call it interrupts reports ABORTED, however late in the
// execution the trigger lands (also after the last node's check), and a trigger never outlives
// its call: each round triggers once, after a delay that sweeps across the execution's length.
TEST_F(Features, ATakenTriggerAlwaysAbortsTheExecution) {
  ReluChain chain(api(), ctx, "short", 16384, 16);
  Qnn_SignalHandle_t signal = nullptr;
  ASSERT_EQ(api().signalCreate(backend, nullptr, &signal), QNN_SUCCESS);
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  for (int i = 0; i < 20; ++i) ASSERT_EQ(chain.execute(nullptr, signal), QNN_SUCCESS);
  const auto length = (Clock::now() - t0) / 20;
  constexpr int kRounds = 400;
  // Each round starts with both threads running: the trigger thread says it is ready, the main
  // thread then starts the round and at once the execution, and the trigger thread counts its
  // delay from the start.
  std::atomic<int> ready{-1}, round{-1}, done{-1};
  std::vector<Qnn_ErrorHandle_t> trig(kRounds, QNN_SUCCESS);
  std::thread trigger([&] {
    for (int r = 0; r < kRounds; ++r) {
      ready = r;
      while (round.load() < r) {
      }
      const auto until = Clock::now() + length * 3 / 2 * (r % 40) / 40;
      while (Clock::now() < until) {
      }
      trig[r] = api().signalTrigger(signal);
      done = r;
    }
  });
  int taken = 0, idle = 0;
  for (int r = 0; r < kRounds; ++r) {
    while (ready.load() < r) std::this_thread::yield();
    round = r;
    const Qnn_ErrorHandle_t rc = chain.execute(nullptr, signal);
    while (done.load() < r) std::this_thread::yield();
    if (trig[r] == QNN_SUCCESS) {
      ++taken;
      EXPECT_EQ(rc, QNN_GRAPH_ERROR_ABORTED) << "round " << r << ": the trigger was taken, the call went on";
    } else {
      ++idle;
      EXPECT_EQ(trig[r], QNN_SIGNAL_ERROR_SIGNAL_IDLE) << "round " << r;
      EXPECT_EQ(rc, QNN_SUCCESS) << "round " << r << ": aborted without a taken trigger";
    }
  }
  trigger.join();
  std::printf("%d rounds over an execution of %.1f us: trigger taken (call aborted) %d, refused as idle (call "
              "completed) %d\n",
              kRounds, std::chrono::duration<double, std::micro>(length).count(), taken, idle);
  EXPECT_EQ(chain.execute(nullptr, signal), QNN_SUCCESS);  // no trigger left over
  EXPECT_TRUE(chain.outputCorrect());
  EXPECT_EQ(api().signalFree(signal), QNN_SUCCESS);
}

// QnnGraph_finalize holds its signal for the call: an expired timeout stops the preparation, and
// the graph stays unfinalized (a later finalize without the signal prepares it).
TEST_F(Features, SignalTimeoutStopsFinalize) {
  ReluChain chain(api(), ctx, "unfinalized", 1024, 400, /*finalize=*/false);
  QnnSignal_Config_t timeout = QNN_SIGNAL_CONFIG_INIT;
  timeout.option = QNN_SIGNAL_CONFIG_OPTION_TIMEOUT;
  timeout.timeoutDurationUs = 1;  // checking 400 nodes and preparing them takes longer
  const QnnSignal_Config_t* configs[] = {&timeout, nullptr};
  Qnn_SignalHandle_t signal = nullptr;
  ASSERT_EQ(api().signalCreate(backend, configs, &signal), QNN_SUCCESS);
  EXPECT_EQ(api().graphFinalize(chain.graph, nullptr, signal), QNN_GRAPH_ERROR_TIMED_OUT);
  EXPECT_EQ(chain.execute(), QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED);
  EXPECT_EQ(api().signalFree(signal), QNN_SUCCESS);  // released with the call
  EXPECT_EQ(api().graphFinalize(chain.graph, nullptr, nullptr), QNN_SUCCESS);
  EXPECT_EQ(chain.execute(), QNN_SUCCESS);
  EXPECT_TRUE(chain.outputCorrect());
}

TEST_F(Features, AsyncExecuteNotifies) {
  ReluChain chain(api(), ctx, "async", 1000, 3);
  chain.bind();
  struct Waiter {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    Qnn_ErrorHandle_t error = 1;
  } waiter;
  auto notify = [](void* param, Qnn_NotifyStatus_t status) {
    auto* w = static_cast<Waiter*>(param);
    std::lock_guard<std::mutex> lock(w->m);
    w->done = true;
    w->error = status.error;
    w->cv.notify_all();
  };
  ASSERT_EQ(api().graphExecuteAsync(chain.graph, &chain.in_.tensor, 1, &chain.out_.tensor, 1, nullptr, nullptr, notify,
                                    &waiter),
            QNN_SUCCESS);
  std::unique_lock<std::mutex> lock(waiter.m);
  ASSERT_TRUE(waiter.cv.wait_for(lock, std::chrono::seconds(30), [&] { return waiter.done; }));
  EXPECT_EQ(waiter.error, QNN_SUCCESS);
  EXPECT_TRUE(chain.outputCorrect());
}

TEST_F(Features, RegisteredFdMemoryServesAsInputAndOutput) {
  ReluChain chain(api(), ctx, "mem", 256, 2);
  int fdIn = memfd_create("qnn-in", 0), fdOut = memfd_create("qnn-out", 0);
  ASSERT_GE(fdIn, 0);
  ASSERT_EQ(ftruncate(fdIn, 1024), 0);
  ASSERT_EQ(ftruncate(fdOut, 1024), 0);
  uint32_t dims[] = {1, 256};
  Qnn_MemDescriptor_t d[2] = {QNN_MEM_DESCRIPTOR_INIT, QNN_MEM_DESCRIPTOR_INIT};
  for (int i = 0; i < 2; ++i) {
    d[i].memShape = {2, dims, nullptr};
    d[i].dataType = QNN_DATATYPE_FLOAT_32;
  }
  d[0].memType = QNN_MEM_TYPE_ION;  // the input as an ION fd, the output as a dma-buf
  d[0].ionInfo.fd = fdIn;
  d[1].memType = QNN_MEM_TYPE_DMA_BUF;
  d[1].dmaBufInfo = {fdOut, nullptr};
  Qnn_MemHandle_t handles[2] = {nullptr, nullptr};
  ASSERT_EQ(lseek(fdIn, 12, SEEK_SET), 12);
  ASSERT_EQ(api().memRegister(ctx, d, 2, handles), QNN_SUCCESS);
  EXPECT_EQ(lseek(fdIn, 0, SEEK_CUR), 12);  // the client's file offset is left where it was
  auto* inMap = static_cast<float*>(mmap(nullptr, 1024, PROT_READ | PROT_WRITE, MAP_SHARED, fdIn, 0));
  auto* outMap = static_cast<float*>(mmap(nullptr, 1024, PROT_READ | PROT_WRITE, MAP_SHARED, fdOut, 0));
  for (int i = 0; i < 256; ++i) inMap[i] = float(i % 7) - 3.f;
  chain.in_.tensor.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  chain.in_.tensor.v1.memHandle = handles[0];
  chain.out_.tensor.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  chain.out_.tensor.v1.memHandle = handles[1];
  ASSERT_EQ(api().graphExecute(chain.graph, &chain.in_.tensor, 1, &chain.out_.tensor, 1, nullptr, nullptr),
            QNN_SUCCESS);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(outMap[i], std::max(inMap[i], 0.f)) << i;
  EXPECT_EQ(api().memDeRegister(handles, 2), QNN_SUCCESS);
  EXPECT_EQ(api().memDeRegister(handles, 2), QNN_MEM_ERROR_INVALID_HANDLE);
  munmap(inMap, 1024);
  munmap(outMap, 1024);
  close(fdIn);
  close(fdOut);
}

TEST_F(Features, GraphsExecuteConcurrently) {
  ReluChain a(api(), ctx, "a", 4096, 8), b(api(), ctx, "b", 4096, 8);
  std::atomic<int> failures{0};
  auto loop = [&](ReluChain& chain) {
    for (int i = 0; i < 50; ++i)
      if (chain.execute() != QNN_SUCCESS || !chain.outputCorrect()) ++failures;
  };
  std::thread ta(loop, std::ref(a)), tb(loop, std::ref(b));
  ta.join();
  tb.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(Features, LogCallbackReceivesErrors) {
  static std::atomic<int> errors{0};
  Qnn_LogHandle_t logger = nullptr;
  ASSERT_EQ(api().logCreate([](const char*, QnnLog_Level_t level, uint64_t, va_list) {
              if (level == QNN_LOG_LEVEL_ERROR) ++errors;
            },
                            QNN_LOG_LEVEL_WARN, &logger),
            QNN_SUCCESS);
  Qnn_BackendHandle_t b = nullptr;
  ASSERT_EQ(api().backendCreate(logger, nullptr, &b), QNN_SUCCESS);
  Qnn_ContextHandle_t c = nullptr;
  ASSERT_EQ(api().contextCreate(b, nullptr, nullptr, &c), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphCreate(c, "g", nullptr, &g), QNN_SUCCESS);
  int before = errors.load();
  EXPECT_EQ(api().graphExecute(g, nullptr, 0, nullptr, 0, nullptr, nullptr), QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED);
  EXPECT_EQ(errors.load(), before + 1);
  EXPECT_EQ(api().contextFree(c, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().backendFree(b), QNN_SUCCESS);
  EXPECT_EQ(api().logFree(logger), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test

namespace qnn::test {
namespace {

// Tensors given as QNN_TENSOR_VERSION_2 work like version 1 everywhere; a
// dynamic dimension, which this backend cannot run, is refused.
TEST_F(Features, TensorVersion2CreatesAndExecutes) {
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphCreate(ctx, "v2", nullptr, &g), QNN_SUCCESS);
  uint32_t dims[] = {1, 3};
  auto makeV2 = [&](const char* name, Qnn_TensorType_t type) {
    Qnn_Tensor_t t = QNN_TENSOR_INIT;
    t.version = QNN_TENSOR_VERSION_2;
    t.v2 = QNN_TENSOR_V2_INIT;
    t.v2.name = name;
    t.v2.type = type;
    t.v2.dataType = QNN_DATATYPE_FLOAT_32;
    t.v2.rank = 2;
    t.v2.dimensions = dims;
    t.v2.memType = QNN_TENSORMEMTYPE_RAW;
    return t;
  };
  Qnn_Tensor_t in = makeV2("in", QNN_TENSOR_TYPE_APP_WRITE), out = makeV2("out", QNN_TENSOR_TYPE_APP_READ);
  ASSERT_EQ(api().tensorCreateGraphTensor(g, &in), QNN_SUCCESS);
  ASSERT_EQ(api().tensorCreateGraphTensor(g, &out), QNN_SUCCESS);
  EXPECT_NE(in.v2.id, out.v2.id);
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in, 1, &out};
  ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  float x[3] = {-1.f, 0.5f, 2.f}, y[3] = {};
  in.v2.clientBuf = {x, sizeof x};
  out.v2.clientBuf = {y, sizeof y};
  ASSERT_EQ(api().graphExecute(g, &in, 1, &out, 1, nullptr, nullptr), QNN_SUCCESS);
  EXPECT_EQ(y[0], 0.f);
  EXPECT_EQ(y[1], 0.5f);
  EXPECT_EQ(y[2], 2.f);

  uint8_t dynamic[] = {1, 0};
  Qnn_Tensor_t dyn = makeV2("dyn", QNN_TENSOR_TYPE_NATIVE);
  dyn.v2.isDynamicDimensions = dynamic;
  Qnn_GraphHandle_t g2 = nullptr;
  ASSERT_EQ(api().graphCreate(ctx, "v2dyn", nullptr, &g2), QNN_SUCCESS);
  EXPECT_EQ(api().tensorCreateGraphTensor(g2, &dyn), QNN_COMMON_ERROR_NOT_SUPPORTED);
}

// A context tensor (static weights shared by graphs) feeds nodes of two graphs
// and survives a binary round trip.
TEST_F(Features, ContextTensorSharedByGraphsAndBinaries) {
  float bias[4] = {1.f, -2.f, 3.f, -4.f};
  TensorSpec shared("shared_bias", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {4}, bias, sizeof bias);
  ASSERT_EQ(api().tensorCreateContextTensor(ctx, &shared.tensor), QNN_SUCCESS);
  TensorSpec again("shared_bias", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {4}, bias, sizeof bias);
  EXPECT_EQ(api().tensorCreateContextTensor(ctx, &again.tensor), QNN_TENSOR_ERROR_ALREADY_EXISTS);
  for (const char* name : {"g1", "g2"}) {
    Qnn_GraphHandle_t g = nullptr;
    ASSERT_EQ(api().graphCreate(ctx, name, nullptr, &g), QNN_SUCCESS);
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {4});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {4});
    ASSERT_EQ(api().tensorCreateGraphTensor(g, &x.tensor), QNN_SUCCESS);
    ASSERT_EQ(api().tensorCreateGraphTensor(g, &y.tensor), QNN_SUCCESS);
    Qnn_Tensor_t ins[] = {x.tensor, shared.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ins, 1, &y.tensor};
    ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
    ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  }
  Qnn_ContextBinarySize_t size = 0, written = 0;
  ASSERT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
  std::vector<uint8_t> binary(size);
  ASSERT_EQ(api().contextGetBinary(ctx, binary.data(), size, &written), QNN_SUCCESS);
  Qnn_ContextHandle_t restored = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), written, &restored, nullptr),
            QNN_SUCCESS);
  for (const char* name : {"g1", "g2"}) {
    Qnn_GraphHandle_t g = nullptr;
    ASSERT_EQ(api().graphRetrieve(restored, name, &g), QNN_SUCCESS);
    float in[4] = {10.f, 20.f, 30.f, 40.f}, out[4] = {};
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {4}, in, sizeof in);
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {4}, out, sizeof out);
    x.tensor.v1.id = 0;  // unknown ids: execute falls back to the names
    y.tensor.v1.id = 0;
    ASSERT_EQ(api().graphExecute(g, &x.tensor, 1, &y.tensor, 1, nullptr, nullptr), QNN_SUCCESS) << name;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], in[i] + bias[i]);
  }
  EXPECT_EQ(api().contextFree(restored, nullptr), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test

namespace qnn::test {
namespace {

// The CPU backend's int8 mode: fixed-point tensors run through the float kernel
// with real = scale * (q + offset); outputs round half to even and saturate.
// Expected values come from that formula evaluated here in double precision.
Qnn_QuantizeParams_t scaleOffset(float scale, int32_t offset) {
  Qnn_QuantizeParams_t q = QNN_QUANTIZE_PARAMS_INIT;
  q.encodingDefinition = QNN_DEFINITION_DEFINED;
  q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
  q.scaleOffsetEncoding = {scale, offset};
  return q;
}

TEST_F(Features, QuantizedFullyConnectedMatchesTheFormulaBitExactly) {
  constexpr uint32_t kIn = 6, kOut = 5;
  const float sx = 0.05f, sw = 0.02f, sy = 0.1f;
  const int32_t ox = -128, ow = 0, oy = -100;
  std::vector<uint8_t> x(kIn);
  std::vector<int8_t> w(kOut * kIn);
  for (uint32_t i = 0; i < kIn; ++i) x[i] = uint8_t(37 * i + 11);
  for (uint32_t i = 0; i < kOut * kIn; ++i) w[i] = int8_t(int(i * 29 % 255) - 127);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphCreate(ctx, "fc_u8", nullptr, &g), QNN_SUCCESS);
  TensorSpec tx("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, kIn});
  TensorSpec tw("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_8, {kOut, kIn}, w.data(), uint32_t(w.size()));
  TensorSpec ty("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, kOut});
  tx.tensor.v1.quantizeParams = scaleOffset(sx, ox);
  tw.tensor.v1.quantizeParams = scaleOffset(sw, ow);
  ty.tensor.v1.quantizeParams = scaleOffset(sy, oy);
  for (TensorSpec* t : {&tx, &tw, &ty}) ASSERT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
  Qnn_Tensor_t ins[] = {tx.tensor, tw.tensor};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"fc", "qti.aisw", "FullyConnected", 0, nullptr, 2, ins, 1, &ty.tensor};
  ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  std::vector<uint8_t> y(kOut, 0);
  tx.tensor.v1.clientBuf = {x.data(), kIn};
  ty.tensor.v1.clientBuf = {y.data(), kOut};
  ASSERT_EQ(api().graphExecute(g, &tx.tensor, 1, &ty.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
  for (uint32_t o = 0; o < kOut; ++o) {
    // The kernel accumulates in float32: compute the sum the same way so the
    // rounding decision is identical, then quantize as documented.
    float acc = 0.f;
    for (uint32_t i = 0; i < kIn; ++i) acc += (sx * float(x[i] + ox)) * (sw * float(w[o * kIn + i] + ow));
    double q = std::nearbyint(double(acc) / sy) - oy;
    uint8_t want = uint8_t(std::min(255.0, std::max(0.0, q)));
    EXPECT_EQ(int(y[o]), int(want)) << "output " << o;
  }
}

// Vendor clients print the callback's timestamp as nanoseconds since they created the log
// handle (the vendor sample: timestamp / 1e6 printed as "ms"). A message logged ~30 ms after
// logCreate must carry about 30e6, not a clock reading since boot or a microsecond count.
TEST_F(Features, LogTimestampIsNanosecondsSinceLogCreate) {
  static std::atomic<uint64_t> lastTimestamp{0};
  Qnn_LogHandle_t logger = nullptr;
  ASSERT_EQ(api().logCreate([](const char*, QnnLog_Level_t, uint64_t ts, va_list) { lastTimestamp = ts; },
                            QNN_LOG_LEVEL_WARN, &logger),
            QNN_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  Qnn_BackendHandle_t b = nullptr;
  ASSERT_EQ(api().backendCreate(logger, nullptr, &b), QNN_SUCCESS);
  Qnn_ContextHandle_t c = nullptr;
  ASSERT_EQ(api().contextCreate(b, nullptr, nullptr, &c), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphCreate(c, "g", nullptr, &g), QNN_SUCCESS);
  lastTimestamp = 0;
  EXPECT_EQ(api().graphExecute(g, nullptr, 0, nullptr, 0, nullptr, nullptr), QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED);
  EXPECT_GE(lastTimestamp.load(), 30'000'000u);     // at least the 30 ms slept, in ns
  EXPECT_LT(lastTimestamp.load(), 20'000'000'000u);  // and from logCreate, not from boot
  EXPECT_EQ(api().contextFree(c, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().backendFree(b), QNN_SUCCESS);
  EXPECT_EQ(api().logFree(logger), QNN_SUCCESS);
}

QnnProfile_Config_t maxEventsConfig(uint64_t n) {
  QnnProfile_Config_t c = QNN_PROFILE_CONFIG_INIT;
  c.option = QNN_PROFILE_CONFIG_OPTION_MAX_EVENTS;
  c.numMaxEvents = n;
  return c;
}

TEST_F(Features, ProfileMaxEventsStopsStoringAndTheLastSettingWins) {
  ReluChain chain(api(), ctx, "chain", 64, 5);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  QnnProfile_Config_t one = maxEventsConfig(1), three = maxEventsConfig(3);
  const QnnProfile_Config_t* configs[] = {&one, &three, nullptr};
  ASSERT_EQ(api().profileSetConfig(profile, configs), QNN_SUCCESS);
  ASSERT_EQ(chain.execute(profile), QNN_SUCCESS);  // execute, queue wait, 5 nodes: 3 kept
  ASSERT_EQ(chain.execute(profile), QNN_SUCCESS);  // nothing more
  EXPECT_TRUE(chain.outputCorrect());
  EXPECT_EQ(subEventsOfTheOnlyEvent(profile), 2u);
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
}

TEST_F(Features, ProfileSetConfigRefusalsChangeNothing) {
  ReluChain chain(api(), ctx, "chain", 16, 3);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  QnnProfile_Config_t one = maxEventsConfig(1), zero = maxEventsConfig(0), undefined = QNN_PROFILE_CONFIG_INIT;
  QnnProfile_Config_t optraceOn = QNN_PROFILE_CONFIG_INIT, optraceOff = QNN_PROFILE_CONFIG_INIT;
  optraceOn.option = optraceOff.option = QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE;
  optraceOn.enableOptrace = 1;
  optraceOff.enableOptrace = 0;
  uint64_t opaque = 0;
  QnnProfile_Config_t custom = QNN_PROFILE_CONFIG_INIT;
  custom.option = QNN_PROFILE_CONFIG_OPTION_CUSTOM;
  custom.customConfig = &opaque;
  const std::pair<QnnProfile_Config_t*, Qnn_ErrorHandle_t> refused[] = {
      {&zero, QNN_PROFILE_ERROR_INVALID_ARGUMENT},
      {&undefined, QNN_PROFILE_ERROR_INVALID_ARGUMENT},
      {&optraceOn, QNN_PROFILE_ERROR_UNSUPPORTED},
      {&custom, QNN_PROFILE_ERROR_UNSUPPORTED},
  };
  for (const auto& [bad, code] : refused) {
    const QnnProfile_Config_t* configs[] = {&one, bad, nullptr};  // `one` must not apply either
    EXPECT_EQ(api().profileSetConfig(profile, configs), code);
  }
  const QnnProfile_Config_t* off[] = {&optraceOff, nullptr};
  EXPECT_EQ(api().profileSetConfig(profile, off), QNN_SUCCESS);
  EXPECT_EQ(api().profileSetConfig(profile, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().profileSetConfig(reinterpret_cast<Qnn_ProfileHandle_t>(0x1234), off),
            QNN_PROFILE_ERROR_INVALID_HANDLE);
  ASSERT_EQ(chain.execute(profile), QNN_SUCCESS);  // no limit took effect: all events kept
  EXPECT_EQ(subEventsOfTheOnlyEvent(profile), 4u);  // the queue wait and 3 nodes
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
}

TEST_F(Features, ExtendedEventDataMatchesTheEventWithATimestamp) {
  ReluChain chain(api(), ctx, "chain", 64, 2);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &profile), QNN_SUCCESS);
  uint64_t before = uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count());
  ASSERT_EQ(chain.execute(profile), QNN_SUCCESS);
  uint64_t after = uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::steady_clock::now().time_since_epoch())
                                .count());
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t num = 0;
  ASSERT_EQ(api().profileGetEvents(profile, &events, &num), QNN_SUCCESS);
  ASSERT_EQ(num, 1u);
  QnnProfile_EventData_t data;
  ASSERT_EQ(api().profileGetEventData(events[0], &data), QNN_SUCCESS);
  QnnProfile_ExtendedEventData_t ext = QNN_PROFILE_EXTENDED_EVENT_DATA_INIT;
  ASSERT_EQ(api().profileGetExtendedEventData(events[0], &ext), QNN_SUCCESS);
  EXPECT_EQ(ext.version, QNN_PROFILE_DATA_VERSION_1);
  EXPECT_EQ(ext.v1.type, data.type);
  EXPECT_EQ(ext.v1.unit, data.unit);
  EXPECT_EQ(ext.v1.value.dataType, QNN_DATATYPE_UINT_64);
  EXPECT_EQ(ext.v1.value.uint64Value, data.value);
  EXPECT_STREQ(ext.v1.identifier, data.identifier);
  EXPECT_GE(ext.v1.timestamp, before);  // the execute began inside the call
  EXPECT_LE(ext.v1.timestamp + data.value, after);
  EXPECT_EQ(api().profileGetExtendedEventData(events[0], nullptr), QNN_PROFILE_ERROR_INVALID_ARGUMENT);
  QnnProfile_EventId_t stale = events[0];
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
  EXPECT_EQ(api().profileGetExtendedEventData(stale, &ext), QNN_PROFILE_ERROR_INVALID_HANDLE);
}

}  // namespace
}  // namespace qnn::test
