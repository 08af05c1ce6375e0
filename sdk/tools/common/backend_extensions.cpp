#include "tools/common/backend_extensions.h"

#include <algorithm>
#include <cstdio>

#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {

BackendExtension::~BackendExtension() {
  if (extension_ && destroy_) destroy_(extension_);
}

void BackendExtension::load(const std::string& libraryPath, const std::string& configPath,
                            const std::string& backendPath, const std::string& tool) {
  tool_ = tool;
  if (!configPath.empty() && !fileExists(configPath))
    throw ToolError("backend extension config not found: " + configPath);
  if (!lib_.open(libraryPath)) {
    const std::string firstError = lib_.error();
    const size_t slash = backendPath.rfind('/');
    const bool bareName = libraryPath.find('/') == std::string::npos;
    if (!bareName || slash == std::string::npos || !lib_.open(backendPath.substr(0, slash + 1) + libraryPath))
      throw ToolError("cannot load backend extension library '" + libraryPath + "': " + firstError);
  }
  auto create = lib_.function<OpenQnnCreateBackendInterfaceFn_t>("createBackendInterface");
  destroy_ = lib_.function<OpenQnnDestroyBackendInterfaceFn_t>("destroyBackendInterface");
  if (!create || !destroy_)
    throw ToolError("backend extension library '" + libraryPath +
                    "' does not export createBackendInterface/destroyBackendInterface");
  auto version = lib_.function<OpenQnnBackendExtensionVersionFn_t>(kOpenQnnExtensionMarker);
  if (!version)
    throw ToolError("backend extension library '" + libraryPath +
                    "' uses the vendor's C++ extension interface, which OpenQNN cannot drive; use OpenQNN's "
                    "extension library of the same name or remove backend_extensions");
  if (version() != kOpenQnnExtensionInterfaceVersion)
    throw ToolError("backend extension library '" + libraryPath + "' implements OpenQNN extension interface " +
                    std::to_string(version()) + ", this tool needs " +
                    std::to_string(kOpenQnnExtensionInterfaceVersion));
  extension_ = create();
  if (!extension_) throw ToolError("backend extension library '" + libraryPath + "' could not create its interface");
  if (!extension_->loadConfig(configPath.c_str())) throw ToolError(extension_->lastError());
  for (uint32_t i = 0; i < extension_->numWarnings(); ++i)
    std::fprintf(stderr, "%s: warning: %s\n", tool_.c_str(), extension_->warning(i));
}

const QnnDevice_Config_t** BackendExtension::deviceConfigs() const {
  return extension_ ? extension_->deviceConfigs() : nullptr;
}

const QnnContext_Config_t** BackendExtension::contextConfigs() const {
  return extension_ ? extension_->contextConfigs() : nullptr;
}

const QnnGraph_Config_t** BackendExtension::graphConfigs(const std::string& graphName) const {
  return extension_ ? extension_->graphConfigs(graphName.c_str()) : nullptr;
}

std::vector<std::string> BackendExtension::graphNames() const {
  std::vector<std::string> names;
  if (!extension_) return names;
  for (uint32_t i = 0; i < extension_->numGraphNames(); ++i) names.emplace_back(extension_->graphName(i));
  return names;
}

void BackendExtension::warnUnmatchedGraphs(const std::vector<std::string>& graphs) const {
  for (const auto& name : graphNames())
    if (std::find(graphs.begin(), graphs.end(), name) == graphs.end())
      std::fprintf(stderr, "%s: warning: the backend extension config names graph '%s', which no model has; its "
                   "settings are not used\n", tool_.c_str(), name.c_str());
}

}  // namespace qnn::tools
