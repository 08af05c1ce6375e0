#include "tools/qnn-context-binary-utility/system_context_reader.h"

#include <unistd.h>

#include <climits>
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"
#include "tools/qnn-context-binary-utility/qnn_names.h"

namespace qnn::tools {
namespace {

constexpr const char* kLibraryName = "libQnnSystem.so";

std::string executableDir() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  std::string exe(buf, static_cast<size_t>(n));
  size_t slash = exe.find_last_of('/');
  return slash == std::string::npos ? "" : exe.substr(0, slash);
}

}  // namespace

std::vector<std::string> systemLibraryCandidates() {
  std::vector<std::string> out;
  const std::string dir = executableDir();
  if (!dir.empty()) {
    out.push_back(dir + "/" QNN_SYSTEM_LIB_INSTALLED_REL "/" + kLibraryName);
    out.push_back(dir + "/" QNN_SYSTEM_LIB_BUILD_REL "/" + kLibraryName);
  }
  return out;
}

SystemContextReader::SystemContextReader(const std::string& explicitPath) {
  if (!explicitPath.empty()) {
    if (!lib_.open(explicitPath)) throw ToolError("cannot load system library '" + explicitPath + "': " + lib_.error());
  } else {
    std::string tried;
    for (const std::string& candidate : systemLibraryCandidates()) {
      if (fileExists(candidate) && lib_.open(candidate)) break;
      tried += candidate + ", ";
    }
    // Last resort: the dynamic linker's search path (LD_LIBRARY_PATH, ...).
    if (!lib_.isOpen() && !lib_.open(kLibraryName))
      throw ToolError("cannot find " + std::string(kLibraryName) + " (tried " + tried +
                      "and the library search path); use --system_library");
  }
  using GetProviders = Qnn_ErrorHandle_t (*)(const QnnSystemInterface_t***, uint32_t*);
  auto getProviders = lib_.function<GetProviders>("QnnSystemInterface_getProviders");
  if (!getProviders) throw ToolError(lib_.path() + " is not a QNN system library: " + lib_.error());
  const QnnSystemInterface_t** providers = nullptr;
  uint32_t n = 0;
  if (getProviders(&providers, &n) != QNN_SUCCESS || !providers || n == 0)
    throw ToolError(lib_.path() + " reports no system interface provider");
  for (uint32_t i = 0; i < n && !api_; ++i) {
    const Qnn_Version_t& v = providers[i]->systemApiVersion;
    if (v.major == QNN_SYSTEM_API_VERSION_MAJOR && v.minor >= QNN_SYSTEM_API_VERSION_MINOR)
      api_ = &providers[i]->QNN_SYSTEM_INTERFACE_VER_NAME;
  }
  if (!api_ || !api_->systemContextCreate || !api_->systemContextGetBinaryInfo || !api_->systemContextFree)
    throw ToolError(lib_.path() + " has no provider of system API " + std::to_string(QNN_SYSTEM_API_VERSION_MAJOR) +
                    "." + std::to_string(QNN_SYSTEM_API_VERSION_MINOR));
  if (Qnn_ErrorHandle_t err = api_->systemContextCreate(&context_); err != QNN_SUCCESS)
    throw ToolError("QnnSystemContext_create failed: " + systemErrorName(err));
}

SystemContextReader::~SystemContextReader() {
  if (context_) api_->systemContextFree(context_);
}

const QnnSystemContext_BinaryInfo_t& SystemContextReader::binaryInfo(std::vector<uint8_t>& binary, const std::string& what) {
  if (binary.empty()) throw ToolError("'" + what + "' is empty, not a context binary");
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  Qnn_ContextBinarySize_t infoSize = 0;
  Qnn_ErrorHandle_t err = api_->systemContextGetBinaryInfo(context_, binary.data(), binary.size(), &info, &infoSize);
  if (err == QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY)
    throw ToolError("'" + what + "' is not a valid context binary (truncated, corrupted or foreign): " +
                    systemErrorName(err));
  if (err != QNN_SUCCESS) throw ToolError("cannot read '" + what + "': " + systemErrorName(err));
  if (!info) throw ToolError("cannot read '" + what + "': the system library returned no info");
  return *info;
}

}  // namespace qnn::tools
