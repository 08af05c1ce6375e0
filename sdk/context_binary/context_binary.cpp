// The context-binary format. The byte layout, versioning rules and error
// behavior are documented in docs/context-binary-format.md; keep the two in step.
#include "context_binary/context_binary.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "byte_io/byte_io.h"
#include "byte_io/crc.h"
#include "context_binary/quant_codec.h"
#include "core/quant_at.h"

namespace qnn::sdk {
namespace {

using binary::ByteReader;
using binary::ByteWriter;

// ---- Header -----------------------------------------------------------------

constexpr uint8_t kMagic[8] = {'O', 'Q', 'N', 'N', 'C', 'T', 'X', '\0'};
constexpr uint16_t kMajor = 1;
// 1: tensor records end with the updateable flag; 2: shared static data;
// 3: the weights region. A binary without a region is written as 1.2.
constexpr uint16_t kMinor = 3;
constexpr uint16_t kMinorWithoutRegion = 2;
constexpr uint16_t kMinorRegion = 3;
// magic(8) major(2) minor(2) headerSize(4) flags(4) payloadCrc(4)
// uncompressedSize(8) storedSize(8) headerCrc(4)
constexpr uint32_t kHeaderSize = 44;
// 1.3: + weightsOffset(8) weightsSize(8) weightsCrc(4) before headerCrc.
constexpr uint32_t kHeaderSizeRegion = 64;
// The region starts on a page of the file (so a client can map it as it is)
// and each tensor's bytes on a cache line of it.
constexpr uint64_t kRegionAlignment = 4096;
constexpr uint64_t kRegionItemAlignment = 64;
constexpr uint32_t kMaxHeaderSize = 4096;  // a newer minor may grow the header up to this
constexpr uint32_t kFlagZlib = 1u << 0;     // payload is zlib-compressed
constexpr uint32_t kKnownFlags = kFlagZlib;
// zlib cannot expand more than ~1032:1; a larger claim is a crafted header.
constexpr uint64_t kMaxZlibRatio = 1032;

// ---- Payload ----------------------------------------------------------------

enum SectionTag : uint32_t {
  kTagBackendInfo = 1,     // exactly once
  kTagContextTensors = 2,  // at most once
  kTagGraph = 3,           // once per graph, in order
  kTagBackendBlob = 4,     // at most once
};
constexpr size_t kMaxStringLen = 1u << 16;
constexpr uint32_t kMaxTensorKind = static_cast<uint32_t>(TensorKind::kNull);
using binary::kMaxQuantKind;

Status corrupt(const std::string& what) { return corruptData("context binary: " + what); }

uint32_t crc(const uint8_t* p, size_t n) { return binary::crc32Of(p, n); }

// Element count of dims, false on overflow of size_t.
bool dimsProduct(const std::vector<uint32_t>& dims, size_t* n) {
  size_t p = 1;
  for (uint32_t d : dims) {
    if (d != 0 && p > std::numeric_limits<size_t>::max() / d) return false;
    p *= d;
  }
  *n = p;
  return true;
}

// Expected byte size of dims x dtype, false on overflow.
bool expectedBytes(const std::vector<uint32_t>& dims, DType dt, size_t* bytes) {
  size_t n;
  if (!dimsProduct(dims, &n)) return false;
  size_t es = dtypeSize(dt);
  if (es != 0 && n > std::numeric_limits<size_t>::max() / es) return false;
  *bytes = n * es;
  return true;
}

bool dtypeAcceptable(uint32_t raw) {
  return dtypeIsKnown(raw) || raw == static_cast<uint32_t>(DType::kUndefined);
}

// ---- Invariants shared by writer and reader ---------------------------------
// The writer refuses what the reader would refuse, so every binary written can
// be read back. Returns an empty string when fine, else what is wrong.

std::string checkString(const std::string& s, const char* what) {
  if (s.size() > kMaxStringLen) return std::string(what) + " longer than 65536 bytes";
  return {};
}

std::string checkTensor(const TensorInfo& t) {
  std::string e = checkString(t.name, "tensor name");
  if (!e.empty()) return e;
  if (static_cast<uint32_t>(t.kind) > kMaxTensorKind) return "tensor '" + t.name + "' has an unknown kind";
  if (!dtypeAcceptable(static_cast<uint32_t>(t.dtype))) return "tensor '" + t.name + "' has an unknown dtype";
  if (static_cast<uint32_t>(t.quant.kind) > kMaxQuantKind)
    return "tensor '" + t.name + "' has an unknown quantization kind";
  if (const char* why = quantShapeMismatch(t.quant, t.dims)) return "tensor '" + t.name + "': " + why;
  size_t bytes;
  if (!expectedBytes(t.dims, t.dtype, &bytes)) return "tensor '" + t.name + "' dims overflow";
  if ((t.kind == TensorKind::kStatic || !t.staticData.empty()) && t.staticData.size() != bytes)
    return "tensor '" + t.name + "' static data size " + std::to_string(t.staticData.size()) +
           " != dims product * dtype size " + std::to_string(bytes);
  return {};
}

std::string checkParam(const std::string& name, const ParamValue& p) {
  std::string e = checkString(name, "param name");
  if (!e.empty()) return e;
  if (!dtypeAcceptable(static_cast<uint32_t>(p.dtype))) return "param '" + name + "' has an unknown dtype";
  size_t bytes;
  if (!expectedBytes(p.dims, p.dtype, &bytes)) return "param '" + name + "' dims overflow";
  if (p.isTensor && p.data.size() != bytes)
    return "tensor param '" + name + "' data size " + std::to_string(p.data.size()) +
           " != dims product * dtype size " + std::to_string(bytes);
  return {};
}

std::string checkNode(const NodeInfo& n, const GraphIR& g) {
  std::string e = checkString(n.name, "node name");
  if (e.empty()) e = checkString(n.packageName, "node package name");
  if (e.empty()) e = checkString(n.typeName, "node type name");
  if (!e.empty()) return e;
  for (const auto& kv : n.params.all()) {
    e = checkParam(kv.first, kv.second);
    if (!e.empty()) return "node '" + n.name + "': " + e;
  }
  for (const auto* ids : {&n.inputIds, &n.outputIds})
    for (uint32_t id : *ids)
      if (!g.findTensor(id))
        return "node '" + n.name + "' references unknown tensor id " + std::to_string(id);
  return {};
}

// ---- Writer -----------------------------------------------------------------

// Where a tensor record's static data is stored instead (minor 2): an earlier
// record with the same bytes, in the context tensors section (kContextSection)
// or in graph section `section`.
constexpr uint32_t kContextSection = 0xFFFFFFFFu;
struct SharedDataRef {
  uint32_t section = 0, tensorId = 0;
};

// Finds static data written before: weights shared by several graphs (or
// repeated in one) are stored once.
class StaticDataDedupe {
 public:
  static constexpr size_t kMinBytes = 1024;  // smaller data is not worth a reference
  // True (and `ref` set) when the same bytes were registered; registers them otherwise.
  bool find(const TensorInfo& t, uint32_t section, SharedDataRef* ref) {
    if (t.kind != TensorKind::kStatic || t.staticData.size() < kMinBytes) return false;
    const std::string_view bytes(reinterpret_cast<const char*>(t.staticData.data()), t.staticData.size());
    auto& bucket = seen_[std::hash<std::string_view>()(bytes)];
    for (const Source& s : bucket)
      if (s.data->size() == t.staticData.size() &&
          std::memcmp(s.data->data(), t.staticData.data(), t.staticData.size()) == 0) {
        *ref = s.ref;
        return true;
      }
    bucket.push_back({{section, t.id}, &t.staticData});
    return false;
  }

