// Decodes a .qnntrace file. Reads block by block and stops at the first block
// that is truncated, fails its CRC or does not parse: everything before it is
// returned, and `error` says what and where.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "trace/trace_format.h"

namespace qnn::trace {

struct Trace {
  uint32_t version = 0;
  std::vector<CallRecord> calls;
  std::map<uint64_t, std::vector<uint8_t>> blobs;  // blob id -> bytes
  Value info = Value::record();                    // the info blocks' fields, merged
  std::vector<uint64_t> blockEnds;                 // file offset after each good block
  std::string error;                               // empty when the whole file decoded
  uint64_t errorOffset = 0;

  bool ok() const { return error.empty(); }
  const std::vector<uint8_t>* blob(const Value& ref) const;
  // The recorded client's QNN API ("clientApi" info); false for traces without one.
  bool clientApi(uint32_t* major, uint32_t* minor) const;
};

// False if anything could not be decoded (the readable prefix is still in `out`).
bool readTrace(const std::string& path, Trace& out);
bool readTraceBuffer(const uint8_t* data, size_t size, Trace& out);

}  // namespace qnn::trace
