// What the DLC reader (dlc_file.cpp) and writer (dlc_writer.cpp) share of the format
// (docs/dlc-format.md): the 64-byte preamble, its CRC, the alignment of the data region, the
// tensor types' names. Private to sdk/dlc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "QnnTypes.h"
#include "byte_io/crc.h"

namespace qnn::dlc::layout {

inline constexpr char kMagic[8] = {'O', 'Q', 'N', 'N', 'D', 'L', 'C', '\0'};
inline constexpr uint32_t kVersion = 1;
inline constexpr size_t kPreambleSize = 64;
inline constexpr size_t kAlign = 64;  // static data and context binaries start at multiples of it

// The preamble's fields after the magic, at their byte offsets.
struct Preamble {
  uint32_t version = kVersion;  // 8
  uint32_t flags = 0;           // 12
  uint64_t headerOffset = 0;    // 16: the zlib-compressed JSON header
  uint64_t headerSize = 0;      // 24: its compressed size
  uint64_t headerRawSize = 0;   // 32: its size decompressed
  uint32_t headerCrc = 0;       // 40: CRC-32 of the compressed header
  uint32_t preambleCrc = 0;     // 44: CRC-32 of the preamble without these 4 bytes
  uint64_t fileSize = 0;        // 48
  uint64_t reserved = 0;        // 56
};

inline uint32_t le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline uint64_t le64(const uint8_t* p) { return uint64_t(le32(p)) | uint64_t(le32(p + 4)) << 32; }
inline void put32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}
inline void put64(uint8_t* p, uint64_t v) {
  put32(p, uint32_t(v));
  put32(p + 4, uint32_t(v >> 32));
}

// CRC-32 of the preamble's bytes 0-43 and 48-63.
inline uint32_t preambleCrcOf(const uint8_t* p) {
  uint8_t covered[kPreambleSize - 4];
  std::memcpy(covered, p, 44);
  std::memcpy(covered + 44, p + 48, 16);
  return sdk::binary::crc32Of(covered, sizeof covered);
}

// The preamble of `pre` (kPreambleSize bytes); the CRC field as stored (preambleCrcOf checks it).
inline Preamble readPreamble(const uint8_t* pre) {
  Preamble p;
  p.version = le32(pre + 8), p.flags = le32(pre + 12);
  p.headerOffset = le64(pre + 16), p.headerSize = le64(pre + 24), p.headerRawSize = le64(pre + 32);
  p.headerCrc = le32(pre + 40), p.preambleCrc = le32(pre + 44);
  p.fileSize = le64(pre + 48), p.reserved = le64(pre + 56);
  return p;
}

// Writes magic and fields into `pre` (kPreambleSize bytes), the preamble CRC computed.
inline void writePreamble(const Preamble& p, uint8_t* pre) {
  std::memcpy(pre, kMagic, sizeof kMagic);
  put32(pre + 8, p.version), put32(pre + 12, p.flags);
  put64(pre + 16, p.headerOffset), put64(pre + 24, p.headerSize), put64(pre + 32, p.headerRawSize);
  put32(pre + 40, p.headerCrc);
  put64(pre + 48, p.fileSize), put64(pre + 56, p.reserved);
  put32(pre + 44, preambleCrcOf(pre));
}

// The header's names of the tensor types ("QNN_TENSOR_TYPE_STATIC", ...).
inline constexpr struct {
  Qnn_TensorType_t type;
  const char* name;
} kTensorTypes[] = {
    {QNN_TENSOR_TYPE_APP_WRITE, "QNN_TENSOR_TYPE_APP_WRITE"},
    {QNN_TENSOR_TYPE_APP_READ, "QNN_TENSOR_TYPE_APP_READ"},
    {QNN_TENSOR_TYPE_APP_READWRITE, "QNN_TENSOR_TYPE_APP_READWRITE"},
    {QNN_TENSOR_TYPE_NATIVE, "QNN_TENSOR_TYPE_NATIVE"},
    {QNN_TENSOR_TYPE_STATIC, "QNN_TENSOR_TYPE_STATIC"},
    {QNN_TENSOR_TYPE_NULL, "QNN_TENSOR_TYPE_NULL"},
    {QNN_TENSOR_TYPE_UPDATEABLE_STATIC, "QNN_TENSOR_TYPE_UPDATEABLE_STATIC"},
};
// nullptr for a type the format has no name for.
inline const char* tensorTypeName(Qnn_TensorType_t t) {
  for (const auto& e : kTensorTypes)
    if (e.type == t) return e.name;
  return nullptr;
}
// False for a name the format does not know.
inline bool tensorTypeFromName(const std::string& name, Qnn_TensorType_t* t) {
  for (const auto& e : kTensorTypes)
    if (name == e.name) return (*t = e.type), true;
  return false;
}

}  // namespace qnn::dlc::layout