 private:
  struct Source {
    SharedDataRef ref;
    const SharedBytes* data;
  };
  std::unordered_map<size_t, std::vector<Source>> seen_;
};

// The weights region being written (format 1.3): static data of at least
// `minBytes` bytes, each on a kRegionItemAlignment boundary.
struct WeightsRegionWriter {
  size_t minBytes = 0;
  std::vector<uint8_t> bytes;
  bool takes(const TensorInfo& t) const {
    return minBytes != 0 && t.kind == TensorKind::kStatic && t.staticData.size() >= minBytes;
  }
  uint64_t add(const SharedBytes& data) {
    bytes.resize((bytes.size() + kRegionItemAlignment - 1) / kRegionItemAlignment * kRegionItemAlignment, 0);
    uint64_t offset = bytes.size();
    bytes.insert(bytes.end(), data.begin(), data.end());
    return offset;
  }
};

// `region` is null when writing a 1.2 binary (no weights region, records without the 1.3 field).
void writeTensor(ByteWriter& w, const TensorInfo& t, const SharedDataRef* shared, WeightsRegionWriter* region) {
  const bool external = region && !shared && region->takes(t);
  size_t rec = w.beginLen64();
  w.u32(t.id);
  w.str(t.name);
  w.u32(static_cast<uint32_t>(t.kind));
  w.u32(static_cast<uint32_t>(t.dtype));
  w.u32(t.dataFormat);
  binary::writeQuant(w, t.quant);
  w.u32(static_cast<uint32_t>(t.dims.size()));
  for (uint32_t d : t.dims) w.u32(d);
  w.u8(t.isContextTensor ? 1 : 0);
  const bool inline_ = !shared && !external;
  w.u64(inline_ ? t.staticData.size() : 0);
  if (inline_) w.bytes(t.staticData.data(), t.staticData.size());
  w.u8(t.updateable ? 1 : 0);  // minor 1
  w.u8(shared ? 1 : 0);        // minor 2
  if (shared) {
    w.u32(shared->section);
    w.u32(shared->tensorId);
  }
  if (region) {  // minor 3
    w.u8(external ? 1 : 0);
    if (external) w.u64(region->add(t.staticData));
  }
  w.endLen64(rec);
}

void writeParam(ByteWriter& w, const std::string& name, const ParamValue& p) {
  size_t rec = w.beginLen64();
  w.str(name);
  w.u8(p.isTensor ? 1 : 0);
  w.u32(static_cast<uint32_t>(p.dtype));
  uint8_t raw[8];
  static_assert(sizeof(p.scalar) == 8, "ParamValue scalar must be 8 bytes");
  std::memcpy(raw, &p.scalar, 8);
  w.bytes(raw, 8);
  w.u32(static_cast<uint32_t>(p.dims.size()));
  for (uint32_t d : p.dims) w.u32(d);
  w.u64(p.data.size());
  w.bytes(p.data.data(), p.data.size());
  w.endLen64(rec);
}

void writeNode(ByteWriter& w, const NodeInfo& n) {
  size_t rec = w.beginLen64();
  w.str(n.name);
  w.str(n.packageName);
  w.str(n.typeName);
  w.u32(static_cast<uint32_t>(n.params.all().size()));
  for (const auto& kv : n.params.all()) writeParam(w, kv.first, kv.second);
  w.u32(static_cast<uint32_t>(n.inputIds.size()));
  for (uint32_t id : n.inputIds) w.u32(id);
  w.u32(static_cast<uint32_t>(n.outputIds.size()));
  for (uint32_t id : n.outputIds) w.u32(id);
  w.endLen64(rec);
}

std::string checkContents(const ContextBinaryContents& c) {
  std::string e = checkString(c.backendBuildId, "backend build id");
  if (!e.empty()) return e;
  for (const TensorInfo& t : c.contextTensors) {
    e = checkTensor(t);
    if (!e.empty()) return "context " + e;
  }
  for (const GraphIR& g : c.graphs) {
    e = checkString(g.name, "graph name");
    for (auto it = g.tensors.begin(); e.empty() && it != g.tensors.end(); ++it) {
      if (it->first != it->second.id) e = "tensor map key differs from tensor id " + std::to_string(it->second.id);
      else e = checkTensor(it->second);
    }
    for (size_t i = 0; e.empty() && i < g.nodes.size(); ++i) e = checkNode(g.nodes[i], g);
    if (!e.empty()) return "graph '" + g.name + "': " + e;
  }
  return {};
}

void writePayload(const ContextBinaryContents& c, std::vector<uint8_t>* payload, WeightsRegionWriter* region) {
  ByteWriter w(payload);

  w.u32(kTagBackendInfo);
  size_t sec = w.beginLen64();
  w.u32(c.backendId);
  w.str(c.backendBuildId);
  w.u32(c.coreApiMajor);
  w.u32(c.coreApiMinor);
  w.u32(c.coreApiPatch);
  w.u32(c.backendApiMajor);
  w.u32(c.backendApiMinor);
  w.u32(c.backendApiPatch);
  w.endLen64(sec);

  w.u32(kTagContextTensors);
  sec = w.beginLen64();
  StaticDataDedupe dedupe;
  SharedDataRef ref;
  w.u32(static_cast<uint32_t>(c.contextTensors.size()));
  for (const TensorInfo& t : c.contextTensors)
    writeTensor(w, t, dedupe.find(t, kContextSection, &ref) ? &ref : nullptr, region);
  w.endLen64(sec);

  for (size_t gi = 0; gi < c.graphs.size(); ++gi) {
    const GraphIR& g = c.graphs[gi];
    w.u32(kTagGraph);
    sec = w.beginLen64();
    w.str(g.name);
    w.u32(g.priority);
    w.u32(g.precision);
    w.u32(static_cast<uint32_t>(g.tensors.size()));
    for (const auto& kv : g.tensors)
      writeTensor(w, kv.second, dedupe.find(kv.second, static_cast<uint32_t>(gi), &ref) ? &ref : nullptr, region);
    w.u32(static_cast<uint32_t>(g.nodes.size()));
    for (const NodeInfo& n : g.nodes) writeNode(w, n);
    w.endLen64(sec);
  }

  if (!c.backendBlob.empty()) {
    w.u32(kTagBackendBlob);
    w.u64(c.backendBlob.size());
    w.bytes(c.backendBlob.data(), c.backendBlob.size());
  }
}

// Whether any tensor's data goes to a weights region under `options`.
bool wantsRegion(const ContextBinaryContents& c, const ContextBinaryWriteOptions& options) {
  WeightsRegionWriter probe{options.weightsRegionMinBytes, {}};
  for (const TensorInfo& t : c.contextTensors)
    if (probe.takes(t)) return true;
  for (const GraphIR& g : c.graphs)
    for (const auto& kv : g.tensors)
      if (probe.takes(kv.second)) return true;
  return false;
}

Status writeImpl(const ContextBinaryContents& c, std::vector<uint8_t>* out, const ContextBinaryWriteOptions& options) {
  std::string e = checkContents(c);
  if (!e.empty()) return invalidArgument("context binary: cannot serialize: " + e);
  // Counts are u32 and record lengths u32; refuse what does not fit.
  for (const GraphIR& g : c.graphs)
    if (g.tensors.size() > UINT32_MAX || g.nodes.size() > UINT32_MAX)
      return invalidArgument("context binary: cannot serialize: too many tensors or nodes");

  WeightsRegionWriter regionWriter{options.weightsRegionMinBytes, {}};
  WeightsRegionWriter* region = wantsRegion(c, options) ? &regionWriter : nullptr;
  std::vector<uint8_t> payload;
  writePayload(c, &payload, region);

  // Compress; keep the raw bytes if compression does not help.
  std::vector<uint8_t> stored;
  uint32_t flags = 0;
  if (payload.size() <= std::numeric_limits<uLong>::max()) {
    uLongf bound = compressBound(static_cast<uLong>(payload.size()));
    stored.resize(bound);
    uLongf len = bound;
    int rc = compress2(stored.data(), &len, payload.data(), static_cast<uLong>(payload.size()), 6);
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc == Z_OK && len < payload.size()) {
      stored.resize(len);
      flags |= kFlagZlib;
    }
  }
  if (!(flags & kFlagZlib)) {
    stored.clear();
    stored.shrink_to_fit();
  }
  const std::vector<uint8_t>& body = (flags & kFlagZlib) ? stored : payload;

