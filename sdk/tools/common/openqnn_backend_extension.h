// The OpenQNN backend-extension interface: what a `backend_extensions`
// library built by OpenQNN (e.g. our libQnnHtpNetRunExtensions.so) hands the
// tools. The vendor's extension libraries export createBackendInterface /
// destroyBackendInterface too, but behind them sits a vendor-defined C++
// interface OpenQNN does not know; ours are told apart by the extra exported
// marker function kOpenQnnExtensionMarker, which returns the interface version.
//
// Lifetime: createBackendInterface() returns a new object owned by the caller,
// released only with the same library's destroyBackendInterface(). Every
// pointer the object returns (config lists, strings) is owned by the object and
// stays valid, unchanged, until destroyBackendInterface. The object is used
// from one thread; loadConfig is called once, before any other method.
// No C++ exception leaves these methods.
#pragma once

#include <cstdint>

#include "QnnContext.h"
#include "QnnDevice.h"
#include "QnnGraph.h"

namespace qnn::tools {

inline constexpr const char* kOpenQnnExtensionMarker = "OpenQnnBackendExtension_interfaceVersion";
inline constexpr uint32_t kOpenQnnExtensionInterfaceVersion = 1;

class OpenQnnBackendExtension {
 public:
  virtual ~OpenQnnBackendExtension() = default;

  // Reads the extension's config file (config_file_path; may be empty or null =
  // no config). False on any problem; lastError() then says which file and key.
  virtual bool loadConfig(const char* configPath) = 0;
  virtual const char* lastError() const = 0;

  // Notes for the user about keys that were read but are not applied (one line each).
  virtual uint32_t numWarnings() const = 0;
  virtual const char* warning(uint32_t index) const = 0;

  // Null-terminated lists for QnnDevice_create / QnnContext_create; nullptr when none.
  virtual const QnnDevice_Config_t** deviceConfigs() const = 0;
  virtual const QnnContext_Config_t** contextConfigs() const = 0;

  // The graph names the config names, and the null-terminated config list of one
  // graph (for QnnGraph_create, through the model library); nullptr when none.
  virtual uint32_t numGraphNames() const = 0;
  virtual const char* graphName(uint32_t index) const = 0;
  virtual const QnnGraph_Config_t** graphConfigs(const char* graphName) const = 0;
};

}  // namespace qnn::tools

extern "C" {
// Entry points of an OpenQNN extension library (names as the vendor's).
typedef qnn::tools::OpenQnnBackendExtension* (*OpenQnnCreateBackendInterfaceFn_t)();
typedef void (*OpenQnnDestroyBackendInterfaceFn_t)(qnn::tools::OpenQnnBackendExtension*);
typedef uint32_t (*OpenQnnBackendExtensionVersionFn_t)();
}
