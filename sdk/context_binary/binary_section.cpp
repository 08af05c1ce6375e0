// The binary-section format (docs/context-binary-format.md, "Binary sections").
#include "context_binary/binary_section.h"

#include <zlib.h>

#include <cstring>
#include <exception>
#include <new>

#include "byte_io/byte_io.h"
#include "byte_io/crc.h"
#include "context_binary/quant_codec.h"
#include "core/quant_at.h"

namespace qnn::sdk {
namespace {

using binary::ByteReader;
using binary::ByteWriter;

constexpr uint8_t kMagic[8] = {'O', 'Q', 'N', 'N', 'S', 'E', 'C', '\0'};
constexpr uint16_t kMajor = 1;
constexpr uint16_t kMinor = 0;
// magic(8) major(2) minor(2) payloadCrc(4) payloadSize(8)
constexpr size_t kHeaderSize = 24;
constexpr size_t kMaxStringLen = 1u << 16;
constexpr uint32_t kMaxRank = 16;

Status corrupt(const std::string& what) { return corruptData("binary section: " + what); }

uint32_t crcOf(const uint8_t* p, size_t n) { return binary::crc32Of(p, n); }

void writeTensor(ByteWriter& w, const SectionTensor& s) {
  const TensorInfo& t = s.info;
  size_t rec = w.beginLen64();
  w.u32(t.id);
  w.str(t.name);
  w.u32(t.qnnTensorType());
  w.u32(static_cast<uint32_t>(t.dtype));
  w.u32(static_cast<uint32_t>(t.dims.size()));
  for (uint32_t d : t.dims) w.u32(d);
  w.u8(s.hasQuant ? 1 : 0);
  if (s.hasQuant) binary::writeQuant(w, t.quant);
  w.u8(s.hasData ? 1 : 0);
  if (s.hasData) {
    w.u64(t.staticData.size());
    w.bytes(t.staticData.data(), t.staticData.size());
  }
  w.endLen64(rec);
}

// The base kind of a Qnn_TensorType_t that a section may name (updateable ones).
bool kindOfUpdateableType(uint32_t type, TensorKind* kind) {
  switch (type) {
    case 6: *kind = TensorKind::kStatic; return true;
    case 7: *kind = TensorKind::kNative; return true;
    case 8: *kind = TensorKind::kAppWrite; return true;
    case 9: *kind = TensorKind::kAppRead; return true;
    case 10: *kind = TensorKind::kAppReadWrite; return true;
    default: return false;
  }
}

class Parser {
 public:
  explicit Parser(bool newerMinor) : allowExtra_(newerMinor) {}

  Status parse(ByteReader& r, BinarySection* out) {
    uint32_t kind = 0, nGraphs = 0;
    uint8_t updatable = 0;
    r.u32(&kind);
    r.u32(&out->backendId);
    r.u8(&updatable);
    if (!r.ok()) return corrupt("truncated section header");
    if (!sectionKindKnown(kind)) return corrupt("unknown section type " + std::to_string(kind));
    if (updatable > 1) return corrupt("bad updatable flag");
    out->kind = static_cast<SectionKind>(kind);
    out->updatable = updatable != 0;
    if (!r.count(&nGraphs, 9)) return corrupt("bad graph count");
    out->graphs.resize(nGraphs);
    for (SectionGraph& g : out->graphs) {
      uint8_t wu = 0;
      uint32_t nTensors = 0;
      if (!r.str(&g.name, kMaxStringLen) || !r.u8(&wu) || wu > 1) return corrupt("malformed graph entry");
      g.weightsUpdatable = wu != 0;
      if (!r.count(&nTensors, 8)) return corrupt("bad tensor count in graph '" + g.name + "'");
      g.tensors.resize(nTensors);
      for (SectionTensor& t : g.tensors)
        if (Status st = tensor(r, g.name, &t); !st.isOk()) return st;
    }
    if (!r.atEnd() && !allowExtra_) return corrupt("unexpected trailing bytes");
    return Status::ok();
  }

