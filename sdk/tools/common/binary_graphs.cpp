#include "tools/common/binary_graphs.h"

#include <filesystem>

#include "tools/common/raw_file.h"
#include "tools/common/system_library.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {

std::vector<GraphSpec> binaryGraphSpecs(const std::string& binaryPath, const std::vector<uint8_t>& binary,
                                        const std::string& systemLibrary, const std::string& backendPath) {
  // An explicitly named system library must work: its failure is the user's answer.
  if (!systemLibrary.empty()) return graphSpecsFromSystemLibrary(systemLibrary, binary);
  std::string systemError;
  const std::string beside = (std::filesystem::path(backendPath).parent_path() / "libQnnSystem.so").string();
  for (const std::string& candidate : {beside, std::string("libQnnSystem.so")}) {
    if (candidate == beside && !fileExists(beside)) continue;
    try {
      return graphSpecsFromSystemLibrary(candidate, binary);
    } catch (const ToolError& e) {
      if (systemError.empty()) systemError = e.what();
    }
  }
  const std::string record = tensorRecordPath(binaryPath);
  if (fileExists(record)) return readTensorRecord(record);
  throw ToolError("cannot read the graphs of '" + binaryPath + "': no usable libQnnSystem.so (use --system_library" +
                  (systemError.empty() ? "" : "; " + systemError) + ") and no tensor record '" + record + "'");
}

}  // namespace qnn::tools
