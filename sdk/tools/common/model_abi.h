// Which QNN API a model library was compiled against, and the by-value interface table
// its compose function expects.
//
// <prefix>_composeGraphs takes QNN_INTERFACE_VER_TYPE by value: a struct of N function
// pointers whose N (and, before API 2.9, member order; before 2.14, tensor layout) is the one
// of the headers the library was built with. On x86_64 the struct is passed in the caller's
// stack argument area and the later stack arguments (debug, log callback, log level) follow
// it, so a caller with another N hands the library a wrong `debug` and log callback.
//
// The library holds no version string (the vendor's generator compiles none in). What it does
// hold is the compose function's own machine code, which finds its `debug` argument N·8 bytes
// past the table. modelApiOf() reads that distance (x86_64 only: the function's .eh_frame rule
// locates the table relative to %rsp/%rbp at each instruction, and the first 8- or 32-bit load
// past it is the read of `debug`), or takes QNN_OPENQNN_MODEL_API=2.<minor> from the
// environment, which always wins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/common/model_library.h"

namespace qnn::tools {

struct ModelApi {
  uint32_t minor = QNN_API_VERSION_MINOR;  // core API 2.<minor> the library was built against
  size_t members = 0;                      // members of its by-value interface table
  std::string how;                         // how that was established, for the log
  bool certain = true;                     // false: a guess the log should flag
};

// The API of the compose function at `composeFn` (an address inside a loaded library).
// `fromDlc`: <prefix>_composeGraphsFromDlc, whose pointer argument numGraphsInfo also goes on the
// stack, between the table and `debug`. Throws ToolError for a QNN_OPENQNN_MODEL_API naming a
// version without a known table.
ModelApi modelApiOf(const void* composeFn, bool fromDlc = false);

// Table size measured in the compose function's code: the byte distance from the by-value
// table to its read of `debug`, less `bytesBeforeDebug` (stack arguments in between), or 0
// when the code does not show it (another architecture, no unwind table, no such read).
size_t measuredTableBytes(const void* composeFn, size_t bytesBeforeDebug = 0);

// The size of Qnn_Tensor_t the compose function passes by value (120 before API 2.14, 144 from
// 2.14 on), from the stack areas its calls reserve (128 or 144 bytes, 16-aligned); 0 when it
// passes none, both, or the code does not show it. Separates API 2.13 from 2.14 (same table).
size_t tensorArgumentArea(const void* composeFn);

}  // namespace qnn::tools
