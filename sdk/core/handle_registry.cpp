#include "core/handle_registry.h"

#include <atomic>

namespace qnn::sdk {

// Handles are spaced and offset so that they are never small integers a client
// might confuse with a valid value, and encode nothing the backend trusts. Each
// library has its own registry, and a process may load several (CPU, HTP, the
// Saver): the base is the registry's own address shifted up, so every library
// answers from a disjoint range and a handle of one library is unknown to
// another (libraries lie at least a page apart: 2^28 handles each before ranges
// could meet), rather than naming whatever object that library numbered alike.
static constexpr uintptr_t kHandleStride = 0x10;
static constexpr unsigned kBaseShift = 16;

void* HandleRegistry::add(std::shared_ptr<HandleObject> obj) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uintptr_t base = reinterpret_cast<uintptr_t>(this) << kBaseShift;
  uintptr_t key = base + (next_++) * kHandleStride;
  objects_.emplace(key, std::move(obj));
  return reinterpret_cast<void*>(key);
}

std::shared_ptr<HandleObject> HandleRegistry::find(const void* handle, HandleKind kind) const {
  if (!handle) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = objects_.find(reinterpret_cast<uintptr_t>(handle));
  if (it == objects_.end() || it->second->kind() != kind) return nullptr;
  return it->second;
}

std::shared_ptr<HandleObject> HandleRegistry::remove(const void* handle, HandleKind kind) {
  if (!handle) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = objects_.find(reinterpret_cast<uintptr_t>(handle));
  if (it == objects_.end() || it->second->kind() != kind) return nullptr;
  auto obj = std::move(it->second);
  objects_.erase(it);
  return obj;
}

void* HandleRegistry::handleOf(const HandleObject* obj) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [key, o] : objects_)
    if (o.get() == obj) return reinterpret_cast<void*>(key);
  return nullptr;
}

namespace {
std::atomic<bool> gShuttingDown{false};

// The library's registry, which flags the shutdown before the objects it holds
// are destroyed (the destructor body runs before the member's).
struct GlobalRegistry {
  HandleRegistry registry;
  ~GlobalRegistry() { gShuttingDown.store(true); }
};
}  // namespace

HandleRegistry& handles() {
  static GlobalRegistry global;
  return global.registry;
}

bool handlesShuttingDown() { return gShuttingDown.load(); }

}  // namespace qnn::sdk
