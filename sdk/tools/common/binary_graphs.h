// Learns the graphs (names, input/output tensors) of a context binary for
// --retrieve_context: through libQnnSystem.so (--system_library, else found on
// the library path or next to the backend), falling back to the tensor record
// qnn-context-binary-generator writes beside the binary (<binary>.json).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/common/graph_spec.h"

namespace qnn::tools {

// Throws ToolError when neither source is usable.
std::vector<GraphSpec> binaryGraphSpecs(const std::string& binaryPath, const std::vector<uint8_t>& binary,
                                        const std::string& systemLibrary, const std::string& backendPath);

}  // namespace qnn::tools
