#include "tools/qnn-net-run/net_run_options.h"

#include "tools/common/log_level.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"

namespace qnn::tools::netrun {

ArgParser makeNetRunParser() {
  return ArgParser(
      "qnn-net-run",
      "Loads a model library (or a context binary) on a QNN backend, executes it over the inputs of an input list\n"
      "and writes the outputs to <output_dir>/Result_<N>/<tensor>.raw.",
      {
          {"model", true, "FILE", "model library .so; comma list to compose several"},
          {"backend", true, "FILE", "backend library, e.g. libQnnCpu.so"},
          {"input_list", true, "FILE", "input list; comma list, one per graph ('__' skips a graph)"},
          {"retrieve_context", true, "FILE", "context binary to load instead of --model"},
          {"model_prefix", true, "VAL", "function prefix of the model library (default QnnModel)"},
          {"dlc_path", true, "FILE", "comma list of DLCs (qairt-converter) composed into the context; needs "
                                     "libQnnModelDlc.so as --model"},
          {"graph-name", true, "VAL", "run only the graph of this name (of a multi-graph DLC, context or model set)"},
          {"graph-index", true, "VAL", "run only the graph at this 0-based position of the composed or loaded graphs"},
          {"debug", false, "", "write the outputs of every layer (model libraries only)"},
          {"quiet", false, "", "no progress line on a terminal"},
          {"output_dir", true, "DIR", "output directory (default ./output)"},
          {"use_native_output_files", false, "", "write outputs in the graph's native dtype (default float32)"},
          {"use_native_input_files", false, "", "read every input in the graph's native dtype (default float32)"},
          {"native_input_tensor_names", true, "VAL", "comma list of inputs read in their native dtype"},
          {"op_packages", true, "VAL", "op_package_path:interface_provider[:target][,...]"},
          {"profiling_level", true, "VAL", "basic, detailed or client; writes <output_dir>/qnn-profiling-data_0.log"},
          {"perf_profile", true, "VAL", "accepted for compatibility; no effect on this backend"},
          {"config_file", true, "FILE", "JSON: backend_extensions, context_configs, graph_configs"},
          {"log_level", true, "VAL", "error, warn, info, debug or verbose"},
          {"synchronous", false, "", "execute synchronously (the default)"},
          {"num_inferences", true, "VAL", "loop over the input list until this many inferences ran"},
          {"duration", true, "VAL", "loop over the input list for this many seconds"},
          {"keep_num_outputs", true, "VAL", "save the outputs of the first N inferences only"},
          {"batch_multiplier", true, "VAL", "input files hold N batches; outputs are concatenated"},
          {"timeout", true, "VAL", "execution timeout in microseconds"},
          {"retrieve_context_timeout", true, "VAL", "context-creation timeout in microseconds (--retrieve_context)"},
          {"max_input_cache_tensor_sets", true, "VAL", "cache at most N converted input lines (-1 = all)"},
          {"max_input_cache_size_mb", true, "VAL", "cache at most N MB of converted inputs"},
          {"set_output_tensors", true, "VAL", "extra outputs: graph:tensor,tensor;graph2:tensor"},
          {"use_mmap", false, "", "accepted: the binary is read into memory either way"},
          {"validate_binary", false, "", "validate the context binary before loading it"},
          {"system_library", true, "FILE", "libQnnSystem.so used to read the graphs of --retrieve_context"},
          {"platform_options", true, "VAL", "accepted for compatibility; no effect on this backend"},
          {"graph_profiling_start_delay", true, "VAL", "seconds before executions are profiled"},
          {"graph_profiling_num_executions", true, "VAL", "profile at most N executions per graph"},
          {"version", false, "", "print the SDK version"},
          {"help", false, "", "show this help"},
      });
}

namespace {

std::vector<std::string> nonEmptyList(const ArgParser& args, const std::string& flag) {
  auto items = splitString(args.value(flag), ',');
  for (const auto& i : items)
    if (trimString(i).empty()) throw UsageError("--" + flag + " has an empty entry");
  return items;
}

std::map<std::string, std::vector<std::string>> parseSetOutputTensors(const std::string& v) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& group : splitString(v, ';')) {
    auto colon = group.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= group.size())
      throw UsageError("--set_output_tensors entry '" + group + "' must be graphName:tensor[,tensor]");
    for (const auto& t : splitString(group.substr(colon + 1), ',')) {
      if (t.empty()) throw UsageError("--set_output_tensors has an empty tensor name in '" + group + "'");
      out[group.substr(0, colon)].push_back(t);
    }
  }
  return out;
}

}  // namespace

