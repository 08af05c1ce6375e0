// libFuzzer harness: a context binary from memory through the core's reader (header, payload, graphs,
// tensors, weights region) and the cheap validator every backend's QnnContext_validateBinary uses.
#include <cstddef>
#include <cstdint>

#include "context_binary/context_binary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)qnn::sdk::validateContextBinary(data, size);
  uint64_t offset = 0, regionSize = 0;
  (void)qnn::sdk::contextBinaryWeightsRegion(data, size, &offset, &regionSize);
  qnn::sdk::ContextBinaryContents contents;
  (void)qnn::sdk::readContextBinary(data, size, &contents);
  return 0;
}
