#include "tools/common/output_writer.h"

#include <cctype>
#include <set>

#include "tools/common/data_convert.h"
#include "tools/common/raw_file.h"

namespace qnn::tools {

std::string sanitizeTensorName(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return out.empty() ? "_" : out;
}

void writeInferenceOutputs(const std::string& outputDir, size_t inference, const std::string& graphFolder,
                           const std::vector<OutputTensor>& outputs, bool native) {
  std::string dir = outputDir + "/Result_" + std::to_string(inference);
  if (!graphFolder.empty()) dir += "/" + sanitizeTensorName(graphFolder);
  makeDirectories(dir);
  std::set<std::string> used;
  for (const auto& o : outputs) {
    std::string base = sanitizeTensorName(o.spec->name);
    std::string file = base;
    for (int k = 1; used.count(file); ++k) file = base + "_" + std::to_string(k);
    used.insert(file);
    const std::string path = dir + "/" + file + ".raw";
    const size_t bytes = o.spec->byteSize() * o.batches;
    if (native) {
      writeBinaryFile(path, o.data, bytes);
    } else {
      auto f = nativeToFloat(o.data, o.spec->elementCount() * o.batches, *o.spec);
      writeBinaryFile(path, f.data(), f.size() * sizeof(float));
    }
  }
}

}  // namespace qnn::tools
