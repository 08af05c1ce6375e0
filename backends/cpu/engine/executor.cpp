#include "cpu/engine/executor.h"

#include <chrono>

#include "cpu/quant_emulation.h"

namespace qnn::cpu {

void Executor::reset(const GraphIR& ir, const std::map<uint32_t, void*>& native) {
  pointers_.clear();
  for (auto& [id, t] : ir.tensors)
    if (t.kind == TensorKind::kStatic) setStatic(t, id);
  for (auto& [id, p] : native) pointers_[id] = p;
}

void Executor::setStatic(const TensorInfo& t, uint32_t id) { pointers_[id] = const_cast<uint8_t*>(t.staticData.data()); }

void Executor::bind(const GraphIR& ir, Steps& steps) {
  for (auto& step : steps) {
    step->inInfos.clear(), step->outInfos.clear(), step->inSlots.clear(), step->outSlots.clear();
    for (uint32_t id : step->inIds) step->inInfos.push_back(ir.findTensor(id)), step->inSlots.push_back(&pointers_[id]);
    for (uint32_t id : step->outIds) step->outInfos.push_back(ir.findTensor(id)), step->outSlots.push_back(&pointers_[id]);
  }
}

Status Executor::run(const GraphIR& ir, Steps& steps, const std::vector<sdk::TensorBinding>& inputs,
                     const std::vector<sdk::TensorBinding>& outputs, const sdk::ExecuteOptions& options,
                     std::vector<sdk::NodeTiming>* timings) {
  for (auto& b : inputs) pointers_[b.tensorId] = b.data;
  for (auto& b : outputs) pointers_[b.tensorId] = b.data;
  for (auto& step : steps) {
    if (options.checkCancel) QNN_SDK_RETURN_IF_ERROR(options.checkCancel());
    auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < step->inIds.size(); ++i) {
      if (step->inputDequantizedOnce[i]) continue;
      const TensorInfo* t = step->inInfos[i];
      void* p = *step->inSlots[i];
      if (step->floatEmulation && sdk::dtypeIsFixedPoint(t->dtype)) {
        dequantizeToFloat(*t, p, step->floatIn[i].data());
        p = step->floatIn[i].data();
      }
      step->inViews[i].data = p;
    }
    for (size_t i = 0; i < step->outIds.size(); ++i)
      step->outViews[i].data = step->floatEmulation && sdk::dtypeIsFixedPoint(step->outInfos[i]->dtype)
                                   ? static_cast<void*>(step->floatOut[i].data())
                                   : *step->outSlots[i];
    QNN_SDK_RETURN_IF_ERROR(step->kernel->execute(step->inViews, step->outViews));
    if (step->floatEmulation)
      for (size_t i = 0; i < step->outIds.size(); ++i)
        if (sdk::dtypeIsFixedPoint(step->outInfos[i]->dtype))
          quantizeFromFloat(*step->outInfos[i], step->floatOut[i].data(), *step->outSlots[i]);
    if (options.collectNodeTimings && timings) {
      auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
      timings->push_back({step->node->name, step->node->typeName, static_cast<uint64_t>(us.count()), {},
                          sdk::NodeTiming::steadyMicros(start)});
      for (const NodeInfo* inner : step->folded)
        timings->push_back(
            {inner->name, inner->typeName, 0, {}, sdk::NodeTiming::steadyMicros(std::chrono::steady_clock::now())});
    }
    if (ir.afterNode) {
      std::vector<void*> outs;
      for (void** slot : step->outSlots) outs.push_back(*slot);
      ir.afterNode(ir, *step->node, outs);
    }
  }
  return Status::ok();
}

}  // namespace qnn::cpu
