#include "cpu/engine/fusion_pass.h"

#include <map>

namespace qnn::cpu {

size_t StepGraph::foldPairs(const std::function<Fold(size_t producer, size_t reader)>& tryFold) {
  // Per tensor id: how many step inputs read it and the last step that does.
  std::map<uint32_t, size_t> readCount, lastReader;
  for (size_t j = 0; j < steps.size(); ++j)
    for (uint32_t id : steps[j]->inIds) ++readCount[id], lastReader[id] = j;
  removed_.assign(steps.size(), false);
  for (size_t i = 0; i < steps.size(); ++i) {
    if (removed_[i] || steps[i]->outIds.size() != 1) continue;
    const uint32_t mid = steps[i]->outIds[0];
    const TensorInfo* t = ir.findTensor(mid);
    if (!t || t->kind != TensorKind::kNative || t->dtype != DType::kFloat32) continue;
    const auto count = readCount.find(mid);
    if (count == readCount.end() || count->second != 1) continue;
    const size_t j = lastReader.at(mid);
    if (j <= i || removed_[j]) continue;
    switch (tryFold(i, j)) {
      case Fold::kNone: break;
      case Fold::kReaderIntoProducer: removed_[j] = true; break;
      case Fold::kProducerIntoReader: removed_[i] = true; break;
    }
  }
  Steps kept;
  for (size_t i = 0; i < steps.size(); ++i)
    if (!removed_[i]) kept.push_back(std::move(steps[i]));
  const size_t dropped = steps.size() - kept.size();
  steps = std::move(kept);
  removed_.clear();
  return dropped;
}

const std::vector<FusionPass>& fusionPasses() {
  static const std::vector<FusionPass> passes = {
      {"activation", fuseActivations},
      {"gelu", fuseGelus},
      {"transpose-matmul", foldTransposesIntoMatMuls},
      {"pointwise-depthwise", fusePointwiseDepthwise},
      {"conv-maxpool", fuseConvMaxPool},
      {"softmax-scale", foldScaleIntoSoftmax},
      {"residual-add", fuseResidualAdds},
      {"row-pitch", padRowPitch},
  };
  return passes;
}

}  // namespace qnn::cpu
