// SystemContextReader: libQnnSystem.so loaded with dlopen, its provider picked the way
// a vendor client does (QnnSystemInterface_getProviders, compatible API major),
// and one system context created on it. Reading binaries goes through the public
// System API only, so the utility works with any conforming libQnnSystem.so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "System/QnnSystemInterface.h"
#include "tools/common/dynamic_library.h"

namespace qnn::tools {

class SystemContextReader {
 public:
  // explicitPath: the --system_library value, or empty to search next to the
  // executable (installed, then build tree) and then the dynamic linker's path.
  // Throws ToolError if no usable library is found.
  explicit SystemContextReader(const std::string& explicitPath);
  // Frees the system context (and with it every info it returned), then unloads.
  ~SystemContextReader();
  SystemContextReader(const SystemContextReader&) = delete;
  SystemContextReader& operator=(const SystemContextReader&) = delete;

  const std::string& path() const { return lib_.path(); }
  // Parses binary through QnnSystemContext_getBinaryInfo. The result is owned by
  // this object's system context: valid until this object is destroyed. Throws
  // ToolError (naming what the library answered) if the binary is refused.
  const QnnSystemContext_BinaryInfo_t& binaryInfo(std::vector<uint8_t>& binary, const std::string& what);

 private:
  DynamicLibrary lib_;
  const QNN_SYSTEM_INTERFACE_VER_TYPE* api_ = nullptr;
  QnnSystemContext_Handle_t context_ = nullptr;
};

// Candidate locations of libQnnSystem.so when no path is given, in search order.
std::vector<std::string> systemLibraryCandidates();

}  // namespace qnn::tools
