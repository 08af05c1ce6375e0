#include "tools/qnn-op-package-generator/package_writer.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "tools/common/tool_error.h"

namespace qnn::tools::oppackage_gen {

namespace fs = std::filesystem;

namespace {

void writeText(const fs::path& path, const std::string& content) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) throw ToolError("cannot create directory '" + path.parent_path().string() + "': " + ec.message());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw ToolError("cannot write '" + path.string() + "'");
}

}  // namespace

WriteReport writePackage(const std::string& packageDir, const std::vector<GeneratedFile>& files, bool force) {
  const fs::path root(packageDir);
  std::error_code ec;
  if (fs::exists(root, ec) && !fs::is_directory(root, ec))
    throw ToolError("'" + packageDir + "' exists and is not a directory");
  if (force) {
    fs::remove_all(root, ec);
    if (ec) throw ToolError("cannot delete the existing package '" + packageDir + "': " + ec.message());
  }
  WriteReport report;
  for (const auto& file : files) {
    const fs::path path = root / file.relativePath;
    if (file.authorOwned && fs::exists(path, ec)) {
      report.kept.push_back(file.relativePath);
      continue;
    }
    writeText(path, file.content);
    report.written.push_back(file.relativePath);
  }
  return report;
}

}  // namespace qnn::tools::oppackage_gen
