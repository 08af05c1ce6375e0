// Producer -> Relu / ReluMinMax pairs where the activation is the only reader of a float native
// tensor become one step: the producer's kernel clamps as it writes (Epilogue::clamp), straight
// into the activation's output (its own output tensor is then never materialized). One memory
// pass and one dispatch fewer per pair. A fused Relu propagates NaN (the node alone maps NaN to 0).
#include <limits>

#include "cpu/engine/fusion_pass.h"

namespace qnn::cpu {

size_t fuseActivations(StepGraph& graph) {
  return graph.foldPairs([&](size_t i, size_t j) {
    Step& producer = *graph.steps[i];
    Step& act = *graph.steps[j];
    if (producer.floatEmulation || !producer.folded.empty() || act.floatEmulation || act.inIds.size() != 1 ||
        act.outIds.size() != 1 || !isPlainActivation(*act.node))
      return StepGraph::Fold::kNone;
    const TensorInfo* mid = graph.ir.findTensor(producer.outIds[0]);
    const TensorInfo* out = graph.ir.findTensor(act.outIds[0]);
    if (!out || out->dtype != DType::kFloat32 || out->dims != mid->dims) return StepGraph::Fold::kNone;
    const bool minMax = act.node->typeName == "ReluMinMax";
    sdk::Epilogue e = producer.epilogue;
    e.clamp = {minMax ? act.node->params.f32("min_value", 0.f) : 0.f,
               minMax ? act.node->params.f32("max_value", 0.f) : std::numeric_limits<float>::infinity()};
    return StepGraph::foldReaderAsEpilogue(producer, act, e);
  });
}

}  // namespace qnn::cpu
