// The backend blob of a context binary as the shared runtime fills it: one
// record per graph holding that backend's prepared form of the graph
// (PreparedGraph::serialize). Layout in docs/context-binary-format.md.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace qnn::sdk {

// graph name -> prepared bytes; the blob owns copies.
using PreparedGraphBlobs = std::map<std::string, std::vector<uint8_t>>;

void encodePreparedGraphs(const PreparedGraphBlobs& graphs, std::vector<uint8_t>* blob);
// kCorruptData on a foreign, truncated or malformed blob.
Status decodePreparedGraphs(const std::vector<uint8_t>& blob, PreparedGraphBlobs* graphs);

}  // namespace qnn::sdk
