#include "tools/qnn-net-run/net_run.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "tools/common/backend_extensions.h"
#include "tools/common/binary_graphs.h"
#include "tools/common/context_session.h"
#include "tools/common/input_list.h"
#include "tools/common/input_loader.h"
#include "tools/common/raw_file.h"
#include "tools/common/run_config.h"
#include "tools/common/tool_error.h"
#include "tools/qnn-net-run/graph_executor.h"

namespace qnn::tools::netrun {
namespace {

// The outputs each graph composes without debug, learned in a scratch context:
// with --set_output_tensors the real composition runs in debug mode (every
// intermediate becomes readable) and only these plus the requested ones are written.
std::map<std::string, std::set<std::string>> defaultOutputs(const QnnBackend& backend, const NetRunOptions& o,
                                                            const std::vector<const GraphConfigInfo_t*>& graphConfigs) {
  ContextSession scratch(backend, nullptr);
  scratch.createContext(nullptr);
  scratch.composeModels(o.models, o.modelPrefix, graphConfigs, false, nullptr, o.dlcPaths);
  std::map<std::string, std::set<std::string>> out;
  for (const auto& g : scratch.graphs())
    for (const auto& t : g.spec.outputs) out[g.spec.name].insert(t.name);
  return out;
}

std::set<std::string> selectOutputs(const LoadedGraph& g, const NetRunOptions& o,
                                    const std::map<std::string, std::set<std::string>>& defaults) {
  if (o.setOutputTensors.empty() || o.debug) return {};
  std::set<std::string> sel;
  if (auto it = defaults.find(g.spec.name); it != defaults.end()) sel = it->second;
  if (auto it = o.setOutputTensors.find(g.spec.name); it != o.setOutputTensors.end()) {
    for (const auto& name : it->second) {
      bool found = false;
      for (const auto& t : g.spec.outputs) found = found || t.name == name;
      if (!found) throw ToolError("--set_output_tensors: graph '" + g.spec.name + "' has no tensor '" + name + "'");
      sel.insert(name);
    }
  }
  return sel;
}

}  // namespace

int runNetRun(const NetRunOptions& o) {
  for (const auto& f : o.ignoredFlags) std::fprintf(stderr, "qnn-net-run: warning: ignoring %s\n", f.c_str());
  RunConfig config;
  if (!o.configFile.empty()) config = readRunConfig(o.configFile);
  BackendExtension extension;  // outlives the backend: its configs are borrowed below
  if (!config.extensionLibrary.empty())
    extension.load(config.extensionLibrary, config.extensionConfig, o.backend, "qnn-net-run");

  std::vector<std::optional<InputList>> lists;
  for (const auto& l : o.inputLists) lists.push_back(l == "__" ? std::nullopt : std::optional(readInputList(l)));

  std::vector<uint8_t> binary;
  std::vector<GraphSpec> binarySpecs;
  if (!o.retrieveContext.empty()) {
    binary = readBinaryFile(o.retrieveContext);
    binarySpecs = binaryGraphSpecs(o.retrieveContext, binary, o.systemLibrary, o.backend);
    if (!config.enableGraphs.empty()) {
      std::vector<GraphSpec> kept;
      for (const auto& name : config.enableGraphs) {
        auto it = std::find_if(binarySpecs.begin(), binarySpecs.end(), [&](const GraphSpec& g) { return g.name == name; });
        if (it == binarySpecs.end()) throw ToolError("enable_graphs: the binary has no graph '" + name + "'");
        kept.push_back(*it);
      }
      binarySpecs = kept;
    }
  }

  QnnBackend backend;
  backend.load(o.backend, o.logLevel, extension.deviceConfigs());
  backend.registerOpPackages(o.opPackages);
  ProfileCollector profile("qnn-net-run", o.profilingLevel);
  profile.attach(backend);
  QnnConfigLists qnnConfigs(config, &extension);
  ContextSession session(backend, &profile);
  std::map<std::string, std::set<std::string>> defaults;

  if (!o.models.empty()) {
    if (!o.setOutputTensors.empty()) defaults = defaultOutputs(backend, o, qnnConfigs.graphConfigInfos());
    session.createContext(qnnConfigs.contextConfigs());
    session.composeModels(o.models, o.modelPrefix, qnnConfigs.graphConfigInfos(), o.debug || !o.setOutputTensors.empty(),
                          nullptr, o.dlcPaths);
    extension.warnUnmatchedGraphs(session.graphNames());
    for (const auto& [graphName, tensors] : o.setOutputTensors) {
      (void)tensors;
      if (!defaults.count(graphName)) throw ToolError("--set_output_tensors: no graph named '" + graphName + "'");
    }
    session.finalizeGraphs();
  } else {
    if (o.validateBinary) {
      if (!backend.api().contextValidateBinary) throw ToolError("backend does not implement QnnContext_validateBinary");
      backend.check(backend.api().contextValidateBinary(backend.backend(), backend.device(), qnnConfigs.contextConfigs(),
                                                        binary.data(), binary.size()),
                    "QnnContext_validateBinary of '" + o.retrieveContext + "'");
    }
    session.loadBinary(binary, binarySpecs, qnnConfigs.contextConfigs(), o.retrieveTimeoutUs);
    if (!extension.graphNames().empty())
      std::fprintf(stderr, "qnn-net-run: note: the backend extension's graph settings were fixed when the binary "
                   "was prepared; they are not applied again to retrieved graphs\n");
    for (auto& g : session.graphs())
      if (auto cfg = qnnConfigs.graphConfigs(g.spec.name))
        backend.check(backend.api().graphSetConfig(g.handle, cfg), "QnnGraph_setConfig of graph '" + g.spec.name + "'");
  }

  auto& graphs = session.graphs();
  // --graph-name / --graph-index: the one list goes to that graph, the others are skipped.
  if (!o.graphName.empty() || o.graphIndex >= 0) {
    size_t chosen = graphs.size();
    if (!o.graphName.empty()) {
      for (size_t i = 0; i < graphs.size(); ++i)
        if (graphs[i].spec.name == o.graphName) chosen = i;
      if (chosen == graphs.size()) {
        std::string names;
        for (const auto& g : graphs) names += (names.empty() ? "'" : ", '") + g.spec.name + "'";
        throw ToolError("--graph-name: no graph named '" + o.graphName + "' (the graphs: " + names + ")");
      }
    } else {
      if (size_t(o.graphIndex) >= graphs.size())
        throw ToolError("--graph-index " + std::to_string(o.graphIndex) + ": there are " +
                        std::to_string(graphs.size()) + " graph(s), indexed from 0");
      chosen = size_t(o.graphIndex);
    }
    std::vector<std::optional<InputList>> selected(graphs.size());
    selected[chosen] = std::move(lists[0]);
    lists = std::move(selected);
  }
  if (lists.size() != graphs.size())
    throw ToolError("--input_list names " + std::to_string(lists.size()) + " list(s) but there are " +
                    std::to_string(graphs.size()) + " graph(s); give one list per graph ('__' skips a graph)");
  for (const auto& name : config.enableGraphs)
    if (std::none_of(graphs.begin(), graphs.end(), [&](const LoadedGraph& g) { return g.spec.name == name; }))
      throw ToolError("enable_graphs: no graph named '" + name + "'");

  // Build and check every graph's inputs before the first execution.
  std::vector<std::unique_ptr<InputLoader>> loaders(graphs.size());
  std::vector<GraphRun> runs;
  for (size_t i = 0; i < graphs.size(); ++i) {
    if (!lists[i]) continue;
    const std::string& name = graphs[i].spec.name;
    if (!config.enableGraphs.empty() &&
        std::find(config.enableGraphs.begin(), config.enableGraphs.end(), name) == config.enableGraphs.end())
      continue;
    InputOptions io{o.nativeInputs, o.nativeInputNames, o.batchMultiplier, o.maxCacheSets, o.maxCacheBytes};
    if (!o.nativeInputNames.empty()) {
      // Names apply to whichever graph has them; the loader rejects names no graph has.
      io.nativeNames.clear();
      for (const auto& t : graphs[i].spec.inputs)
        if (o.nativeInputNames.count(t.name)) io.nativeNames.insert(t.name);
    }
    loaders[i] = std::make_unique<InputLoader>(graphs[i].spec, *lists[i], io);
    GraphRun run{&graphs[i], loaders[i].get(), selectOutputs(graphs[i], o, defaults),
                 graphs.size() > 1 ? name : std::string(), o.profilingStartDelay, o.profilingNumExecutions};
    if (auto it = config.graphs.find(name); it != config.graphs.end()) {
      if (it->second.profilingStartDelay) run.profilingStartDelay = *it->second.profilingStartDelay;
      if (it->second.profilingNumExecutions) run.profilingNumExecutions = static_cast<int64_t>(*it->second.profilingNumExecutions);
    }
    runs.push_back(run);
  }
  for (const auto& n : o.nativeInputNames) {
    bool found = false;
    for (const auto& g : graphs)
      for (const auto& t : g.spec.inputs) found = found || t.name == n;
    if (!found) throw ToolError("--native_input_tensor_names: no graph has an input named '" + n + "'");
  }
  if (runs.empty()) throw ToolError("every graph is skipped ('__'); nothing to run");

  for (auto& run : runs) executeGraph(backend, o, run, profile);
  session.close();
  profile.write(o.outputDir, o.backend, backend.buildId());
  return 0;
}

}  // namespace qnn::tools::netrun
