// The kernel interface shared by the backends' op implementations:
// init -> [setNumericMode] -> prepare -> execute -> free (see backends/cpu/kernels/kernel.h
// for the contract of each step). The CPU backend's kernels, the HTP simulator's
// (backends/htp_sim/kernels/htp_kernel.h) and the float algorithms of sdk/kernels/
// (which every backend runs; the HTP simulator wraps them with dequantize / quantize,
// see its real_valued.cpp) are all OpKernels; each backend keeps its own table of them.
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

// Work a kernel does beside its own op: the nodes next to it that a backend's fusion passes
// (backends/cpu/engine/, backends/htp_sim/htp_passes.cpp) fold into it, done in its loads and
// stores so the tensor between them is never written to memory. One value per kernel, set once
// (OpKernel::setEpilogue).
struct Epilogue {
  struct Range {
    float lo, hi;
  };
  // Every value written to out[0] clamped into [lo, hi] (lo may be -inf, hi +inf), after
  // everything else: a folded Relu / ReluMinMax. The bounds are real values; a fixed-point
  // out[0] is clamped to the bounds quantized into its encoding (round to nearest, saturated to
  // the dtype), which equals clamping the real result before quantizing it.
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
  // Every value written to a float out[0] is Gelu(value), 0.5 x (1 + erf(x / sqrt 2)), as the Gelu
  // op computes it: a folded Gelu. Kernels take it alone (with neither a clamp nor a residual,
  // whose order against it the fold does not record).
  bool gelu = false;
  // Operands addressed through a folded Transpose, each once: an input (index) read in place from
  // the Transpose's input, or out[0] (kOut) written in place into the Transpose's output. `strides`
  // gives, per dim of the operand as the kernel was prepared, its step in elements in that tensor
  // (a permutation of the tensor's row-major strides). Kernels take them where their loops can
  // address the operand so (MatMul: matrices with rows or columns contiguous). The same form gives
  // an operand rows a padded pitch apart, agreed between a producer (kOut) and its one reader (0)
  // (the CPU's FullyConnected: backends/cpu/engine/pad_row_pitch.cpp).
  static constexpr size_t kOut = static_cast<size_t>(-1);
  struct StridedOperand {
    size_t index;
    std::vector<size_t> strides;
  };
  std::vector<StridedOperand> strided;

  bool empty() const { return !clamp && !residualInput && !maxPool && !inputScale && !gelu && strided.empty(); }
  // An epilogue of a clamp alone.
  static Epilogue clampTo(float lo, float hi) {
    Epilogue e;
    e.clamp = Range{lo, hi};
    return e;
  }
  // Nothing but (possibly) a clamp.
  bool clampOnly() const { return !residualInput && !maxPool && !inputScale && !gelu && strided.empty(); }
};

// How a graph computes its float tensors: one value per graph, given to every kernel of it
// once, after init and before prepare (OpKernel::setNumericMode). Kernels without float
// arithmetic ignore it. A kernel never told keeps its backend's default (the CPU's: fp32;
// the HTP simulator's: fp16).
struct NumericMode {
  // Float tensors hold fp16 values (the HTP's QNN_PRECISION_FLOAT16): float results are rounded
  // to half at every store. Else fp32, values unrounded.
  bool fp16Floats = false;
  // With fp16Floats (the HTP's FP16_CLAMP_OVERFLOW): a finite result too large for half is
  // stored as +-65504 instead of +-inf (kernels whose results are computed, not copied).
  bool saturateFp16Overflow = false;
};

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  virtual Status init(const OpParams& params) = 0;
  virtual Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) = 0;
  virtual Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) = 0;

  // Once, between init and prepare: the graph's numeric mode. The default ignores it.
  virtual void setNumericMode(const NumericMode& mode) { (void)mode; }

  // The one query for fused work: whether this kernel can do all of `epilogue` beside its own
  // op; the default takes only the empty epilogue. Then setEpilogue sets the fused work, once,
  // to an epilogue supportsEpilogue accepted; an error (out of memory) leaves the kernel as it
  // was. When both are called is each engine's fixed point, which its kernels follow:
  //  * the CPU engine: after prepare, before the first execute (supportsEpilogue answers for the
  //    prepared tensors; the fusion passes run on prepared kernels);
  //  * the HTP simulator: between init (and setNumericMode) and prepare, and the kernel applies
  //    the clamp at prepare, because its fixed-point kernels fold the clamp into what prepare
  //    builds (the saturation range of the requantization, the 8-bit ops' lookup tables). Its
  //    fusion pass decides from the graph alone and records the clamp in the node's plan (what a
  //    context binary stores); supportsEpilogue answers before the tensors are known, and a
  //    kernel that cannot do the clamp for the tensors it is then prepared with fails prepare.
  virtual bool supportsEpilogue(const Epilogue& epilogue) const { return epilogue.empty(); }
  virtual Status setEpilogue(const Epilogue& epilogue) {
    return epilogue.empty() ? Status::ok() : notSupported("this kernel takes no fused work");
  }

  // After prepare: whether execute would only copy in[0]'s bytes into out[0] unchanged (a
  // Reshape with equal encodings), so an engine may let out[0] read in[0]'s buffer instead and
  // skip the kernel (the HTP simulator does).
  virtual bool outputIsInputCopy() const { return false; }
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
