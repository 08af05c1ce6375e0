// The kernel interface shared by the backends' op implementations:
// init -> prepare -> execute -> free (see backends/cpu/kernels/kernel.h for the
// contract of each step). The CPU backend's kernels are OpKernels; the float
// algorithms of sdk/kernels/ are OpKernels that every backend can run (the HTP
// simulator wraps them with dequantize / quantize, see its real_valued.cpp).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/op_params.h"
#include "core/status.h"
#include "core/tensor_view.h"

namespace qnn::sdk {

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  virtual Status init(const OpParams& params) = 0;
  virtual Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) = 0;
  virtual Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) = 0;

  // Asks the kernel to clamp every value it writes to out[0] into [lo, hi]
  // from now on (lo may be -inf, hi +inf). The CPU engine folds a Relu or
  // ReluMinMax that alone reads out[0] into its producer this way, so the
  // activation costs no pass of its own over memory. Called after prepare;
  // false (the default) when the kernel cannot, and the activation stays a node.
  virtual bool fuseOutputClamp(float lo, float hi) {
    (void)lo, (void)hi;
    return false;
  }
  // Asks the kernel to also run the PoolMax2d (params `pool`, output `poolOut`) that alone reads
  // its out[0], writing the pool's output instead of its own, which is then never materialized.
  // Called after prepare (and after fuseOutputClamp); false (the default) when it cannot.
  virtual bool fuseFollowingMaxPool(const OpParams& pool, const TensorView& poolOut) {
    (void)pool, (void)poolOut;
    return false;
  }
  // Asks the kernel to add, from now on, a tensor shaped and laid out as out[0] to out[0] as it
  // writes it (after the bias, before a clamp from fuseOutputClamp): the CPU engine folds an
  // ElementWiseAdd of a residual connection into the product that feeds it. Execute then gets
  // that tensor as input `inputIndex` (the node's own inputs come first, unchanged). Called after
  // prepare and before fuseOutputClamp; false (the default) when the kernel cannot.
  virtual bool fuseResidualAdd(size_t inputIndex) {
    (void)inputIndex;
    return false;
  }
  // Asks the kernel to compute from now on as if every value of in[0] were first multiplied by
  // `scale` (the CPU engine folds an ElementWiseMultiply by a static scalar that alone feeds a
  // Softmax into its beta). Called after prepare; false (the default) when it cannot.
  virtual bool foldInputScale(float scale) {
    (void)scale;
    return false;
  }
};

using OpKernelFactory = std::unique_ptr<OpKernel> (*)(const std::string& opType);

// Runs fn(begin, end) over [0, n) in chunks of about `grain`, on the workers a
// backend installed with setParallelFor (each backend library has its own copy
// of this hook); without one, inline. fn must be safe on disjoint ranges.
using ParallelForFn = void (*)(size_t n, size_t grain, const std::function<void(size_t, size_t)>& fn);
void setParallelFor(ParallelForFn impl);
void parallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)>& fn);

// Grain (rows per task) that gives each task at least ~32k multiply-adds, so
// small layers run inline instead of waking the workers.
inline size_t rowGrain(size_t workPerRow) {
  constexpr size_t kMinTaskWork = 32768;
  return workPerRow >= kMinTaskWork ? 1 : kMinTaskWork / (workPerRow ? workPerRow : 1);
}

// Elements per parallel task of the cheap element-wise loops (a few ns each):
// below it a loop runs inline rather than waking workers.
constexpr size_t kElementwiseGrain = 16384;

}  // namespace qnn::sdk
