// Executes one graph over its input list: batch-multiplier slicing, optional
// timeout signal, graph-level profiling window, and output writing.
#pragma once

#include <set>
#include <string>

#include "tools/common/context_session.h"
#include "tools/common/input_loader.h"
#include "tools/common/profiling.h"
#include "tools/qnn-net-run/net_run_options.h"

namespace qnn::tools::netrun {

struct GraphRun {
  LoadedGraph* graph;
  InputLoader* inputs;
  std::set<std::string> writtenOutputs;  // empty = all outputs
  std::string outputFolder;              // graph folder inside Result_N ("" for a single graph)
  double profilingStartDelay = -1;       // seconds; < 0 = profile every execution
  int64_t profilingNumExecutions = -1;
};

// Returns the number of inferences run.
size_t executeGraph(const QnnBackend& backend, const NetRunOptions& options, GraphRun& run, ProfileCollector& profile);

}  // namespace qnn::tools::netrun
