// qnn-trace-dump: prints every call of a Saver trace with its arguments, and
// with --json writes the same as JSON. A truncated or corrupt trace prints the
// calls that decoded, then one "qnn-trace-dump: error: ..." line, exit 1.
#include <cstdio>
#include <fstream>

#include "tools/common/arg_parser.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "trace/trace_reader.h"
#include "trace/trace_text.h"

namespace {

constexpr const char* kTool = "qnn-trace-dump";

// The flags it takes.
qnn::tools::ArgParser parser() {
  using namespace qnn::tools;
  return {kTool, "Prints the calls recorded in a QNN Saver trace (saver_output.qnntrace).",
          withVersionAndHelp({{"trace", true, "FILE", "trace to read (required)"},
                              {"json", true, "FILE", "also write the calls as JSON here"}})};
}

int run(const qnn::tools::ArgParser& args) {
  using namespace qnn::tools;
  args.require("trace");
  qnn::trace::Trace trace;
  qnn::trace::readTrace(args.value("trace"), trace);
  if (trace.version != 0) std::printf("trace version %u\n", trace.version);
  uint32_t major = 0, minor = 0;
  if (trace.clientApi(&major, &minor)) std::printf("client API %u.%u\n", major, minor);
  for (const auto& call : trace.calls) std::printf("%s\n", qnn::trace::callToText(call).c_str());
  if (trace.version != 0)
    std::printf("%zu calls, %zu data blobs\n", trace.calls.size(), trace.blobs.size());
  std::fflush(stdout);
  if (args.has("json")) {
    std::ofstream out(args.value("json"));
    if (!out || !(out << qnn::trace::traceToJson(trace) << '\n')) throw ToolError("cannot write " + args.value("json"));
  }
  if (!trace.ok())
    throw ToolError(args.value("trace") + ": " + trace.error + " at offset " + std::to_string(trace.errorOffset) +
                    " (" + std::to_string(trace.calls.size()) + " calls before it were read)");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return qnn::tools::runToolWithArgs(argc, argv, parser(), run); }
