// Reads the graphs (names, input/output tensors) stored in a context binary
// through libQnnSystem.so (QnnSystemContext_getBinaryInfo), the way the vendor's
// tools learn what to feed a retrieved graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/common/graph_spec.h"

namespace qnn::tools {

// Throws ToolError when the library cannot be loaded or the binary not parsed.
std::vector<GraphSpec> graphSpecsFromSystemLibrary(const std::string& libraryPath, const std::vector<uint8_t>& binary);

}  // namespace qnn::tools
