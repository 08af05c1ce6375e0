#include "tools/qnn-throughput-net-run/throughput_config.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"

namespace qnn::tools::throughput {
namespace {

using nlohmann::json;

const json& required(const json& obj, const std::string& key, const std::string& where) {
  if (!obj.is_object() || !obj.contains(key)) throw ToolError(where + ": missing required key '" + key + "'");
  return obj[key];
}

std::string requiredString(const json& obj, const std::string& key, const std::string& where) {
  const json& v = required(obj, key, where);
  if (!v.is_string() || v.get<std::string>().empty()) throw ToolError(where + ": '" + key + "' must be a non-empty string");
  return v.get<std::string>();
}

template <typename T>
T optional(const json& obj, const std::string& key, T fallback, const std::string& where) {
  if (!obj.contains(key)) return fallback;
  try {
    return obj[key].get<T>();
  } catch (const json::exception&) {
    throw ToolError(where + ": '" + key + "' has the wrong type");
  }
}

const json& requiredArray(const json& doc, const std::string& key, const std::string& where) {
  const json& v = required(doc, key, where);
  if (!v.is_array() || v.empty()) throw ToolError(where + ": '" + key + "' must be a non-empty array");
  return v;
}

std::optional<Qnn_Priority_t> parsePriority(const std::string& s, const std::string& where) {
  if (s == "DEFAULT") return std::nullopt;
  if (s == "LOW") return QNN_PRIORITY_LOW;
  if (s == "NORMAL") return QNN_PRIORITY_NORMAL;
  if (s == "NORMAL_HIGH") return QNN_PRIORITY_NORMAL_HIGH;
  if (s == "HIGH") return QNN_PRIORITY_HIGH;
  throw ToolError(where + ": priority must be DEFAULT, LOW, NORMAL, NORMAL_HIGH or HIGH, got '" + s + "'");
}

template <typename Entry>
void checkUnique(const std::vector<Entry>& entries, const std::string& section) {
  std::set<std::string> seen;
  for (const auto& e : entries)
    if (!seen.insert(e.name).second) throw ToolError(section + ": duplicate name '" + e.name + "'");
}

}  // namespace

const BackendEntry& ThroughputConfig::backend(const std::string& n) const {
  for (const auto& e : backends) if (e.name == n) return e;
  throw ToolError("no backend named '" + n + "'");
}
const ModelEntry& ThroughputConfig::model(const std::string& n) const {
  for (const auto& e : models) if (e.name == n) return e;
  throw ToolError("no model named '" + n + "'");
}
const ContextEntry& ThroughputConfig::context(const std::string& n) const {
  for (const auto& e : contexts) if (e.name == n) return e;
  throw ToolError("no context named '" + n + "'");
}

ThroughputConfig readThroughputConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ToolError("config file not found: " + path);
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw ToolError("malformed config file '" + path + "': " + e.what());
  }
  ThroughputConfig c;
  for (const auto& b : requiredArray(doc, "backends", "config")) {
    BackendEntry e{requiredString(b, "backendName", "backends[]"), requiredString(b, "backendPath", "backends[]"),
                   optional<std::string>(b, "profilingLevel", "OFF", "backends[]"),
                   optional<std::string>(b, "backendExtensions", "", "backends[]")};
    requireFile(e.path, "backend library of '" + e.name + "'");
    c.backends.push_back(e);
  }
  for (const auto& m : requiredArray(doc, "models", "config")) {
    ModelEntry e;
    e.name = requiredString(m, "modelName", "models[]");
    e.path = requiredString(m, "modelPath", "models[]");
    e.inputPath = optional<std::string>(m, "inputPath", "", "models[" + e.name + "]");
    e.loadFromCachedBinary = optional<bool>(m, "loadFromCachedBinary", false, "models[" + e.name + "]");
    e.dlcPath = optional<std::string>(m, "dlcPath", "", "models[" + e.name + "]");
    requireFile(e.path, "model '" + e.name + "'");
    if (!e.dlcPath.empty()) {
      if (e.loadFromCachedBinary)
        throw ToolError("models[" + e.name + "]: dlcPath and loadFromCachedBinary exclude each other");
      requireFile(e.dlcPath, "DLC of model '" + e.name + "'");
    }
    if (!e.inputPath.empty()) requireFile(e.inputPath, "input list of model '" + e.name + "'");
    c.models.push_back(e);
  }
  for (const auto& x : requiredArray(doc, "contexts", "config")) {
    ContextEntry e;
    e.name = requiredString(x, "contextName", "contexts[]");
    e.priority = parsePriority(optional<std::string>(x, "priority", "DEFAULT", "contexts[" + e.name + "]"),
                               "contexts[" + e.name + "]");
    c.contexts.push_back(e);
  }
  const json& tc = required(doc, "testCase", "config");
  const json& it = required(tc, "iteration", "testCase");
  if (!it.is_number_integer()) throw ToolError("testCase: 'iteration' must be an integer");
  c.iteration = it.get<int64_t>();
  c.logLevel = optional<std::string>(tc, "logLevel", "", "testCase");
  for (const auto& t : requiredArray(tc, "threads", "testCase")) {
    ThreadEntry e;
    e.name = requiredString(t, "threadName", "threads[]");
    const std::string where = "threads[" + e.name + "]";
    e.backend = requiredString(t, "backend", where);
    e.context = requiredString(t, "context", where);
    e.model = requiredString(t, "model", where);
    e.initModelInLoop = optional<bool>(t, "initModelInLoop", false, where);
    e.loadInputDataInLoop = optional<bool>(t, "loadInputDataInLoop", false, where);
    e.useRandomData = optional<bool>(t, "useRandomData", false, where);
    e.intervalUs = optional<int64_t>(t, "interval", 0, where);
    const std::string unit = optional<std::string>(t, "loopUnit", "count", where);
    if (unit != "count" && unit != "seconds") throw ToolError(where + ": loopUnit must be count or seconds, got '" + unit + "'");
    e.loopInSeconds = unit == "seconds";
    e.loop = optional<int64_t>(t, "loop", 1, where);
    if (e.loop < 1 || e.intervalUs < 0) throw ToolError(where + ": loop must be >= 1 and interval >= 0");
    e.backendConfig = optional<std::string>(t, "backendConfig", "", where);
    if (optional<bool>(t, "executeAsynchronous", false, where))
      throw ToolError(where + ": executeAsynchronous is not supported by this tool; set it to false");
    // Cross-references are checked here so a typo fails before any thread starts.
    if (c.backend(e.backend).extensionPath.empty() && !e.backendConfig.empty())
      throw ToolError(where + ": backendConfig needs backendExtensions in backend '" + e.backend + "'");
    c.context(e.context);
    const ModelEntry& m = c.model(e.model);
    if (e.initModelInLoop && m.loadFromCachedBinary)
      throw ToolError(where + ": initModelInLoop cannot be used with a model loaded from a cached binary");
    if (!e.useRandomData && m.inputPath.empty())
      throw ToolError(where + ": model '" + m.name + "' has no inputPath; set inputPath or useRandomData");
    c.threads.push_back(e);
  }
  checkUnique(c.backends, "backends");
  checkUnique(c.models, "models");
  checkUnique(c.contexts, "contexts");
  checkUnique(c.threads, "threads");
  return c;
}

}  // namespace qnn::tools::throughput
