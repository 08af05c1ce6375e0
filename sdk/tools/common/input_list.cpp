#include "tools/common/input_list.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/common/arg_parser.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

std::string resolvePath(const std::string& listFile, const std::string& p) {
  if (fileExists(p) || std::filesystem::path(p).is_absolute()) return p;
  auto beside = (std::filesystem::path(listFile).parent_path() / p).string();
  return fileExists(beside) ? beside : p;
}

}  // namespace

InputList readInputList(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ToolError("input list not found: " + path);
  InputList list;
  list.file = path;
  std::string raw;
  size_t lineNo = 0;
  while (std::getline(in, raw)) {
    ++lineNo;
    std::string line = trimString(raw);
    if (line.empty()) continue;
    if (line[0] == '#' || line[0] == '%') {
      auto& names = line[0] == '#' ? list.outputLayerNames : list.outputTensorNames;
      std::istringstream ss(line.substr(1));
      for (std::string n; ss >> n;) names.push_back(n);
      continue;
    }
    std::vector<InputEntry> entries;
    std::istringstream ss(line);
    size_t named = 0;
    for (std::string tok; ss >> tok;) {
      InputEntry e;
      if (auto pos = tok.find(":="); pos != std::string::npos) {
        e.name = tok.substr(0, pos);
        e.path = tok.substr(pos + 2);
        ++named;
        if (e.name.empty() || e.path.empty())
          throw ToolError(path + ":" + std::to_string(lineNo) + ": malformed entry '" + tok + "' (expected name:=path)");
      } else {
        e.path = tok;
      }
      e.path = resolvePath(path, e.path);
      if (!fileExists(e.path))
        throw ToolError(path + ":" + std::to_string(lineNo) + ": input file not found: " + e.path);
      entries.push_back(std::move(e));
    }
    if (named != 0 && named != entries.size())
      throw ToolError(path + ":" + std::to_string(lineNo) + ": mixes name:=path entries and plain paths");
    list.lines.push_back(std::move(entries));
  }
  // An input list without entries is only right for graphs without inputs: InputLoader decides.
  return list;
}

}  // namespace qnn::tools
