// qnn-trace-to-c: writes the replay program of a Saver trace (saver_output.c
// and params.bin, docs/saver-output-c.md) -- the same files the Saver writes
// itself, e.g. for the trace a killed process left behind. A damaged trace
// tail is reported as a warning and the readable prefix converted.
#include <cstdio>
#include <filesystem>

#include "tools/common/arg_parser.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "trace/cgen/trace_to_c.h"
#include "trace/trace_reader.h"

namespace {

constexpr const char* kTool = "qnn-trace-to-c";

// The flags it takes.
qnn::tools::ArgParser parser() {
  using namespace qnn::tools;
  return {kTool, "Writes saver_output.c and params.bin replaying a QNN Saver trace.",
          withVersionAndHelp(
              {{"trace", true, "FILE", "trace to convert (required)"},
               {"output_dir", true, "DIR", "where to write the files (default: .)", "o"},
               {"source_name", true, "NAME", "name of the C file (default: as recorded, else saver_output.c)"},
               {"params_name", true, "NAME", "name of the data file (default: as recorded, else params.bin)"}})};
}

int run(const qnn::tools::ArgParser& args) {
  using namespace qnn::tools;
  args.require("trace");
  qnn::trace::Trace trace;
  if (!qnn::trace::readTrace(args.value("trace"), trace)) {
    if (trace.calls.empty()) throw ToolError(args.value("trace") + ": " + trace.error);
    std::fprintf(stderr, "%s: warning: %s at offset %llu; converting the %zu calls before it\n", kTool,
                 trace.error.c_str(), (unsigned long long)trace.errorOffset, trace.calls.size());
  }
  qnn::trace::ReplayProgramFiles files = qnn::trace::replayProgramFilesOf(trace);
  files.source = args.value("source_name", files.source);
  files.params = args.value("params_name", files.params);
  std::string dir = args.value("output_dir", ".");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::string error;
  if (!qnn::trace::writeReplayProgram(trace, dir, files, &error)) throw ToolError(error);
  std::printf("wrote %s and %s (%zu calls)\n", (std::filesystem::path(dir) / files.source).string().c_str(),
              (std::filesystem::path(dir) / files.params).string().c_str(), trace.calls.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return qnn::tools::runToolWithArgs(argc, argv, parser(), run); }
