// Helpers shared by the saver_api_*.cpp entries.
#pragma once

#include "QnnInterface.h"
#include "saver/saver_call.h"

namespace qnn::saver {

// The pass-through table, or null when only recording.
inline const sdk::InterfaceTable2_39* pass() { return SaverState::get().real(); }
inline HandleTable& handles() { return SaverState::get().handles(); }

// Calls a pass-through member; a member the backend leaves NULL is unsupported.
template <typename Fn, typename... Args>
Qnn_ErrorHandle_t forward(Fn fn, Args... args) {
  return fn ? fn(args...) : Qnn_ErrorHandle_t(QNN_COMMON_ERROR_NOT_SUPPORTED);
}

// Hands out a Saver handle for a successfully created object and records it.
// `parent`: the Saver handle whose free also frees this object.
inline void created(trace::Value& args, const char* name, Kind kind, void* real, void** out, void* parent = nullptr) {
  *out = handles().add(kind, real, parent);
  args.add(name, handleValue(*out));
}

// Drops a freed handle and its children (and the Saver's views of freed memory).
inline void forget(void* handle) {
  for (const auto& [h, kind] : handles().remove(handle))
    if (kind == Kind::Mem) SaverState::get().memViews().remove(h);
}

}  // namespace qnn::saver
