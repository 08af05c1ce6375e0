// Linux implementation of QnnModelPal.hpp.
#include "QnnModelPal.hpp"

#include <dlfcn.h>

#include <cstring>

namespace qnn_wrapper_api {

void* dlSym(void* handle, const char* symbol) {
  return ::dlsym(handle == DL_DEFAULT ? RTLD_DEFAULT : handle, symbol);
}

char* dlError(void) { return ::dlerror(); }

char* strnDup(const char* source, size_t maxlen) {
  if (source == nullptr) return nullptr;
  return ::strndup(source, maxlen);
}

}  // namespace qnn_wrapper_api
