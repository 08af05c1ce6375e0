// The files of a CPU op package, as text, from a validated op package config.
// Pure: nothing is written here (package_writer.h does that).
#pragma once

#include <string>
#include <vector>

#include "oppackage/op_package_config.h"

namespace qnn::tools::oppackage_gen {

struct GeneratedFile {
  std::string relativePath;  // inside the package directory
  std::string content;
  bool authorOwned;  // an op kernel: written once, kept on later runs without -f
};

// Every file of <PackageName>/ for the CPU backend. ops are the package's CPU ops
// (opsForBackend(config, "CPU")); xmlText is the config, copied to config/.
// warnings receives what the CPU interface cannot express (e.g. FLOAT_16 tensors).
std::vector<GeneratedFile> cpuPackageFiles(const qnn::oppackage::OpPackageConfig& config,
                                           const std::vector<qnn::oppackage::OpDef>& ops, const std::string& xmlText,
                                           std::vector<std::string>& warnings);

}  // namespace qnn::tools::oppackage_gen
