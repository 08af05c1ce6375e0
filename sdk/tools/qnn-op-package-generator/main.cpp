// qnn-op-package-generator: from OpDefCollection XML configs, writes an op package
// directory per package (<output>/<PackageName>/) with the interface provider,
// validation code generated from the XML, one kernel source per op for the
// author to fill in, and a CMakeLists.txt that builds lib<PackageName>.so against
// an installed SDK. Every config is read and validated before anything is written.
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "oppackage/op_package_xml.h"
#include "tools/common/arg_parser.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "tools/qnn-op-package-generator/cpu_package_sources.h"
#include "tools/qnn-op-package-generator/package_writer.h"

namespace {

constexpr const char* kTool = "qnn-op-package-generator";

using namespace qnn::tools;
using namespace qnn::tools::oppackage_gen;
namespace opk = qnn::oppackage;

struct LoadedConfig {
  opk::OpPackageConfig config;
  std::string xmlText;
};

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ToolError("cannot open config '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<LoadedConfig> loadConfigs(const std::vector<std::string>& paths) {
  std::vector<LoadedConfig> loaded;
  size_t problems = 0;
  for (const auto& path : paths) {
    try {
      std::string text = readText(path);
      loaded.push_back({opk::parseOpPackageConfigText(text, path), text});
    } catch (const opk::OpPackageConfigError& e) {
      for (const auto& d : e.diagnostics())
        std::fprintf(stderr, "%s:%d: error: %s\n", d.file.c_str(), d.line, d.message.c_str());
      problems += e.diagnostics().size();
    }
  }
  if (problems > 0) throw ToolError(std::to_string(problems) + " problem(s) in the config(s); nothing generated");
  std::set<std::string> names;
  for (const auto& l : loaded)
    if (!names.insert(l.config.packageName).second)
      throw ToolError("package '" + l.config.packageName + "' is defined by more than one config; nothing generated");
  return loaded;
}

void generateCpu(const LoadedConfig& loaded, const std::string& outputDir, bool force, bool debug) {
  const opk::OpPackageConfig& config = loaded.config;
  const std::vector<opk::OpDef> ops = opk::opsForBackend(config, "CPU");
  std::vector<std::string> warnings;
  const auto files = cpuPackageFiles(config, ops, loaded.xmlText, warnings);
  for (const auto& w : warnings) std::fprintf(stderr, "%s: warning: %s\n", config.file.c_str(), w.c_str());
  const std::string packageDir = outputDir + "/" + config.packageName;
  const WriteReport report = writePackage(packageDir, files, force);
  std::printf("%s: CPU package with %zu op(s) in %s (%zu file(s) written)\n", config.packageName.c_str(), ops.size(),
              packageDir.c_str(), report.written.size());
  if (debug)
    for (const auto& f : report.written) std::printf("  wrote %s\n", f.c_str());
  for (const auto& f : report.kept)
    std::printf("  kept %s: it exists and may hold your kernel (-f regenerates the whole package)\n", f.c_str());
  std::printf("  interface provider: %sCpuInterfaceProvider, library: lib%s.so\n", config.packageName.c_str(),
              config.packageName.c_str());
}

// The flags it takes.
qnn::tools::ArgParser parser() {
  using namespace qnn::tools;
  return {kTool,
          "Generates op package skeletons (sources and a CMake build) from OpDefCollection XML configs.",
          {{"config_path", true, "XML", "op package config; may be repeated (required)", "p", true},
           {"output_path", true, "DIR", "where the package directories go (default: current directory)", "o"},
           {"force-generation", false, "", "delete an existing package and generate it anew", "f"},
           {"debug", false, "", "print every file written and each op's summary"},
           {"converter_op_package", false, "", "converter op package skeleton (not supported)", "cop"},
           {"version", false, "", "print the version and exit"},
           {"help", false, "", "print this help and exit", "h"}}};
}

int run(const qnn::tools::ArgParser& args) {
  const std::vector<std::string> configPaths = args.values("config_path");
  if (configPaths.empty()) throw UsageError("--config_path is required");
  if (args.has("converter_op_package"))
    throw ToolError("--converter_op_package is not supported: OpenQNN's converters take no converter op packages");
  const std::string outputDir = args.value("output_path", ".");
  const bool force = args.has("force-generation");
  const bool debug = args.has("debug");

  const std::vector<LoadedConfig> configs = loadConfigs(configPaths);
  size_t generated = 0;
  for (const auto& loaded : configs) {
    const opk::OpPackageConfig& config = loaded.config;
    if (debug) {
      std::printf("%s: package %s, domain '%s', version '%s', %zu op(s)\n", config.file.c_str(),
                  config.packageName.c_str(), config.domain.c_str(), config.version.c_str(), config.ops.size());
      for (const auto& op : config.ops)
        std::printf("  op %s: %zu input(s), %zu output(s), %zu parameter(s)\n", op.name.c_str(), op.inputs.size(),
                    op.outputs.size(), op.params.size());
    }
    for (const auto& backend : opk::packageBackends(config)) {
      if (backend == "CPU") {
        generateCpu(loaded, outputDir, force, debug);
        ++generated;
      } else {
        std::printf("%s: backend %s: not generated; OpenQNN generates op packages for the CPU backend only "
                    "(its HTP simulator does not load op packages yet)\n",
                    config.packageName.c_str(), backend.c_str());
      }
    }
  }
  if (generated == 0) throw ToolError("no op in the config(s) targets the CPU backend; nothing generated");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return qnn::tools::runToolWithArgs(argc, argv, parser(), run); }
