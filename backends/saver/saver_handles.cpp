#include "saver_handles.h"

namespace qnn::saver {

void* HandleTable::add(Kind kind, void* real) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t id = next_++;
  map_[id] = {kind, real};
  return reinterpret_cast<void*>(uintptr_t(id));
}

bool HandleTable::find(void* handle, Kind kind, void** real) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(idOf(handle));
  if (it == map_.end() || it->second.first != kind) return false;
  if (real) *real = it->second.second;
  return true;
}

void HandleTable::remove(void* handle) {
  std::lock_guard<std::mutex> lock(mu_);
  map_.erase(idOf(handle));
}

}  // namespace qnn::saver
