// Size of registered memory as the trace describes it (memDescriptors: dims and
// a QNN data type), shared by the Saver, the C generator and qnn-trace-replay.
#pragma once

#include <cstddef>
#include <cstdint>

namespace qnn::trace {

// Bytes of `elements` values of a QNN data type: its low byte is the bit width
// in hex digits (0x0232 FLOAT_32 is 32 bits, 0x0008 INT_8 is 8).
inline size_t qnnDataBytes(uint32_t dataType, size_t elements) {
  uint32_t low = dataType & 0xff;
  size_t bits = (low >> 4) * 10 + (low & 0xf);
  return (elements * (bits ? bits : 8) + 7) / 8;
}

}  // namespace qnn::trace
