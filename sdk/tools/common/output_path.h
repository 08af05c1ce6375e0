// Checks on output paths given on a command line, done before any work so a
// tool that will fail to write its result fails first and writes nothing.
#pragma once

#include <string>

namespace qnn::tools {

// Throws ToolError("output directory '<dir>' does not exist") unless the
// directory that would hold the file path exists ("." for a bare file name).
void requireParentDirectory(const std::string& path);

}  // namespace qnn::tools
