// sdk::WorkerPool: every chunk of every job runs exactly once, jobs back to
// back and after the workers parked, a second caller or a nested job is turned
// away (and runs its chunks itself), the pool stops cleanly.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "core/worker_pool.h"

namespace qnn::sdk {
namespace {

// Runs one job of n chunks; each chunk counts itself. True if every chunk ran once.
bool runCounted(WorkerPool& pool, size_t n, bool* ranOnPool = nullptr) {
  std::vector<std::atomic<int>> hits(n);
  std::function<void(size_t)> fn = [&](size_t c) { hits[c].fetch_add(1); };
  const bool onPool = pool.tryRun(n, fn);
  if (!onPool)
    for (size_t c = 0; c < n; ++c) fn(c);
  if (ranOnPool) *ranOnPool = onPool;
  for (auto& h : hits)
    if (h.load() != 1) return false;
  return true;
}

TEST(WorkerPool, EveryChunkOnceOverManyJobs) {
  WorkerPool pool(4);
  EXPECT_EQ(pool.threads(), 4u);
  for (size_t job = 0; job < 20000; ++job) {
    bool onPool = false;
    ASSERT_TRUE(runCounted(pool, 1 + job % 67, &onPool)) << "job " << job;
    ASSERT_TRUE(onPool);
  }
}

TEST(WorkerPool, JobsAfterTheWorkersParked) {
  WorkerPool pool(3);
  for (int round = 0; round < 5; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the workers' spin: they park
    ASSERT_TRUE(runCounted(pool, 64));
    ASSERT_TRUE(runCounted(pool, 1));
  }
}

TEST(WorkerPool, SecondCallerAndNestedJobsRunInline) {
  WorkerPool pool(2);
  std::atomic<bool> nestedRefused{false};
  std::function<void(size_t)> outer = [&](size_t) {
    std::function<void(size_t)> inner = [](size_t) {};
    if (!pool.tryRun(4, inner)) nestedRefused = true;  // from a worker or from inside a job
  };
  ASSERT_TRUE(pool.tryRun(8, outer));
  EXPECT_TRUE(nestedRefused.load());

  // Two threads issuing jobs at once: each job completes, either on the pool or inline.
  std::atomic<int> failures{0};
  auto issue = [&] {
    for (int i = 0; i < 3000; ++i)
      if (!runCounted(pool, 16)) ++failures;
  };
  std::thread a(issue), b(issue);
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(WorkerPool, SingleThreadPoolRefusesAndStopsCleanly) {
  WorkerPool solo(1);
  bool onPool = true;
  EXPECT_TRUE(runCounted(solo, 10, &onPool));
  EXPECT_FALSE(onPool);
  for (int i = 0; i < 50; ++i) {
    WorkerPool shortLived(2);
    EXPECT_TRUE(runCounted(shortLived, 5));
  }  // destroyed right after a job, workers still spinning
}

}  // namespace
}  // namespace qnn::sdk
