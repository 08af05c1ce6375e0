#include "core/worker_pool.h"

#include <algorithm>
#include <cstdlib>

namespace qnn::sdk {

namespace {
// Set on worker threads: a kernel that asks for parallelism from inside a job
// runs inline rather than waiting on itself.
thread_local const WorkerPool* tlsWorkerOf = nullptr;
// Spins a worker does after a job before sleeping: consecutive ops of a graph
// start their jobs microseconds apart, and a futex wake costs more than that.
constexpr int kSpinsBeforeSleep = 2000;
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

unsigned WorkerPool::threadsFromEnv(const char* envName) {
  unsigned n = std::thread::hardware_concurrency();
  if (const char* env = envName ? std::getenv(envName) : nullptr) {
    const int v = std::atoi(env);
    if (v > 0) n = unsigned(v);
  }
  return std::clamp(n, 1u, 64u);
}

WorkerPool::WorkerPool(unsigned threads) {
  threads = std::clamp(threads, 1u, 64u);
  for (unsigned i = 1; i < threads; ++i) {
    try {
      workers_.emplace_back([this] { workerLoop(); });
    } catch (const std::system_error&) {
      break;  // fewer workers; jobs still complete
    }
  }
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lk(mutex_);
    stop_ = true;
    generation_.fetch_add(1);
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

bool WorkerPool::tryRun(size_t numChunks, const std::function<void(size_t)>& chunkFn) {
  if (workers_.empty() || tlsWorkerOf == this || numChunks == 0) return false;
  std::unique_lock<std::mutex> jobLock(jobMutex_, std::try_to_lock);
  if (!jobLock.owns_lock()) return false;
  {
    std::lock_guard<std::mutex> lk(mutex_);
    job_ = &chunkFn;
    numChunks_ = numChunks;
    nextChunk_.store(0);
    pending_ = workers_.size();
    generation_.fetch_add(1);
  }
  cv_.notify_all();
  drain();
  std::unique_lock<std::mutex> lk(mutex_);
  doneCv_.wait(lk, [&] { return pending_ == 0; });
  job_ = nullptr;
  return true;
}

void WorkerPool::drain() {
  for (;;) {
    const size_t c = nextChunk_.fetch_add(1);
    if (c >= numChunks_) return;
    (*job_)(c);
  }
}

void WorkerPool::workerLoop() {
  tlsWorkerOf = this;
  uint64_t seen = 0;
  for (;;) {
    for (int spin = 0; spin < kSpinsBeforeSleep && generation_.load(std::memory_order_acquire) == seen; ++spin)
      cpuRelax();
    {
      std::unique_lock<std::mutex> lk(mutex_);
      cv_.wait(lk, [&] { return stop_ || generation_.load() != seen; });
      if (stop_) return;
      seen = generation_.load();
    }
    drain();
    std::lock_guard<std::mutex> lk(mutex_);
    if (--pending_ == 0) doneCv_.notify_one();
  }
}

}  // namespace qnn::sdk
