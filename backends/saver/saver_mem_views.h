// Read-only mappings of client memory registered with QnnMem_register (file
// descriptor memory), so an execute can record the bytes a mem-handle tensor
// holds: inputs before the call, outputs after a pass-through run.
#pragma once

#include <cstddef>
#include <mutex>
#include <unordered_map>

#include "QnnMem.h"

namespace qnn::saver {

class MemViews {
 public:
  // Maps the descriptor's fd (size from its shape and data type); memory the
  // Saver cannot map is simply not recorded.
  void add(void* saverHandle, const Qnn_MemDescriptor_t& descriptor);
  // The mapping stays valid until remove(): callers record it under the same
  // API call that keeps the handle registered.
  bool view(void* saverHandle, const void** data, size_t* bytes) const;
  void remove(void* saverHandle);

 private:
  mutable std::mutex mu_;
  std::unordered_map<void*, std::pair<void*, size_t>> views_;
};

}  // namespace qnn::saver
