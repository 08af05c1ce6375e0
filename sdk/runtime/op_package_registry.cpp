#include "runtime/op_package_registry.h"

#include <dlfcn.h>

#include <set>

#include "QnnBackend.h"
#include "core/handle_registry.h"

namespace qnn::sdk {
namespace {

// The packages loaded by this backend library, by dlopen handle. Loading and
// unloading both run under gLoadMutex, so a library is never initialized again
// before its terminate ran.
struct LoadedLibrary {
  std::unique_ptr<OpPackage> package;        // owned here; unloaded when erased
  std::weak_ptr<const OpPackage> handedOut;  // expired: every user released it
};
// Recursive: a failed allocation of a handed-out shared_ptr calls its deleter
// (releasePackage) on the loading thread.
std::recursive_mutex gLoadMutex;
std::map<void*, LoadedLibrary> gLoaded;

// The deleter of the shared_ptrs handed out: the last user's release unloads
// the package, unless a concurrent load already did (see loadOpPackage).
void releasePackage(const OpPackage* package) {
  if (!OpPackage::callable()) return;  // shutting down: leave everything alone
  std::lock_guard<std::recursive_mutex> lock(gLoadMutex);
  // Only an expired entry: if a load unloaded this package already, a new one
  // may live at the same address and still be in use.
  for (auto it = gLoaded.begin(); it != gLoaded.end(); ++it)
    if (it->second.package.get() == package && it->second.handedOut.expired()) {
      gLoaded.erase(it);
      return;
    }
}

std::mutex gLoggerMutex;
std::weak_ptr<Logger> gPackageLogger;

std::string versionText(const Qnn_Version_t& v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

OpPackageLoadResult failure(Qnn_ErrorHandle_t error, std::string message) {
  OpPackageLoadResult r;
  r.error = error;
  r.message = std::move(message);
  return r;
}

// Interface versions this runtime drives: the v1.x function table.
constexpr uint32_t kSupportedInterfaceMajor = 1;

}  // namespace

// Objects still alive when the library's handle registry goes (a client that
// never freed its backend) are destroyed after the packages' own static
// destructors ran at exit: nothing may be called into a package then.
bool OpPackage::callable() { return !handlesShuttingDown(); }

bool OpPackage::hasOp(const std::string& typeName) const {
  for (const auto& n : opNames_)
    if (n == typeName) return true;
  return false;
}

// Runs under gLoadMutex (from releasePackage or a load).
OpPackage::~OpPackage() {
  if (!callable()) return;  // leak on purpose: see callable()
  if (logInitialized_ && impl_.logTerminate) impl_.logTerminate();
  if (initialized_ && impl_.terminate) impl_.terminate();
  if (library_) dlclose(library_);
}

OpPackageLoadResult loadOpPackage(const std::string& path, const std::string& provider, const OpPackageHost& host,
                                  const std::shared_ptr<Logger>& logger) {
  std::lock_guard<std::recursive_mutex> lock(gLoadMutex);
  dlerror();
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND,
                   "cannot load op package library '" + path + "': " + (why ? why : "unknown dlopen error"));
  }
  auto it = gLoaded.find(library);
  std::shared_ptr<const OpPackage> existing;
  if (it != gLoaded.end()) {
    existing = it->second.handedOut.lock();
    // Released by its last user, whose releasePackage waits for the lock:
    // unload it now, so that it is terminated before it is loaded again.
    if (!existing) gLoaded.erase(it);
  }
  if (existing) {
    // Already loaded and initialized for another backend handle: share it.
    const bool hasProvider = dlsym(library, provider.c_str()) != nullptr;
    dlclose(library);  // the existing package keeps its own reference
    if (!hasProvider)
      return failure(QNN_BACKEND_ERROR_OP_PACKAGE_IF_PROVIDER_NOT_FOUND,
                     "op package library '" + path + "' has no interface provider '" + provider + "'");
    OpPackageLoadResult r;
    r.package = std::move(existing);
    return r;
  }
  std::unique_ptr<OpPackage> created;
  OpPackageLoadResult r = OpPackage::create(library, path, provider, host, logger, &created);
  if (r.error != QNN_SUCCESS) return r;  // `created` unloads what was loaded
  std::shared_ptr<const OpPackage> handle(created.get(), releasePackage);
  gLoaded[library] = LoadedLibrary{std::move(created), handle};
  r.package = std::move(handle);
  return r;
}

