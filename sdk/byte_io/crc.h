// zlib's crc32 over buffers of any size (crc32 takes a uInt length, so large
// buffers go in chunks). Shared by the context-binary, binary-section, DLC and trace formats.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>

namespace qnn::sdk::binary {

inline uint32_t crc32Of(const uint8_t* p, size_t n) {
  uLong c = crc32(0L, Z_NULL, 0);
  while (n > 0) {
    uInt chunk = n > (1u << 30) ? (1u << 30) : static_cast<uInt>(n);
    c = crc32(c, p, chunk);
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

// Whether a stored checksum matches the computed one. Fuzzing builds (-DQNN_FUZZ=ON define
// QNN_FUZZING) accept every checksum, so mutated inputs reach the parsing behind it; every other
// build compares.
inline bool checksumMatches(uint32_t computed, uint32_t stored) {
#ifdef QNN_FUZZING
  (void)computed, (void)stored;
  return true;
#else
  return computed == stored;
#endif
}

}  // namespace qnn::sdk::binary