 private:
  Status tensor(ByteReader& outer, const std::string& graph, SectionTensor* s) {
    uint64_t len = 0;
    ByteReader r;
    if (!outer.u64(&len) || len > outer.remaining() || !outer.sub(static_cast<size_t>(len), &r))
      return corrupt("truncated tensor record in graph '" + graph + "'");
    TensorInfo& t = s->info;
    uint32_t type = 0, dtype = 0, rank = 0;
    uint8_t hasQuant = 0, hasData = 0;
    r.u32(&t.id);
    if (!r.str(&t.name, kMaxStringLen)) return corrupt("bad tensor name in graph '" + graph + "'");
    const std::string who = "tensor '" + t.name + "' of graph '" + graph + "'";
    r.u32(&type);
    r.u32(&dtype);
    if (!r.u32(&rank) || rank > kMaxRank) return corrupt(who + ": bad rank");
    t.dims.resize(rank);
    for (uint32_t& d : t.dims) r.u32(&d);
    if (!r.u8(&hasQuant) || hasQuant > 1) return corrupt(who + ": bad quantization flag");
    const char* quantError = nullptr;
    if (hasQuant && !binary::readQuant(r, &t.quant, &quantError)) return corrupt(who + ": " + quantError);
    if (const char* why = quantShapeMismatch(t.quant, t.dims)) return corrupt(who + ": " + why);
    if (!r.u8(&hasData) || hasData > 1) return corrupt(who + ": bad data flag");
    if (!kindOfUpdateableType(type, &t.kind)) return corrupt(who + ": tensor type " + std::to_string(type) + " is not updateable");
    if (!dtypeIsKnown(dtype)) return corrupt(who + ": unknown datatype " + std::to_string(dtype));
    t.updateable = true;
    t.dtype = static_cast<DType>(dtype);
    s->hasQuant = hasQuant != 0;
    s->hasData = hasData != 0;
    if (s->hasData) {
      uint64_t n = 0;
      if (!r.u64(&n) || n > r.remaining()) return corrupt(who + ": data longer than the record");
      uint64_t expected = dtypeSize(t.dtype);
      for (uint32_t d : t.dims) {
        if (d != 0 && expected > (uint64_t{1} << 40) / d) return corrupt(who + ": dims overflow");
        expected *= d;
      }
      if (n != expected) return corrupt(who + ": data is " + std::to_string(n) + " bytes, dims say " + std::to_string(expected));
      std::vector<uint8_t> data;
      r.bytes(static_cast<size_t>(n), &data);
      t.staticData = std::move(data);
    }
    if (!r.ok()) return corrupt("truncated " + who);
    if (!r.atEnd() && !allowExtra_) return corrupt(who + ": unexpected trailing bytes");
    return Status::ok();
  }

  bool allowExtra_;
};

}  // namespace

bool sectionKindKnown(uint32_t sectionType) { return sectionType >= 1 && sectionType <= 3; }

bool looksLikeBinarySection(const void* data, size_t size) {
  return data && size >= sizeof(kMagic) && std::memcmp(data, kMagic, sizeof(kMagic)) == 0;
}

Status writeBinarySection(const BinarySection& section, std::vector<uint8_t>* out) {
  if (!out) return invalidArgument("binary section: null output");
  try {
    std::vector<uint8_t> payload;
    ByteWriter w(&payload);
    w.u32(static_cast<uint32_t>(section.kind));
    w.u32(section.backendId);
    w.u8(section.updatable ? 1 : 0);
    w.u32(static_cast<uint32_t>(section.graphs.size()));
    for (const SectionGraph& g : section.graphs) {
      if (g.name.size() > kMaxStringLen) return invalidArgument("binary section: graph name too long");
      w.str(g.name);
      w.u8(g.weightsUpdatable ? 1 : 0);
      w.u32(static_cast<uint32_t>(g.tensors.size()));
      for (const SectionTensor& t : g.tensors) {
        if (t.info.name.size() > kMaxStringLen || t.info.dims.size() > kMaxRank || !t.info.updateable)
          return invalidArgument("binary section: tensor '" + t.info.name + "' cannot be stored");
        writeTensor(w, t);
      }
    }
    std::vector<uint8_t> bytes;
    ByteWriter h(&bytes);
    h.bytes(kMagic, sizeof(kMagic));
    h.u16(kMajor);
    h.u16(kMinor);
    h.u32(crcOf(payload.data(), payload.size()));
    h.u64(payload.size());
    bytes.insert(bytes.end(), payload.begin(), payload.end());
    *out = std::move(bytes);
    return Status::ok();
  } catch (const std::bad_alloc&) {
    return {StatusCode::kOutOfMemory, "binary section: out of memory"};
  }
}

Status readBinarySection(const void* data, size_t size, BinarySection* out) {
  if (!out) return invalidArgument("binary section: null output");
  if (!data) return invalidArgument("binary section: null buffer");
  try {
    const auto* p = static_cast<const uint8_t*>(data);
    if (size < kHeaderSize) return corrupt("truncated header (" + std::to_string(size) + " bytes)");
    if (!looksLikeBinarySection(p, size)) return corrupt("not a binary section (bad magic)");
    ByteReader h(p + sizeof(kMagic), kHeaderSize - sizeof(kMagic));
    uint16_t major = 0, minor = 0;
    uint32_t crc = 0;
    uint64_t payloadSize = 0;
    h.u16(&major);
    h.u16(&minor);
    h.u32(&crc);
    h.u64(&payloadSize);
    if (major != kMajor)
      return corrupt("unsupported format major version " + std::to_string(major) + " (this reader supports " +
                     std::to_string(kMajor) + ")");
    if (payloadSize != size - kHeaderSize)
      return corrupt("payload is " + std::to_string(size - kHeaderSize) + " bytes, the header says " +
                     std::to_string(payloadSize));
    if (!binary::checksumMatches(crcOf(p + kHeaderSize, payloadSize), crc)) return corrupt("payload CRC mismatch");
    ByteReader r(p + kHeaderSize, static_cast<size_t>(payloadSize));
    BinarySection s;
    QNN_SDK_RETURN_IF_ERROR(Parser(minor > kMinor).parse(r, &s));
    *out = std::move(s);
    return Status::ok();
  } catch (const std::bad_alloc&) {
    return {StatusCode::kOutOfMemory, "binary section: out of memory"};
  }
}

}  // namespace qnn::sdk
