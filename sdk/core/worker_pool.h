// A fixed set of worker threads that run one data-parallel job at a time; the
// calling thread takes part in every job. Each backend owns its own pool (a
// function-local static in the backend), so backends loaded into one process
// do not share or fight over workers.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace qnn::sdk {

class WorkerPool {
 public:
  // Starts threads - 1 workers (the caller is the last one). The destructor
  // stops and joins them; destroy the pool only when no job runs.
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Threads that take part in a job (workers + caller).
  unsigned threads() const { return unsigned(workers_.size()) + 1; }

  // Runs chunkFn(c) for every c in [0, numChunks) on the workers and the caller
  // and returns when all are done. Returns false without running anything when
  // the pool cannot take the job: no workers, another job is running (another
  // graph executing concurrently), or the caller is itself a worker; the caller
  // then runs the chunks itself. When a chunk throws (on any thread), the
  // chunks not yet started are skipped and, once every thread has left the
  // job, the first exception is rethrown here on the caller.
  bool tryRun(size_t numChunks, const std::function<void(size_t)>& chunkFn);

  // Thread count from an environment variable (e.g. QNN_CPU_NUM_THREADS) if set
  // to a positive number, else hardware_concurrency(); clamped to 1..64.
  static unsigned threadsFromEnv(const char* envName);

 private:
  void drain(unsigned participant);
  void workerLoop(unsigned participant);

  std::vector<std::thread> workers_;
  std::mutex jobMutex_;  // one job at a time
  std::mutex mutex_;     // pairs with cv_ / doneCv_ for parking and waking
  std::condition_variable cv_, doneCv_;
  // A job is published in state_: its generation in the high 32 bits, a
  // closed flag and the count of workers that joined it below. Workers spin
  // for a new generation a while after each job and only then park on cv_
  // (counted in sleepers_, so a job start pays for a wake-up only when someone
  // is parked). A worker joins by incrementing the count while the job is
  // open; the caller closes the job once it has no chunks left to take, then
  // waits only for the workers that joined (done_): a worker that wakes late
  // finds the job closed and costs the caller nothing.
  //
  // The chunks are split into one contiguous range per participant (the
  // caller is 0, worker i is i + 1); each takes its own range from the front,
  // then helps with the others'. Chunk c of consecutive jobs then mostly runs
  // on the same thread, so an op reads the rows the previous op wrote in the
  // same core's cache instead of another core's (a shared counter handed them
  // out at random: ResNet-18's layers lost 0.1 ms each to it at 2 threads).
  struct alignas(64) Range {
    std::atomic<size_t> next{0};
    size_t end = 0;
  };
  const std::function<void(size_t)>* job_ = nullptr;
  std::unique_ptr<Range[]> ranges_;  // threads() of them
  std::atomic<uint64_t> state_{0};
  std::atomic<uint32_t> done_{0};
  std::atomic<unsigned> sleepers_{0};
  bool stop_ = false;  // guarded by mutex_
  std::atomic<bool> failed_{false};  // a chunk of the current job threw
  std::mutex errorMutex_;
  std::exception_ptr error_;  // its exception (guarded by errorMutex_; read by tryRun after the job)
};

}  // namespace qnn::sdk