  const uint32_t headerSize = region ? kHeaderSizeRegion : kHeaderSize;
  const uint64_t payloadEnd = headerSize + body.size();
  const uint64_t regionSize = region ? region->bytes.size() : 0;
  const uint64_t regionOffset =
      regionSize ? (payloadEnd + kRegionAlignment - 1) / kRegionAlignment * kRegionAlignment : 0;
  std::vector<uint8_t> bin;
  bin.reserve(static_cast<size_t>(regionSize ? regionOffset + regionSize : payloadEnd));
  ByteWriter w(&bin);
  w.bytes(kMagic, sizeof kMagic);
  w.u16(kMajor);
  w.u16(region ? kMinorRegion : kMinorWithoutRegion);
  w.u32(headerSize);
  w.u32(flags);
  w.u32(crc(body.data(), body.size()));
  w.u64(payload.size());
  w.u64(body.size());
  if (region) {
    w.u64(regionOffset);
    w.u64(regionSize);
    w.u32(crc(region->bytes.data(), region->bytes.size()));
  }
  w.u32(crc(bin.data(), bin.size()));
  w.bytes(body.data(), body.size());
  if (regionSize) {
    bin.resize(static_cast<size_t>(regionOffset), 0);
    w.bytes(region->bytes.data(), region->bytes.size());
  }
  *out = std::move(bin);
  return Status::ok();
}

// ---- Reader -----------------------------------------------------------------

struct Header {
  uint16_t major = 0, minor = 0;
  uint32_t headerSize = 0, flags = 0, payloadCrc = 0;
  uint64_t uncompressedSize = 0, storedSize = 0;
  uint64_t weightsOffset = 0, weightsSize = 0;  // 1.3; size 0: no region
  uint32_t weightsCrc = 0;
  bool regionInBuffer = false;  // the buffer goes on to the region's end
};

// The refusal of a buffer that does not start with kMagic, naming the bytes found.
Status badMagic(const uint8_t* p, size_t size) {
  static const char kHex[] = "0123456789abcdef";
  std::string found;
  for (size_t i = 0; i < std::min(size, sizeof kMagic); ++i)
    found += std::string(i ? " " : "") + kHex[p[i] >> 4] + kHex[p[i] & 15];
  return corrupt("bad magic (" + found +
                 "): not an OpenQNN context binary (magic \"OQNNCTX\"); context binaries made by the vendor's QNN "
                 "SDK are in an unpublished format and cannot be read");
}

Status parseHeader(const uint8_t* p, size_t size, Header* h) {
  if (size < sizeof kMagic) {
    if (size > 0 && std::memcmp(p, kMagic, size) != 0) return badMagic(p, size);
    return corrupt("too small (" + std::to_string(size) + " bytes) to hold a header");
  }
  if (std::memcmp(p, kMagic, sizeof kMagic) != 0) return badMagic(p, size);
  ByteReader r(p, size);
  r.skip(sizeof kMagic);
  if (!r.u16(&h->major) || !r.u16(&h->minor))
    return corrupt("truncated header (" + std::to_string(size) + " bytes)");
  // The major version decides the header layout, so it is checked before the CRC.
  if (h->major != kMajor)
    return corrupt("unsupported format major version " + std::to_string(h->major) + " (this reader supports " +
                   std::to_string(kMajor) + ")");
  if (!r.u32(&h->headerSize) || size < kHeaderSize)
    return corrupt("truncated header (" + std::to_string(size) + " bytes)");
  const uint32_t wantHeaderSize = h->minor >= kMinorRegion ? kHeaderSizeRegion : kHeaderSize;
  if (h->headerSize < wantHeaderSize || h->headerSize > kMaxHeaderSize ||
      (h->minor <= kMinor && h->headerSize != wantHeaderSize))
    return corrupt("bad header size " + std::to_string(h->headerSize));
  if (size < h->headerSize) return corrupt("truncated header (" + std::to_string(size) + " bytes)");
  uint32_t headerCrc = 0;
  {
    ByteReader c(p + h->headerSize - 4, 4);
    c.u32(&headerCrc);
  }
  if (!binary::checksumMatches(crc(p, h->headerSize - 4), headerCrc)) return corrupt("header CRC mismatch");
  r.u32(&h->flags);
  r.u32(&h->payloadCrc);
  r.u64(&h->uncompressedSize);
  r.u64(&h->storedSize);
  if (h->minor >= kMinorRegion) {
    r.u64(&h->weightsOffset);
    r.u64(&h->weightsSize);
    r.u32(&h->weightsCrc);
  }
  if (h->flags & ~kKnownFlags) return corrupt("unsupported header flags " + std::to_string(h->flags));
  uint64_t avail = size - h->headerSize;
  if (h->storedSize > avail)
    return corrupt("truncated payload (" + std::to_string(avail) + " of " + std::to_string(h->storedSize) +
                   " bytes)");
  const uint64_t payloadEnd = h->headerSize + h->storedSize;
  if (h->weightsSize == 0) {
    if (h->weightsOffset != 0) return corrupt("weights region offset without a region");
    if (size > payloadEnd) return corrupt("trailing bytes after the payload");
    return Status::ok();
  }
  if (h->weightsOffset % kRegionAlignment != 0 || h->weightsOffset < payloadEnd ||
      h->weightsOffset - payloadEnd >= kRegionAlignment || h->weightsSize > UINT64_MAX - h->weightsOffset)
    return corrupt("bad weights region (offset " + std::to_string(h->weightsOffset) + ", size " +
                   std::to_string(h->weightsSize) + ")");
  // The buffer ends with the payload (the region comes through the data
  // callback) or with the region.
  const uint64_t end = h->weightsOffset + h->weightsSize;
  if (size == payloadEnd) return Status::ok();
  if (size < end)
    return corrupt("truncated weights region (" + std::to_string(size > h->weightsOffset ? size - h->weightsOffset : 0) +
                   " of " + std::to_string(h->weightsSize) + " bytes)");
  if (size > end) return corrupt("trailing bytes after the weights region");
  h->regionInBuffer = true;
  return Status::ok();
}

// The header of a binary whose payload CRC holds.
Status parseCheckedHeader(const uint8_t* p, size_t size, Header* h) {
  QNN_SDK_RETURN_IF_ERROR(parseHeader(p, size, h));
  if (!binary::checksumMatches(crc(p + h->headerSize, static_cast<size_t>(h->storedSize)), h->payloadCrc))
    return corrupt("payload CRC mismatch");
  return Status::ok();
}

Status checkRegionCrc(const uint8_t* p, const Header& h) {
  if (h.regionInBuffer &&
      !binary::checksumMatches(crc(p + h.weightsOffset, static_cast<size_t>(h.weightsSize)), h.weightsCrc))
    return corrupt("weights region CRC mismatch");
  return Status::ok();
}

Status decodePayload(const uint8_t* stored, const Header& h, std::vector<uint8_t>* payload) {
  if (!(h.flags & kFlagZlib)) {
    if (h.uncompressedSize != h.storedSize) return corrupt("uncompressed payload size differs from stored size");
    payload->assign(stored, stored + h.storedSize);
    return Status::ok();
  }
  if (h.uncompressedSize > h.storedSize * kMaxZlibRatio + 1024 ||
      h.uncompressedSize > std::numeric_limits<uLong>::max() ||
      h.storedSize > std::numeric_limits<uLong>::max() ||
      h.uncompressedSize > std::numeric_limits<size_t>::max())
    return corrupt("implausible uncompressed payload size " + std::to_string(h.uncompressedSize));
  payload->resize(static_cast<size_t>(h.uncompressedSize));
  uLongf len = static_cast<uLongf>(h.uncompressedSize);
  // uncompress() needs a non-null destination even for an empty payload.
  uint8_t dummy = 0;
  int rc = uncompress(payload->empty() ? &dummy : payload->data(), &len, stored, static_cast<uLong>(h.storedSize));
  if (rc == Z_MEM_ERROR) throw std::bad_alloc();
  if (rc != Z_OK) return corrupt("decompression failed (zlib error " + std::to_string(rc) + ")");
  if (len != h.uncompressedSize) return corrupt("decompression failed (size mismatch)");
  return Status::ok();
}

class PayloadParser {
 public:
  PayloadParser(uint16_t fileMinor, uint64_t regionSize)
      : allowExtra_(fileMinor > kMinor), fileMinor_(fileMinor), regionSize_(regionSize) {}

