#include "core/worker_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>

namespace qnn::sdk {

namespace {
// Set on worker threads: a kernel that asks for parallelism from inside a job
// runs inline rather than waiting on itself.
thread_local const WorkerPool* tlsWorkerOf = nullptr;
// How long a worker keeps spinning for the next job before it parks, and the
// caller for the workers' last chunks before it parks: consecutive ops of a
// graph (and back-to-back executes) start jobs microseconds apart, and a parked
// thread costs a futex wake-up (tens of microseconds under a hypervisor).
constexpr auto kWorkerSpin = std::chrono::microseconds(300);
constexpr auto kCallerSpin = std::chrono::microseconds(2000);
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
// Spins until done() or `budget` passed; true if done() held.
template <typename Pred>
bool spinUntil(Pred done, std::chrono::microseconds budget) {
  const auto start = std::chrono::steady_clock::now();
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
    cpuRelax();
    if ((i & 63) == 0 && std::chrono::steady_clock::now() - start > budget) return done();
  }
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

WorkerPool::WorkerPool(unsigned threads) : ranges_(new Range[std::clamp(threads, 1u, 64u)]) {
  threads = std::clamp(threads, 1u, 64u);
  for (unsigned i = 1; i < threads; ++i) {
    try {
      workers_.emplace_back([this, i] { workerLoop(i); });
    } catch (const std::system_error&) {
      break;  // fewer workers; jobs still complete
    }
  }
}

namespace {
constexpr uint64_t kClosed = uint64_t(1) << 31;
constexpr uint64_t kJoinedMask = kClosed - 1;
inline uint32_t generationOf(uint64_t state) { return uint32_t(state >> 32); }
}  // namespace

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lk(mutex_);
    stop_ = true;
    state_.fetch_add(uint64_t(1) << 32);  // wakes the spinners; they see stop_
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

bool WorkerPool::tryRun(size_t numChunks, const std::function<void(size_t)>& chunkFn) {
  if (workers_.empty() || tlsWorkerOf == this || numChunks == 0) return false;
  std::unique_lock<std::mutex> jobLock(jobMutex_, std::try_to_lock);
  if (!jobLock.owns_lock()) return false;
  job_ = &chunkFn;
  const size_t parts = threads();
  for (size_t p = 0; p < parts; ++p) {
    ranges_[p].next.store(numChunks * p / parts, std::memory_order_relaxed);
    ranges_[p].end = numChunks * (p + 1) / parts;
  }
  done_.store(0);
  const uint64_t generation = uint64_t(generationOf(state_.load()) + 1);
  state_.store(generation << 32);  // publishes the job, open, nobody joined (seq_cst: see workerLoop)
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lk(mutex_);
    cv_.notify_all();
  }
  drain(0);  // never throws: a chunk's exception is kept in error_
  // No chunk is left to take: close the job to late joiners, then wait for the ones that joined.
  const uint32_t joined = uint32_t(state_.fetch_or(kClosed) & kJoinedMask);
  if (!spinUntil([&] { return done_.load(std::memory_order_acquire) == joined; }, kCallerSpin)) {
    std::unique_lock<std::mutex> lk(mutex_);
    doneCv_.wait(lk, [&] { return done_.load() == joined; });
  }
  job_ = nullptr;
  if (failed_.load(std::memory_order_acquire)) {
    // Every participant has left the job: the exception goes to the caller, as if it had run the chunks.
    std::exception_ptr error = std::move(error_);
    error_ = nullptr;
    failed_.store(false, std::memory_order_relaxed);
    jobLock.unlock();
    std::rethrow_exception(error);
  }
  return true;
}

void WorkerPool::drain(unsigned participant) {
  const unsigned parts = threads();
  for (unsigned k = 0; k < parts; ++k) {  // own range first, then the others'
    Range& r = ranges_[(participant + k) % parts];
    for (size_t c = r.next.fetch_add(1); c < r.end; c = r.next.fetch_add(1)) {
      if (failed_.load(std::memory_order_relaxed)) continue;  // the job failed: the rest are only taken
      try {
        (*job_)(c);
      } catch (...) {
        // An exception must not end a worker thread (std::terminate) nor leave the caller while workers
        // still run the job: the first one is kept and rethrown by tryRun once all have left.
        std::lock_guard<std::mutex> lk(errorMutex_);
        if (!failed_.load(std::memory_order_relaxed)) {
          error_ = std::current_exception();
          failed_.store(true, std::memory_order_release);
        }
      }
    }
  }
}

void WorkerPool::workerLoop(unsigned participant) {
  tlsWorkerOf = this;
  uint32_t seen = 0;
  for (;;) {
    if (!spinUntil([&] { return generationOf(state_.load(std::memory_order_acquire)) != seen; }, kWorkerSpin)) {
      std::unique_lock<std::mutex> lk(mutex_);
      // Counted before the check under the lock: tryRun publishes the job
      // before it reads sleepers_, so either it sees this sleeper and
      // notifies, or the predicate below sees its job.
      sleepers_.fetch_add(1);
      cv_.wait(lk, [&] { return stop_ || generationOf(state_.load()) != seen; });
      sleepers_.fetch_sub(1);
    }
    {
      std::lock_guard<std::mutex> lk(mutex_);
      if (stop_) return;
    }
    uint64_t s = state_.load();
    seen = generationOf(s);
    // Join while the job is open; a closed one has no chunks left for us.
    bool joined = false;
    while (generationOf(s) == seen && !(s & kClosed)) {
      if (state_.compare_exchange_weak(s, s + 1)) {
        joined = true;
        break;
      }
    }
    if (!joined) continue;
    drain(participant);
    done_.fetch_add(1);
    std::lock_guard<std::mutex> lk(mutex_);
    doneCv_.notify_one();
  }
}

}  // namespace qnn::sdk
