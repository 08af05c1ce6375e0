// The context-binary format: what QnnContext_getBinary writes and
// QnnContext_createFromBinary reads. Versioned, zlib-compressed, CRC-checked;
// documented in docs/context-binary-format.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

struct ContextBinaryWriteOptions {
  // Static data of at least this many bytes is stored uncompressed in the
  // binary's weights region (format 1.3), where a loader can map it instead
  // of copying it; 0 keeps every byte in the compressed payload (format 1.2).
  size_t weightsRegionMinBytes = 0;
};
// What QnnContext_getBinary uses: tensors of 4 KiB or more go to the region.
constexpr size_t kDefaultWeightsRegionMinBytes = 4096;

// Serializes into a self-contained byte buffer. Never fails except on allocation.
Status writeContextBinary(const ContextBinaryContents& contents, std::vector<uint8_t>* out,
                          const ContextBinaryWriteOptions& options = {});

// Supplies a binary's weights region, `size` bytes at `offset` of the binary,
// as memory that stays valid while `*bytes` (or any copy of it) lives: the
// client's mapping of its file, through the binary data callback. An error
// fails the read.
using WeightsRegionProvider =
    std::function<Status(uint64_t offset, uint64_t size, std::shared_ptr<const uint8_t>* bytes)>;

// Parses; a truncated, corrupted (CRC), foreign (magic) or newer-major-version
// buffer is refused with kCorruptData and a message saying which. Without a
// provider the weights region (if the binary has one) must be in the buffer;
// it is checked and copied once, and the tensors' static data are views of
// that copy. With a provider, the buffer may end where the region begins, and
// the tensors view the provider's memory (not checksummed: reading it would
// page in what the mapping is there to leave in the file; it holds numbers only,
// every offset and size is checked against the CRC-covered header and payload).
Status readContextBinary(const void* data, size_t size, ContextBinaryContents* out,
                         const WeightsRegionProvider& provider = {});
// Cheap check of magic, version and CRC without decoding the graphs (the
// weights region too when the buffer holds it).
Status validateContextBinary(const void* data, size_t size);
// Where a binary's weights region is (offset 0, size 0 when it has none).
Status contextBinaryWeightsRegion(const void* data, size_t size, uint64_t* offset, uint64_t* regionSize);

}  // namespace qnn::sdk
