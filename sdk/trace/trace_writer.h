// Appends calls and tensor data to a .qnntrace file. Every call is one block,
// written and flushed before the call returns to the client, so a process that
// dies leaves a trace readable up to its last complete call. Thread-safe: one
// lock orders blobs and calls.
#pragma once

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "trace/trace_format.h"

namespace qnn::trace {

class TraceWriter {
 public:
  TraceWriter() = default;
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // Creates (truncates) the file and writes the header. False with *error set on failure.
  bool open(const std::string& path, std::string* error);
  bool isOpen() const { return file_ != nullptr; }

  // Stores `size` bytes once (content hash) and returns the blob reference.
  Value putBlob(const void* data, uint64_t size);
  // Assigns the next sequence number and the time, writes and flushes the call.
  void writeCall(CallRecord& call);
  // Writes an info block (a struct of facts about the recording, see BlockType::Info).
  void writeInfo(const Value& info);

 private:
  void writeBlock(BlockType type, const std::vector<uint8_t>& raw);
  int levelFor(BlockType type, const std::vector<uint8_t>& raw);

  std::mutex mu_;
  std::FILE* file_ = nullptr;
  uint64_t nextSeq_ = 0;
  uint64_t nextBlob_ = 1;
  uint64_t startNs_ = 0;
  // (hash lane 1, hash lane 2, size) -> blob id: 128 bits must collide for a wrong match.
  std::map<std::tuple<uint64_t, uint32_t, uint64_t>, uint64_t> blobs_;
  std::vector<uint8_t> raw_, comp_;  // scratch, reused under mu_
};

}  // namespace qnn::trace
