// SystemContextObject: what a QnnSystemContext_Handle_t names. It owns every
// BinaryInfoStorage returned through it, so the pointers given to the client
// stay valid until QnnSystemContext_free removes the handle.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/handle_registry.h"
#include "core/status.h"
#include "system/binary_info.h"

namespace qnn::system {

class SystemContextObject : public sdk::HandleObject {
 public:
  sdk::HandleKind kind() const override { return sdk::HandleKind::kSystemContext; }

  // Parses the context binary [data, data + size) (or a binary section: its graphs
  // with their updateable tensors only) and keeps its info. On success
  // *info points into storage this object owns (valid until it is destroyed).
  // A truncated, corrupted or foreign binary is kCorruptData; *info is then
  // untouched. Every info parsed is kept (earlier results stay valid: a client
  // may hold several), so memory grows with the number of calls on one handle.
  // Thread-safe. Throws std::bad_alloc only.
  sdk::Status parse(const void* data, uint64_t size, const BinaryInfoStorage** info);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<BinaryInfoStorage>> infos_;
};

}  // namespace qnn::system
