// qnn-platform-validator: checks what QNN can do on this machine. For each backend asked
// for: is its library in the SDK directory, does it load and create a backend (and, for
// the HTP, a device of the --dsp_type architecture), which API versions and build id does
// it report, and with --testBackend does it run a small graph correctly. Results go to
// output/qnn-platform-validator.csv and the console. The device-side flags of the
// vendor's Android tool (--deviceId, --targetPath, --remoteHost) are accepted and
// ignored: everything runs on this host.
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "tools/common/arg_parser.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "tools/qnn-platform-validator/backend_probe.h"
#include "tools/qnn-platform-validator/validator_report.h"

namespace {

constexpr const char* kTool = "qnn-platform-validator";
constexpr const char* kCsvPath = "output/qnn-platform-validator.csv";

std::string defaultSdkRoot() {
  if (const char* env = std::getenv("QNN_SDK_ROOT"); env && *env) return env;
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return ".";
  buf[n] = '\0';
  return std::filesystem::path(buf).parent_path().parent_path().string();  // <root>/bin/tool
}

uint32_t parseDspType(const std::string& value) {
  std::string digits = value;
  if (!digits.empty() && (digits[0] == 'v' || digits[0] == 'V')) digits.erase(0, 1);
  if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos)
    throw qnn::tools::UsageError("--dsp_type must be a Hexagon version such as v68 or v73, got '" + value + "'");
  return static_cast<uint32_t>(std::stoul(digits));
}

// The flags it takes.
qnn::tools::ArgParser parser() {
  using namespace qnn::tools;
  return {kTool,
          "Checks which QNN backends of an SDK directory load and run on this machine; writes " +
              std::string(kCsvPath) + ".",
          withVersionAndHelp({{"backend", true, "BACKEND", "cpu, gpu, htp (dsp is a synonym), saver or all (required)"},
                              {"directory", true, "DIR",
                               "SDK root holding lib/x86_64-linux-clang (default: $QNN_SDK_ROOT, "
                               "else the directory above this tool's bin/)"},
                              {"dsp_type", true, "VERSION",
                               "HTP architecture to create the device for: v68, v69, v73, v75, "
                               "v79, v81 (default: the backend's own, V73)"},
                              {"testBackend", false, "", "run a small graph on each backend and check its output"},
                              {"coreVersion", false, "", "print each backend's QNN core API version"},
                              {"libVersion", false, "", "print each backend's API version and build id"},
                              {"buildVariant", true, "TOOLCHAIN", "only x86_64-linux-clang exists in this SDK"},
                              {"deviceId", true, "ID", "ignored: runs on this host, not through adb"},
                              {"targetPath", true, "DIR", "ignored: runs on this host, not through adb"},
                              {"remoteHost", true, "HOST", "ignored: runs on this host, not through adb"},
                              {"debug", false, "", "backend logs at debug level on stderr"}})};
}

int run(const qnn::tools::ArgParser& args) {
  using namespace qnn::tools;
  if (!args.has("backend")) throw UsageError("--backend is required (cpu, gpu, htp, dsp, saver or all)");
  const std::string variant = args.value("buildVariant", "x86_64-linux-clang");
  if (variant != "x86_64-linux-clang")
    throw UsageError("--buildVariant " + variant + ": this SDK has only x86_64-linux-clang");
  for (const char* ignored : {"deviceId", "targetPath", "remoteHost"})
    if (args.has(ignored))
      std::fprintf(stderr, "%s: warning: --%s ignored: the validator runs on this host\n", kTool, ignored);

  std::string which = args.value("backend");
  if (which == "dsp") which = "htp";
  std::vector<BackendKind> kinds;
  for (const BackendKind& k : knownBackends())
    if (which == "all" || which == k.name) kinds.push_back(k);
  if (kinds.empty()) throw UsageError("--backend must be cpu, gpu, htp, dsp, saver or all, got '" + which + "'");

  ProbeOptions options;
  options.sdkRoot = args.value("directory", defaultSdkRoot());
  if (!std::filesystem::is_directory(options.sdkRoot))
    throw ToolError("--directory " + options.sdkRoot + " is not a directory");
  if (args.has("dsp_type")) options.htpArch = parseDspType(args.value("dsp_type"));
  options.runTestGraph = args.has("testBackend");
  options.debugLog = args.has("debug");

  std::error_code ec;
  std::filesystem::create_directories("output", ec);
  if (ec) throw ToolError("cannot create the output directory: " + ec.message());
  std::vector<ProbeResult> results;
  for (const BackendKind& k : kinds) results.push_back(probeBackend(k, options));

  const std::string csv = validatorCsv(results);
  writeBinaryFile(kCsvPath, csv.data(), csv.size());
  std::fputs(validatorSummary(results, args.has("coreVersion"), args.has("libVersion")).c_str(), stdout);
  std::printf("Results written to %s\n", kCsvPath);

  // A backend named on the command line must load (and pass its test); with "all", a
  // library that is absent is only reported, one that is present must work.
  bool ok = true;
  for (const ProbeResult& r : results) {
    if (!r.found && which == "all") continue;
    if (!r.loaded || r.test == ProbeResult::Test::Failed) ok = false;
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return qnn::tools::runToolWithArgs(argc, argv, parser(), run); }
