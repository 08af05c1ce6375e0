// The --config_file JSON of qnn-net-run and qnn-context-binary-generator:
// backend_extensions, context_configs, graph_configs, profile_configs and
// async_graph_execution_config. Parsed and validated up front (unknown priority
// names, wrong types are errors) and turned into QnnContext/QnnGraph configs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "QnnContext.h"
#include "QnnGraph.h"
#include "tools/common/backend_extensions.h"
#include "tools/common/model_library.h"

namespace qnn::tools {

struct GraphRunConfig {
  std::optional<Qnn_Priority_t> priority;
  std::optional<double> profilingStartDelay;        // seconds
  std::optional<uint64_t> profilingNumExecutions;
};

struct RunConfig {
  std::string extensionLibrary;  // backend_extensions.shared_library_path
  std::string extensionConfig;   // backend_extensions.config_file_path
  std::optional<Qnn_Priority_t> contextPriority;
  std::optional<uint32_t> asyncQueueDepth;
  std::vector<std::string> enableGraphs;
  bool persistentBinary = false;
  std::map<std::string, GraphRunConfig> graphs;
  std::optional<uint64_t> profileMaxEvents;
};

RunConfig readRunConfig(const std::string& path);  // throws ToolError

// Owns QnnContext_Config_t / QnnGraph_Config_t arrays (null-terminated pointer
// lists): the config file's own settings merged with those of a loaded backend
// extension, whose config structs the lists point to (the extension must outlive
// this object; nullptr = no extension).
class QnnConfigLists {
 public:
  explicit QnnConfigLists(const RunConfig& config, const BackendExtension* extension = nullptr);
  // nullptr when there is nothing to set.
  const QnnContext_Config_t** contextConfigs();
  // GraphConfigInfo entries for QnnModel_composeGraphs (one per configured graph):
  // everything, the extension's backend configs included.
  std::vector<const GraphConfigInfo_t*> graphConfigInfos();
  // The configs QnnGraph_setConfig may change on a graph retrieved from a binary
  // (graph_configs' priority); nullptr if none. The extension's backend configs
  // are fixed when a graph is prepared and come with the binary.
  const QnnGraph_Config_t** graphConfigs(const std::string& graphName);

 private:
  struct GraphEntry {
    std::string name;
    std::unique_ptr<QnnGraph_Config_t> priority;
    std::vector<const QnnGraph_Config_t*> list;           // creation: priority + extension
    std::vector<const QnnGraph_Config_t*> retrievedList;  // after retrieve: priority
    GraphConfigInfo_t info{};
  };
  std::vector<std::unique_ptr<QnnContext_Config_t>> contextStorage_;
  std::vector<const QnnContext_Config_t*> contextList_;
  std::vector<std::unique_ptr<GraphEntry>> graphs_;
};

}  // namespace qnn::tools
