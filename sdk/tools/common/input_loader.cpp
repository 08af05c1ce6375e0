#include "tools/common/input_loader.h"

#include <cstring>
#include <filesystem>

#include "tools/common/data_convert.h"
#include "tools/common/output_writer.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {

InputLoader::InputLoader(const GraphSpec& graph, const InputList& list, InputOptions options)
    : graph_(graph), options_(std::move(options)) {
  for (const auto& name : options_.nativeNames) {
    bool found = false;
    for (const auto& t : graph.inputs) found = found || t.name == name;
    if (!found) throw ToolError("--native_input_tensor_names: graph '" + graph.name + "' has no input '" + name + "'");
  }
  const size_t n = graph.inputs.size();
  for (size_t li = 0; li < list.lines.size(); ++li) {
    const auto& line = list.lines[li];
    const std::string where = list.file + " line " + std::to_string(li + 1);
    std::vector<std::string> paths(n);
    if (line.size() != n)
      throw ToolError(where + ": " + std::to_string(line.size()) + " file(s) for the " + std::to_string(n) +
                      " input(s) of graph '" + graph.name + "'");
    for (size_t k = 0; k < line.size(); ++k) {
      size_t idx = k;
      if (!line[k].name.empty()) {
        idx = n;
        // Exact name first, then the sanitized form users see in output files.
        for (size_t i = 0; i < n && idx == n; ++i)
          if (graph.inputs[i].name == line[k].name) idx = i;
        for (size_t i = 0; i < n && idx == n; ++i)
          if (sanitizeTensorName(graph.inputs[i].name) == line[k].name) idx = i;
        if (idx == n) throw ToolError(where + ": graph '" + graph.name + "' has no input tensor '" + line[k].name + "'");
        if (!paths[idx].empty()) throw ToolError(where + ": input '" + line[k].name + "' is given twice");
      }
      paths[idx] = line[k].path;
    }
    for (size_t i = 0; i < n; ++i) {
      const TensorSpec& t = graph.inputs[i];
      if (!isNative(t) && (t.perAxisQuantized || dataTypeSize(t.dataType) == 0))
        throw ToolError("input '" + t.name + "' (" + dataTypeName(t.dataType) + ") cannot be read from float files; use --use_native_input_files");
      std::error_code ec;
      const auto size = std::filesystem::file_size(paths[i], ec);
      const size_t expected = expectedFileSize(t);
      if (ec) throw ToolError(where + ": cannot read '" + paths[i] + "'");
      if (size != expected)
        throw ToolError(where + ": '" + paths[i] + "' has " + std::to_string(size) + " bytes, input '" + t.name +
                        "' " + t.shapeString() + " needs " + std::to_string(expected) + " (" +
                        (isNative(t) ? dataTypeName(t.dataType) : std::string("float32")) +
                        (options_.batchMultiplier > 1 ? ", x" + std::to_string(options_.batchMultiplier) + " batches" : "") + ")");
    }
    files_.push_back(std::move(paths));
  }
  if (files_.empty()) {
    // A graph without inputs runs once from an input list with no entries; any other graph needs some.
    if (n != 0) throw ToolError("input list has no inputs: " + list.file);
    files_.emplace_back();
  }
}

bool InputLoader::isNative(const TensorSpec& t) const {
  return options_.nativeAll || options_.nativeNames.count(t.name) != 0;
}

size_t InputLoader::expectedFileSize(const TensorSpec& t) const {
  const size_t per = isNative(t) ? t.byteSize() : t.elementCount() * sizeof(float);
  return per * options_.batchMultiplier;
}

const std::vector<std::vector<uint8_t>>& InputLoader::load(size_t line) {
  if (auto it = cache_.find(line); it != cache_.end()) return it->second;
  std::vector<std::vector<uint8_t>> buffers;
  size_t bytes = 0;
  for (size_t i = 0; i < graph_.inputs.size(); ++i) {
    const TensorSpec& t = graph_.inputs[i];
    std::vector<uint8_t> raw = readBinaryFile(files_[line][i]);
    if (raw.size() != expectedFileSize(t)) throw ToolError("'" + files_[line][i] + "' changed size during the run");
    if (!isNative(t)) {
      std::vector<float> f(raw.size() / sizeof(float));
      std::memcpy(f.data(), raw.data(), f.size() * sizeof(float));
      raw = floatToNative(f.data(), f.size(), t);
    }
    bytes += raw.size();
    buffers.push_back(std::move(raw));
  }
  const bool fitsSets = options_.maxCacheSets < 0 || static_cast<int64_t>(cache_.size()) < options_.maxCacheSets;
  const bool fitsBytes = options_.maxCacheBytes < 0 || static_cast<int64_t>(cachedBytes_ + bytes) <= options_.maxCacheBytes;
  if (fitsSets && fitsBytes) {
    cachedBytes_ += bytes;
    return cache_[line] = std::move(buffers);
  }
  scratch_ = std::move(buffers);
  return scratch_;
}

}  // namespace qnn::tools
