// ElementWiseMultiply(x, c) -> Softmax / LogSoftmax pairs, c a static float scalar and the
// softmax the product's only reader (attention's scores scaled by 1/sqrt(d)): the softmax reads x
// itself with beta * c (Epilogue::inputScale), one pass over the scores fewer.
#include <cstring>

#include "cpu/engine/fusion_pass.h"

namespace qnn::cpu {

size_t foldScaleIntoSoftmax(StepGraph& graph) {
  const GraphIR& ir = graph.ir;
  return graph.foldPairs([&](size_t i, size_t j) {
    Step& mul = *graph.steps[i];
    Step& softmax = *graph.steps[j];
    if (mul.floatEmulation || mul.node->typeName != "ElementWiseMultiply" || isPackageOp(*mul.node) ||
        !mul.folded.empty() || mul.inIds.size() != 2)
      return StepGraph::Fold::kNone;
    const TensorInfo* out = ir.findTensor(mul.outIds.empty() ? 0 : mul.outIds[0]);
    size_t scalarAt = 2;
    for (size_t k = 0; k < 2; ++k) {
      const TensorInfo* t = ir.findTensor(mul.inIds[k]);
      const TensorInfo* other = ir.findTensor(mul.inIds[1 - k]);
      if (t && other && out && t->kind == TensorKind::kStatic && t->dtype == DType::kFloat32 &&
          t->numElements() == 1 && t->staticData.size() >= sizeof(float) && other->dtype == DType::kFloat32 &&
          other->dims == out->dims)
        scalarAt = k;
    }
    if (scalarAt == 2 || softmax.floatEmulation || isPackageOp(*softmax.node) ||
        (softmax.node->typeName != "Softmax" && softmax.node->typeName != "LogSoftmax") ||
        softmax.inIds.size() != 1 || !softmax.folded.empty())
      return StepGraph::Fold::kNone;
    float scale;
    std::memcpy(&scale, ir.findTensor(mul.inIds[scalarAt])->staticData.data(), sizeof(float));
    sdk::Epilogue e = softmax.epilogue;
    e.inputScale = scale;
    if (!softmax.kernel->supportsEpilogue(e)) return StepGraph::Fold::kNone;
    softmax.epilogue = e;
    softmax.folded.push_back(mul.node);
    softmax.foldedStatics.push_back(mul.inIds[scalarAt]);
    softmax.inIds[0] = mul.inIds[1 - scalarAt];
    softmax.inViews[0] = mul.inViews[1 - scalarAt];
    return StepGraph::Fold::kProducerIntoReader;
  });
}

}  // namespace qnn::cpu
