#include "trace/trace_reader.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "byte_io/byte_io.h"
#include "byte_io/crc.h"

namespace qnn::trace {

using sdk::binary::getLE;
namespace {

bool fail(Trace& t, uint64_t offset, const std::string& message) {
  t.error = message;
  t.errorOffset = offset;
  return false;
}

bool parseCall(const std::vector<uint8_t>& raw, CallRecord& c) {
  const uint8_t* p = raw.data();
  const uint8_t* end = p + raw.size();
  return getLE(p, end, c.callId) && getLE(p, end, c.seq) && getLE(p, end, c.threadId) && getLE(p, end, c.timeNs) &&
         getLE(p, end, c.result) && decodeValue(p, end, c.args) && p == end;
}

}  // namespace

const std::vector<uint8_t>* Trace::blob(const Value& ref) const {
  if (ref.kind != Value::Kind::Blob) return nullptr;
  auto it = blobs.find(ref.u);
  return it == blobs.end() ? nullptr : &it->second;
}

bool Trace::clientApi(uint32_t* major, uint32_t* minor) const {
  const Value* api = info.field("clientApi");
  const Value* ma = api ? api->field("major") : nullptr;
  const Value* mi = api ? api->field("minor") : nullptr;
  if (!ma || !mi || ma->kind != Value::Kind::UInt || mi->kind != Value::Kind::UInt) return false;
  *major = uint32_t(ma->u);
  *minor = uint32_t(mi->u);
  return true;
}

bool readTraceBuffer(const uint8_t* data, size_t size, Trace& t) {
  t = Trace();
  const uint8_t* p = data;
  const uint8_t* end = data + size;
  uint32_t flags = 0;
  if (size < kHeaderSize || std::memcmp(p, kMagic, 8) != 0) return fail(t, 0, "not a QNN trace (bad magic)");
  p += 8;
  getLE(p, end, t.version);
  getLE(p, end, flags);
  if (t.version != kFormatVersion)
    return fail(t, 8, "unsupported trace version " + std::to_string(t.version) + " (this reader knows " +
                          std::to_string(kFormatVersion) + ")");
  while (p < end) {
    uint64_t at = uint64_t(p - data);
    uint32_t magic = 0, type = 0, rawSize = 0, compSize = 0, crc = 0;
    const uint8_t* head = p;
    if (!getLE(p, end, magic) || !getLE(p, end, type) || !getLE(p, end, rawSize) || !getLE(p, end, compSize) ||
        !getLE(p, end, crc))
      return fail(t, at, "truncated block header");
    if (magic != kBlockMagic) return fail(t, at, "bad block magic");
    if (rawSize > kMaxBlockSize || compSize > kMaxBlockSize) return fail(t, at, "block size out of range");
    // zlib's deflate expands at most ~1032:1, so a larger stated size is a lie; refusing it here
    // keeps a few hostile bytes from making the reader allocate (and clear) a gigabyte.
    if (uint64_t(rawSize) > uint64_t(compSize) * 1032 + 64) return fail(t, at, "block size out of range");
    if (size_t(end - p) < compSize) return fail(t, at, "truncated block (process died while writing?)");
    uint32_t want = uint32_t(crc32(0, head + 4, 12));
    want = uint32_t(crc32(want, p, compSize));
    if (!sdk::binary::checksumMatches(want, crc)) return fail(t, at, "block CRC mismatch");
    std::vector<uint8_t> raw(rawSize);
    uLongf got = rawSize;
    if (uncompress(raw.data(), &got, p, compSize) != Z_OK || got != rawSize)
      return fail(t, at, "block does not decompress");
    p += compSize;
    if (type == uint32_t(BlockType::Blob)) {
      const uint8_t* q = raw.data();
      uint64_t id = 0;
      if (!getLE(q, raw.data() + raw.size(), id)) return fail(t, at, "malformed blob block");
      t.blobs[id].assign(q, static_cast<const uint8_t*>(raw.data() + raw.size()));
    } else if (type == uint32_t(BlockType::Call)) {
      CallRecord c;
      if (!parseCall(raw, c)) return fail(t, at, "malformed call record");
      t.calls.push_back(std::move(c));
    } else if (type == uint32_t(BlockType::Info)) {
      const uint8_t* q = raw.data();
      Value info;
      if (!decodeValue(q, raw.data() + raw.size(), info) || q != raw.data() + raw.size() ||
          info.kind != Value::Kind::Struct)
        return fail(t, at, "malformed info block");
      for (size_t k = 0; k < info.names.size(); ++k) {
        size_t j = 0;
        while (j < t.info.names.size() && t.info.names[j] != info.names[k]) ++j;
        if (j < t.info.names.size()) t.info.items[j] = info.items[k];
        else t.info.add(info.names[k], info.items[k]);
      }
    } else {
      return fail(t, at, "unknown block type " + std::to_string(type));
    }
    t.blockEnds.push_back(uint64_t(p - data));
  }
  return true;
}

bool readTrace(const std::string& path, Trace& t) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    t = Trace();
    return fail(t, 0, "cannot open " + path);
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return readTraceBuffer(bytes.data(), bytes.size(), t);
}

}  // namespace qnn::trace
