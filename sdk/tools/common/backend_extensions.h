// backend_extensions of the --config_file: the vendor's extension libraries
// (e.g. libQnnHtpNetRunExtensions.so) implement a vendor-defined C++ interface
// behind createBackendInterface/destroyBackendInterface. OpenQNN does not define
// that interface, so an extension library can only be checked, never driven:
// this reports clearly why the requested extension cannot be used.
#pragma once

#include <string>

namespace qnn::tools {

// Always throws ToolError with one line saying why the extension is unusable
// (missing library, missing config file, missing entry points, or unsupported).
[[noreturn]] void rejectBackendExtensions(const std::string& libraryPath, const std::string& configPath);

}  // namespace qnn::tools
