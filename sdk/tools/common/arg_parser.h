// Command-line parsing shared by the tools: a table of known flags, `--flag value`
// or `--flag=value` (or a declared short alias `-x value`), no positional arguments. Anything else is a UsageError, so a
// typo never runs with a silently different configuration.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace qnn::tools {

struct FlagSpec {
  std::string name;      // without the leading "--"
  bool takesValue;
  std::string valueName; // shown in the usage text, e.g. "FILE"
  std::string help;
  std::string shortName = "";  // e.g. "p" for -p; empty = none
  bool repeatable = false;     // every occurrence is kept (values())
};

class ArgParser {
 public:
  ArgParser(std::string toolName, std::string summary, std::vector<FlagSpec> flags);

  // Throws UsageError. A flag given twice keeps the last value.
  void parse(int argc, char** argv);

  // How --version answers: "<tool> (OpenQNN) QNN SDK <id>", or for the tools
  // that answer as the vendor's (qnn-net-run and its kin) "QNN SDK <id> (OpenQNN)".
  enum class VersionText { Tool, Sdk };
  // Prints the usage for --help or the version line for --version and returns
  // true when either was given: the tool then exits 0.
  bool answeredHelpOrVersion(VersionText text = VersionText::Tool) const;
  // Throws UsageError("--<name> is required") when the flag was not given.
  void require(const std::string& name) const;
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::string value(const std::string& name, const std::string& fallback = "") const;
  // Every value of a repeatable flag, in command-line order.
  std::vector<std::string> values(const std::string& name) const;
  std::string usage() const;
  const std::string& toolName() const { return tool_; }

  // Numeric values with the flag named in the error.
  int64_t intValue(const std::string& name, int64_t fallback, int64_t minimum) const;
  double doubleValue(const std::string& name, double fallback, double minimum) const;
  // Flags that must not be combined.
  void requireExclusive(const std::string& a, const std::string& b) const;

 private:
  const FlagSpec* find(const std::string& name) const;
  std::string tool_;
  std::string summary_;
  std::vector<FlagSpec> flags_;
  std::map<std::string, std::string> values_;
  std::map<std::string, std::vector<std::string>> repeatedValues_;
};

// `flags` followed by the two every tool ends its table with: --version and --help.
std::vector<FlagSpec> withVersionAndHelp(std::vector<FlagSpec> flags);

// Splits s at every sep; empty pieces are kept (callers decide what they mean).
std::vector<std::string> splitString(const std::string& s, char sep);
std::string trimString(const std::string& s);

}  // namespace qnn::tools
