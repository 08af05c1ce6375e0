// The fixed part of every generated replay program: loading the backend,
// params.bin, the command line, error reporting and the helpers the generated
// calls use. Plain C99 on POSIX, public QNN API names only (and, when the
// backend exports it, OpenQNN's OpenQnn_getProvidersForClientApi). The parts that
// name newer types or members are left out when the recording has no use for
// them, so the file builds against the headers of the recorded client's API.
#include "trace/cgen/c_prelude.h"

// The parts are the files prelude/*.c.in, compiled in by the build (cmake/EmbedText.cmake).
namespace qnn::trace::cgen::prelude {

// Up to check()'s error message lookup.
extern const char* const kHead;  // prelude/head.c.in

// QnnError_getMessage: API 2.11 and later.
extern const char* const kErrorMessage;  // prelude/error_message.c.in

// From the end of check() to the binary callback helpers.
extern const char* const kHelpers;  // prelude/helpers.c.in

// Qnn_ContextBinaryCallback_t helpers, for recordings that load binaries through callbacks.
extern const char* const kBinaryCallbacks;  // prelude/binary_callbacks.c.in

// contextCreateFromBinaryListAsync (API 2.17 and later) helpers.
extern const char* const kListLoads;  // prelude/list_loads.c.in

// The members API 2.39 appended, for recordings that call them.
extern const char* const kApi2_39;  // prelude/api_2_39.c.in

// Outputs, registered memory, async executes, params.bin, the backend and main().
extern const char* const kTail;  // prelude/tail.c.in

}  // namespace qnn::trace::cgen::prelude

namespace qnn::trace::cgen {

std::string cPrelude(const PreludeParts& parts) {
  using namespace prelude;
  std::string text = kHead;
  if (parts.errorMessages) text += kErrorMessage;
  text += kHelpers;
  if (parts.binaryCallbacks) text += kBinaryCallbacks;
  if (parts.listLoads) text += kListLoads;
  if (parts.api2_39) text += kApi2_39;
  return text + kTail;
}

}  // namespace qnn::trace::cgen
