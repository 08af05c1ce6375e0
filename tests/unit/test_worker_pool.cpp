// sdk::WorkerPool: every chunk of every job runs exactly once, the caller
// (nearly always) runs the first contiguous range of chunks, jobs back to back and after the
// workers parked, a second caller or a nested job is turned
// away (and runs its chunks itself), the pool stops cleanly, an exception
// thrown by a chunk on a worker or on the caller reaches the caller after the
// job and the pool keeps working.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <new>
#include <stdexcept>
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

// The chunks are split into one contiguous range per thread, each taken from
// its front: the caller's is the first half, the worker's the second, so
// consecutive jobs give each thread the same rows. A thread helps with the
// other's range only once its own is done, so the first chunk the worker runs
// is always in the second half. (Which thread runs chunk 0 depends on
// scheduling: a caller descheduled right after publishing the job lets the
// worker finish its half and steal it, which a loaded CI machine does often.)
// All chunks run once.
TEST(WorkerPool, EachThreadStartsOnItsOwnRange) {
  WorkerPool pool(2);
  constexpr int kJobs = 1000;
  constexpr size_t kChunks = 10;
  int workerRan = 0;
  for (int job = 0; job < kJobs; ++job) {
    std::vector<std::thread::id> ranOn(kChunks);
    std::vector<size_t> rank(kChunks);
    std::vector<std::atomic<int>> hits(kChunks);
    std::atomic<size_t> order{0};
    std::function<void(size_t)> fn = [&](size_t c) {
      ranOn[c] = std::this_thread::get_id();
      rank[c] = order.fetch_add(1);
      hits[c].fetch_add(1);
      // Long enough (10 us) for the worker to join before the caller is done.
      const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(10);
      while (std::chrono::steady_clock::now() < until) {
      }
    };
    ASSERT_TRUE(pool.tryRun(kChunks, fn));
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
    const std::thread::id caller = std::this_thread::get_id();
    size_t workerFirst = kChunks, bestRank = SIZE_MAX;
    for (size_t c = 0; c < kChunks; ++c)
      if (ranOn[c] != caller && rank[c] < bestRank) bestRank = rank[c], workerFirst = c;
    if (workerFirst == kChunks) continue;  // the caller ran everything
    ++workerRan;
    ASSERT_GE(workerFirst, kChunks / 2) << "job " << job;
  }
  EXPECT_GT(workerRan, 0);
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

// Busy for about `us` microseconds, so the other threads join the job.
void busy(int us) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  while (std::chrono::steady_clock::now() < end) {
  }
}

TEST(WorkerPool, ExceptionOnAWorkerReachesTheCaller) {
  WorkerPool pool(4);
  const std::thread::id caller = std::this_thread::get_id();
  int thrown = 0;
  for (int attempt = 0; attempt < 20 && thrown == 0; ++attempt) {
    std::atomic<int> started{0};
    std::function<void(size_t)> fn = [&](size_t) {
      started.fetch_add(1);
      busy(200);
      if (std::this_thread::get_id() != caller) throw std::runtime_error("chunk failed");
    };
    try {
      pool.tryRun(32, fn);
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "chunk failed");
      EXPECT_LT(started.load(), 32);  // the chunks after the failure were skipped
      ++thrown;
    }
  }
  EXPECT_EQ(thrown, 1) << "no worker ever joined a job";
  EXPECT_TRUE(runCounted(pool, 1000));  // and the pool still runs every chunk once
}

TEST(WorkerPool, ExceptionOnTheCallerWaitsForTheWorkers) {
  WorkerPool pool(3);
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> finished{0};
    std::function<void(size_t)> fn = [&](size_t c) {
      if (c == 0) throw std::bad_alloc();  // chunk 0 is in the caller's range
      busy(50);
      finished.fetch_add(1);
    };
    bool threw = false;
    try {
      pool.tryRun(12, fn);
    } catch (const std::bad_alloc&) {
      threw = true;
    }
    EXPECT_TRUE(threw);
    const int seen = finished.load();
    busy(500);
    EXPECT_EQ(finished.load(), seen);  // nobody still runs the job after tryRun left
  }
  EXPECT_TRUE(runCounted(pool, 100));
}

}  // namespace
}  // namespace qnn::sdk
