#include "adapters/client_datatypes.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace qnn::sdk {
namespace {

// Values of the public Qnn_DataType_t (docs/api-facts-post-2.7.md, API 2.39's
// QnnTypes.h); the core keeps no copy of the header, so they are spelled out here once.
constexpr uint32_t kBFloat16 = 0x0226, kFloat64 = 0x0264, kString = 0x0608;
constexpr uint32_t kInt2 = 0x0002, kInt4 = 0x0004, kUInt2 = 0x0102, kUInt4 = 0x0104, kFloat4 = 0x0204,
                   kFloat8 = 0x0208, kSFixed2 = 0x0302, kSFixed4 = 0x0304, kUFixed2 = 0x0402, kUFixed4 = 0x0404;

constexpr struct {
  uint32_t raw;
  const char* name;
  uint32_t bits;   // packed element width; 0: one element per byte
  DType storage;   // the form the record keeps
} kNarrow[] = {
    {kInt2, "INT_2", 2, DType::kInt8},
    {kInt4, "INT_4", 4, DType::kInt8},
    {kUInt2, "UINT_2", 2, DType::kUInt8},
    {kUInt4, "UINT_4", 4, DType::kUInt8},
    {kFloat4, "FLOAT_4", 4, DType::kFloat32},
    {kFloat8, "FLOAT_8", 0, DType::kFloat32},
    {kSFixed2, "SFIXED_POINT_2", 2, DType::kSFixed8},
    {kSFixed4, "SFIXED_POINT_4", 4, DType::kSFixed8},
    {kUFixed2, "UFIXED_POINT_2", 2, DType::kUFixed8},
    {kUFixed4, "UFIXED_POINT_4", 4, DType::kUFixed8},
};

}  // namespace

uint32_t packedBits(uint32_t raw) {
  for (const auto& n : kNarrow)
    if (n.raw == raw) return n.bits;
  return 0;
}

bool isMiniFloat(uint32_t raw) { return raw == kFloat8 || raw == kFloat4; }

DType storageDType(uint32_t raw) {
  for (const auto& n : kNarrow)
    if (n.raw == raw) return n.storage;
  return static_cast<DType>(raw);
}

std::string qnnDatatypeName(uint32_t raw) {
  switch (raw) {
    case kBFloat16: return "BFLOAT_16";
    case kFloat64: return "FLOAT_64";
    case kString: return "STRING";
    default: break;
  }
  for (const auto& n : kNarrow)
    if (n.raw == raw) return n.name;
  if (dtypeIsKnown(raw) || raw == static_cast<uint32_t>(DType::kUndefined)) return dtypeName(static_cast<DType>(raw));
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04x", raw);
  return hex;
}

uint64_t packedBytes(uint64_t elements, uint32_t bits) {
  if (bits == 0 || bits >= 8) return elements;
  const uint64_t perByte = 8 / bits;
  return (elements + perByte - 1) / perByte;
}

std::vector<uint8_t> unpackBits(const uint8_t* packed, size_t elements, uint32_t bits, bool isSigned) {
  std::vector<uint8_t> out(elements);
  const size_t perByte = 8 / bits;
  const uint8_t mask = uint8_t((1u << bits) - 1), sign = uint8_t(1u << (bits - 1));
  for (size_t i = 0; i < elements; ++i) {
    const uint8_t v = uint8_t(packed[i / perByte] >> ((i % perByte) * bits)) & mask;
    out[i] = (isSigned && (v & sign)) ? uint8_t(v | ~mask) : v;
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

const char* miniFloatName(MiniFloat f) {
  switch (f) {
    case MiniFloat::kE4M3: return "E4M3";
    case MiniFloat::kE5M2: return "E5M2";
    case MiniFloat::kE2M1: return "E2M1";
  }
  return "?";
}

double decodeMiniFloat(MiniFloat f, uint8_t bits) {
  int expBits = 4, manBits = 3;
  if (f == MiniFloat::kE5M2) expBits = 5, manBits = 2;
  if (f == MiniFloat::kE2M1) expBits = 2, manBits = 1, bits &= 0x0f;
  const int total = 1 + expBits + manBits, bias = (1 << (expBits - 1)) - 1;
  const uint32_t man = bits & ((1u << manBits) - 1), expField = (bits >> manBits) & ((1u << expBits) - 1);
  const bool negative = (bits >> (total - 1)) & 1;
  const uint32_t expMax = (1u << expBits) - 1;
  double magnitude;
  if (f == MiniFloat::kE5M2 && expField == expMax) {
    magnitude = man == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (f == MiniFloat::kE4M3 && expField == expMax && man == (1u << manBits) - 1) {
    magnitude = std::numeric_limits<double>::quiet_NaN();
  } else if (expField == 0) {  // subnormal: 0.m x 2^(1 - bias)
    magnitude = std::ldexp(double(man), 1 - bias - manBits);
  } else {
    magnitude = std::ldexp(double((1u << manBits) | man), int(expField) - bias - manBits);
  }
  return negative ? -magnitude : magnitude;
}

double decodeE8M0(uint8_t bits) {
  if (bits == 0xff) return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, int(bits) - 127);
}

std::vector<float> decodeMiniFloats(MiniFloat f, const uint8_t* data, size_t elements,
                                    const std::vector<uint32_t>& dims, const MxBlocks* mx) {
  std::vector<float> out(elements);
  const size_t rank = dims.size();
  std::vector<uint32_t> index(rank, 0), grid(rank, 1);
  if (mx)
    for (size_t d = 0; d < rank; ++d) grid[d] = (dims[d] + mx->blockDims[d] - 1) / mx->blockDims[d];
  for (size_t i = 0; i < elements; ++i) {
    const uint8_t bits = f == MiniFloat::kE2M1 ? uint8_t(data[i / 2] >> ((i % 2) * 4)) : data[i];
    double v = decodeMiniFloat(f, bits);
    if (mx) {
      size_t block = 0;
      for (size_t d = 0; d < rank; ++d) block = block * grid[d] + index[d] / mx->blockDims[d];
      v *= mx->scales[block];
      for (size_t d = rank; d-- > 0;) {  // next element's index, row-major
        if (++index[d] < dims[d]) break;
        index[d] = 0;
      }
    }
    out[i] = static_cast<float>(v);
  }
  return out;
}

}  // namespace qnn::sdk
