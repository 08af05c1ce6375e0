// What the API allows concurrently, done from many threads at once on the CPU backend (and through
// the Saver): executes of different graphs of one context and of different contexts, one graph
// executed from several threads, graphExecuteAsync with notify callbacks, abort and timeout signals
// fired from another thread during execute, log callbacks from backend threads, profile reads while
// executing, contexts created and freed in parallel, and the Saver recording from several threads.
// Every outcome is checked; built with -DQNN_SANITIZE=thread (scripts/tsan.sh) the same tests must
// give no ThreadSanitizer report.
#include <gtest/gtest.h>
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "Saver/QnnSaver.h"
#include "tests/api/backend_loader.h"
#include "tests/api/relu_chain.h"

namespace qnn::test {
namespace {

constexpr int kThreads = 4;

std::atomic<int> gLogLines{0};
void countLog(const char*, QnnLog_Level_t, uint64_t, va_list) { gLogLines.fetch_add(1, std::memory_order_relaxed); }

class Concurrency : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().logCreate(countLog, QNN_LOG_LEVEL_VERBOSE, &log), QNN_SUCCESS);
    ASSERT_EQ(api().backendCreate(log, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  }
  void TearDown() override {
    if (ctx) api().contextFree(ctx, nullptr);
    if (backend) api().backendFree(backend);
    if (log) api().logFree(log);
  }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  // Runs `body(thread index)` on kThreads threads at once.
  template <typename F>
  void onThreads(F body, int threads = kThreads) {
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t) ts.emplace_back(body, t);
    for (auto& t : ts) t.join();
  }

  LoadedBackend lib{cpuBackendPath()};
  Qnn_LogHandle_t log = nullptr;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
};

TEST_F(Concurrency, DifferentGraphsOfOneContext) {
  std::vector<std::unique_ptr<ReluChain>> graphs;
  for (int t = 0; t < kThreads; ++t)
    graphs.push_back(std::make_unique<ReluChain>(api(), ctx, "g" + std::to_string(t), 2048 + 64 * t, 6));
  std::atomic<int> wrong{0};
  onThreads([&](int t) {
    for (int i = 0; i < 40; ++i) {
      std::fill(graphs[t]->output.begin(), graphs[t]->output.end(), -7.f);
      if (graphs[t]->execute() != QNN_SUCCESS || !graphs[t]->outputCorrect()) ++wrong;
    }
  });
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(Concurrency, GraphsOfDifferentContexts) {
  std::vector<Qnn_ContextHandle_t> contexts(kThreads, nullptr);
  std::vector<std::unique_ptr<ReluChain>> graphs;
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &contexts[t]), QNN_SUCCESS);
    graphs.push_back(std::make_unique<ReluChain>(api(), contexts[t], "g", 4096, 4));
  }
  std::atomic<int> wrong{0};
  onThreads([&](int t) {
    for (int i = 0; i < 40; ++i)
      if (graphs[t]->execute() != QNN_SUCCESS || !graphs[t]->outputCorrect()) ++wrong;
  });
  EXPECT_EQ(wrong.load(), 0);
  for (auto c : contexts) EXPECT_EQ(api().contextFree(c, nullptr), QNN_SUCCESS);
}

// One graph from several threads, each with its own buffers: executes are serialized by the
// backend, every one of them complete.
TEST_F(Concurrency, OneGraphFromSeveralThreads) {
  ReluChain chain(api(), ctx, "shared", 1024, 5);
  std::atomic<int> wrong{0};
  onThreads([&](int t) {
    TensorSpec in = chain.in_, out = chain.out_;
    std::vector<float> x(1024), y(1024);
    for (int i = 0; i < 1024; ++i) x[i] = float((i * (t + 1)) % 13) - 6.f;
    in.tensor.v1.clientBuf = {x.data(), 4096};
    out.tensor.v1.clientBuf = {y.data(), 4096};
    for (int r = 0; r < 30; ++r) {
      if (api().graphExecute(chain.graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr) != QNN_SUCCESS) ++wrong;
      for (int i = 0; i < 1024; ++i)
        if (y[i] != std::max(x[i], 0.f)) {
          ++wrong;
          break;
        }
    }
  });
  EXPECT_EQ(wrong.load(), 0);
}

