#include "saver/saver_mem_views.h"

#include <sys/mman.h>
#include <unistd.h>

#include "trace/qnn_data_bytes.h"

namespace qnn::saver {

void MemViews::add(void* handle, const Qnn_MemDescriptor_t& d) {
  // ION and dma-buf memory start at their fd's first byte; a backend's CUSTOM
  // descriptor is opaque to the Saver, so its contents are not recorded.
  const int fd = d.memType == QNN_MEM_TYPE_ION ? d.ionInfo.fd : d.memType == QNN_MEM_TYPE_DMA_BUF ? d.dmaBufInfo.fd : -1;
  if (fd < 0 || !d.memShape.dimSize || d.memShape.numDim == 0) return;
  size_t elements = 1;
  for (uint32_t k = 0; k < d.memShape.numDim; ++k) elements *= d.memShape.dimSize[k];
  size_t bytes = trace::qnnDataBytes(uint32_t(d.dataType), elements);
  off_t fdSize = lseek(fd, 0, SEEK_END);
  if (bytes == 0 || fdSize < 0 || size_t(fdSize) < bytes) return;
  void* p = mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return;
  std::lock_guard<std::mutex> lock(mu_);
  views_[handle] = {p, bytes};
}

bool MemViews::view(void* handle, const void** data, size_t* bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = views_.find(handle);
  if (it == views_.end()) return false;
  *data = it->second.first;
  *bytes = it->second.second;
  return true;
}

void MemViews::remove(void* handle) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = views_.find(handle);
  if (it == views_.end()) return;
  munmap(it->second.first, it->second.second);
  views_.erase(it);
}

}  // namespace qnn::saver
