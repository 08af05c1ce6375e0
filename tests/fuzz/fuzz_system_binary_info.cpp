// libFuzzer harness: QnnSystemContext_getBinaryInfo's parser (libQnnSystem.so's SystemContextObject),
// which builds the client-visible info tree (graphs, tensors, encodings) from a context binary.
#include <cstddef>
#include <cstdint>

#include "system/system_context.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  qnn::system::SystemContextObject ctx;
  const qnn::system::BinaryInfoStorage* info = nullptr;
  (void)ctx.parse(data, size, &info);
  return 0;
}
