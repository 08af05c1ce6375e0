/* A compat shim: lib/x86_64-linux-clang/compat/api-2.<minor>/lib<Name>.so. It holds no QNN code:
 * it loads the real library two folders up (../../lib<Name>.so, found from the shim's own
 * path) and hands the client the provider of its own API version through
 * OpenQnn_getProvidersForClientApi. Built once per library and client version with
 *   OPENQNN_REAL_LIB      the real library's file name, e.g. "libQnnCpu.so"
 *   OPENQNN_CLIENT_MINOR  the client's core API minor, e.g. 7
 *   OPENQNN_SHIM_SAVER    also forward QnnSaver_initialize (libQnnSaver.so)
 *   OPENQNN_SHIM_SYSTEM   the system library: QnnSystemInterface_getProviders instead. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t ErrorHandle; /* Qnn_ErrorHandle_t */
#define SHIM_API __attribute__((visibility("default")))
/* QNN_COMMON_ERROR_LOADING_BINARIES: the real library is missing or not ours. */
#define SHIM_ERROR_LOADING 1009u

static void* g_real;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void loadReal(void) {
  Dl_info info;
  char path[PATH_MAX];
  if (!dladdr((void*)&loadReal, &info) || !info.dli_fname) return;
  const char* slash = strrchr(info.dli_fname, '/');
  int dirLen = slash ? (int)(slash - info.dli_fname) : 1;
  const char* dir = slash ? info.dli_fname : ".";
  if (snprintf(path, sizeof path, "%.*s/../../%s", dirLen, dir, OPENQNN_REAL_LIB) >= (int)sizeof path) return;
  g_real = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!g_real) fprintf(stderr, "OpenQNN compat shim: cannot load %s: %s\n", path, dlerror());
}

static void* realSymbol(const char* name) {
  pthread_once(&g_once, loadReal);
  return g_real ? dlsym(g_real, name) : NULL;
}

typedef ErrorHandle (*ForClientFn)(uint32_t, uint32_t, const void***, uint32_t*);

#ifdef OPENQNN_SHIM_SYSTEM
SHIM_API ErrorHandle QnnSystemInterface_getProviders(const void*** providerList, uint32_t* numProviders) {
  ForClientFn fn = (ForClientFn)realSymbol("OpenQnn_getSystemProvidersForClientApi");
  return fn ? fn(2, OPENQNN_CLIENT_MINOR, providerList, numProviders) : SHIM_ERROR_LOADING;
}
#else
SHIM_API ErrorHandle QnnInterface_getProviders(const void*** providerList, uint32_t* numProviders) {
  ForClientFn fn = (ForClientFn)realSymbol("OpenQnn_getProvidersForClientApi");
  return fn ? fn(2, OPENQNN_CLIENT_MINOR, providerList, numProviders) : SHIM_ERROR_LOADING;
}

/* A layout by name passes through: the Saver, given this shim as its backend, asks for its own. */
SHIM_API ErrorHandle OpenQnn_getProvidersForClientApi(uint32_t major, uint32_t minor, const void*** providerList,
                                                      uint32_t* numProviders) {
  ForClientFn fn = (ForClientFn)realSymbol("OpenQnn_getProvidersForClientApi");
  return fn ? fn(major, minor, providerList, numProviders) : SHIM_ERROR_LOADING;
}
#endif

#ifdef OPENQNN_SHIM_SAVER
typedef ErrorHandle (*SaverInitFn)(const void**);
SHIM_API ErrorHandle QnnSaver_initialize(const void** config) {
  SaverInitFn fn = (SaverInitFn)realSymbol("QnnSaver_initialize");
  return fn ? fn(config) : SHIM_ERROR_LOADING;
}
#endif
