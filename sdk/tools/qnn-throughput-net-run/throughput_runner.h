// Runs the threads of a throughput configuration concurrently, each with its own
// context and graphs on a shared backend, and measures inferences per second.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/qnn-throughput-net-run/throughput_config.h"

namespace qnn::tools::throughput {

struct ThreadResult {
  std::string threadName, backend, model;
  size_t graphs = 0;
  uint64_t inferences = 0;  // graph executions
  double seconds = 0;
  std::string error;
};

struct ThroughputReport {
  std::vector<ThreadResult> threads;
  uint64_t totalInferences = 0;
  double totalSeconds = 0;
};

// Throws ToolError when setup fails or any thread fails.
// quiet: no progress line on a terminal (progress.h).
ThroughputReport runThroughput(const ThroughputConfig& config, bool quiet = false);

}  // namespace qnn::tools::throughput
