#include "tools/common/arg_parser.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "tools/common/tool_error.h"
#include "QnnSdkBuildId.h"

namespace qnn::tools {

ArgParser::ArgParser(std::string toolName, std::string summary, std::vector<FlagSpec> flags)
    : tool_(std::move(toolName)), summary_(std::move(summary)), flags_(std::move(flags)) {}

const FlagSpec* ArgParser::find(const std::string& name) const {
  for (const auto& f : flags_)
    if (f.name == name) return &f;
  return nullptr;
}

void ArgParser::parse(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string name;
    std::string value;
    bool inlineValue = false;
    const FlagSpec* spec = nullptr;
    if (arg.rfind("--", 0) == 0 && arg.size() > 2) {
      name = arg.substr(2);
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inlineValue = true;
      }
      spec = find(name);
      if (!spec) throw UsageError("unknown flag '--" + name + "'");
    } else if (arg.size() > 1 && arg[0] == '-' && arg[1] != '-') {
      for (const auto& f : flags_)
        if (!f.shortName.empty() && f.shortName == arg.substr(1)) spec = &f;
      if (!spec) throw UsageError("unknown flag '" + arg + "'");
      name = spec->name;
    } else {
      throw UsageError("unexpected argument '" + arg + "'");
    }
    if (spec->takesValue) {
      if (!inlineValue) {
        if (i + 1 >= argc) throw UsageError("--" + name + " needs a value");
        value = argv[++i];
      }
      if (value.empty()) throw UsageError("--" + name + " needs a non-empty value");
    } else if (inlineValue) {
      throw UsageError("--" + name + " takes no value");
    }
    values_[name] = value;
    if (spec->repeatable) repeatedValues_[name].push_back(value);
  }
}

std::vector<std::string> ArgParser::values(const std::string& name) const {
  auto it = repeatedValues_.find(name);
  return it == repeatedValues_.end() ? std::vector<std::string>{} : it->second;
}

std::string ArgParser::value(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::string ArgParser::usage() const {
  std::string out = "usage: " + tool_ + " [options]\n" + summary_ + "\n\noptions:\n";
  for (const auto& f : flags_) {
    std::string left = "  " + (f.shortName.empty() ? "" : "-" + f.shortName + ", ") + "--" + f.name +
                       (f.takesValue ? " <" + f.valueName + ">" : "");
    if (left.size() < 40) left.resize(40, ' ');
    else left += "\n" + std::string(40, ' ');
    out += left + f.help + "\n";
  }
  return out;
}

int64_t ArgParser::intValue(const std::string& name, int64_t fallback, int64_t minimum) const {
  if (!has(name)) return fallback;
  const std::string v = value(name);
  errno = 0;
  char* end = nullptr;
  long long parsed = std::strtoll(v.c_str(), &end, 10);
  if (errno != 0 || end == v.c_str() || *end != '\0' || parsed < minimum)
    throw UsageError("--" + name + " expects an integer >= " + std::to_string(minimum) + ", got '" + v + "'");
  return parsed;
}

double ArgParser::doubleValue(const std::string& name, double fallback, double minimum) const {
  if (!has(name)) return fallback;
  const std::string v = value(name);
  errno = 0;
  char* end = nullptr;
  double parsed = std::strtod(v.c_str(), &end);
  if (errno != 0 || end == v.c_str() || *end != '\0' || !(parsed >= minimum))
    throw UsageError("--" + name + " expects a number >= " + std::to_string(minimum) + ", got '" + v + "'");
  return parsed;
}

void ArgParser::requireExclusive(const std::string& a, const std::string& b) const {
  if (has(a) && has(b)) throw UsageError("--" + a + " and --" + b + " are mutually exclusive");
}

std::vector<std::string> splitString(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return parts;
}

std::string trimString(const std::string& s) {
  const char* ws = " \t\r\n";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

}  // namespace qnn::tools

namespace qnn::tools {

bool ArgParser::answeredHelpOrVersion(VersionText text) const {
  if (has("help")) {
    std::fputs(usage().c_str(), stdout);
    return true;
  }
  if (has("version")) {
    if (text == VersionText::Sdk)
      std::printf("QNN SDK %s (OpenQNN)\n", QNN_SDK_BUILD_ID);
    else
      std::printf("%s (OpenQNN) QNN SDK %s\n", tool_.c_str(), QNN_SDK_BUILD_ID);
    return true;
  }
  return false;
}

void ArgParser::require(const std::string& name) const {
  if (!has(name)) throw UsageError("--" + name + " is required");
}

std::vector<FlagSpec> withVersionAndHelp(std::vector<FlagSpec> flags) {
  flags.push_back({"version", false, "", "print the version and exit"});
  flags.push_back({"help", false, "", "print this help and exit"});
  return flags;
}

}  // namespace qnn::tools
