// qnn-profile-viewer: reads a profiling log written by the run tools
// (docs/profiling-log-format.md), prints a summary and, with --output, writes a
// Chrome trace; with --html, a self-contained HTML report (html_report.h).
// Every failure is one "qnn-profile-viewer: error: ..." line and
// exit 1; the trace is written only after the whole log was read.
#include <cstdio>

#include "tools/common/arg_parser.h"
#include "tools/common/output_path.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "tools/qnn-profile-viewer/chrome_trace.h"
#include "tools/qnn-profile-viewer/html_report.h"
#include "profile_log/profile_log.h"
#include "tools/qnn-profile-viewer/profile_summary.h"

namespace {

constexpr const char* kTool = "qnn-profile-viewer";

// The flags it takes.
qnn::tools::ArgParser parser() {
  using namespace qnn::tools;
  return {kTool, "Summarizes a profiling log and converts it to a Chrome trace.",
          withVersionAndHelp(
              {{"input_log", true, "FILE", "profiling log to read (required)"},
               {"output", true, "FILE", "write a Chrome trace-event JSON here (opens in Perfetto)"},
               {"html", true, "FILE", "write a self-contained HTML report here (summary, sortable op table, charts)"},
               {"reader", true, "LIB", "custom reader library (not supported by OpenQNN)"}})};
}

int run(const qnn::tools::ArgParser& args) {
  using namespace qnn::tools;
  // A reader plugin's interface is vendor-defined and undocumented: refuse it
  // rather than guess at an ABI.
  if (args.has("reader"))
    throw ToolError("custom readers are not supported (--reader " + args.value("reader") +
                    "); logs are read in the openqnn-profile format");
  args.require("input_log");
  const std::string outputPath = args.value("output");
  if (!outputPath.empty()) requireParentDirectory(outputPath);
  const std::string htmlPath = args.value("html");
  if (!htmlPath.empty()) requireParentDirectory(htmlPath);

  const std::vector<uint8_t> bytes = readBinaryFile(args.value("input_log"));
  qnn::sdk::ProfileLog log;
  const qnn::sdk::Status read = qnn::sdk::readProfileLog(std::string(bytes.begin(), bytes.end()), &log);
  if (!read.isOk()) throw ToolError("'" + args.value("input_log") + "': " + read.message());
  const std::string summary = formatProfileSummary(log);
  if (!outputPath.empty()) {
    const std::string trace =
        chromeTrace(log).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    writeBinaryFile(outputPath, trace.data(), trace.size());
  }
  if (!htmlPath.empty()) {
    const std::string page = htmlReport(log, args.value("input_log"));
    writeBinaryFile(htmlPath, page.data(), page.size());
  }
  std::fputs(summary.c_str(), stdout);
  if (!outputPath.empty()) std::printf("\nChrome trace written to %s\n", outputPath.c_str());
  if (!htmlPath.empty()) std::printf("HTML report written to %s\n", htmlPath.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return qnn::tools::runToolWithArgs(argc, argv, parser(), run); }
