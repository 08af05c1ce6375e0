// QnnBackend: a loaded backend library with its log, backend and device handles,
// created in the order the API requires and freed in reverse. Every failed call
// becomes a ToolError naming the call and the backend's error message.
#pragma once

#include <string>
#include <vector>

#include "QnnInterface.h"
#include "tools/common/dynamic_library.h"

namespace qnn::tools {

struct OpPackageSpec {
  std::string path;
  std::string provider;
  std::string target;  // empty = backend default
};

// "path:provider[:target][,path:provider[:target]...]"; throws UsageError.
std::vector<OpPackageSpec> parseOpPackages(const std::string& value, bool allowTarget);

class QnnBackend {
 public:
  QnnBackend() = default;
  ~QnnBackend();
  QnnBackend(const QnnBackend&) = delete;
  QnnBackend& operator=(const QnnBackend&) = delete;

  // logLevel 0 = no backend logging. deviceConfigs (borrowed for the call) go to
  // QnnDevice_create; with configs a failing device is an error, without them
  // the backend may run device-less. logCallback: where the backend's log lines go (default:
  // one line each on stderr). Throws ToolError.
  void load(const std::string& path, QnnLog_Level_t logLevel, const QnnDevice_Config_t** deviceConfigs = nullptr,
            QnnLog_Callback_t logCallback = nullptr);
  void registerOpPackages(const std::vector<OpPackageSpec>& packages);

  const QNN_INTERFACE_VER_TYPE& api() const { return api_; }
  Qnn_BackendHandle_t backend() const { return backend_; }
  Qnn_DeviceHandle_t device() const { return device_; }
  const std::string& path() const { return lib_.path(); }
  // An exported symbol of the backend library, or nullptr.
  void* symbol(const char* name) const { return lib_.symbol(name); }
  std::string buildId() const;
  QnnLog_Level_t logLevel() const { return logLevel_; }

  // Throws ToolError("<what> failed: <message> (error <code>)") unless status is success.
  void check(Qnn_ErrorHandle_t status, const std::string& what) const;
  std::string describe(Qnn_ErrorHandle_t status) const;

 private:
  mutable DynamicLibrary lib_;  // mutable for symbol(): a lookup records its error text
  QNN_INTERFACE_VER_TYPE api_{};
  QnnLog_Level_t logLevel_ = static_cast<QnnLog_Level_t>(0);
  Qnn_LogHandle_t log_ = nullptr;
  Qnn_BackendHandle_t backend_ = nullptr;
  Qnn_DeviceHandle_t device_ = nullptr;
};

}  // namespace qnn::tools
