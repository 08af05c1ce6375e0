// InputLoader: turns the lines of an input list into native input buffers for
// one graph. Every line is checked when the loader is built (tensor names, file
// count, file sizes), so a bad list fails before anything runs or is written.
// Float files are converted to each input's dtype unless read natively; with a
// batch multiplier m each file holds m consecutive batches. Converted lines are
// cached within the set/size limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tools/common/graph_spec.h"
#include "tools/common/input_list.h"

namespace qnn::tools {

struct InputOptions {
  bool nativeAll = false;
  std::set<std::string> nativeNames;
  size_t batchMultiplier = 1;
  int64_t maxCacheSets = -1;  // -1 = unlimited
  int64_t maxCacheBytes = -1; // -1 = unlimited
};

class InputLoader {
 public:
  InputLoader(const GraphSpec& graph, const InputList& list, InputOptions options);
  size_t lineCount() const { return files_.size(); }
  // Native bytes per graph input (in graph input order) for the given line.
  const std::vector<std::vector<uint8_t>>& load(size_t line);

 private:
  bool isNative(const TensorSpec& t) const;
  size_t expectedFileSize(const TensorSpec& t) const;
  const GraphSpec& graph_;
  InputOptions options_;
  std::vector<std::vector<std::string>> files_;  // [line][input] -> path
  std::map<size_t, std::vector<std::vector<uint8_t>>> cache_;
  size_t cachedBytes_ = 0;
  std::vector<std::vector<uint8_t>> scratch_;
};

}  // namespace qnn::tools
