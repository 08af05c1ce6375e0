// Whole-file binary I/O for raw tensors and context binaries; errors name the path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace qnn::tools {

std::vector<uint8_t> readBinaryFile(const std::string& path);  // throws ToolError
void writeBinaryFile(const std::string& path, const void* data, size_t size);  // throws ToolError
void makeDirectories(const std::string& path);  // mkdir -p; throws ToolError
bool fileExists(const std::string& path);
void requireFile(const std::string& path, const std::string& what);  // "<what> not found: <path>"

}  // namespace qnn::tools
