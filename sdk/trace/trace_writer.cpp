#include "trace/trace_writer.h"

#include <zlib.h>

#include <chrono>
#include <cmath>
#include <cstring>

#include "byte_io/byte_io.h"

namespace qnn::trace {

using sdk::binary::putLE;

namespace {

constexpr size_t kKeptScratch = 64u << 20;

uint64_t nowNs() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull, kP2 = 0xC2B2AE3D27D4EB4Full, kP3 = 0x165667B19E3779F9ull;

uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t finalMix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}

// Content key for deduplication: four independent lanes over 32-byte stripes
// (tensor data is large and hashed on every execute, so this runs near memory
// speed), folded into two 64-bit halves.
std::pair<uint64_t, uint64_t> contentHash(const uint8_t* p, uint64_t n) {
  uint64_t v[4] = {kP1 + kP2, kP2, 0, 0 - kP1};
  uint64_t k = 0;
  for (; k + 32 <= n; k += 32)
    for (int lane = 0; lane < 4; ++lane) {
      uint64_t w;
      std::memcpy(&w, p + k + 8 * lane, 8);
      v[lane] = rotl(v[lane] + w * kP2, 31) * kP1;
    }
  for (; k < n; ++k) v[k & 1] = rotl(v[k & 1] ^ (p[k] * kP3), 11) * kP1;
  return {finalMix(v[0] ^ rotl(v[2], 17) ^ n), finalMix(v[1] ^ rotl(v[3], 23) ^ (n * kP3))};
}

// Bits per byte of a sample's byte histogram: float weights and activations sit
// near 7-8 (about 5 after a Relu zeroes half of them), zeros, masks and small
// integers far below.
double sampleEntropy(const uint8_t* p, size_t n) {
  uint32_t counts[256] = {};
  for (size_t k = 0; k < n; ++k) ++counts[p[k]];
  double bits = 0;
  for (uint32_t c : counts)
    if (c) bits -= double(c) / double(n) * std::log2(double(c) / double(n));
  return bits;
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

// Tensor data is often incompressible (float activations): deflating it costs
// more than most executes that produced it. A byte-entropy estimate of a 4 KiB
// sample decides (above 4 bits: stored); stored blocks are still a zlib stream, so the format does not
// change.
int TraceWriter::levelFor(BlockType type, const std::vector<uint8_t>& raw) {
  constexpr size_t kSample = 4 << 10;
  if (type != BlockType::Blob || raw.size() < 2 * kSample) return Z_BEST_SPEED;
  return sampleEntropy(raw.data() + raw.size() / 2 - kSample / 2, kSample) > 4.0 ? Z_NO_COMPRESSION : Z_BEST_SPEED;
}

void TraceWriter::writeBlock(BlockType type, const std::vector<uint8_t>& raw) {
  uLongf compSize = compressBound(uLong(raw.size()));
  if (comp_.size() < compSize) comp_.resize(compSize);  // grows only: no zero-fill per block
  if (compress2(comp_.data(), &compSize, raw.data(), uLong(raw.size()), levelFor(type, raw)) != Z_OK) return;
  std::vector<uint8_t> head;
  putLE<uint32_t>(head, kBlockMagic);
  putLE<uint32_t>(head, uint32_t(type));
  putLE<uint32_t>(head, uint32_t(raw.size()));
  putLE<uint32_t>(head, uint32_t(compSize));
  // The CRC covers type and sizes too: a flipped size is caught, not trusted.
  uint32_t crc = crc32Of(head.data() + 4, 12);
  crc = crc32Of(comp_.data(), compSize, crc);
  putLE<uint32_t>(head, crc);
  std::fwrite(head.data(), 1, head.size(), file_);
  std::fwrite(comp_.data(), 1, compSize, file_);
  std::fflush(file_);  // the kernel has it: survives SIGKILL of this process
}

Value TraceWriter::putBlob(const void* data, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint8_t* p = static_cast<const uint8_t*>(data);
  auto [h1, h2] = contentHash(p, size);
  auto key = std::make_tuple(h1, h2, size);
  auto it = blobs_.find(key);
  if (it != blobs_.end()) return Value::blob(it->second, size);
  uint64_t id = nextBlob_++;
  if (file_) {
    raw_.clear();
    putLE<uint64_t>(raw_, id);
    raw_.insert(raw_.end(), p, p + size);
    if (raw_.size() <= kMaxBlockSize) writeBlock(BlockType::Blob, raw_);
    if (raw_.capacity() > kKeptScratch) {  // a one-off huge weight: do not hold its size forever
      std::vector<uint8_t>().swap(raw_);
      std::vector<uint8_t>().swap(comp_);
    }
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

void TraceWriter::writeInfo(const Value& info) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!file_) return;
  std::vector<uint8_t> raw;
  encodeValue(info, raw);
  writeBlock(BlockType::Info, raw);
}

}  // namespace qnn::trace
