// Test helper: runs a tool executable (no shell, so no quoting issues) and
// captures its exit code, stdout and stderr.
#pragma once

#include <string>
#include <vector>

namespace qnn::test {

struct ToolResult {
  int exitCode = -1;  // -1 if the tool could not be started or did not exit normally
  std::string out, err;
};

// Runs program with args; scratchDir holds the captured output files.
ToolResult runTool(const std::string& program, const std::vector<std::string>& args, const std::string& scratchDir);

// Lines of text that contain needle.
size_t countLinesContaining(const std::string& text, const std::string& needle);
size_t countLines(const std::string& text);

}  // namespace qnn::test
