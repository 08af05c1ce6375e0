#include "trace/cgen/params_file.h"

#include <cstdio>

namespace qnn::trace::cgen {

bool ParamsFile::offsetOf(const Value& ref, uint64_t* offset) {
  auto it = offsets_.find(ref.u);
  if (it != offsets_.end()) {
    *offset = it->second;
    return true;
  }
  const std::vector<uint8_t>* blob = trace_.blob(ref);
  if (!blob) return false;
  bytes_.resize((bytes_.size() + 7) / 8 * 8, 0);  // aligned for any element type
  *offset = bytes_.size();
  bytes_.insert(bytes_.end(), blob->begin(), blob->end());
  offsets_.emplace(ref.u, *offset);
  return true;
}

bool ParamsFile::write(const std::string& path, std::string* error) const {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f && (bytes_.empty() || std::fwrite(bytes_.data(), 1, bytes_.size(), f) == bytes_.size());
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok && error) *error = "cannot write " + path;
  return ok;
}

}  // namespace qnn::trace::cgen
