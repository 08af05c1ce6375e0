#include "prepared_blob/prepared_blob.h"

#include "byte_io/byte_io.h"

namespace qnn::sdk {
namespace {
using binary::ByteReader;
using binary::ByteWriter;
constexpr uint32_t kMagic = 0x47505141;  // "AQPG" little-endian: prepared graphs
constexpr uint32_t kVersion = 1;
constexpr size_t kMaxNameLength = 4096;
}  // namespace

void encodePreparedGraphs(const PreparedGraphBlobs& graphs, std::vector<uint8_t>* blob) {
  ByteWriter w(blob);
  w.u32(kMagic);
  w.u32(kVersion);
  w.u32(static_cast<uint32_t>(graphs.size()));
  for (const auto& [name, bytes] : graphs) {
    w.str(name);
    w.u64(bytes.size());
    w.bytes(bytes.data(), bytes.size());
  }
}

Status decodePreparedGraphs(const std::vector<uint8_t>& blob, PreparedGraphBlobs* graphs) {
  ByteReader r(blob.data(), blob.size());
  uint32_t magic = 0, version = 0, count = 0;
  if (!r.u32(&magic) || magic != kMagic) return corruptData("context binary: backend blob is not a prepared-graph blob");
  if (!r.u32(&version) || version != kVersion)
    return corruptData("context binary: prepared-graph blob version " + std::to_string(version) + " is unknown");
  if (!r.count(&count, 12)) return corruptData("context binary: truncated prepared-graph blob");
  for (uint32_t i = 0; i < count; ++i) {
    std::string name;
    uint64_t size = 0;
    std::vector<uint8_t> bytes;
    if (!r.str(&name, kMaxNameLength) || !r.u64(&size) || size > r.remaining() || !r.bytes(size, &bytes))
      return corruptData("context binary: truncated prepared graph " + std::to_string(i));
    if (!graphs->emplace(std::move(name), std::move(bytes)).second)
      return corruptData("context binary: prepared graph " + std::to_string(i) + " repeats a graph name");
  }
  if (!r.atEnd()) return corruptData("context binary: bytes after the prepared graphs");
  return Status::ok();
}

}  // namespace qnn::sdk
