#include "tools/common/run_config.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

Qnn_Priority_t parsePriority(const nlohmann::json& v, const std::string& key) {
  const std::string s = v.get<std::string>();
  if (s == "low") return QNN_PRIORITY_LOW;
  if (s == "normal") return QNN_PRIORITY_NORMAL;
  if (s == "normal_high") return QNN_PRIORITY_NORMAL_HIGH;
  if (s == "high") return QNN_PRIORITY_HIGH;
  throw ToolError(key + " must be low, normal, normal_high or high, got '" + s + "'");
}

}  // namespace

RunConfig readRunConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ToolError("config file not found: " + path);
  RunConfig c;
  try {
    auto doc = nlohmann::json::parse(in);
    if (!doc.is_object()) throw ToolError("config file '" + path + "' must hold a JSON object");
    if (doc.contains("backend_extensions")) {
      const auto& be = doc["backend_extensions"];
      c.extensionLibrary = be.value("shared_library_path", "");
      c.extensionConfig = be.value("config_file_path", "");
      if (c.extensionLibrary.empty()) throw ToolError("backend_extensions needs shared_library_path");
    }
    if (doc.contains("context_configs")) {
      const auto& cc = doc["context_configs"];
      if (cc.contains("context_priority")) c.contextPriority = parsePriority(cc["context_priority"], "context_priority");
      if (cc.contains("async_execute_queue_depth")) c.asyncQueueDepth = cc["async_execute_queue_depth"].get<uint32_t>();
      if (cc.contains("enable_graphs")) c.enableGraphs = cc["enable_graphs"].get<std::vector<std::string>>();
      c.persistentBinary = cc.value("is_persistent_binary", false);
      if (cc.contains("cache_compatibility_mode")) {
        auto m = cc["cache_compatibility_mode"].get<std::string>();
        if (m != "permissive" && m != "strict")
          throw ToolError("cache_compatibility_mode must be permissive or strict, got '" + m + "'");
      }
      if (cc.contains("memory_limit_hint")) (void)cc["memory_limit_hint"].get<uint64_t>();
    }
    if (doc.contains("graph_configs")) {
      for (const auto& g : doc["graph_configs"]) {
        const std::string name = g.at("graph_name").get<std::string>();
        GraphRunConfig gc;
        if (g.contains("graph_priority")) gc.priority = parsePriority(g["graph_priority"], "graph_priority");
        if (g.contains("graph_profiling_start_delay"))
          gc.profilingStartDelay = g["graph_profiling_start_delay"].get<double>();
        if (g.contains("graph_profiling_num_executions"))
          gc.profilingNumExecutions = g["graph_profiling_num_executions"].get<uint64_t>();
        c.graphs[name] = gc;
      }
    }
    if (doc.contains("profile_configs") && doc["profile_configs"].contains("num_max_events"))
      c.profileMaxEvents = doc["profile_configs"]["num_max_events"].get<uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    throw ToolError("malformed config file '" + path + "': " + e.what());
  }
  return c;
}

QnnConfigLists::QnnConfigLists(const RunConfig& config, const BackendExtension* extension) {
  if (config.contextPriority) {
    auto c = std::make_unique<QnnContext_Config_t>();
    c->option = QNN_CONTEXT_CONFIG_OPTION_PRIORITY;
    c->priority = *config.contextPriority;
    contextStorage_.push_back(std::move(c));
  }
  if (config.asyncQueueDepth) {
    auto c = std::make_unique<QnnContext_Config_t>();
    c->option = QNN_CONTEXT_CONFIG_ASYNC_EXECUTION_QUEUE_DEPTH;
    c->asyncExeQueueDepth.type = QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_TYPE_NUMERIC;
    c->asyncExeQueueDepth.depth = *config.asyncQueueDepth;
    contextStorage_.push_back(std::move(c));
  }
  for (auto& c : contextStorage_) contextList_.push_back(c.get());
  if (extension)
    if (const QnnContext_Config_t** ext = extension->contextConfigs())
      for (size_t i = 0; ext[i]; ++i) contextList_.push_back(ext[i]);
  contextList_.push_back(nullptr);

  std::vector<std::string> names;
  for (const auto& entry : config.graphs) names.push_back(entry.first);
  if (extension)
    for (const auto& name : extension->graphNames())
      if (!config.graphs.count(name)) names.push_back(name);
  for (const auto& name : names) {
    auto e = std::make_unique<GraphEntry>();
    e->name = name;
    if (auto it = config.graphs.find(name); it != config.graphs.end() && it->second.priority) {
      e->priority = std::make_unique<QnnGraph_Config_t>();
      e->priority->option = QNN_GRAPH_CONFIG_OPTION_PRIORITY;
      e->priority->priority = *it->second.priority;
      e->list.push_back(e->priority.get());
    }
    e->retrievedList = e->list;
    e->retrievedList.push_back(nullptr);
    if (const QnnGraph_Config_t** ext = extension ? extension->graphConfigs(name) : nullptr)
      for (size_t i = 0; ext[i]; ++i) e->list.push_back(ext[i]);
    e->list.push_back(nullptr);
    e->info.graphName = e->name.data();
    e->info.graphConfigs = e->list.data();
    graphs_.push_back(std::move(e));
  }
}

const QnnContext_Config_t** QnnConfigLists::contextConfigs() {
  return contextList_.size() > 1 ? contextList_.data() : nullptr;
}

std::vector<const GraphConfigInfo_t*> QnnConfigLists::graphConfigInfos() {
  std::vector<const GraphConfigInfo_t*> out;
  for (auto& g : graphs_)
    if (g->list.size() > 1) out.push_back(&g->info);
  return out;
}

const QnnGraph_Config_t** QnnConfigLists::graphConfigs(const std::string& graphName) {
  for (auto& g : graphs_)
    if (g->name == graphName && g->retrievedList.size() > 1) return g->retrievedList.data();
  return nullptr;
}

}  // namespace qnn::tools
