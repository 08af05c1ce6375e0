#include "saver/saver_handles.h"

namespace qnn::saver {

void* HandleTable::add(Kind kind, void* real, void* parent) {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t id = next_++;
  uint64_t parentId = parent && map_.count(idOf(parent)) ? idOf(parent) : 0;
  map_[id] = {kind, real, parentId};
  if (parentId) children_[parentId].push_back(id);
  return reinterpret_cast<void*>(uintptr_t(id));
}

bool HandleTable::find(void* handle, Kind kind, void** real) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(idOf(handle));
  if (it == map_.end() || it->second.kind != kind) return false;
  if (real) *real = it->second.real;
  return true;
}

std::vector<std::pair<void*, Kind>> HandleTable::remove(void* handle) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::pair<void*, Kind>> removed;
  auto top = map_.find(idOf(handle));
  if (top == map_.end()) return removed;
  // Unlink from the parent's child list, then drop the subtree.
  if (top->second.parent) {
    auto siblings = children_.find(top->second.parent);
    if (siblings != children_.end())
      for (auto s = siblings->second.begin(); s != siblings->second.end(); ++s)
        if (*s == top->first) {
          siblings->second.erase(s);
          break;
        }
  }
  std::vector<uint64_t> pending{idOf(handle)};
  while (!pending.empty()) {
    uint64_t id = pending.back();
    pending.pop_back();
    auto it = map_.find(id);
    if (it == map_.end()) continue;
    removed.emplace_back(reinterpret_cast<void*>(uintptr_t(id)), it->second.kind);
    map_.erase(it);
    auto kids = children_.find(id);
    if (kids != children_.end()) {
      pending.insert(pending.end(), kids->second.begin(), kids->second.end());
      children_.erase(kids);
    }
  }
  return removed;
}

size_t HandleTable::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return map_.size();
}

}  // namespace qnn::saver
