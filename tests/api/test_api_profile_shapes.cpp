// The events each call reports, in the shape the vendor's backends give theirs
// (docs/profiling-log-format.md): continuous profiling answered not supported, so
// a client profiles per call and reads after each one; finalize, execute and the
// free of a context each report their call's event last among that call's
// top-level events; the HTP lists its RPC and accelerator measurements as
// top-level events before it; an execute event holds exactly one queue-wait
// sub-event, then its nodes. Durations are checked against each other and
// against the extended data's timestamps (one steady clock), over two executes.
#include <gtest/gtest.h>

#include <QnnProfile.h>
#include <HTP/QnnHtpProfile.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tests/api/cpu_context_fixture.h"

namespace qnn::test {
namespace {

struct Event {
  QnnProfile_EventType_t type = 0;
  QnnProfile_EventUnit_t unit = 0;
  uint64_t value = 0, timestamp = 0;
  std::string identifier;
  std::vector<Event> subs;
};

Event readEvent(const QNN_INTERFACE_VER_TYPE& api, QnnProfile_EventId_t id) {
  Event e;
  QnnProfile_ExtendedEventData_t d = QNN_PROFILE_EXTENDED_EVENT_DATA_INIT;
  EXPECT_EQ(api.profileGetExtendedEventData(id, &d), QNN_SUCCESS);
  QnnProfile_EventData_t basic;
  EXPECT_EQ(api.profileGetEventData(id, &basic), QNN_SUCCESS);
  e.type = basic.type, e.unit = basic.unit, e.value = basic.value;
  e.identifier = basic.identifier ? basic.identifier : "";
  EXPECT_EQ(d.v1.value.uint64Value, basic.value);  // both views give one value
  e.timestamp = d.v1.timestamp;
  const QnnProfile_EventId_t* subs = nullptr;
  uint32_t n = 0;
  EXPECT_EQ(api.profileGetSubEvents(id, &subs, &n), QNN_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) e.subs.push_back(readEvent(api, subs[i]));
  return e;
}

// The top-level events reported since the previous read, with their trees.
std::vector<Event> readNew(const QNN_INTERFACE_VER_TYPE& api, Qnn_ProfileHandle_t profile) {
  const QnnProfile_EventId_t* ids = nullptr;
  uint32_t n = 0;
  EXPECT_EQ(api.profileGetEvents(profile, &ids, &n), QNN_SUCCESS);
  std::vector<QnnProfile_EventId_t> copy(ids, ids + n);
  std::vector<Event> out;
  for (QnnProfile_EventId_t id : copy) out.push_back(readEvent(api, id));
  return out;
}

constexpr int kDepth = 4;

class ProfileShapes : public ContextFixture<::testing::TestWithParam<bool>> {  // true: the HTP backend
 protected:
  ProfileShapes() : ContextFixture(GetParam() ? htpBackendPath() : cpuBackendPath()) {}
  bool htp() const { return GetParam(); }

