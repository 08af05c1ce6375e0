#include "kernels/kernel_util.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>

namespace qnn::cpu {

namespace {

// A fixed pool of workers; the calling thread takes part in every job. One job
// at a time: a second thread that calls parallelFor while a job runs (another
// graph executing concurrently) runs its range inline instead of waiting.
class WorkerPool {
 public:
  static WorkerPool& instance() {
    static WorkerPool pool;
    return pool;
  }

  bool tryRun(size_t numChunks, const std::function<void(size_t)>& chunkFn) {
    std::unique_lock<std::mutex> jobLock(jobMutex_, std::try_to_lock);
    if (!jobLock.owns_lock() || workers_.empty() || insideWorker_) return false;
    {
      std::lock_guard<std::mutex> lk(mutex_);
      job_ = &chunkFn;
      numChunks_ = numChunks;
      nextChunk_.store(0);
      pending_ = workers_.size();
      ++generation_;
    }
    cv_.notify_all();
    drain();
    std::unique_lock<std::mutex> lk(mutex_);
    doneCv_.wait(lk, [&] { return pending_ == 0; });
    job_ = nullptr;
    return true;
  }

 private:
  WorkerPool() {
    unsigned n = std::thread::hardware_concurrency();
    if (const char* env = std::getenv("QNN_CPU_NUM_THREADS")) n = static_cast<unsigned>(std::atoi(env));
    n = std::clamp(n, 1u, 64u);
    for (unsigned i = 1; i < n; ++i) workers_.emplace_back([this] { workerLoop(); });
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lk(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

  void drain() {
    for (;;) {
      size_t c = nextChunk_.fetch_add(1);
      if (c >= numChunks_) return;
      (*job_)(c);
    }
  }

  void workerLoop() {
    insideWorker_ = true;
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(mutex_);
        cv_.wait(lk, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      drain();
      std::lock_guard<std::mutex> lk(mutex_);
      if (--pending_ == 0) doneCv_.notify_one();
    }
  }

  static thread_local bool insideWorker_;
  std::vector<std::thread> workers_;
  std::mutex jobMutex_;
  std::mutex mutex_;
  std::condition_variable cv_, doneCv_;
  const std::function<void(size_t)>* job_ = nullptr;
  size_t numChunks_ = 0;
  std::atomic<size_t> nextChunk_{0};
  size_t pending_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

thread_local bool WorkerPool::insideWorker_ = false;

}  // namespace

void warmUpWorkers() { WorkerPool::instance(); }

void parallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)>& fn) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
  if (n <= grain) {
    fn(0, n);
    return;
  }
  size_t numChunks = std::min<size_t>((n + grain - 1) / grain, 64);
  size_t chunk = (n + numChunks - 1) / numChunks;
  std::function<void(size_t)> chunkFn = [&](size_t c) {
    size_t b = c * chunk, e = std::min(n, b + chunk);
    if (b < e) fn(b, e);
  };
  if (!WorkerPool::instance().tryRun(numChunks, chunkFn)) fn(0, n);
}

}  // namespace qnn::cpu
