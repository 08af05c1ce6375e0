// The CPU engine's fusion passes: each folds node pairs of a prepared graph's steps into single
// steps (one file per pass, fuse_*.cpp / fold_*.cpp), so the intermediate tensor between them is
// never written to memory and read back. Passes run in the order of fusionPasses(), after every
// node has its own prepared step and before buffers are planned; each folds a pair only when the
// kernel that takes the extra work accepts it, and otherwise leaves both steps as they are.
#pragma once

#include <functional>
#include <vector>

#include "cpu/engine/step.h"

namespace qnn::cpu {

// The steps a pass works on, with the queries passes share.
class StepGraph {
 public:
  StepGraph(const GraphIR& ir, const StepBuilder& builder, Steps& steps) : ir(ir), builder(builder), steps(steps) {}

  // What a pass did with a pair (producer, reader).
  enum class Fold {
    kNone,
    kReaderIntoProducer,  // the reader's step is gone, its work done by the producer's
    kProducerIntoReader,  // the producer's step is gone, its work done by the reader's
  };
  // Offers the pass every pair of a step with one output and the sole later reader of that
  // output, when it is a float native tensor nothing else reads (a pair whose intermediate can
  // stay unmaterialized), in step order, skipping steps already folded away; then removes those
  // steps, keeping the order. Returns how many it removed.
  size_t foldPairs(const std::function<Fold(size_t producer, size_t reader)>& tryFold);
  // Within foldPairs: whether step k was folded away.
  bool removed(size_t k) const { return removed_[k]; }
  // An element-wise reader folded into its producer as the producer's epilogue `e` (an activation
  // written with the product's stores, into the reader's output), where the producer's kernel takes
  // it; kNone otherwise.
  static Fold foldReaderAsEpilogue(Step& producer, Step& reader, const sdk::Epilogue& e) {
    if (!producer.kernel->supportsEpilogue(e)) return Fold::kNone;
    producer.epilogue = e;
    producer.folded.push_back(reader.node);
    producer.outIds = reader.outIds;
    producer.outViews[0] = reader.outViews[0];
    return Fold::kReaderIntoProducer;
  }

  const GraphIR& ir;
  const StepBuilder& builder;
  Steps& steps;

 private:
  std::vector<bool> removed_;
};

// One pass: folds what it can in `graph`; returns the number of nodes it folded into other steps.
struct FusionPass {
  const char* name;
  size_t (*run)(StepGraph& graph);
};

// The passes in the order they run: activations first (the later passes read the clamps they
// leave; a Transpose after a product's activation then reads the clamped values), the residual
// add after them (it takes the Add's folded activation with it), the row pitches last (they read the
// residuals the adds leave).
const std::vector<FusionPass>& fusionPasses();

size_t fuseActivations(StepGraph& graph);         // fuse_activation.cpp
size_t fuseGelus(StepGraph& graph);               // fuse_gelu.cpp
size_t fusePointwiseDepthwise(StepGraph& graph);  // fuse_pointwise_depthwise.cpp
size_t fuseConvMaxPool(StepGraph& graph);         // fuse_conv_max_pool.cpp
size_t foldTransposesIntoMatMuls(StepGraph& graph);  // fold_transpose_matmul.cpp
size_t foldScaleIntoSoftmax(StepGraph& graph);    // fold_softmax_scale.cpp
size_t fuseResidualAdds(StepGraph& graph);        // fuse_residual_add.cpp
size_t padRowPitch(StepGraph& graph);             // pad_row_pitch.cpp (folds nothing: returns 0)

}  // namespace qnn::cpu
