#include "runtime/later_datatypes.h"

#include <cstdio>

namespace qnn::sdk {
namespace {

// Values of the public Qnn_DataType_t (docs/api-facts-post-2.7.md); the core keeps
// no copy of the header, so they are spelled out here once.
constexpr uint32_t kBFloat16 = 0x0226, kFloat64 = 0x0264, kSFixed4 = 0x0304, kUFixed4 = 0x0404, kString = 0x0608;

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

}  // namespace qnn::sdk
