// FullyConnected / MatMul -> Gelu pairs where the Gelu is the product's only reader (a
// transformer's FFN up projection): the product applies the Gelu to each block of its output
// while the block is in cache (Epilogue::gelu), straight into the Gelu's output. One pass over the
// FFN's widest tensor and one dispatch fewer; the values are the Gelu op's (the same vector code).
#include "cpu/engine/fusion_pass.h"

namespace qnn::cpu {

size_t fuseGelus(StepGraph& graph) {
  return graph.foldPairs([&](size_t i, size_t j) {
    Step& producer = *graph.steps[i];
    Step& gelu = *graph.steps[j];
    if (producer.floatEmulation || !producer.folded.empty() || isPackageOp(*producer.node) ||
        (producer.node->typeName != "FullyConnected" && producer.node->typeName != "MatMul") ||
        gelu.floatEmulation || isPackageOp(*gelu.node) || gelu.node->typeName != "Gelu" || gelu.inIds.size() != 1 ||
        gelu.outIds.size() != 1 || !gelu.folded.empty())
      return StepGraph::Fold::kNone;
    const TensorInfo* mid = graph.ir.findTensor(producer.outIds[0]);
    const TensorInfo* out = graph.ir.findTensor(gelu.outIds[0]);
    if (!mid || !out || out->dtype != DType::kFloat32 || out->dims != mid->dims) return StepGraph::Fold::kNone;
    sdk::Epilogue e = producer.epilogue;
    e.gelu = true;
    return StepGraph::foldReaderAsEpilogue(producer, gelu, e);
  });
}

}  // namespace qnn::cpu
