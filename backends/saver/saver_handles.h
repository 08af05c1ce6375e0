// The Saver's own handles. A handle the Saver hands out is a small id (cast to
// a pointer) that is also what the trace records, so a trace is the same with
// or without pass-through. Each id maps to its kind (for validation: a freed,
// forged or wrong-kind handle is refused), to the real backend's handle, and
// to its parent (a context's backend, a graph's context...): freeing a parent
// drops its children too, as the backend frees them.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace qnn::saver {

enum class Kind : uint8_t { Backend, Context, Graph, Log, Profile, Signal, Device, Mem };

class HandleTable {
 public:
  // `parent` is the Saver handle the object belongs to, or null.
  void* add(Kind kind, void* real, void* parent = nullptr);
  // True if `handle` is live and of `kind`; *real gets the mapped handle.
  bool find(void* handle, Kind kind, void** real) const;
  // Drops `handle` and everything created under it; returns what was dropped.
  std::vector<std::pair<void*, Kind>> remove(void* handle);
  size_t size() const;
  static uint64_t idOf(void* handle) { return uint64_t(reinterpret_cast<uintptr_t>(handle)); }

 private:
  struct Entry {
    Kind kind;
    void* real;
    uint64_t parent;  // 0: none
  };
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, Entry> map_;
  std::unordered_map<uint64_t, std::vector<uint64_t>> children_;
  uint64_t next_ = 1;
};

}  // namespace qnn::saver