NetRunOptions netRunOptionsFromArgs(const ArgParser& args) {
  NetRunOptions o;
  args.requireExclusive("model", "retrieve_context");
  args.requireExclusive("use_native_input_files", "native_input_tensor_names");
  args.requireExclusive("max_input_cache_tensor_sets", "max_input_cache_size_mb");
  args.requireExclusive("num_inferences", "duration");
  args.requireExclusive("retrieve_context", "debug");
  args.requireExclusive("retrieve_context", "set_output_tensors");
  if (!args.has("backend")) throw UsageError("--backend is required");
  if (!args.has("model") && !args.has("retrieve_context")) throw UsageError("--model or --retrieve_context is required");
  if (!args.has("input_list")) throw UsageError("--input_list is required");
  if (args.has("retrieve_context_timeout") && !args.has("retrieve_context"))
    throw UsageError("--retrieve_context_timeout needs --retrieve_context");
  if (args.has("validate_binary") && !args.has("retrieve_context"))
    throw UsageError("--validate_binary needs --retrieve_context");
  if (args.has("graph_profiling_num_executions") && !args.has("graph_profiling_start_delay"))
    throw UsageError("--graph_profiling_num_executions needs --graph_profiling_start_delay");

  o.backend = args.value("backend");
  requireFile(o.backend, "backend library");
  if (args.has("model")) {
    o.models = nonEmptyList(args, "model");
    for (const auto& m : o.models) requireFile(m, "model library");
  }
  if (args.has("dlc_path")) {
    if (!args.has("model")) throw UsageError("--dlc_path needs --model libQnnModelDlc.so");
    if (o.models.size() != 1) throw UsageError("--dlc_path takes one --model (libQnnModelDlc.so)");
    o.dlcPaths = nonEmptyList(args, "dlc_path");
    for (const auto& d : o.dlcPaths) requireFile(d, "DLC");
  }
  if (args.has("retrieve_context")) {
    o.retrieveContext = args.value("retrieve_context");
    requireFile(o.retrieveContext, "context binary");
  }
  args.requireExclusive("graph-name", "graph-index");
  if (args.has("graph-name")) {
    o.graphName = trimString(args.value("graph-name"));
    if (o.graphName.empty()) throw UsageError("--graph-name is empty");
  }
  if (args.has("graph-index")) {
    const std::string v = trimString(args.value("graph-index"));
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 9)
      throw UsageError("--graph-index must be a non-negative integer, got '" + v + "'");
    o.graphIndex = std::stoll(v);
  }
  o.inputLists = nonEmptyList(args, "input_list");
  if ((!o.graphName.empty() || o.graphIndex >= 0) && o.inputLists.size() != 1)
    throw UsageError("--graph-name / --graph-index run one graph: give one --input_list");
  for (const auto& l : o.inputLists)
    if (l != "__") requireFile(l, "input list");
  o.modelPrefix = args.value("model_prefix", o.modelPrefix);
  o.debug = args.has("debug");
  o.quiet = args.has("quiet");
  o.outputDir = args.value("output_dir", o.outputDir);
  o.nativeOutputs = args.has("use_native_output_files");
  o.nativeInputs = args.has("use_native_input_files");
  if (args.has("native_input_tensor_names"))
    for (const auto& n : nonEmptyList(args, "native_input_tensor_names")) o.nativeInputNames.insert(n);
  if (args.has("op_packages")) o.opPackages = parseOpPackages(args.value("op_packages"), true);
  if (args.has("profiling_level"))
    o.profilingLevel = parseProfilingLevel(args.value("profiling_level"), {"basic", "detailed", "client"});
  if (args.has("config_file")) {
    o.configFile = args.value("config_file");
    requireFile(o.configFile, "config file");
  }
  if (args.has("log_level")) o.logLevel = parseLogLevel(args.value("log_level"));
  o.numInferences = args.intValue("num_inferences", -1, 1);
  o.durationSeconds = args.doubleValue("duration", -1, 0);
  o.keepNumOutputs = args.intValue("keep_num_outputs", -1, 0);
  o.batchMultiplier = static_cast<size_t>(args.intValue("batch_multiplier", 1, 1));
  o.timeoutUs = static_cast<uint64_t>(args.intValue("timeout", 0, 1));
  o.retrieveTimeoutUs = static_cast<uint64_t>(args.intValue("retrieve_context_timeout", 0, 1));
  o.maxCacheSets = args.intValue("max_input_cache_tensor_sets", -1, -1);
  if (args.has("max_input_cache_size_mb")) o.maxCacheBytes = args.intValue("max_input_cache_size_mb", 0, 0) << 20;
  if (args.has("set_output_tensors")) o.setOutputTensors = parseSetOutputTensors(args.value("set_output_tensors"));
  o.validateBinary = args.has("validate_binary");
  if (args.has("system_library")) {
    o.systemLibrary = args.value("system_library");
    requireFile(o.systemLibrary, "system library");
  }
  o.profilingStartDelay = args.doubleValue("graph_profiling_start_delay", -1, 0);
  o.profilingNumExecutions = args.intValue("graph_profiling_num_executions", -1, 1);
  if (o.profilingStartDelay >= 0 && o.profilingLevel == ProfilingLevel::kOff)
    throw UsageError("--graph_profiling_start_delay needs --profiling_level");
  if (args.has("perf_profile")) {
    static const std::set<std::string> kProfiles = {
        "low_balanced", "balanced", "default", "high_performance", "sustained_high_performance", "burst",
        "low_power_saver", "power_saver", "high_power_saver", "extreme_power_saver", "system_settings"};
    if (!kProfiles.count(args.value("perf_profile")))
      throw UsageError("--perf_profile value '" + args.value("perf_profile") + "' is not a known profile");
    o.ignoredFlags.push_back("--perf_profile (the CPU backend has no power settings)");
  }
  if (args.has("platform_options")) o.ignoredFlags.push_back("--platform_options (no platform options on x86 Linux)");
  return o;
}

}  // namespace qnn::tools::netrun
