// Writes a generated package to disk. Generated files are rewritten on every run;
// an author's op source that already exists is kept (and reported) unless
// force is set, in which case the whole package directory is deleted first,
// as the vendor's -f/--force-generation does.
#pragma once

#include <string>
#include <vector>

#include "tools/qnn-op-package-generator/cpu_package_sources.h"

namespace qnn::tools::oppackage_gen {

struct WriteReport {
  std::vector<std::string> written;  // paths relative to the package directory
  std::vector<std::string> kept;     // author-owned files left as they were
};

// Throws ToolError naming the path on any filesystem failure.
WriteReport writePackage(const std::string& packageDir, const std::vector<GeneratedFile>& files, bool force);

}  // namespace qnn::tools::oppackage_gen
