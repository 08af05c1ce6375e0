// The input-list file of qnn-net-run: one inference per line, either plain paths
// (matched to the graph inputs in order) or `name:=path` pairs separated by
// spaces. Leading `#...` / `%...` lines name output layers/tensors (a converter
// and quantizer convention) and are kept but not used for execution.
// Relative paths are resolved against the current directory first, then against
// the list file's directory.
#pragma once

#include <string>
#include <vector>

namespace qnn::tools {

struct InputEntry {
  std::string name;  // empty for a plain path
  std::string path;
};

struct InputList {
  std::string file;
  std::vector<std::vector<InputEntry>> lines;
  std::vector<std::string> outputLayerNames;   // from '#' lines
  std::vector<std::string> outputTensorNames;  // from '%' lines
};

// Throws ToolError for a missing/empty list, mixed syntax on a line, or a
// listed file that does not exist.
InputList readInputList(const std::string& path);

}  // namespace qnn::tools
