// The Saver's own handles. A handle the Saver hands out is a small id (cast to
// a pointer) that is also what the trace records, so a trace is the same with
// or without pass-through. Each id maps to its kind (for validation: a freed,
// forged or wrong-kind handle is refused) and to the real backend's handle.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace qnn::saver {

enum class Kind : uint8_t { Backend, Context, Graph, Log, Profile, Signal, Device, Mem };

class HandleTable {
 public:
  void* add(Kind kind, void* real);
  // True if `handle` is live and of `kind`; *real gets the mapped handle.
  bool find(void* handle, Kind kind, void** real) const;
  void remove(void* handle);
  static uint64_t idOf(void* handle) { return uint64_t(reinterpret_cast<uintptr_t>(handle)); }

 private:
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, std::pair<Kind, void*>> map_;
  uint64_t next_ = 1;
};

}  // namespace qnn::saver
