// backend_extensions of a --config_file: the library named by
// shared_library_path with its config_file_path. OpenQNN's own extension
// libraries (openqnn_backend_extension.h, e.g. libQnnHtpNetRunExtensions.so)
// are loaded and supply device, context and per-graph configs. The vendor's
// libraries implement a vendor-defined C++ interface OpenQNN does not know, so
// they are refused with a message saying so.
#pragma once

#include <string>
#include <vector>

#include "tools/common/dynamic_library.h"
#include "tools/common/openqnn_backend_extension.h"

namespace qnn::tools {

class BackendExtension {
 public:
  BackendExtension() = default;
  // Destroys the interface object, then unloads the library.
  ~BackendExtension();
  BackendExtension(const BackendExtension&) = delete;
  BackendExtension& operator=(const BackendExtension&) = delete;

  // Loads the library and reads its config; prints the extension's warnings as
  // "<tool>: warning: ..." on stderr. A bare library name that the loader cannot
  // find is also looked up beside backendPath. Throws ToolError (missing library
  // or config file, not an OpenQNN extension, config errors).
  void load(const std::string& libraryPath, const std::string& configPath, const std::string& backendPath,
            const std::string& tool);
  bool loaded() const { return extension_ != nullptr; }

  // Owned by the extension; valid while this object lives. nullptr when none
  // (always nullptr before load).
  const QnnDevice_Config_t** deviceConfigs() const;
  const QnnContext_Config_t** contextConfigs() const;
  const QnnGraph_Config_t** graphConfigs(const std::string& graphName) const;
  // The graph names the extension config configures.
  std::vector<std::string> graphNames() const;

  // Warns about configured graph names that none of `graphs` has (the vendor's
  // behaviour is not documented; OpenQNN warns and runs on).
  void warnUnmatchedGraphs(const std::vector<std::string>& graphs) const;

 private:
  DynamicLibrary lib_;
  OpenQnnBackendExtension* extension_ = nullptr;
  OpenQnnDestroyBackendInterfaceFn_t destroy_ = nullptr;
  std::string tool_;
};

}  // namespace qnn::tools