TEST_F(Concurrency, ExecuteAsyncNotifiesEveryCall) {
  std::vector<std::unique_ptr<ReluChain>> graphs;
  for (int t = 0; t < kThreads; ++t)
    graphs.push_back(std::make_unique<ReluChain>(api(), ctx, "a" + std::to_string(t), 512, 3));
  struct Waiter {
    std::mutex m;
    std::condition_variable cv;
    int done = 0, failed = 0;
  } waiter;
  auto notify = [](void* param, Qnn_NotifyStatus_t status) {
    auto* w = static_cast<Waiter*>(param);
    std::lock_guard<std::mutex> lock(w->m);
    ++w->done;
    if (status.error != QNN_SUCCESS) ++w->failed;
    w->cv.notify_all();
  };
  constexpr int kPerThread = 10;
  std::atomic<int> refused{0};
  onThreads([&](int t) {
    graphs[t]->bind();
    for (int i = 0; i < kPerThread; ++i)
      if (api().graphExecuteAsync(graphs[t]->graph, &graphs[t]->in_.tensor, 1, &graphs[t]->out_.tensor, 1, nullptr,
                                  nullptr, notify, &waiter) != QNN_SUCCESS)
        ++refused;
  });
  std::unique_lock<std::mutex> lock(waiter.m);
  ASSERT_TRUE(waiter.cv.wait_for(lock, std::chrono::seconds(60), [&] { return waiter.done == kThreads * kPerThread; }));
  EXPECT_EQ(refused.load(), 0);
  EXPECT_EQ(waiter.failed, 0);
  for (auto& g : graphs) EXPECT_TRUE(g->outputCorrect());
}

// A long execute aborted by a signal triggered from another thread; the signal is then idle again
// and the graph runs to completion after it.
TEST_F(Concurrency, AbortSignalFromAnotherThread) {
  // 64 Relus over 4 MiB tensors: ~20 ms, a window a loaded machine still schedules the trigger into
  // (1 MiB ones ran out in under a millisecond once their buffers sat in huge pages).
  ReluChain chain(api(), ctx, "long", 1 << 20, 64);
  Qnn_SignalHandle_t signal = nullptr;
  ASSERT_EQ(api().signalCreate(backend, nullptr, &signal), QNN_SUCCESS);
  int aborted = 0;
  for (int attempt = 0; attempt < 20 && aborted == 0; ++attempt) {
    const ReluChain::Interrupted got = chain.executeAndTrigger(signal);
    // A taken trigger aborts the execute; one refused as idle found it ended.
    EXPECT_EQ(got.execute, got.trigger == QNN_SUCCESS ? QNN_GRAPH_ERROR_ABORTED : QNN_SUCCESS) << got.execute;
    if (got.execute == QNN_GRAPH_ERROR_ABORTED) ++aborted;
  }
  EXPECT_GT(aborted, 0) << "no execute was aborted in 20 attempts";
  EXPECT_EQ(api().signalTrigger(signal), QNN_SIGNAL_ERROR_SIGNAL_IDLE);
  EXPECT_EQ(chain.execute(nullptr, signal), QNN_SUCCESS);
  EXPECT_TRUE(chain.outputCorrect());
  EXPECT_EQ(api().signalFree(signal), QNN_SUCCESS);
}

TEST_F(Concurrency, TimeoutSignalEndsALongExecute) {
  ReluChain chain(api(), ctx, "slow", 1 << 18, 256);
  Qnn_SignalHandle_t signal = nullptr;
  ASSERT_EQ(api().signalCreate(backend, nullptr, &signal), QNN_SUCCESS);
  QnnSignal_Config_t timeout = QNN_SIGNAL_CONFIG_INIT;
  timeout.option = QNN_SIGNAL_CONFIG_OPTION_TIMEOUT;
  timeout.timeoutDurationUs = 1000;
  const QnnSignal_Config_t* cfg[] = {&timeout, nullptr};
  ASSERT_EQ(api().signalSetConfig(signal, cfg), QNN_SUCCESS);
  EXPECT_EQ(chain.execute(nullptr, signal), QNN_GRAPH_ERROR_TIMED_OUT);
  EXPECT_EQ(api().signalFree(signal), QNN_SUCCESS);
}

// Verbose logging while graphs run on the backend's worker threads: every callback arrives, from
// whichever thread, without a race (the counter is atomic; the backend's own state must be too).
TEST_F(Concurrency, LogCallbacksWhileExecuting) {
  const int before = gLogLines.load();
  std::vector<std::unique_ptr<ReluChain>> graphs;
  for (int t = 0; t < kThreads; ++t)
    graphs.push_back(std::make_unique<ReluChain>(api(), ctx, "l" + std::to_string(t), 1 << 16, 3));
  std::atomic<int> wrong{0};
  onThreads([&](int t) {
    for (int i = 0; i < 10; ++i) {
      if (graphs[t]->execute() != QNN_SUCCESS || !graphs[t]->outputCorrect()) ++wrong;
      (void)api().logSetLogLevel(log, i % 2 ? QNN_LOG_LEVEL_VERBOSE : QNN_LOG_LEVEL_DEBUG);
    }
  });
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(gLogLines.load(), before);
}

