// The qnn-net-run workflow: set up the backend and graphs, check every input
// list, execute, write outputs and the profiling log.
#pragma once

#include "tools/qnn-net-run/net_run_options.h"

namespace qnn::tools::netrun {

// Returns the process exit code; throws ToolError on failure.
int runNetRun(const NetRunOptions& options);

}  // namespace qnn::tools::netrun
