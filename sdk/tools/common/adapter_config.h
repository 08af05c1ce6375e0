// The adapter weight config of qnn-context-binary-generator
// (--adapter_weight_config): a YAML file listing the LoRA use cases whose
// binary sections to make,
//   use_case:
//     - name: <use case; names its section file>
//       graph: <graph name>            (optional: every graph holding the tensors)
//       weights: <adapter .safetensors> (relative paths: to the YAML's directory)
//       encodings: <quantization encodings JSON> (optional)
// Malformed files are a ToolError naming the file and what is wrong.
#pragma once

#include <string>
#include <vector>

namespace qnn::tools {

struct AdapterUseCase {
  std::string name, graph, weights, encodings;
};

std::vector<AdapterUseCase> readAdapterConfig(const std::string& path);

}  // namespace qnn::tools
