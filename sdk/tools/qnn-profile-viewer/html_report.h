// The HTML report qnn-profile-viewer --html writes: one self-contained page
// (inline CSS, inline script, inline SVG; no network access) with the run
// summary, the execute statistics, a per-op table sortable by any column, a bar
// chart of the ops' average time, a timeline of the first profiled inference's
// ops, and the HTP cycle estimates where the log has them.
#pragma once

#include <string>

#include "profile_log/profile_log.h"

namespace qnn::tools {

// `source` names the log in the page's title.
std::string htmlReport(const sdk::ProfileLog& log, const std::string& source);

}  // namespace qnn::tools