  // Whether some tensor's data is in the weights region.
  bool needsRegion() const { return !external_.empty(); }

  // After parse: the tensors' data in the region (`region` = its first byte),
  // then data shared between records.
  Status resolve(ContextBinaryContents* c, const std::shared_ptr<const uint8_t>& region) {
    for (const PendingExternal& e : external_) {
      TensorInfo* t = recordOf(c, e.section, e.tensorId);
      if (!t) return corrupt("tensor id " + std::to_string(e.tensorId) + " vanished");
      t->staticData = SharedBytes::view(std::shared_ptr<const uint8_t>(region, region.get() + e.offset), e.bytes);
    }
    return resolveSharedData(c);
  }

  Status parse(const std::vector<uint8_t>& payload, ContextBinaryContents* c) {
    ByteReader r(payload.data(), payload.size());
    bool haveInfo = false, haveCtx = false, haveBlob = false;
    size_t graphIndex = 0;
    while (!r.atEnd()) {
      uint32_t tag;
      uint64_t len;
      if (!r.u32(&tag) || !r.u64(&len)) return corrupt("truncated section header");
      if (len > r.remaining())
        return corrupt("truncated section (tag " + std::to_string(tag) + ", length " + std::to_string(len) +
                       ", " + std::to_string(r.remaining()) + " bytes left)");
      ByteReader s;
      r.sub(static_cast<size_t>(len), &s);
      switch (tag) {
        case kTagBackendInfo:
          if (haveInfo) return corrupt("duplicate backend info section");
          haveInfo = true;
          if (!backendInfo(s, c)) return malformed("backend info section");
          break;
        case kTagContextTensors:
          if (haveCtx) return corrupt("duplicate context tensors section");
          haveCtx = true;
          if (!contextTensors(s, c)) return malformed("context tensors section");
          break;
        case kTagGraph: {
          c->graphs.emplace_back();
          if (!graph(s, &c->graphs.back(), static_cast<uint32_t>(graphIndex)))
            return malformed("graph section " + std::to_string(graphIndex));
          ++graphIndex;
          break;
        }
        case kTagBackendBlob:
          if (haveBlob) return corrupt("duplicate backend blob section");
          haveBlob = true;
          s.bytes(s.remaining(), &c->backendBlob);
          break;
        default:
          // Sections added by a newer minor version are skipped.
          if (!allowExtra_) return corrupt("unknown section tag " + std::to_string(tag));
          break;
      }
    }
    if (!haveInfo) return corrupt("missing backend info section");
    return Status::ok();
  }