  // A chain of kDepth Relu nodes over n floats, not finalized.
  void build(uint32_t n) {
    ASSERT_EQ(api().graphCreate(ctx, "chain", nullptr, &graph), QNN_SUCCESS);
    in = std::make_unique<TensorSpec>("in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{1, n});
    out = std::make_unique<TensorSpec>("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{1, n});
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &in->tensor), QNN_SUCCESS);
    Qnn_Tensor_t prev = in->tensor;
    for (int i = 0; i < kDepth; ++i) {
      Qnn_Tensor_t next;
      if (i + 1 == kDepth) {
        ASSERT_EQ(api().tensorCreateGraphTensor(graph, &out->tensor), QNN_SUCCESS);
        next = out->tensor;
      } else {
        mids.push_back(std::make_unique<TensorSpec>("mid" + std::to_string(i), QNN_TENSOR_TYPE_NATIVE,
                                                    QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{1, n}));
        ASSERT_EQ(api().tensorCreateGraphTensor(graph, &mids.back()->tensor), QNN_SUCCESS);
        next = mids.back()->tensor;
      }
      const std::string name = "relu" + std::to_string(i);
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      op.v1 = {name.c_str(), "qti.aisw", "Relu", 0, nullptr, 1, &prev, 1, &next};
      ASSERT_EQ(api().graphAddNode(graph, op), QNN_SUCCESS);
      prev = next;
    }
    x.resize(n);
    y.assign(n, 7.f);
    for (uint32_t i = 0; i < n; ++i) x[i] = (i % 3 ? 0.5f : -2.f) * float(i % 101);
  }
  Qnn_Tensor_t* bind(std::vector<float>* output, Qnn_Tensor_t* tensors) {
    tensors[0] = in->tensor;
    tensors[1] = out->tensor;
    tensors[0].v1.clientBuf = {x.data(), uint32_t(x.size() * sizeof(float))};
    tensors[1].v1.clientBuf = {output->data(), uint32_t(output->size() * sizeof(float))};
    return tensors;
  }
  bool outputCorrect(const std::vector<float>& got) const {
    for (size_t i = 0; i < x.size(); ++i)
      if (got[i] != (x[i] > 0.f ? x[i] : 0.f)) return false;
    return true;
  }

  Qnn_GraphHandle_t graph = nullptr;
  std::unique_ptr<TensorSpec> in, out;
  std::vector<std::unique_ptr<TensorSpec>> mids;
  std::vector<float> x, y;
};

TEST_P(ProfileShapes, ContinuousProfilingIsNotAdvertised) {
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_CONTINUOUS_PROFILING), QNN_PROPERTY_NOT_SUPPORTED);
  // A client that binds a handle anyway still gets the events (test_api_continuous_profiling.cpp).
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_PROFILING_STATE), QNN_PROPERTY_SUPPORTED);
}

