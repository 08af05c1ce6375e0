// 1x1 Conv2d -> DepthWiseConv2d pairs where the depthwise conv is the only reader of the 1x1
// conv's output become one step computing the depthwise output in row bands
// (kernels/pointwise_depthwise.h), at the 1x1 conv's place: the depthwise conv's other inputs are
// static, so they are ready there, and its output is read only after its own former place.
#include "cpu/engine/fusion_pass.h"
#include "cpu/kernels/pointwise_depthwise.h"

namespace qnn::cpu {
namespace {

// Whether every input of `s` after the first is static (filter, bias).
bool staticTail(const GraphIR& ir, const Step& s) {
  for (size_t k = 1; k < s.inIds.size(); ++k)
    if (const TensorInfo* t = ir.findTensor(s.inIds[k]); !t || t->kind != TensorKind::kStatic) return false;
  return true;
}

const gemm::Clamp* clampOf(const Step& s, gemm::Clamp* c) {
  if (!s.epilogue.clamp) return nullptr;
  *c = {s.epilogue.clamp->lo, s.epilogue.clamp->hi};
  return c;
}

}  // namespace

size_t fusePointwiseDepthwise(StepGraph& graph) {
  return graph.foldPairs([&](size_t i, size_t j) {
    Step& pw = *graph.steps[i];
    Step& dw = *graph.steps[j];
    if (pw.floatEmulation || pw.node->typeName != "Conv2d" || isPackageOp(*pw.node) || spansNodes(pw) ||
        !staticTail(graph.ir, pw) || dw.floatEmulation || dw.node->typeName != "DepthWiseConv2d" ||
        isPackageOp(*dw.node) || dw.inIds.empty() || dw.inIds[0] != pw.outIds[0] || dw.outIds.size() != 1 ||
        !staticTail(graph.ir, dw))
      return StepGraph::Fold::kNone;
    gemm::Clamp c1, c2;
    auto kernel = makePointwiseDepthwise(pw.node->params, pw.inViews, clampOf(pw, &c1), dw.node->params, dw.inViews,
                                         dw.outViews[0], clampOf(dw, &c2));
    if (!kernel) return StepGraph::Fold::kNone;
    auto fused = std::make_unique<Step>();
    fused->node = pw.node;
    fused->folded = pw.folded;  // the clamps went to the kernel; its epilogue stays empty
    fused->folded.push_back(dw.node);
    fused->folded.insert(fused->folded.end(), dw.folded.begin(), dw.folded.end());
    fused->kernel = std::move(kernel);
    fused->inIds = pw.inIds;
    fused->inViews = pw.inViews;
    fused->inIds.insert(fused->inIds.end(), dw.inIds.begin() + 1, dw.inIds.end());
    fused->inViews.insert(fused->inViews.end(), dw.inViews.begin() + 1, dw.inViews.end());
    fused->outIds = dw.outIds;
    fused->outViews = dw.outViews;
    fused->inputDequantizedOnce.assign(fused->inIds.size(), false);
    graph.steps[i] = std::move(fused);
    return StepGraph::Fold::kReaderIntoProducer;
  });
}

}  // namespace qnn::cpu
