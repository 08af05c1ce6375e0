// Small helpers shared by the CPU kernels: argument checks with uniform messages.
#pragma once

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/kernel_checks.h"
#include "cpu/kernels/kernel.h"

namespace qnn::cpu {

// Argument checks shared with every backend (sdk/core/kernel_checks.h).
using sdk::broadcastShapes;
using sdk::checkArity;
using sdk::checkDType;
using sdk::checkOutputDims;
using sdk::checkRank;
using sdk::dimsToString;
using sdk::readUintTensorParam;

// Runs fn(begin, end) over [0, n) split into chunks on the backend's worker
// threads; runs inline when n < grain. fn must be safe to call concurrently on
// disjoint ranges.
void parallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)>& fn);

using sdk::rowGrain;  // core/op_kernel.h

// Threads parallelFor spreads work over (the workers plus the caller).
size_t workerThreads();

// Starts the worker threads now, so the first execute does not pay for them.
void warmUpWorkers();

// The calling thread's working memory for one piece of an op's work (a block
// of tiles, a band of rows), at least `floats` floats, shared by every kernel
// the thread runs: the ops of a graph run one after another, so the next op's
// scratch is memory this core's cache holds already rather than the op's own
// buffer, cold since the last inference (writing a cold line first reads it
// from memory). Valid until the thread asks again; kernels ask once per piece
// and never across a call into another kernel (gemm::multiply keeps its own;
// gemm::multiplyStrassen asks for one). Null when
// it cannot grow: the kernel then uses memory it reserved at prepare. Never
// throws (it runs on the worker threads).
float* threadScratch(size_t floats) noexcept;

// A real value stored in an integer type the way the Cast op stores it: truncated toward zero,
// saturated to the type's range, NaN as 0 (a plain conversion of an out-of-range float is undefined).
template <typename T>
T saturatingCast(double v) {
  static_assert(std::is_integral_v<T>);
  if (std::isnan(v)) return T(0);
  const double t = std::trunc(v);
  if (t <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
  if (t >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(t);
}

}  // namespace qnn::cpu