OpPackageLoadResult OpPackage::create(void* library, const std::string& path, const std::string& provider,
                                      const OpPackageHost& host, const std::shared_ptr<Logger>& logger,
                                      std::unique_ptr<OpPackage>* out) {
  // From here the package object owns the library: failing paths destroy it,
  // which terminates what was initialized and closes the library.
  std::unique_ptr<OpPackage> pkg(new OpPackage());
  pkg->library_ = library;
  pkg->path_ = path;
  const std::string what = "op package '" + path + "'";
  auto providerFn = reinterpret_cast<QnnOpPackage_InterfaceProvider_t>(dlsym(library, provider.c_str()));
  if (!providerFn)
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_IF_PROVIDER_NOT_FOUND,
                   what + " has no interface provider '" + provider + "'");
  QnnOpPackage_Interface_t iface{};
  Qnn_ErrorHandle_t st = providerFn(&iface);
  if (st != QNN_SUCCESS)
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
                   what + ": interface provider '" + provider + "' returned error " + std::to_string(st));
  if (iface.interfaceVersion.major != kSupportedInterfaceMajor)
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_UNSUPPORTED_VERSION,
                   what + " implements op package interface " + versionText(iface.interfaceVersion) +
                       "; this backend supports 1.x");
  const QnnOpPackage_ImplementationV1_4_t& impl = iface.v1_4;
  if (!impl.init || !impl.getInfo || !impl.createOpImpl || !impl.freeOpImpl)
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
                   what + " leaves init, getInfo, createOpImpl or freeOpImpl null in its interface");
  pkg->impl_ = impl;

  QnnLog_Callback_t callback = logger ? logger->callback() : nullptr;
  if (callback && impl.logInitialize) {
    st = impl.logInitialize(callback, logger->level());
    if (st != QNN_SUCCESS)
      return failure(QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
                     what + ": logInitialize returned error " + std::to_string(st));
    pkg->logInitialized_ = true;
  }
  st = impl.init(host.infrastructure);
  if (st != QNN_SUCCESS)
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
                   what + ": init returned error " + std::to_string(st) +
                       (st == QNN_OP_PACKAGE_ERROR_LIBRARY_ALREADY_INITIALIZED
                            ? " (already initialized, e.g. by another backend library in this process)"
                            : ""));
  pkg->initialized_ = true;

  const QnnOpPackage_Info_t* info = nullptr;
  st = impl.getInfo(&info);
  if (st != QNN_SUCCESS || !info)
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
                   what + ": getInfo returned error " + std::to_string(st) + (info ? "" : " and no info"));
  if (!info->packageName || !*info->packageName)
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED, what + ": getInfo gives no package name");
  pkg->name_ = info->packageName;
  if (const Qnn_ApiVersion_t* v = info->sdkApiVersion) {
    if (v->coreApiVersion.major != QNN_API_VERSION_MAJOR || v->backendApiVersion.major != host.backendApiMajor)
      return failure(QNN_BACKEND_ERROR_OP_PACKAGE_UNSUPPORTED_VERSION,
                     what + " (package '" + pkg->name_ + "') was built for QNN API " +
                         versionText(v->coreApiVersion) + " / backend API " + versionText(v->backendApiVersion) +
                         "; this backend implements " + std::to_string(QNN_API_VERSION_MAJOR) + ".x / " +
                         std::to_string(host.backendApiMajor) + ".x");
  }
  if (info->numOperations && !info->operationNames)
    return failure(QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
                   what + ": getInfo lists " + std::to_string(info->numOperations) + " operations but no names");
  std::set<std::string> seen;
  for (uint32_t i = 0; i < info->numOperations; ++i) {
    const char* op = info->operationNames[i];
    if (!op || !*op || !seen.insert(op).second)
      return failure(QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED,
                     what + ": operation name " + std::to_string(i) + " is empty or repeated");
    pkg->opNames_.push_back(op);
  }
  *out = std::move(pkg);
  return OpPackageLoadResult{};
}

bool OpPackageSet::add(std::shared_ptr<const OpPackage> package) {
  std::lock_guard<std::mutex> lock(mutex_);
  return byName_.emplace(package->name(), std::move(package)).second;
}

std::shared_ptr<const OpPackage> OpPackageSet::find(const std::string& packageName) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byName_.find(packageName);
  return it == byName_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const OpPackage>> OpPackageSet::all() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<const OpPackage>> out;
  for (auto& [name, p] : byName_) out.push_back(p);
  return out;
}

void OpPackageSet::clear() {
  std::map<std::string, std::shared_ptr<const OpPackage>> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    dropped.swap(byName_);
  }
  // Released outside the lock: the last release calls into the package.
}

void setOpPackageLogger(const std::shared_ptr<Logger>& logger) {
  std::lock_guard<std::mutex> lock(gLoggerMutex);
  gPackageLogger = logger;
}

std::shared_ptr<Logger> opPackageLogger() {
  std::lock_guard<std::mutex> lock(gLoggerMutex);
  return gPackageLogger.lock();
}

}  // namespace qnn::sdk
