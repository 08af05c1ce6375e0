// The kernel interface shared by the backends' op implementations:
// init -> prepare -> execute -> free (see backends/cpu/kernels/kernel.h for the
// contract of each step). The CPU backend's kernels are OpKernels; the float
// algorithms of sdk/kernels/ are OpKernels that every backend can run (the HTP
// simulator wraps them with dequantize / quantize, see its real_valued.cpp).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/op_params.h"
#include "core/status.h"
#include "core/tensor_view.h"

namespace qnn::sdk {

// Work a kernel does beside its own op: the nodes next to it that the CPU engine's fusion passes
// (backends/cpu/engine/) fold into it, done in its loads and stores so the tensor between them is
// never written to memory. One value per kernel, set at prepare (OpKernel::setEpilogue).
struct Epilogue {
  struct Range {
    float lo, hi;
  };
  // Every value written to out[0] clamped into [lo, hi] (lo may be -inf, hi +inf), after
  // everything else: a folded Relu / ReluMinMax.
  std::optional<Range> clamp;
  // An input index: that input (given after the node's own inputs, shaped and laid out as
  // out[0]) is added to out[0] as it is written, after the bias: a folded ElementWiseAdd of a
  // residual connection.
  std::optional<size_t> residualInput;
  // The params of a PoolMax2d that alone reads out[0], run inside: execute's out[0] is then the
  // pool's output, described by maxPoolOut, and the kernel's own output is never materialized.
  const OpParams* maxPool = nullptr;
  TensorView maxPoolOut;
  // Compute as if every value of in[0] were first multiplied by this: a folded
  // ElementWiseMultiply by a static scalar.
  std::optional<float> inputScale;

  bool empty() const { return !clamp && !residualInput && !maxPool && !inputScale; }
};

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  virtual Status init(const OpParams& params) = 0;
  virtual Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) = 0;
  virtual Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) = 0;

  // The one query for fused work: whether this prepared kernel can do all of `epilogue` (below)
  // beside its own op. Called after prepare; the default takes only the empty epilogue.
  virtual bool supportsEpilogue(const Epilogue& epilogue) const { return epilogue.empty(); }
  // Sets the fused work, once, after prepare and before the first execute, to an epilogue
  // supportsEpilogue accepted. An error (out of memory) leaves the kernel as it was.
  virtual Status setEpilogue(const Epilogue& epilogue) {
    return epilogue.empty() ? Status::ok() : notSupported("this kernel takes no fused work");
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
