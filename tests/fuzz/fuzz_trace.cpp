// libFuzzer harness: a Saver trace from memory through the decoder under qnn-trace-dump and
// qnn-trace-replay (blocks, their compression and CRCs, records, values).
#include <cstddef>
#include <cstdint>

#include "trace/trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  qnn::trace::Trace trace;
  (void)qnn::trace::readTraceBuffer(data, size, trace);
  return 0;
}
