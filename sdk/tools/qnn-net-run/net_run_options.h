// qnn-net-run's command line: the flag table (vendor names) and the validated
// options. All checks that need no backend happen here, before anything runs.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tools/common/arg_parser.h"
#include "tools/common/profiling.h"
#include "tools/common/qnn_backend.h"

namespace qnn::tools::netrun {

struct NetRunOptions {
  bool quiet = false;  // --quiet: no progress line
  std::vector<std::string> models;
  std::vector<std::string> dlcPaths;  // --dlc_path: DLCs composed through the one model library
  std::string backend;
  std::vector<std::string> inputLists;  // "__" = skip that graph
  std::string graphName;   // --graph-name: run only this graph
  int64_t graphIndex = -1;  // --graph-index: run only the graph at this position
  std::string retrieveContext;
  std::string modelPrefix = "QnnModel";
  bool debug = false;
  std::string outputDir = "./output";
  bool nativeOutputs = false;
  bool nativeInputs = false;
  std::set<std::string> nativeInputNames;
  std::vector<OpPackageSpec> opPackages;
  ProfilingLevel profilingLevel = ProfilingLevel::kOff;
  std::string configFile;
  QnnLog_Level_t logLevel = static_cast<QnnLog_Level_t>(0);
  int64_t numInferences = -1;  // -1 = one pass over the list
  double durationSeconds = -1;
  int64_t keepNumOutputs = -1;  // -1 = all
  size_t batchMultiplier = 1;
  uint64_t timeoutUs = 0;
  uint64_t retrieveTimeoutUs = 0;
  int64_t maxCacheSets = -1;
  int64_t maxCacheBytes = -1;
  std::map<std::string, std::vector<std::string>> setOutputTensors;  // graph -> tensors
  bool validateBinary = false;
  std::string systemLibrary;
  double profilingStartDelay = -1;
  int64_t profilingNumExecutions = -1;
  std::vector<std::string> ignoredFlags;  // accepted, no effect on this platform
};

ArgParser makeNetRunParser();
// Throws UsageError/ToolError.
NetRunOptions netRunOptionsFromArgs(const ArgParser& args);

}  // namespace qnn::tools::netrun
