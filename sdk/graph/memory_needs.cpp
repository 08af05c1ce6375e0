#include "graph/memory_needs.h"

#include <algorithm>
#include <map>

namespace qnn::sdk {

uint64_t alignedBytes(uint64_t bytes, uint64_t alignment) {
  return alignment <= 1 ? bytes : (bytes + alignment - 1) / alignment * alignment;
}

GraphMemoryNeeds graphMemoryNeeds(const GraphIR& ir, uint64_t alignment) {
  GraphMemoryNeeds needs;
  if (alignment == 0) alignment = 1;
  for (const auto& [id, t] : ir.tensors)
    if (t.kind == TensorKind::kStatic && !t.isContextTensor) needs.staticBytes += alignedBytes(t.byteSize(), alignment);

  // Last node reading each intermediate tensor; one that nobody reads dies with its producer.
  std::map<uint32_t, size_t> lastUse;
  for (size_t i = 0; i < ir.nodes.size(); ++i) {
    for (uint32_t out : ir.nodes[i].outputIds) lastUse.emplace(out, i);
    for (uint32_t in : ir.nodes[i].inputIds) lastUse[in] = i;
  }
  uint64_t live = 0;
  for (size_t i = 0; i < ir.nodes.size(); ++i) {
    // A node's outputs are written while its inputs are still read: both count.
    for (uint32_t out : ir.nodes[i].outputIds) {
      const TensorInfo* t = ir.findTensor(out);
      if (t && t->kind == TensorKind::kNative) live += alignedBytes(t->byteSize(), alignment);
    }
    needs.peakNativeBytes = std::max(needs.peakNativeBytes, live);
    std::vector<uint32_t> touched = ir.nodes[i].inputIds;
    touched.insert(touched.end(), ir.nodes[i].outputIds.begin(), ir.nodes[i].outputIds.end());
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (uint32_t id : touched) {
      const TensorInfo* t = ir.findTensor(id);
      if (t && t->kind == TensorKind::kNative && lastUse[id] == i) live -= alignedBytes(t->byteSize(), alignment);
    }
  }
  return needs;
}

}  // namespace qnn::sdk
