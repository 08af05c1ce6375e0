#include "cpu/engine/memory_planner.h"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace qnn::cpu {
namespace {

// Output id -> the id whose buffer it shares, for every Reshape-like step from one float or
// integer native tensor to another of the same type and size (chains resolve to their first
// tensor). Fixed-point tensors keep their copy: a reader emulating float dequantizes with the
// encoding of the tensor it names.
std::map<uint32_t, uint32_t> reshapeAliases(const GraphIR& ir, const Steps& steps) {
  std::map<uint32_t, uint32_t> sharedWith;
  for (const auto& step : steps) {
    const std::string& op = step->node->typeName;
    if (isPackageOp(*step->node) || (op != "Reshape" && op != "Squeeze" && op != "ExpandDims") ||
        step->floatEmulation || step->inIds.size() != 1 || step->outIds.size() != 1)
      continue;
    const TensorInfo* in = ir.findTensor(step->inIds[0]);
    const TensorInfo* out = ir.findTensor(step->outIds[0]);
    if (!in || !out || in->kind != TensorKind::kNative || out->kind != TensorKind::kNative ||
        in->dtype != out->dtype || sdk::dtypeIsFixedPoint(in->dtype) || in->byteSize() != out->byteSize())
      continue;
    auto chained = sharedWith.find(step->inIds[0]);
    sharedWith[step->outIds[0]] = chained == sharedWith.end() ? step->inIds[0] : chained->second;
  }
  return sharedWith;
}

}  // namespace

MemoryPlan planNativeBuffers(const GraphIR& ir, const Steps& steps) {
  const std::map<uint32_t, uint32_t> sharedWith = reshapeAliases(ir, steps);
  auto root = [&](uint32_t id) {
    auto a = sharedWith.find(id);
    return a == sharedWith.end() ? id : a->second;
  };
  std::vector<size_t> bufferSizes;
  std::map<uint32_t, size_t> lastUse;
  for (size_t n = 0; n < steps.size(); ++n)
    for (uint32_t id : steps[n]->inIds) lastUse[root(id)] = n;
  std::multimap<size_t, size_t> freeBySize;  // capacity -> buffer index
  std::map<uint32_t, size_t> assigned;        // tensor id -> buffer index, while live
  std::map<uint32_t, size_t> bufferOf;        // native tensor id -> buffer index
  for (size_t n = 0; n < steps.size(); ++n) {
    for (uint32_t id : steps[n]->outIds) {
      const TensorInfo* t = ir.findTensor(id);
      if (!t || t->kind != TensorKind::kNative || sharedWith.count(id)) continue;
      size_t need = std::max<size_t>(t->byteSize(), 1);
      if (id == steps[n]->outIds[0]) need = std::max(need, steps[n]->outBytes);
      auto it = freeBySize.lower_bound(need);
      if (it != freeBySize.end()) {
        assigned[id] = it->second;
        freeBySize.erase(it);
      } else {
        bufferSizes.push_back(need);
        assigned[id] = bufferSizes.size() - 1;
      }
    }
    for (uint32_t name : steps[n]->inIds) {
      const uint32_t id = root(name);
      auto a = assigned.find(id);
      if (a != assigned.end() && lastUse[id] == n) {
        freeBySize.emplace(bufferSizes[a->second], a->second);
        assigned.erase(a);
        lastUse[id] = SIZE_MAX;  // released once even if read twice by this step
      }
    }
    for (uint32_t id : steps[n]->outIds)  // produced but never read
      if (auto a = assigned.find(id); a != assigned.end() && !lastUse.count(id)) {
        bufferOf[id] = a->second;
        freeBySize.emplace(bufferSizes[a->second], a->second);
        assigned.erase(a);
      }
    for (auto& [id, buf] : assigned) bufferOf[id] = buf;
  }
  for (auto& [alias, id] : sharedWith)
    if (auto buf = bufferOf.find(id); buf != bufferOf.end()) bufferOf[alias] = buf->second;
  std::vector<size_t> offsets(bufferSizes.size());
  size_t total = 0;
  for (size_t b = 0; b < bufferSizes.size(); ++b) {
    offsets[b] = total;
    total += (bufferSizes[b] + 63) / 64 * 64;
  }
  MemoryPlan plan;
  plan.arena = std::make_unique<sdk::TensorBuffer>(total);
  for (auto& [id, buf] : bufferOf) plan.native[id] = plan.arena->data() + offsets[buf];
  return plan;
}

}  // namespace qnn::cpu
