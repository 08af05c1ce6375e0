// Test helper: loads libQnnSystem.so with dlopen and picks its provider, the way
// clients do. Public headers only.
#pragma once

#include <dlfcn.h>

#include <string>

#include "System/QnnSystemInterface.h"

namespace qnn::test {

class LoadedSystemLibrary {
 public:
  explicit LoadedSystemLibrary(const std::string& path) {
    lib_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib_) {
      error_ = dlerror();
      return;
    }
    getProviders_ = reinterpret_cast<GetProviders>(dlsym(lib_, "QnnSystemInterface_getProviders"));
    if (!getProviders_) {
      error_ = "QnnSystemInterface_getProviders not exported";
      return;
    }
    const QnnSystemInterface_t** providers = nullptr;
    uint32_t n = 0;
    if (getProviders_(&providers, &n) != QNN_SUCCESS || n == 0) {
      error_ = "no providers";
      return;
    }
    provider_ = providers[0];
  }
  ~LoadedSystemLibrary() {
    if (lib_) dlclose(lib_);
  }
  LoadedSystemLibrary(const LoadedSystemLibrary&) = delete;
  LoadedSystemLibrary& operator=(const LoadedSystemLibrary&) = delete;

  using GetProviders = Qnn_ErrorHandle_t (*)(const QnnSystemInterface_t***, uint32_t*);
  bool ok() const { return provider_ != nullptr; }
  const std::string& error() const { return error_; }
  GetProviders getProviders() const { return getProviders_; }
  const QnnSystemInterface_t& provider() const { return *provider_; }
  const QNN_SYSTEM_INTERFACE_VER_TYPE& api() const { return provider_->QNN_SYSTEM_INTERFACE_VER_NAME; }
  // Exported symbol by name (the C entry points are callable directly too).
  void* symbol(const char* name) const { return lib_ ? dlsym(lib_, name) : nullptr; }

 private:
  void* lib_ = nullptr;
  GetProviders getProviders_ = nullptr;
  const QnnSystemInterface_t* provider_ = nullptr;
  std::string error_;
};

inline std::string systemLibraryPath() { return QNN_TEST_SYSTEM_LIBRARY_PATH; }

}  // namespace qnn::test
