// FullyConnected / 1x1 Conv2d -> ElementWiseAdd pairs where the Add alone reads the product's
// float output and adds a float tensor of the same dims that is ready before the product runs (a
// residual connection: a transformer's output projections, MobileNetV2's projections): the
// product's store adds it (and the Add's folded activation clamps), one pass over the output
// fewer. The Add's result is written at the product's place; nothing reads it before the Add's.
#include <map>

#include "cpu/engine/fusion_pass.h"

namespace qnn::cpu {

size_t fuseResidualAdds(StepGraph& graph) {
  const GraphIR& ir = graph.ir;
  std::map<uint32_t, size_t> producer;
  for (size_t n = 0; n < graph.steps.size(); ++n)
    for (uint32_t id : graph.steps[n]->outIds) producer[id] = n;
  return graph.foldPairs([&](size_t i, size_t j) {
    Step& mm = *graph.steps[i];
    Step& add = *graph.steps[j];
    const std::string& type = mm.node->typeName;
    if (mm.floatEmulation || isPackageOp(*mm.node) || (type != "FullyConnected" && type != "Conv2d") ||
        !mm.folded.empty() || add.floatEmulation || isPackageOp(*add.node) ||
        add.node->typeName != "ElementWiseAdd" || add.inIds.size() != 2 || add.outIds.size() != 1 ||
        add.inIds[0] == add.inIds[1])
      return StepGraph::Fold::kNone;
    const size_t other = add.inIds[0] == mm.outIds[0] ? 1 : 0;
    const TensorInfo* mid = ir.findTensor(mm.outIds[0]);
    const TensorInfo* res = ir.findTensor(add.inIds[other]);
    const TensorInfo* out = ir.findTensor(add.outIds[0]);
    if (!mid || !res || !out || res->dtype != DType::kFloat32 || out->dtype != DType::kFloat32 ||
        res->dims != mid->dims || out->dims != mid->dims)
      return StepGraph::Fold::kNone;
    const auto made = producer.find(add.inIds[other]);  // graph inputs and static tensors are ready
    if (made != producer.end() && (made->second >= i || graph.removed(made->second))) return StepGraph::Fold::kNone;
    sdk::Epilogue e = mm.epilogue;
    e.residualInput = mm.inIds.size();
    e.clamp = add.epilogue.clamp;  // the Add's folded activation
    if (!mm.kernel->supportsEpilogue(e)) return StepGraph::Fold::kNone;
    mm.epilogue = e;
    mm.folded.push_back(add.node);
    mm.folded.insert(mm.folded.end(), add.folded.begin(), add.folded.end());
    mm.inIds.push_back(add.inIds[other]);
    mm.inViews.push_back(add.inViews[other]);
    mm.inputDequantizedOnce.assign(mm.inIds.size(), false);
    mm.outIds = add.outIds;
    mm.outViews = add.outViews;
    return StepGraph::Fold::kReaderIntoProducer;
  });
}

}  // namespace qnn::cpu
