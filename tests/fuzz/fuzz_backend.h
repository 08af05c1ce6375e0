// The fuzz harnesses' way into a backend, as a client does it: dlopen the library (kept loaded for
// the process), take its first provider, create a backend with default configs.
#pragma once

#include <dlfcn.h>

#include <cstdio>

#include "QnnInterface.h"

namespace qnn::fuzz {

struct Backend {
  const QNN_INTERFACE_VER_TYPE* api = nullptr;  // null: the library could not be used
  Qnn_BackendHandle_t handle = nullptr;
};

inline Backend loadBackend(const char* path) {
  Backend b;
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "fuzz harness: cannot load %s: %s\n", path, dlerror());
    return b;
  }
  using GetProviders = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
  auto get = reinterpret_cast<GetProviders>(dlsym(lib, "QnnInterface_getProviders"));
  const QnnInterface_t** providers = nullptr;
  uint32_t n = 0;
  if (!get || get(&providers, &n) != QNN_SUCCESS || n == 0) return b;
  b.api = &providers[0]->QNN_INTERFACE_VER_NAME;
  if (b.api->backendCreate(nullptr, nullptr, &b.handle) != QNN_SUCCESS) b.api = nullptr;
  return b;
}

}  // namespace qnn::fuzz
