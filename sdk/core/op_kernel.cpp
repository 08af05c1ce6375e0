#include "core/op_kernel.h"

#include <atomic>

namespace qnn::sdk {
namespace {
std::atomic<ParallelForFn> gParallelFor{nullptr};
}  // namespace

void setParallelFor(ParallelForFn impl) { gParallelFor.store(impl); }

void parallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)>& fn) {
  if (n == 0) return;
  if (ParallelForFn impl = gParallelFor.load()) return impl(n, grain, fn);
  fn(0, n);
}

}  // namespace qnn::sdk
