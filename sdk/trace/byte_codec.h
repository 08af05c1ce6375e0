// Little-endian fixed-width integers for the trace encoder and decoder.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace qnn::trace {

template <typename T>
inline void putLE(std::vector<uint8_t>& out, T v) {
  for (size_t k = 0; k < sizeof(T); ++k) out.push_back(uint8_t(uint64_t(v) >> (8 * k)));
}

template <typename T>
inline bool getLE(const uint8_t*& p, const uint8_t* end, T& v) {
  if (size_t(end - p) < sizeof(T)) return false;
  uint64_t r = 0;
  for (size_t k = 0; k < sizeof(T); ++k) r |= uint64_t(p[k]) << (8 * k);
  v = T(r);
  p += sizeof(T);
  return true;
}

}  // namespace qnn::trace
