#include "cpu/kernels/kernel_util.h"

#include <algorithm>
#include <exception>
#include <sstream>

#include "core/large_buffer.h"
#include "core/worker_pool.h"

namespace qnn::cpu {

namespace {
// The CPU backend's workers (QNN_CPU_NUM_THREADS, default all cores).
sdk::WorkerPool& workerPool() {
  static sdk::WorkerPool pool(sdk::WorkerPool::threadsFromEnv("QNN_CPU_NUM_THREADS"));
  return pool;
}
}  // namespace

void warmUpWorkers() { workerPool(); }

float* threadScratch(size_t floats) noexcept {
  thread_local sdk::LargeVector<float> buffer;
  if (buffer.size() < floats) {
    try {
      buffer.resize(floats);
    } catch (const std::exception&) {  // bad_alloc, or length_error past max_size
      return nullptr;
    }
  }
  return buffer.data();
}

size_t workerThreads() { return workerPool().threads(); }

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
  if (!workerPool().tryRun(numChunks, chunkFn)) fn(0, n);
}

// The shared op algorithms of sdk/ops/ run on these workers too.
static const bool kSharedOpsUseWorkers = (sdk::setParallelFor(parallelFor), true);

}  // namespace qnn::cpu
