// qnn-platform-validator's results: one CSV row per backend (header below) and the
// console summary. Columns: Backend, Library, Loaded, Core API Version, Backend API Version,
// Build Id, Device, Test Backend (Passed / Failed / Not run), Message.
#pragma once

#include <string>
#include <vector>

#include "tools/qnn-platform-validator/backend_probe.h"

namespace qnn::tools {

// The CSV text (quoted where a field needs it, RFC 4180).
std::string validatorCsv(const std::vector<ProbeResult>& results);

// The console lines: per backend whether it loads, the versions asked for, the test outcome.
std::string validatorSummary(const std::vector<ProbeResult>& results, bool coreVersion, bool libVersion);

}  // namespace qnn::tools
