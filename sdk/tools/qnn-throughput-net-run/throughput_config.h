// The qnn-throughput-net-run configuration (backends, models, contexts, testCase
// with threads), read and validated with one clear error per problem: missing
// required keys, wrong types, unknown references between sections.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "QnnTypes.h"

namespace qnn::tools::throughput {

struct BackendEntry {
  std::string name, path, profilingLevel;
  std::string extensionPath;  // backendExtensions: extension library, empty = none
};
struct ModelEntry {
  std::string name, path, inputPath;
  std::string dlcPath;  // with a DLC model library (libQnnModelDlc.so) as path: the DLC it composes
  bool loadFromCachedBinary = false;
};
struct ContextEntry {
  std::string name;
  std::optional<Qnn_Priority_t> priority;
};
struct ThreadEntry {
  std::string name, backend, context, model;
  bool initModelInLoop = false, loadInputDataInLoop = false, useRandomData = false;
  int64_t intervalUs = 0;
  bool loopInSeconds = false;
  int64_t loop = 1;
  std::string backendConfig;  // the backend extension's config file, empty = none
};
struct ThroughputConfig {
  std::vector<BackendEntry> backends;
  std::vector<ModelEntry> models;
  std::vector<ContextEntry> contexts;
  int64_t iteration = 1;  // < 0 = until interrupted
  std::string logLevel;
  std::vector<ThreadEntry> threads;

  const BackendEntry& backend(const std::string& name) const;
  const ModelEntry& model(const std::string& name) const;
  const ContextEntry& context(const std::string& name) const;
};

ThroughputConfig readThroughputConfig(const std::string& path);  // throws ToolError

}  // namespace qnn::tools::throughput
