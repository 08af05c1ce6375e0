// The small platform layer the model helpers use (Linux implementation in
// QnnModelPal.cpp). Kept as its own header because QnnModel.hpp includes it by
// this name.
#pragma once

#include <cstddef>

namespace qnn_wrapper_api {

// RTLD_DEFAULT for dlSym without including <dlfcn.h> in every model.cpp.
#define DL_DEFAULT (void*)(0x4)

// dlsym(handle, symbol); DL_DEFAULT searches the global scope. Returns null when absent.
void* dlSym(void* handle, const char* symbol);

// The last dynamic-loader error message (owned by the loader), or null.
char* dlError(void);

// malloc'ed copy of at most maxlen bytes of source, always NUL-terminated; the caller
// frees it with free(). Null on allocation failure or a null source.
char* strnDup(const char* source, size_t maxlen);

}  // namespace qnn_wrapper_api
