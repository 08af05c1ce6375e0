#include "trace_writer.h"

#include <zlib.h>

#include <chrono>

#include "byte_codec.h"

namespace qnn::trace {
namespace {

uint64_t nowNs() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

uint64_t fnv1a64(const uint8_t* p, uint64_t n) {
  uint64_t h = 1469598103934665603ull;
  for (uint64_t k = 0; k < n; ++k) h = (h ^ p[k]) * 1099511628211ull;
  return h;
}

uint32_t crc32Of(const uint8_t* p, uint64_t n, uint32_t crc = 0) {
  // zlib's crc32 takes uInt lengths: feed large buffers in pieces.
  while (n > 0) {
    uInt chunk = uInt(n > (1u << 30) ? (1u << 30) : n);
    crc = uint32_t(crc32(crc, p, chunk));
    p += chunk;
    n -= chunk;
  }
  return crc;
}

}  // namespace

TraceWriter::~TraceWriter() {
  if (file_) std::fclose(file_);
}

bool TraceWriter::open(const std::string& path, std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) {
    if (error) *error = "cannot create " + path;
    return false;
  }
  std::vector<uint8_t> header(kMagic, kMagic + 8);
  putLE<uint32_t>(header, kFormatVersion);
  putLE<uint32_t>(header, 0);  // flags, none defined
  std::fwrite(header.data(), 1, header.size(), file_);
  std::fflush(file_);
  startNs_ = nowNs();
  return true;
}

void TraceWriter::writeBlock(BlockType type, const std::vector<uint8_t>& raw) {
  uLongf compSize = compressBound(uLong(raw.size()));
  std::vector<uint8_t> comp(compSize);
  if (compress2(comp.data(), &compSize, raw.data(), uLong(raw.size()), Z_BEST_SPEED) != Z_OK) return;
  comp.resize(compSize);
  std::vector<uint8_t> head;
  putLE<uint32_t>(head, kBlockMagic);
  putLE<uint32_t>(head, uint32_t(type));
  putLE<uint32_t>(head, uint32_t(raw.size()));
  putLE<uint32_t>(head, uint32_t(comp.size()));
  // The CRC covers type and sizes too: a flipped size is caught, not trusted.
  uint32_t crc = crc32Of(head.data() + 4, 12);
  crc = crc32Of(comp.data(), comp.size(), crc);
  putLE<uint32_t>(head, crc);
  std::fwrite(head.data(), 1, head.size(), file_);
  std::fwrite(comp.data(), 1, comp.size(), file_);
  std::fflush(file_);  // the kernel has it: survives SIGKILL of this process
}

Value TraceWriter::putBlob(const void* data, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint8_t* p = static_cast<const uint8_t*>(data);
  auto key = std::make_tuple(fnv1a64(p, size), crc32Of(p, size), size);
  auto it = blobs_.find(key);
  if (it != blobs_.end()) return Value::blob(it->second, size);
  uint64_t id = nextBlob_++;
  if (file_) {
    std::vector<uint8_t> raw;
    raw.reserve(size + 8);
    putLE<uint64_t>(raw, id);
    raw.insert(raw.end(), p, p + size);
    if (raw.size() <= kMaxBlockSize) writeBlock(BlockType::Blob, raw);
  }
  blobs_.emplace(key, id);
  return Value::blob(id, size);
}

void TraceWriter::writeCall(CallRecord& call) {
  std::lock_guard<std::mutex> lock(mu_);
  call.seq = nextSeq_++;
  call.timeNs = nowNs() - startNs_;
  if (!file_) return;
  std::vector<uint8_t> raw;
  putLE<uint32_t>(raw, call.callId);
  putLE<uint64_t>(raw, call.seq);
  putLE<uint64_t>(raw, call.threadId);
  putLE<uint64_t>(raw, call.timeNs);
  putLE<uint64_t>(raw, call.result);
  encodeValue(call.args, raw);
  writeBlock(BlockType::Call, raw);
}

}  // namespace qnn::trace
