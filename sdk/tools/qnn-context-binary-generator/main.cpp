// qnn-context-binary-generator: composes the graphs of model libraries on a
// backend, finalizes them and saves the context as <output_dir>/<name>.bin, plus
// the tensor record <name>.bin.json (graph inputs/outputs) that qnn-net-run
// --retrieve_context uses when no libQnnSystem.so is available.
#include <cstdio>

#include "tools/common/arg_parser.h"
#include "tools/common/backend_extensions.h"
#include "tools/common/context_session.h"
#include "tools/common/log_level.h"
#include "tools/common/profiling.h"
#include "tools/common/raw_file.h"
#include "tools/common/run_config.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "tools/qnn-context-binary-generator/adapter_sections.h"

namespace qnn::tools {
namespace {

ArgParser makeParser() {
  return ArgParser("qnn-context-binary-generator",
                   "Composes model libraries on a QNN backend and saves the finalized context as a binary.",
                   {
                       {"model", true, "FILE", "model library .so; comma list for a multi-graph context"},
                       {"backend", true, "FILE", "backend library"},
                       {"binary_file", true, "VAL", "binary name, saved as <output_dir>/<VAL>.bin"},
                       {"model_prefix", true, "VAL", "function prefix of the model library (default QnnModel)"},
                       {"dlc_path", true, "FILE", "comma list of DLCs (qairt-converter) composed into the context; "
                                                  "needs libQnnModelDlc.so as --model"},
                       {"output_dir", true, "DIR", "output directory (default ./output)"},
                       {"op_packages", true, "VAL", "op_package_path:interface_provider[,...]"},
                       {"config_file", true, "FILE", "JSON: backend_extensions, context_configs, graph_configs"},
                       {"profiling_level", true, "VAL", "basic, detailed or backend"},
                       {"enable_intermediate_outputs", false, "", "every intermediate tensor becomes a graph output"},
                       {"adapter_weight_config", true, "FILE",
                        "YAML of LoRA use cases (use_case: name, graph, weights .safetensors): also saves the base "
                        "weights and each use case as a binary section <binary_file>_<name>.bin"},
                       {"log_level", true, "VAL", "error, warn, info, debug or verbose"},
                       {"verbose", false, "", "same as --log_level verbose"},
                       {"version", false, "", "print the SDK version"},
                       {"help", false, "", "show this help"},
                   });
}

std::string binaryFileName(const std::string& name) {
  const bool hasBin = name.size() > 4 && name.compare(name.size() - 4, 4, ".bin") == 0;
  return hasBin ? name : name + ".bin";
}

int run(const ArgParser& args) {
  args.require("backend");
  args.require("model");
  args.require("binary_file");
  const std::string backendPath = args.value("backend");
  requireFile(backendPath, "backend library");
  auto models = splitString(args.value("model"), ',');
  for (const auto& m : models) {
    if (m.empty()) throw UsageError("--model has an empty entry");
    requireFile(m, "model library");
  }
  std::vector<std::string> dlcPaths;
  if (args.has("dlc_path")) {
    if (models.size() != 1) throw UsageError("--dlc_path takes one --model (libQnnModelDlc.so)");
    dlcPaths = splitString(args.value("dlc_path"), ',');
    for (const auto& d : dlcPaths) {
      if (d.empty()) throw UsageError("--dlc_path has an empty entry");
      requireFile(d, "DLC");
    }
  }
  const std::string name = args.value("binary_file");
  if (name.find('/') != std::string::npos) throw UsageError("--binary_file is a name, not a path (use --output_dir)");
  const std::string outputDir = args.value("output_dir", "./output");
  std::vector<OpPackageSpec> packages;
  if (args.has("op_packages")) packages = parseOpPackages(args.value("op_packages"), true);
  ProfilingLevel level = ProfilingLevel::kOff;
  if (args.has("profiling_level"))
    level = parseProfilingLevel(args.value("profiling_level"), {"basic", "detailed", "backend"});
  QnnLog_Level_t logLevel = static_cast<QnnLog_Level_t>(0);
  if (args.has("log_level")) logLevel = parseLogLevel(args.value("log_level"));
  if (args.has("verbose")) logLevel = QNN_LOG_LEVEL_VERBOSE;
  std::vector<AdapterUseCase> useCases;
  if (args.has("adapter_weight_config")) {
    requireFile(args.value("adapter_weight_config"), "adapter weight config");
    useCases = readAdapterConfig(args.value("adapter_weight_config"));
  }
  RunConfig config;
  if (args.has("config_file")) {
    requireFile(args.value("config_file"), "config file");
    config = readRunConfig(args.value("config_file"));
  }
  BackendExtension extension;  // outlives the backend: its configs are borrowed below
  if (!config.extensionLibrary.empty())
    extension.load(config.extensionLibrary, config.extensionConfig, backendPath, "qnn-context-binary-generator");

  QnnBackend backend;
  backend.load(backendPath, logLevel, extension.deviceConfigs());
  backend.registerOpPackages(packages);
  ProfileCollector profile("qnn-context-binary-generator", level);
  profile.attach(backend);
  QnnConfigLists qnnConfigs(config, &extension);
  ContextSession session(backend, &profile);
  session.createContext(qnnConfigs.contextConfigs());
  // With adapters the tool must know the graphs' updateable tensors: it sees them created.
  TensorCatalog catalog;
  QNN_INTERFACE_VER_TYPE recordingApi{};
  if (!useCases.empty()) recordingApi = catalog.recording(backend.api());
  session.composeModels(models, args.value("model_prefix", "QnnModel"), qnnConfigs.graphConfigInfos(),
                        args.has("enable_intermediate_outputs"), useCases.empty() ? nullptr : &recordingApi,
                        dlcPaths);
  extension.warnUnmatchedGraphs(session.graphNames());
  session.finalizeGraphs();
  std::vector<GraphSpec> specs;
  for (const auto& g : session.graphs()) specs.push_back(g.spec);
  std::vector<uint8_t> binary = session.serialize();
  makeDirectories(outputDir);
  std::vector<std::string> sections;
  if (!useCases.empty()) sections = writeAdapterSections(backend, session, catalog, useCases, outputDir, name);
  session.close();

  const std::string path = outputDir + "/" + binaryFileName(name);
  writeBinaryFile(path, binary.data(), binary.size());
  writeTensorRecord(tensorRecordPath(path), specs);
  profile.write(outputDir, backendPath, backend.buildId());
  std::printf("Saved context binary: %s (%zu bytes, %zu graph(s))\n", path.c_str(), binary.size(), specs.size());
  for (const std::string& s : sections) std::printf("Saved adapter binary section: %s\n", s.c_str());
  return 0;
}

}  // namespace
}  // namespace qnn::tools

int main(int argc, char** argv) {
  return qnn::tools::runToolMain("qnn-context-binary-generator", [&]() {
    auto parser = qnn::tools::makeParser();
    parser.parse(argc, argv);
    if (parser.answeredHelpOrVersion(qnn::tools::ArgParser::VersionText::Sdk)) return 0;
    return qnn::tools::run(parser);
  });
}
