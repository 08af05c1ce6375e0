// The context-binary format: what QnnContext_getBinary writes and
// QnnContext_createFromBinary reads. Versioned, zlib-compressed, CRC-checked;
// documented in docs/context-binary-format.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "graph/graph_ir.h"

namespace qnn::sdk {

struct ContextBinaryContents {
  uint32_t backendId = 0;         // QNN_BACKEND_ID_* of the backend that wrote it
  std::string backendBuildId;     // informational
  uint32_t coreApiMajor = 0, coreApiMinor = 0, coreApiPatch = 0;
  uint32_t backendApiMajor = 0, backendApiMinor = 0, backendApiPatch = 0;
  std::vector<GraphIR> graphs;
  std::vector<TensorInfo> contextTensors;  // tensors created with tensorCreateContextTensor
  // Opaque per-backend section (e.g. a prepared HTP graph); empty for the CPU.
  std::vector<uint8_t> backendBlob;
};

// Serializes into a self-contained byte buffer. Never fails except on allocation.
Status writeContextBinary(const ContextBinaryContents& contents, std::vector<uint8_t>* out);
// Parses; a truncated, corrupted (CRC), foreign (magic) or newer-major-version
// buffer is refused with kCorruptData and a message saying which.
Status readContextBinary(const void* data, size_t size, ContextBinaryContents* out);
// Cheap check of magic, version and CRC without decoding the graphs.
Status validateContextBinary(const void* data, size_t size);

}  // namespace qnn::sdk