 private:
  // A tensor record whose static data is an earlier record's (minor 2).
  struct PendingShare {
    uint32_t section = 0, tensorId = 0;  // the record
    SharedDataRef from;                  // where its data is
    size_t bytes = 0;                    // what its dims and datatype need
  };

  static TensorInfo* recordOf(ContextBinaryContents* c, uint32_t section, uint32_t id) {
    if (section == kContextSection) {
      for (TensorInfo& t : c->contextTensors)
        if (t.id == id) return &t;
      return nullptr;
    }
    if (section >= c->graphs.size()) return nullptr;
    auto it = c->graphs[section].tensors.find(id);
    return it == c->graphs[section].tensors.end() ? nullptr : &it->second;
  }

  Status resolveSharedData(ContextBinaryContents* c) {
    // Writers refer to a record written earlier that holds the bytes itself.
    for (const PendingShare& p : pending_) {
      TensorInfo* to = recordOf(c, p.section, p.tensorId);
      const TensorInfo* from = recordOf(c, p.from.section, p.from.tensorId);
      const std::string who = "tensor id " + std::to_string(p.tensorId);
      if (!to || !from) return corrupt(who + " shares the data of a tensor the binary does not hold");
      if (from->staticData.size() != p.bytes)
        return corrupt(who + " shares " + std::to_string(from->staticData.size()) + " bytes of data, its dims need " +
                       std::to_string(p.bytes));
      to->staticData = from->staticData;
    }
    return Status::ok();
  }

