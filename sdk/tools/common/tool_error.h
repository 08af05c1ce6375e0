// Errors the tools report to the user. Everything a tool detects is thrown as
// ToolError and caught once in main, which prints the message as one line and
// exits 1; UsageError additionally prints a hint to run --help.
#pragma once

#include <stdexcept>
#include <string>

namespace qnn::tools {

class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A malformed command line (unknown flag, missing value, bad number, conflicting flags).
class UsageError : public ToolError {
 public:
  using ToolError::ToolError;
};

}  // namespace qnn::tools
