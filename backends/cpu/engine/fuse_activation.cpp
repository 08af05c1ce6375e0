// Producer -> Relu / ReluMinMax pairs where the activation is the only reader of a float native
// tensor become one step: the producer's kernel clamps as it writes, straight into the
// activation's output (its own output tensor is then never materialized). One memory pass and
// one dispatch fewer per pair. A fused Relu propagates NaN (the node alone maps NaN to 0).
#include <limits>

#include "engine/fusion_pass.h"

namespace qnn::cpu {
namespace {

bool isPlainActivation(const NodeInfo& node) {
  return !isPackageOp(node) && (node.typeName == "Relu" || node.typeName == "ReluMinMax");
}

}  // namespace

bool foldActivation(Step& step, const NodeInfo& activation, const TensorView& activationOut) {
  const bool minMax = activation.typeName == "ReluMinMax";
  const float lo = minMax ? activation.params.f32("min_value", 0.f) : 0.f;
  const float hi = minMax ? activation.params.f32("max_value", 0.f) : std::numeric_limits<float>::infinity();
  if (!step.kernel->fuseOutputClamp(lo, hi)) return false;
  step.fusedActivation = &activation;
  step.clampLo = lo, step.clampHi = hi;
  step.outIds = activation.outputIds;
  step.outViews[0] = activationOut;
  return true;
}

size_t fuseActivations(StepGraph& graph) {
  return graph.foldPairs([&](size_t i, size_t j) {
    Step& producer = *graph.steps[i];
    Step& act = *graph.steps[j];
    if (producer.floatEmulation || producer.fusedActivation || act.floatEmulation || act.inIds.size() != 1 ||
        act.outIds.size() != 1 || !isPlainActivation(*act.node))
      return StepGraph::Fold::kNone;
    const TensorInfo* mid = graph.ir.findTensor(producer.outIds[0]);
    const TensorInfo* out = graph.ir.findTensor(act.outIds[0]);
    if (!out || out->dtype != DType::kFloat32 || out->dims != mid->dims ||
        !foldActivation(producer, *act.node, act.outViews[0]))
      return StepGraph::Fold::kNone;
    return StepGraph::Fold::kReaderIntoProducer;
  });
}

}  // namespace qnn::cpu
