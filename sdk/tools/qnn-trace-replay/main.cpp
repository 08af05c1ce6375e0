// qnn-trace-replay: replays a Saver trace on a backend library with typed
// dispatch (no compiler needed). With --compare, every execute output recorded
// in the trace (pass-through recordings) is checked against the replay: exact
// for integer types, relative tolerance for float32; the first divergent call
// and tensor is reported and the exit code is 2.
#include <cstdio>

#include "runtime/providers.h"
#include "tools/common/arg_parser.h"
#include "tools/common/dynamic_library.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "tools/qnn-trace-replay/replayer.h"

namespace {

constexpr const char* kTool = "qnn-trace-replay";

// The flags it takes.
qnn::tools::ArgParser parser() {
  using namespace qnn::tools;
  return {kTool,
          "Replays a QNN Saver trace on a backend.",
          {{"trace", true, "FILE", "trace to replay (required)"},
           {"backend", true, "LIB", "backend library to replay on (required)"},
           {"compare", false, "", "compare execute outputs with the recorded ones"},
           {"tolerance", true, "X", "relative tolerance for float outputs (default 1e-5)"},
           {"help", false, "", "print this help and exit"}}};
}

int run(const qnn::tools::ArgParser& args) {
  using namespace qnn::tools;
  if (!args.has("trace") || !args.has("backend")) throw UsageError("--trace and --backend are required");
  qnn::trace::Trace trace;
  if (!qnn::trace::readTrace(args.value("trace"), trace)) {
    // A damaged tail is reported, and the readable prefix replayed.
    if (trace.calls.empty()) throw ToolError(args.value("trace") + ": " + trace.error);
    std::fprintf(stderr, "%s: warning: %s at offset %llu; replaying the %zu calls before it\n", kTool,
                 trace.error.c_str(), (unsigned long long)trace.errorOffset, trace.calls.size());
  }
  DynamicLibrary lib;
  if (!lib.open(args.value("backend"))) throw ToolError("cannot load " + args.value("backend"));
  // The backend's 2.39 table when it has one: the 2.39 calls of a trace are replayed too.
  qnn::sdk::InterfaceTable2_39 table{};
  const QnnInterface_t* provider = qnn::sdk::providerToCallThrough(
      reinterpret_cast<qnn::sdk::GetProvidersForApiFn>(lib.symbol("OpenQnn_getProvidersForClientApi")),
      reinterpret_cast<qnn::sdk::GetProvidersFn>(lib.symbol("QnnInterface_getProviders")), &table);
  if (!provider) throw ToolError(args.value("backend") + " has no compatible QNN provider");
  qnn::replay::ReplayOptions options;
  options.compare = args.has("compare");
  options.tolerance = args.doubleValue("tolerance", 1e-5, 0);
  options.backendId = provider->backendId;
  qnn::replay::Replayer replayer(table, trace, options);
  qnn::replay::ReplayReport report = replayer.run();
  for (const std::string& type : report.leftOutCustomTypes)
    std::fprintf(stderr, "%s: warning: %s configs were recorded for another backend; not passed to %s\n", kTool,
                 type.c_str(), args.value("backend").c_str());
  std::printf("replayed %zu calls, skipped %zu", report.replayed, report.skipped);
  if (!report.skippedCalls.empty()) {
    std::string names;
    for (const std::string& s : report.skippedCalls)
      if (names.find(s) == std::string::npos) names += (names.empty() ? "" : ", ") + s;
    std::printf(" (%s)", names.c_str());
  }
  if (options.compare) std::printf(", compared %zu outputs", report.compared);
  std::printf("\n");
  if (!report.firstDivergence.empty()) {
    std::printf("first divergence: %s\n", report.firstDivergence.c_str());
    return 2;
  }
  if (options.compare) std::printf("no divergence\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return qnn::tools::runToolWithArgs(argc, argv, parser(), run); }
