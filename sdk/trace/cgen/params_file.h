// The params.bin of a generated replay program: every trace blob the program
// uses, each once, 8-byte aligned, in order of first use. saver_output.c names
// data by its offset in this file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "trace/trace_reader.h"

namespace qnn::trace::cgen {

class ParamsFile {
 public:
  explicit ParamsFile(const Trace& trace) : trace_(trace) {}
  // Offset of the blob `ref` refers to, appending it on first use. False if the
  // trace does not hold that blob (a damaged or cut trace).
  bool offsetOf(const Value& ref, uint64_t* offset);
  uint64_t size() const { return bytes_.size(); }
  bool write(const std::string& path, std::string* error) const;

 private:
  const Trace& trace_;
  std::map<uint64_t, uint64_t> offsets_;  // blob id -> offset
  std::vector<uint8_t> bytes_;
};

}  // namespace qnn::trace::cgen
