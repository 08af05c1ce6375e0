// Small helpers shared by the CPU kernels: argument checks with uniform messages.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kernels/kernel.h"

namespace qnn::cpu {

std::string dimsToString(const std::vector<uint32_t>& dims);

// Checks the number of inputs (min..max) and outputs.
Status checkArity(const char* op, const std::vector<TensorView>& inputs, size_t minIn, size_t maxIn,
                  const std::vector<TensorView>& outputs, size_t numOut);
// Fails with a message naming op, tensor role and both shapes when they differ.
Status checkOutputDims(const char* op, const TensorView& out, const std::vector<uint32_t>& expected);
Status checkRank(const char* op, const char* role, const TensorView& t, size_t rank);
Status checkDType(const char* op, const char* role, const TensorView& t,
                  std::initializer_list<DType> allowed);

// Numpy-style broadcasting of two shapes (right-aligned). Fails if incompatible.
Status broadcastShapes(const char* op, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                       std::vector<uint32_t>* out);

// Runs fn(begin, end) over [0, n) split into chunks on the backend's worker
// threads; runs inline when n < grain. fn must be safe to call concurrently on
// disjoint ranges.
void parallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)>& fn);

// Grain (rows per task) that gives each task at least ~32k multiply-adds, so
// small layers run inline instead of waking the workers.
inline size_t rowGrain(size_t workPerRow) {
  constexpr size_t kMinTaskWork = 32768;
  return workPerRow >= kMinTaskWork ? 1 : kMinTaskWork / (workPerRow ? workPerRow : 1);
}

// Starts the worker threads now, so the first execute does not pay for them.
void warmUpWorkers();

}  // namespace qnn::cpu