TEST_P(ProfileShapes, FinalizeExecuteAndFreeEachReportTheirTree) {
  build(1 << 14);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);

  // Finalize: the FINALIZE event last; on the HTP the host time of the preparation before it.
  const uint64_t beforeFinalize = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
  ASSERT_EQ(api().graphFinalize(graph, profile, nullptr), QNN_SUCCESS);
  std::vector<Event> fin = readNew(api(), profile);
  ASSERT_EQ(fin.size(), htp() ? 2u : 1u);
  const Event& finalize = fin.back();
  EXPECT_EQ(finalize.type, QNN_PROFILE_EVENTTYPE_FINALIZE);
  EXPECT_EQ(finalize.unit, QNN_PROFILE_EVENTUNIT_MICROSEC);
  EXPECT_EQ(finalize.identifier, "QNN (finalize) time");
  EXPECT_GE(finalize.timestamp, beforeFinalize);  // extended timestamps: the steady clock, in us
  if (htp()) {
    EXPECT_EQ(fin[0].type, QNN_HTP_PROFILE_EVENTTYPE_GRAPH_FINALIZE_HOST_RPC_TIME_MICROSEC);
    EXPECT_EQ(fin[0].identifier, "RPC (finalize) time");
    EXPECT_LE(fin[0].value, finalize.value);  // part of the call
  }

  // Two executes, read after each: every read holds that execute only, in the same shape.
  std::vector<Event> execs;
  uint64_t cycles = 0;
  for (int run = 0; run < 2; ++run) {
    Qnn_Tensor_t t[2];
    bind(&y, t);
    ASSERT_EQ(api().graphExecute(graph, &t[0], 1, &t[1], 1, profile, nullptr), QNN_SUCCESS);
    EXPECT_TRUE(outputCorrect(y));
    std::vector<Event> got = readNew(api(), profile);
    ASSERT_EQ(got.size(), htp() ? 6u : 1u) << "run " << run;
    const Event& exec = got.back();
    EXPECT_EQ(exec.type, QNN_PROFILE_EVENTTYPE_EXECUTE);
    EXPECT_EQ(exec.unit, QNN_PROFILE_EVENTUNIT_MICROSEC);
    EXPECT_EQ(exec.identifier, "QNN (execute) time");
    ASSERT_EQ(exec.subs.size(), 1u + kDepth);
    const Event& wait = exec.subs[0];
    EXPECT_EQ(wait.type, QNN_PROFILE_EVENTTYPE_EXECUTE_QUEUE_WAIT);
    EXPECT_EQ(wait.unit, QNN_PROFILE_EVENTUNIT_MICROSEC);
    // The queue wait, then the nodes, all inside the execute and in order.
    EXPECT_GE(wait.timestamp, exec.timestamp);
    uint64_t cursor = wait.timestamp + wait.value, nodeSum = 0;
    for (int i = 0; i < kDepth; ++i) {
      const Event& node = exec.subs[1 + i];
      EXPECT_EQ(node.type, QNN_PROFILE_EVENTTYPE_NODE);
      EXPECT_EQ(node.unit, QNN_PROFILE_EVENTUNIT_MICROSEC);
      EXPECT_EQ(node.identifier, "relu" + std::to_string(i) + " (Relu)");
      EXPECT_GE(node.timestamp, cursor) << node.identifier;
      cursor = node.timestamp + node.value;
      nodeSum += node.value;
    }
    EXPECT_LE(cursor, exec.timestamp + exec.value);
    EXPECT_LE(wait.value + nodeSum, exec.value);
    if (htp()) {
      // In the vendor HTP's order: HVX threads, RPC, QNN accelerator, accelerator, cycles.
      const QnnProfile_EventType_t order[] = {QNN_HTP_PROFILE_EVENTTYPE_GRAPH_NUMBER_OF_HVX_THREADS,
                                              QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_HOST_RPC_TIME_MICROSEC,
                                              QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_HTP_RPC_TIME_MICROSEC,
                                              QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_ACCEL_TIME_MICROSEC,
                                              QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_ACCEL_TIME_CYCLE};
      for (size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(got[i].type, order[i]) << i;
        EXPECT_TRUE(got[i].subs.empty()) << i;
      }
      EXPECT_EQ(got[0].unit, QNN_PROFILE_EVENTUNIT_COUNT);
      EXPECT_GT(got[0].value, 0u);
      EXPECT_EQ(got[1].identifier, "RPC (execute) time");
      EXPECT_LE(got[1].value, exec.value);          // the simulated execution, inside the call
      EXPECT_EQ(got[2].identifier, "QNN accelerator (execute) time");
      EXPECT_EQ(got[3].identifier, "Accelerator (execute) time");
      EXPECT_GE(got[2].value, got[3].value);        // the RPC control latency on top
      EXPECT_EQ(got[4].unit, QNN_PROFILE_EVENTUNIT_CYCLES);
      EXPECT_EQ(got[4].identifier.rfind("Accelerator (execute) time (cycles)", 0), 0u) << got[4].identifier;
      EXPECT_GT(got[4].value, 0u);
      if (run == 1) {
        EXPECT_EQ(got[4].value, cycles);  // the same estimate for the same graph
      }
      cycles = got[4].value;
    }
    execs.push_back(exec);
  }
  // The second execute began after the first had returned.
  EXPECT_GE(execs[1].timestamp, execs[0].timestamp + execs[0].value);

  // The free of the context: one DEINIT event.
  const uint64_t beforeFree = execs[1].timestamp + execs[1].value;
  ASSERT_EQ(api().contextFree(ctx, profile), QNN_SUCCESS);
  ctx = nullptr;
  std::vector<Event> deinit = readNew(api(), profile);
  ASSERT_EQ(deinit.size(), 1u);
  EXPECT_EQ(deinit[0].type, QNN_PROFILE_EVENTTYPE_DEINIT);
  EXPECT_EQ(deinit[0].unit, QNN_PROFILE_EVENTUNIT_MICROSEC);
  EXPECT_EQ(deinit[0].identifier, "QNN (deinit) time");
  EXPECT_GE(deinit[0].timestamp, beforeFree);
  EXPECT_TRUE(readNew(api(), profile).empty());  // each event reported once
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
}