  std::vector<PendingShare> pending_;
  // A tensor record whose static data is in the weights region (minor 3).
  struct PendingExternal {
    uint32_t section = 0, tensorId = 0;
    uint64_t offset = 0;
    size_t bytes = 0;
  };
  std::vector<PendingExternal> external_;
  Status malformed(const std::string& where) {
    return corrupt("truncated or malformed " + where + (detail_.empty() ? "" : ": " + detail_));
  }
  bool bad(const std::string& what) {
    if (detail_.empty()) detail_ = what;
    return false;
  }
  // A record or section must be fully consumed unless it was written by a newer
  // minor version (which may append fields).
  bool finish(ByteReader& r, const char* what) {
    if (!r.ok()) return bad(std::string("truncated ") + what);
    if (!r.atEnd() && !allowExtra_) return bad(std::string("unexpected trailing bytes in ") + what);
    return true;
  }

  bool backendInfo(ByteReader& s, ContextBinaryContents* c) {
    s.u32(&c->backendId);
    s.str(&c->backendBuildId, kMaxStringLen);
    s.u32(&c->coreApiMajor);
    s.u32(&c->coreApiMinor);
    s.u32(&c->coreApiPatch);
    s.u32(&c->backendApiMajor);
    s.u32(&c->backendApiMinor);
    s.u32(&c->backendApiPatch);
    return finish(s, "backend info");
  }

  bool contextTensors(ByteReader& s, ContextBinaryContents* c) {
    uint32_t n;
    if (!s.count(&n, 8)) return bad("bad context tensor count");
    c->contextTensors.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      c->contextTensors.emplace_back();
      if (!tensor(s, &c->contextTensors.back(), kContextSection)) return false;
    }
    return finish(s, "context tensors section");
  }

  bool graph(ByteReader& s, GraphIR* g, uint32_t section) {
    if (!s.str(&g->name, kMaxStringLen)) return bad("bad graph name");
    s.u32(&g->priority);
    s.u32(&g->precision);
    uint32_t nt;
    if (!s.count(&nt, 8)) return bad("bad tensor count");
    for (uint32_t i = 0; i < nt; ++i) {
      TensorInfo t;
      if (!tensor(s, &t, section)) return false;
      uint32_t id = t.id;
      if (!g->tensors.emplace(id, std::move(t)).second) return bad("duplicate tensor id " + std::to_string(id));
    }
    uint32_t nn;
    if (!s.count(&nn, 8)) return bad("bad node count");
    g->nodes.reserve(nn);
    for (uint32_t i = 0; i < nn; ++i) {
      g->nodes.emplace_back();
      if (!node(s, *g, &g->nodes.back())) return false;
    }
    return finish(s, "graph section");
  }

