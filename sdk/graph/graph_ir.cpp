#include "graph/graph_ir.h"

namespace qnn::sdk {

std::vector<const TensorInfo*> GraphIR::inputs() const {
  std::vector<const TensorInfo*> out;
  for (auto& [id, t] : tensors)
    if (t.isGraphInput()) out.push_back(&t);
  return out;
}

std::vector<const TensorInfo*> GraphIR::outputs() const {
  std::vector<const TensorInfo*> out;
  for (auto& [id, t] : tensors)
    if (t.isGraphOutput()) out.push_back(&t);
  return out;
}

}  // namespace qnn::sdk
