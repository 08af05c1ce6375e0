// The text summary qnn-profile-viewer prints: per phase count/total/avg/min/max
// time, the execute statistics per inference (average, fastest, slowest,
// inferences per second) and, when the log has node sub-events (detailed
// level), one line per op with its average time and share of execute time.
#pragma once

#include <string>

#include "profile_log/profile_log.h"

namespace qnn::tools {

std::string formatProfileSummary(const sdk::ProfileLog& log);

}  // namespace qnn::tools
