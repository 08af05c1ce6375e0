// GraphSpec: a graph's name and its input/output tensors, whatever the source
// (a composed model library, the system library's binary info, or the tensor
// record qnn-context-binary-generator writes next to a binary).
#pragma once

#include <string>
#include <vector>

#include "tools/common/model_library.h"
#include "tools/common/tensor_spec.h"

namespace qnn::tools {

struct GraphSpec {
  std::string name;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};

GraphSpec graphSpecFromInfo(const GraphInfo_t& info);

// The tensor record of a context binary: "<binary>.json" (OpenQNN's own file; the
// vendor tools read the same facts from the binary through libQnnSystem.so).
std::string tensorRecordPath(const std::string& binaryPath);
void writeTensorRecord(const std::string& path, const std::vector<GraphSpec>& graphs);
std::vector<GraphSpec> readTensorRecord(const std::string& path);  // throws ToolError

}  // namespace qnn::tools