  bool dims(ByteReader& r, std::vector<uint32_t>* d) {
    uint32_t rank;
    if (!r.count(&rank, 4)) return false;
    d->resize(rank);
    for (uint32_t& x : *d) r.u32(&x);
    return r.ok();
  }

  bool tensor(ByteReader& outer, TensorInfo* t, uint32_t section) {
    uint64_t len;
    ByteReader r;
    if (!outer.u64(&len) || len > outer.remaining() || !outer.sub(static_cast<size_t>(len), &r)) return bad("truncated tensor record");
    uint32_t kind = 0, dtype = 0;
    r.u32(&t->id);
    if (!r.str(&t->name, kMaxStringLen)) return bad("bad tensor name");
    const std::string who = "tensor '" + t->name + "'";
    r.u32(&kind);
    r.u32(&dtype);
    r.u32(&t->dataFormat);
    const char* quantError = nullptr;
    if (!binary::readQuant(r, &t->quant, &quantError)) return bad(who + ": " + quantError);
    if (kind > kMaxTensorKind) return bad(who + ": unknown kind " + std::to_string(kind));
    if (!dtypeAcceptable(dtype)) return bad(who + ": unknown dtype " + std::to_string(dtype));
    t->kind = static_cast<TensorKind>(kind);
    t->dtype = static_cast<DType>(dtype);
    if (!dims(r, &t->dims)) return bad(who + ": bad dims");
    if (const char* why = quantShapeMismatch(t->quant, t->dims)) return bad(who + ": " + why);
    uint8_t isCtx = 0;
    uint64_t dataLen = 0;
    r.u8(&isCtx);
    if (!r.u64(&dataLen)) return bad("truncated " + who);
    if (isCtx > 1) return bad(who + ": bad isContextTensor flag");
    t->isContextTensor = isCtx != 0;
    if (dataLen > r.remaining()) return bad(who + ": static data longer than the record");
    size_t expected;
    if (!expectedBytes(t->dims, t->dtype, &expected)) return bad(who + ": dims product overflows");
    std::vector<uint8_t> data;
    r.bytes(static_cast<size_t>(dataLen), &data);
    if (!data.empty()) t->staticData = std::move(data);
    uint8_t updateable = 0, shared = 0;
    if (fileMinor_ >= 1 && !r.u8(&updateable)) return bad("truncated " + who);
    if (updateable > 1) return bad(who + ": bad updateable flag");
    t->updateable = updateable != 0;
    if (fileMinor_ >= 2 && !r.u8(&shared)) return bad("truncated " + who);
    if (shared > 1) return bad(who + ": bad shared-data flag");
    if (shared) {
      PendingShare p{section, t->id, {}, expected};
      if (!r.u32(&p.from.section) || !r.u32(&p.from.tensorId)) return bad("truncated " + who);
      if (t->kind != TensorKind::kStatic || dataLen != 0) return bad(who + ": shared data on a non-static tensor or with data");
      pending_.push_back(p);
    }
    uint8_t external = 0;
    uint64_t offset = 0;
    if (fileMinor_ >= kMinorRegion && !r.u8(&external)) return bad("truncated " + who);
    if (external > 1) return bad(who + ": bad weights-region flag");
    if (external) {
      if (!r.u64(&offset)) return bad("truncated " + who);
      if (t->kind != TensorKind::kStatic || dataLen != 0 || shared)
        return bad(who + ": weights-region data on a non-static tensor, with data or shared");
      if (offset > regionSize_ || expected > regionSize_ - offset)
        return bad(who + ": " + std::to_string(expected) + " bytes at weights region offset " + std::to_string(offset) +
                   " lie outside the region (" + std::to_string(regionSize_) + " bytes)");
      external_.push_back({section, t->id, offset, expected});
    } else if (!shared && (t->kind == TensorKind::kStatic || dataLen != 0) && dataLen != expected) {
      return bad(who + ": static data size " + std::to_string(dataLen) + " != dims product * dtype size " +
                 std::to_string(expected));
    }
    return finish(r, "tensor record");
  }

  bool param(ByteReader& outer, OpParams* params) {
    uint64_t len;
    ByteReader r;
    if (!outer.u64(&len) || len > outer.remaining() || !outer.sub(static_cast<size_t>(len), &r)) return bad("truncated param record");
    std::string name;
    if (!r.str(&name, kMaxStringLen)) return bad("bad param name");
    const std::string who = "param '" + name + "'";
    ParamValue p;
    uint8_t isTensor = 0;
    uint32_t dtype = 0;
    const uint8_t* raw = nullptr;
    r.u8(&isTensor);
    r.u32(&dtype);
    if (!r.view(8, &raw)) return bad("truncated " + who);
    if (isTensor > 1) return bad(who + ": bad isTensor flag");
    if (!dtypeAcceptable(dtype)) return bad(who + ": unknown dtype " + std::to_string(dtype));
    p.isTensor = isTensor != 0;
    p.dtype = static_cast<DType>(dtype);
    std::memcpy(&p.scalar, raw, 8);
    if (!dims(r, &p.dims)) return bad(who + ": bad dims");
    uint64_t dataLen = 0;
    if (!r.u64(&dataLen)) return bad("truncated " + who);
    if (dataLen > r.remaining()) return bad(who + ": data longer than the record");
    if (p.isTensor) {
      size_t expected;
      if (!expectedBytes(p.dims, p.dtype, &expected)) return bad(who + ": dims product overflows");
      if (dataLen != expected)
        return bad(who + ": data size " + std::to_string(dataLen) + " != dims product * dtype size " +
                   std::to_string(expected));
    }
    r.bytes(static_cast<size_t>(dataLen), &p.data);
    if (!finish(r, "param record")) return false;
    if (params->has(name)) return bad("duplicate " + who);
    params->set(name, std::move(p));
    return true;
  }

