#include "tools/qnn-platform-validator/validator_report.h"

namespace qnn::tools {
namespace {

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

const char* testText(ProbeResult::Test t) {
  switch (t) {
    case ProbeResult::Test::Passed: return "Passed";
    case ProbeResult::Test::Failed: return "Failed";
    default: return "Not run";
  }
}

}  // namespace

std::string validatorCsv(const std::vector<ProbeResult>& results) {
  std::string out = "Backend,Library,Loaded,Core API Version,Backend API Version,Build Id,Device,Test Backend,Message\n";
  for (const ProbeResult& r : results) {
    const std::vector<std::string> fields = {r.backend,          r.libraryPath,       r.loaded ? "Yes" : "No",
                                             r.coreApiVersion,   r.backendApiVersion, r.buildId,
                                             r.device,           testText(r.test),    r.message};
    for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csvField(fields[i]);
    out += "\n";
  }
  return out;
}

std::string validatorSummary(const std::vector<ProbeResult>& results, bool coreVersion, bool libVersion) {
  std::string out;
  for (const ProbeResult& r : results) {
    out += r.backend + ": ";
    if (!r.found)
      out += "not available (" + r.message + ")\n";
    else if (!r.loaded)
      out += "present but does not load: " + r.message + "\n";
    else {
      out += "supported (" + r.libraryPath + ")\n";
      if (coreVersion) out += "  core API version: " + r.coreApiVersion + "\n";
      if (libVersion)
        out += "  backend API version: " + r.backendApiVersion + ", build id: " + r.buildId + "\n";
      if (!r.device.empty()) out += "  device: " + r.device + "\n";
    }
    if (r.test != ProbeResult::Test::NotRun)
      out += std::string("  test backend: ") + testText(r.test) +
             (r.test == ProbeResult::Test::Failed ? " (" + r.message + ")" : "") + "\n";
  }
  return out;
}

}  // namespace qnn::tools
