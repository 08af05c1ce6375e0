#include "runtime/later_datatypes.h"

#include <cstdio>
#include <cstring>

namespace qnn::sdk {
namespace {

// Values of the public Qnn_DataType_t (docs/api-facts-post-2.7.md); the core keeps
// no copy of the header, so they are spelled out here once.
constexpr uint32_t kBFloat16 = 0x0226, kFloat64 = 0x0264, kSFixed4 = 0x0304, kUFixed4 = 0x0404, kString = 0x0608;
// Named by API 2.39's QnnTypes.h; no backend computes on them yet.
constexpr struct {
  uint32_t raw;
  const char* name;
} kNamedOnly[] = {{0x0002, "INT_2"},   {0x0004, "INT_4"},   {0x0102, "UINT_2"},         {0x0104, "UINT_4"},
                  {0x0204, "FLOAT_4"}, {0x0208, "FLOAT_8"}, {0x0302, "SFIXED_POINT_2"}, {0x0402, "UFIXED_POINT_2"}};

}  // namespace

bool isPacked4Bit(uint32_t raw) { return raw == kSFixed4 || raw == kUFixed4; }

DType storageDType(uint32_t raw) {
  if (raw == kSFixed4) return DType::kSFixed8;
  if (raw == kUFixed4) return DType::kUFixed8;
  return static_cast<DType>(raw);
}

std::string qnnDatatypeName(uint32_t raw) {
  switch (raw) {
    case kBFloat16: return "BFLOAT_16";
    case kFloat64: return "FLOAT_64";
    case kSFixed4: return "SFIXED_POINT_4";
    case kUFixed4: return "UFIXED_POINT_4";
    case kString: return "STRING";
    default: break;
  }
  for (const auto& n : kNamedOnly)
    if (n.raw == raw) return n.name;
  if (dtypeIsKnown(raw) || raw == static_cast<uint32_t>(DType::kUndefined)) return dtypeName(static_cast<DType>(raw));
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04x", raw);
  return hex;
}

uint64_t packed4BitBytes(uint64_t elements) { return (elements + 1) / 2; }

std::vector<uint8_t> unpack4Bit(const uint8_t* packed, size_t elements, bool isSigned) {
  std::vector<uint8_t> out(elements);
  for (size_t i = 0; i < elements; ++i) {
    const uint8_t nibble = (i % 2 == 0) ? (packed[i / 2] & 0x0f) : (packed[i / 2] >> 4);
    out[i] = (isSigned && (nibble & 0x8)) ? static_cast<uint8_t>(nibble | 0xf0) : nibble;
  }
  return out;
}

Status normalizeNarrowValues(const std::string& what, DType dtype, uint32_t bitwidth, uint8_t* data, size_t bytes) {
  const size_t size = dtypeSize(dtype);
  const unsigned width = unsigned(size * 8);
  if (!dtypeIsFixedPoint(dtype) || bitwidth == 0 || bitwidth >= width || width > 32) return Status::ok();
  const bool isSigned = dtypeIsSigned(dtype);
  const uint32_t containerMask = width == 32 ? 0xffffffffu : (1u << width) - 1;
  const uint32_t low = (1u << bitwidth) - 1, signBit = 1u << (bitwidth - 1);
  for (size_t i = 0; i + size <= bytes; i += size) {
    uint32_t v = 0;
    std::memcpy(&v, data + i, size);  // little-endian host, as every buffer of the API
    const uint32_t value = v & low;
    const uint32_t extended = (isSigned && (value & signBit)) ? (value | ~low) & containerMask : value;
    if (v != value && v != extended) {
      const int64_t lo = isSigned ? -int64_t(signBit) : 0, hi = isSigned ? int64_t(signBit) - 1 : int64_t(low);
      char hex[12];
      std::snprintf(hex, sizeof hex, "0x%x", v);
      return invalidTensor(what + ": element " + std::to_string(i / size) + " of the static data (" + hex +
                           ") is outside the " + std::to_string(bitwidth) + "-bit range " + std::to_string(lo) +
                           ".." + std::to_string(hi) + " of its encoding (neither the value nor its low " +
                           std::to_string(bitwidth) + " bits with the upper bits cleared)");
    }
    std::memcpy(data + i, &extended, size);
  }
  return Status::ok();
}

}  // namespace qnn::sdk
