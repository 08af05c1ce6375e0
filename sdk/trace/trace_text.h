// Text and JSON renderings of decoded calls, shared by qnn-trace-dump and tests.
#pragma once

#include <string>

#include "trace/trace_reader.h"

namespace qnn::trace {

// One line per call: "#seq QnnGraph_execute(graph=@3, ...) -> 0".
std::string callToText(const CallRecord& call);
// The whole trace as JSON text: {"version", "calls": [...], "error"}.
std::string traceToJson(const Trace& trace);

}  // namespace qnn::trace