// One thread executes with a profile while others read its events.
TEST_F(Concurrency, ProfileReadWhileExecuting) {
  ReluChain chain(api(), ctx, "p", 1 << 16, 8);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  std::atomic<bool> done{false};
  std::atomic<int> wrong{0}, reads{0}, listed{0};
  std::atomic<int> readersStarted{0};
  std::thread exec([&] {
    while (readersStarted.load() < 2) std::this_thread::yield();
    for (int i = 0; i < 60; ++i)
      if (chain.execute(profile) != QNN_SUCCESS || !chain.outputCorrect()) ++wrong;
    done = true;
  });
  onThreads(
      [&](int) {
        ++readersStarted;
        do {  // at least once, however the threads are scheduled
          const QnnProfile_EventId_t* events = nullptr;
          uint32_t n = 0;
          if (api().profileGetEvents(profile, &events, &n) != QNN_SUCCESS) {
            ++wrong;
            continue;
          }
          listed += int(n);
          for (uint32_t i = 0; i < n; ++i) {
            QnnProfile_EventData_t data;
            const QnnProfile_EventId_t* subs = nullptr;
            uint32_t numSubs = 0;
            if (api().profileGetEventData(events[i], &data) != QNN_SUCCESS ||
                api().profileGetSubEvents(events[i], &subs, &numSubs) != QNN_SUCCESS)
              ++wrong;
            for (uint32_t k = 0; k < numSubs; ++k)  // a listed event's sub-events are all there, for good
              if (api().profileGetEventData(subs[k], &data) != QNN_SUCCESS) ++wrong;
          }
          ++reads;
        } while (!done);
      },
      2);
  exec.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(reads.load(), 0);
  // Each execute's event went to exactly one reader (a read reports what no read reported before).
  const QnnProfile_EventId_t* rest = nullptr;
  uint32_t n = 0;
  ASSERT_EQ(api().profileGetEvents(profile, &rest, &n), QNN_SUCCESS);
  EXPECT_EQ(listed.load() + int(n), 60);
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
}

TEST_F(Concurrency, ContextsCreatedAndFreedInParallel) {
  std::atomic<int> wrong{0};
  onThreads([&](int t) {
    for (int i = 0; i < 15; ++i) {
      Qnn_ContextHandle_t c = nullptr;
      if (api().contextCreate(backend, nullptr, nullptr, &c) != QNN_SUCCESS) {
        ++wrong;
        continue;
      }
      {
        ReluChain chain(api(), c, "g" + std::to_string(t), 256, 2);
        if (chain.execute() != QNN_SUCCESS || !chain.outputCorrect()) ++wrong;
      }
      if (api().contextFree(c, nullptr) != QNN_SUCCESS) ++wrong;
    }
  });
  EXPECT_EQ(wrong.load(), 0);
}

// The Saver forwarding to the CPU backend while several threads execute: every call is recorded and
// the recording decodes whole (qnn-trace-dump).
TEST(ConcurrencySaver, RecordsEveryExecuteFromSeveralThreads) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("qnn_concurrency_saver_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  setenv("QNN_SAVER_BACKEND", cpuBackendPath().c_str(), 1);
  void* saver = dlopen(QNN_TEST_SAVER_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(saver, nullptr) << dlerror();
  using Init = Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**);
  auto init = reinterpret_cast<Init>(dlsym(saver, "QnnSaver_initialize"));
  ASSERT_NE(init, nullptr);
  QnnSaver_Config_t out = QNN_SAVER_CONFIG_INIT;
  out.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
  const std::string dirText = dir.string();
  out.outputDirectory = dirText.c_str();
  const QnnSaver_Config_t* cfg[] = {&out, nullptr};
  ASSERT_EQ(init(cfg), QNN_SUCCESS);
  {
    LoadedBackend lib(QNN_TEST_SAVER_PATH);
    ASSERT_TRUE(lib.ok()) << lib.error();
    const auto& api = lib.api();
    Qnn_BackendHandle_t backend = nullptr;
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(api.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api.contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    std::vector<std::unique_ptr<ReluChain>> graphs;
    for (int t = 0; t < kThreads; ++t)
      graphs.push_back(std::make_unique<ReluChain>(api, ctx, "s" + std::to_string(t), 256, 2));
    std::atomic<int> wrong{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t)
      ts.emplace_back([&, t] {
        for (int i = 0; i < 10; ++i)
          if (graphs[t]->execute() != QNN_SUCCESS || !graphs[t]->outputCorrect()) ++wrong;
      });
    for (auto& t : ts) t.join();
    EXPECT_EQ(wrong.load(), 0);
    graphs.clear();
    EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
    EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
  }
  // The recording decodes whole and holds every execute.
  const std::string dump = (dir / "dump.txt").string();
  const std::string cmd = std::string(QNN_TEST_TRACE_DUMP) + " --trace " + (dir / "saver_output.qnntrace").string() +
                          " > " + dump + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(dump);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t executes = 0;
  for (size_t p = text.find("QnnGraph_execute"); p != std::string::npos; p = text.find("QnnGraph_execute", p + 1))
    ++executes;
  EXPECT_GE(executes, size_t(kThreads * 10)) << text.substr(0, 2000);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace qnn::test
