#include "backend_extensions.h"

#include "dynamic_library.h"
#include "raw_file.h"
#include "tool_error.h"

namespace qnn::tools {

void rejectBackendExtensions(const std::string& libraryPath, const std::string& configPath) {
  if (!configPath.empty() && !fileExists(configPath))
    throw ToolError("backend extension config not found: " + configPath);
  DynamicLibrary lib;
  if (!lib.open(libraryPath)) throw ToolError("cannot load backend extension library '" + libraryPath + "': " + lib.error());
  const bool hasEntryPoints = lib.symbol("createBackendInterface") && lib.symbol("destroyBackendInterface");
  if (!hasEntryPoints)
    throw ToolError("backend extension library '" + libraryPath +
                    "' does not export createBackendInterface/destroyBackendInterface");
  throw ToolError("backend extension library '" + libraryPath +
                  "' uses the vendor's C++ extension interface, which OpenQNN cannot drive; remove backend_extensions");
}

}  // namespace qnn::tools
