// The binary-section format: what QnnContext_getBinarySection writes and
// QnnContext_applyBinarySection reads (a LoRA adapter, in the vendor's words).
// It carries the UPDATEABLE_* tensors of a context's graphs — their data and/or
// quantization — keyed by graph name, tensor id and tensor name, so it applies
// to the context it was made from and to any context re-created from that
// context's binary. Versioned and CRC-checked; documented in
// docs/context-binary-format.md ("Binary sections").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "graph/graph_ir.h"

namespace qnn::sdk {

// QnnContext_SectionType_t values this format knows.
enum class SectionKind : uint32_t {
  kUpdatable = 1,             // data and quantization
  kUpdatableWeights = 2,      // data of UPDATEABLE_STATIC tensors only
  kUpdatableQuantParams = 3,  // quantization only
};

struct SectionTensor {
  TensorInfo info;  // id, name, kind/updateable, dtype, dims, quant, staticData (when hasData)
  bool hasData = false;
  bool hasQuant = false;
};

struct SectionGraph {
  std::string name;               // empty: the context's own tensors
  bool weightsUpdatable = false;  // QnnContext_getBinarySectionUpdate may change its tensors
  std::vector<SectionTensor> tensors;
};

struct BinarySection {
  SectionKind kind = SectionKind::kUpdatable;
  uint32_t backendId = 0;
  // False once QnnContext_getBinarySectionUpdate made it with keepUpdatable = 0.
  bool updatable = true;
  std::vector<SectionGraph> graphs;
};

bool sectionKindKnown(uint32_t sectionType);

// Serializes; refuses only what the reader would refuse.
Status writeBinarySection(const BinarySection& section, std::vector<uint8_t>* out);
// Parses; a truncated, corrupted (CRC), foreign (magic) or newer-major buffer is
// refused with kCorruptData saying which.
Status readBinarySection(const void* data, size_t size, BinarySection* out);
// True when the bytes start with this format's magic (to tell a section from a
// context binary).
bool looksLikeBinarySection(const void* data, size_t size);

}  // namespace qnn::sdk
