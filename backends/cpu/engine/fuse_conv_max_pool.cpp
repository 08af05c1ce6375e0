// Conv2d -> PoolMax2d pairs where the pool alone reads the convolution's float output (an image
// model's stem): the convolution's kernel pools the rows it computes while they are in cache
// (Epilogue::maxPool), so its output is never materialized. Kernels that cannot decline and the
// pool stays a step.
#include "cpu/engine/fusion_pass.h"

namespace qnn::cpu {

size_t fuseConvMaxPool(StepGraph& graph) {
  return graph.foldPairs([&](size_t i, size_t j) {
    Step& conv = *graph.steps[i];
    Step& pool = *graph.steps[j];
    if (conv.floatEmulation || conv.node->typeName != "Conv2d" || isPackageOp(*conv.node) || spansNodes(conv) ||
        pool.floatEmulation || pool.node->typeName != "PoolMax2d" || isPackageOp(*pool.node) ||
        pool.inIds.size() != 1 || pool.outIds.size() != 1)
      return StepGraph::Fold::kNone;
    sdk::Epilogue e = conv.epilogue;
    e.maxPool = &pool.node->params;
    e.maxPoolOut = pool.outViews[0];
    if (!conv.kernel->supportsEpilogue(e)) return StepGraph::Fold::kNone;
    conv.epilogue = e;
    conv.folded.push_back(pool.node);
    conv.outIds = pool.outIds;
    conv.outViews = pool.outViews;
    return StepGraph::Fold::kReaderIntoProducer;
  });
}

}  // namespace qnn::cpu
