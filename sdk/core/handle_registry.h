// HandleRegistry: maps the opaque handles given to clients to live objects.
// A handle is a registry key, never a pointer the backend dereferences, so a
// null, freed, forged or wrong-kind handle is detected by lookup and answered
// with an error code instead of a crash. Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace qnn::sdk {

enum class HandleKind : uint8_t {
  kBackend = 1, kDevice, kContext, kGraph, kLog, kProfile, kSignal, kMem, kSystemContext, kSystemDlc,
  kSystemProfileTarget,
  // Sub-handles of a system DLC (system API 1.14): records, composable graph infos, context-binary
  // and context-graph infos, tensor infos and quantization params; removed with their DLC.
  kSystemDlcRecord, kSystemDlcGraphInfo, kSystemDlcContextBinaryInfo, kSystemDlcContextGraphInfo,
  kSystemDlcTensorInfo, kSystemDlcQuantParams,
};

class HandleObject {
 public:
  virtual ~HandleObject() = default;
  virtual HandleKind kind() const = 0;
};

class HandleRegistry {
 public:
  // Registers obj and returns its new handle (never null, never reused).
  void* add(std::shared_ptr<HandleObject> obj);
  // The object, or nullptr if the handle is unknown/freed or of another kind.
  template <typename T>
  std::shared_ptr<T> get(const void* handle, HandleKind kind) const {
    auto obj = find(handle, kind);
    return std::static_pointer_cast<T>(obj);
  }
  // Removes and returns the object (nullptr if unknown or of another kind).
  std::shared_ptr<HandleObject> remove(const void* handle, HandleKind kind);
  // Handle of a registered object, or nullptr.
  void* handleOf(const HandleObject* obj) const;

 private:
  std::shared_ptr<HandleObject> find(const void* handle, HandleKind kind) const;
  mutable std::mutex mutex_;
  uint64_t next_ = 1;
  std::unordered_map<uintptr_t, std::shared_ptr<HandleObject>> objects_;
};

// The registry of one backend library (each .so has its own copy of the core).
HandleRegistry& handles();
// True once the registry of handles() is being destroyed (process exit, or the
// library unloaded): objects freed from then on must not call into other
// libraries (e.g. op packages), which may already be finalized.
bool handlesShuttingDown();

}  // namespace qnn::sdk