TEST_P(ProfileShapes, BasicProfileHasTheQueueWaitAndNoNodes) {
  build(256);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &profile), QNN_SUCCESS);
  Qnn_Tensor_t t[2];
  bind(&y, t);
  ASSERT_EQ(api().graphExecute(graph, &t[0], 1, &t[1], 1, profile, nullptr), QNN_SUCCESS);
  std::vector<Event> got = readNew(api(), profile);
  ASSERT_FALSE(got.empty());
  ASSERT_EQ(got.back().type, QNN_PROFILE_EVENTTYPE_EXECUTE);
  ASSERT_EQ(got.back().subs.size(), 1u);
  EXPECT_EQ(got.back().subs[0].type, QNN_PROFILE_EVENTTYPE_EXECUTE_QUEUE_WAIT);
  EXPECT_LE(got.back().subs[0].value, got.back().value);
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
}

// Two asynchronous executes queued back to back, one profile each: the second waits in the queue
// while the first runs, and its queue-wait event says so: it spans from its queueing to the end
// of the first execute at least, and lies inside its own execute event, which starts when it was
// queued. One queue-wait event per execute.
TEST_P(ProfileShapes, AsyncExecuteQueueWaitCoversTheTimeInTheQueue) {
  build(1 << 16);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  Qnn_ProfileHandle_t profiles[2] = {nullptr, nullptr};
  for (auto& p : profiles) ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &p), QNN_SUCCESS);
  struct Done {
    std::mutex m;
    std::condition_variable cv;
    int count = 0;
    Qnn_ErrorHandle_t errors[2] = {1, 1};
  } done;
  struct Call {
    Done* done;
    int index;
  } calls[2] = {{&done, 0}, {&done, 1}};
  auto notify = [](void* param, Qnn_NotifyStatus_t status) {
    auto* c = static_cast<Call*>(param);
    std::lock_guard<std::mutex> lock(c->done->m);
    c->done->errors[c->index] = status.error;
    ++c->done->count;
    c->done->cv.notify_all();
  };
  std::vector<float> outs[2] = {std::vector<float>(x.size(), 7.f), std::vector<float>(x.size(), 7.f)};
  Qnn_Tensor_t t[2][2];
  for (int i = 0; i < 2; ++i) {
    bind(&outs[i], t[i]);
    ASSERT_EQ(api().graphExecuteAsync(graph, &t[i][0], 1, &t[i][1], 1, profiles[i], nullptr, notify, &calls[i]),
              QNN_SUCCESS);
  }
  {
    std::unique_lock<std::mutex> lock(done.m);
    ASSERT_TRUE(done.cv.wait_for(lock, std::chrono::seconds(60), [&] { return done.count == 2; }));
  }
  EXPECT_EQ(done.errors[0], QNN_SUCCESS);
  EXPECT_EQ(done.errors[1], QNN_SUCCESS);
  EXPECT_TRUE(outputCorrect(outs[0]) && outputCorrect(outs[1]));
  Event exec[2];
  for (int i = 0; i < 2; ++i) {
    std::vector<Event> got = readNew(api(), profiles[i]);
    ASSERT_FALSE(got.empty());
    exec[i] = got.back();
    ASSERT_EQ(exec[i].type, QNN_PROFILE_EVENTTYPE_EXECUTE);
    ASSERT_EQ(exec[i].subs.size(), 1u);
    ASSERT_EQ(exec[i].subs[0].type, QNN_PROFILE_EVENTTYPE_EXECUTE_QUEUE_WAIT);
  }
  const Event& wait1 = exec[1].subs[0];
  EXPECT_EQ(wait1.timestamp, exec[1].timestamp);  // both from the queueing
  EXPECT_LE(wait1.value, exec[1].value);
  // It began once the first had ended (one worker, submission order).
  EXPECT_GE(wait1.timestamp + wait1.value, exec[0].timestamp + exec[0].value);
  for (auto& p : profiles) EXPECT_EQ(api().profileFree(p), QNN_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Backends, ProfileShapes, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "Htp" : "Cpu"; });

}  // namespace
}  // namespace qnn::test
