// Op packages: libraries of custom ops registered at run time with
// QnnBackend_registerOpPackage. This is the backend-neutral half: loading the
// library, calling its interface provider, checking versions, init/getInfo, and
// the per-backend-handle set of registered packages that graphAddNode resolves
// node package names against. Running a package's ops is backend-specific (the
// node/tensor structs differ per backend) and lives in each backend's engine.
// Documented in docs/op-packages.md.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "QnnOpPackage.h"
#include "core/logger.h"

namespace qnn::sdk {

struct OpPackageHost;
struct OpPackageLoadResult;

// One loaded op package library. Loaded once per backend library and shared by
// every backend handle that registered it (a package's init may run only once
// per process). Releasing the last reference calls the package's logTerminate
// and terminate, then closes the library; holders of op impls (prepared graphs)
// keep a reference so that freeOpImpl always runs before terminate.
class OpPackage {
 public:
  ~OpPackage();
  OpPackage(const OpPackage&) = delete;
  OpPackage& operator=(const OpPackage&) = delete;

  const std::string& name() const { return name_; }
  const std::string& path() const { return path_; }
  const std::vector<std::string>& opNames() const { return opNames_; }
  bool hasOp(const std::string& typeName) const;
  // The package's functions (interface v1.x). Pointers may be null except init,
  // getInfo, createOpImpl and freeOpImpl, which loading checks.
  const QnnOpPackage_ImplementationV1_4_t& impl() const { return impl_; }
  // False once the backend library shuts down (exit with backends never freed):
  // packages' own statics may already be gone, so holders skip freeOpImpl and
  // the package skips terminate and dlclose.
  static bool callable();

 private:
  friend OpPackageLoadResult loadOpPackage(const std::string&, const std::string&, const OpPackageHost&,
                                           const std::shared_ptr<Logger>&);
  OpPackage() = default;
  // Provider, version checks, logInitialize, init, getInfo on an opened library.
  static OpPackageLoadResult create(void* library, const std::string& path, const std::string& provider,
                                    const OpPackageHost& host, const std::shared_ptr<Logger>& logger,
                                    std::unique_ptr<OpPackage>* out);
  void* library_ = nullptr;  // dlopen handle, owned
  bool initialized_ = false;
  bool logInitialized_ = false;
  std::string name_, path_;
  std::vector<std::string> opNames_;
  QnnOpPackage_ImplementationV1_4_t impl_ = QNN_OP_PACKAGE_IMPLEMENTATION_V1_4_INIT;
};

// What a backend library gives every package it loads.
struct OpPackageHost {
  // Backend-specific global infrastructure passed to the package's init (e.g. a
  // QnnCpuOpPackage_GlobalInfra_t*); owned by the backend library, lives forever.
  QnnOpPackage_GlobalInfrastructure_t infrastructure = nullptr;
  uint32_t backendApiMajor = 0;  // a package's sdkApiVersion.backendApiVersion.major must match
  uint32_t backendId = 0;
};

// Outcome of loading: QNN_SUCCESS or a QNN_BACKEND_ERROR_OP_PACKAGE_* code, with
// a message for the log.
struct OpPackageLoadResult {
  Qnn_ErrorHandle_t error = QNN_SUCCESS;
  std::string message;
  std::shared_ptr<const OpPackage> package;
};

// Loads an op package library for this backend library. Thread-safe (one load
// or unload at a time); a library already loaded (same dlopen handle) is
// shared, not initialized again. logger: the registering backend's (may be
// null); its callback and level go to the package's logInitialize on first load.
OpPackageLoadResult loadOpPackage(const std::string& path, const std::string& provider, const OpPackageHost& host,
                                  const std::shared_ptr<Logger>& logger);

// The packages registered on one backend handle, by package name. Thread-safe;
// the backend handle owns it, its engine reads it.
class OpPackageSet {
 public:
  // False if a package of that name is already registered.
  bool add(std::shared_ptr<const OpPackage> package);
  std::shared_ptr<const OpPackage> find(const std::string& packageName) const;
  std::vector<std::shared_ptr<const OpPackage>> all() const;
  // Drops every package (backendFree); each is terminated once nothing else holds it.
  void clear();

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const OpPackage>> byName_;
};

// Where packages' messages go (e.g. the CPU's reportMessage, which carries no
// context): the logger of the backend that registered a package last.
void setOpPackageLogger(const std::shared_ptr<Logger>& logger);
std::shared_ptr<Logger> opPackageLogger();

}  // namespace qnn::sdk