  bool ids(ByteReader& r, const GraphIR& g, const std::string& who, std::vector<uint32_t>* out) {
    uint32_t n;
    if (!r.count(&n, 4)) return bad(who + ": bad tensor id count");
    out->resize(n);
    for (uint32_t& id : *out) {
      if (!r.u32(&id)) return bad("truncated " + who);
      if (!g.findTensor(id)) return bad(who + " references unknown tensor id " + std::to_string(id));
    }
    return true;
  }

  bool node(ByteReader& outer, const GraphIR& g, NodeInfo* n) {
    uint64_t len;
    ByteReader r;
    if (!outer.u64(&len) || len > outer.remaining() || !outer.sub(static_cast<size_t>(len), &r)) return bad("truncated node record");
    if (!r.str(&n->name, kMaxStringLen) || !r.str(&n->packageName, kMaxStringLen) ||
        !r.str(&n->typeName, kMaxStringLen))
      return bad("bad node name/package/type");
    const std::string who = "node '" + n->name + "'";
    uint32_t np;
    if (!r.count(&np, 8)) return bad(who + ": bad param count");
    for (uint32_t i = 0; i < np; ++i)
      if (!param(r, &n->params)) return false;
    if (!ids(r, g, who, &n->inputIds) || !ids(r, g, who, &n->outputIds)) return false;
    return finish(r, "node record");
  }

  bool allowExtra_;
  uint16_t fileMinor_;
  uint64_t regionSize_;
  std::string detail_;
};

template <typename F>
Status guarded(F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfMemory, "context binary: out of memory");
  } catch (const std::length_error&) {
    return Status(StatusCode::kOutOfMemory, "context binary: out of memory");
  } catch (const std::exception& e) {
    return internalError(std::string("context binary: ") + e.what());
  } catch (...) {
    return internalError("context binary: unexpected exception");
  }
}

}  // namespace

Status writeContextBinary(const ContextBinaryContents& contents, std::vector<uint8_t>* out,
                          const ContextBinaryWriteOptions& options) {
  if (!out) return invalidArgument("context binary: null output");
  return guarded([&] { return writeImpl(contents, out, options); });
}

Status validateContextBinary(const void* data, size_t size) {
  if (!data && size != 0) return invalidArgument("context binary: null buffer");
  return guarded([&]() -> Status {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    Header h;
    QNN_SDK_RETURN_IF_ERROR(parseCheckedHeader(p, size, &h));
    return checkRegionCrc(p, h);
  });
}

Status contextBinaryWeightsRegion(const void* data, size_t size, uint64_t* offset, uint64_t* regionSize) {
  if ((!data && size != 0) || !offset || !regionSize) return invalidArgument("context binary: null argument");
  return guarded([&]() -> Status {
    Header h;
    QNN_SDK_RETURN_IF_ERROR(parseHeader(static_cast<const uint8_t*>(data), size, &h));
    *offset = h.weightsOffset;
    *regionSize = h.weightsSize;
    return Status::ok();
  });
}

Status readContextBinary(const void* data, size_t size, ContextBinaryContents* out,
                         const WeightsRegionProvider& provider) {
  if (!out) return invalidArgument("context binary: null output");
  if (!data && size != 0) return invalidArgument("context binary: null buffer");
  return guarded([&]() -> Status {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    Header h;
    QNN_SDK_RETURN_IF_ERROR(parseCheckedHeader(p, size, &h));
    std::vector<uint8_t> payload;
    QNN_SDK_RETURN_IF_ERROR(decodePayload(p + h.headerSize, h, &payload));
    ContextBinaryContents c;
    PayloadParser parser(h.minor, h.weightsSize);
    QNN_SDK_RETURN_IF_ERROR(parser.parse(payload, &c));
    payload = {};
    std::shared_ptr<const uint8_t> region;
    if (parser.needsRegion()) {
      if (provider) {
        QNN_SDK_RETURN_IF_ERROR(provider(h.weightsOffset, h.weightsSize, &region));
        if (!region) return internalError("context binary: the weights region provider gave no memory");
      } else {
        if (!h.regionInBuffer)
          return corrupt("the weights region (" + std::to_string(h.weightsSize) + " bytes at offset " +
                         std::to_string(h.weightsOffset) + ") is not in the buffer");
        QNN_SDK_RETURN_IF_ERROR(checkRegionCrc(p, h));
        auto copy = std::make_shared<std::vector<uint8_t>>(p + h.weightsOffset, p + h.weightsOffset + h.weightsSize);
        region = std::shared_ptr<const uint8_t>(copy, copy->data());
      }
    }
    QNN_SDK_RETURN_IF_ERROR(parser.resolve(&c, region));
    *out = std::move(c);
    return Status::ok();
  });
}

}  // namespace qnn::sdk
