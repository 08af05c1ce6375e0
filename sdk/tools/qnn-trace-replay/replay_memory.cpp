#include "tools/qnn-trace-replay/replay_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include "tools/common/tool_error.h"

namespace qnn::replay {

ReplayMemory::~ReplayMemory() {
  for (auto& [fd, b] : byFd_) {
    munmap(b.data, b.bytes);
    close(fd);
  }
}

int ReplayMemory::create(size_t bytes) {
  size_t size = bytes ? bytes : 1;
  int fd = memfd_create("qnn_trace_replay", 0);
  if (fd < 0) throw tools::ToolError("cannot create shared memory for QnnMem_register");
  if (ftruncate(fd, off_t(size)) != 0) {
    close(fd);
    throw tools::ToolError("cannot size shared memory for QnnMem_register");
  }
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    close(fd);
    throw tools::ToolError("cannot map shared memory for QnnMem_register");
  }
  byFd_[fd] = {fd, static_cast<uint8_t*>(p), size};
  return fd;
}

void ReplayMemory::bind(void* handle, int fd) { byHandle_[handle] = fd; }

uint8_t* ReplayMemory::data(void* handle, size_t* bytes) const {
  auto h = byHandle_.find(handle);
  if (h == byHandle_.end()) return nullptr;
  const Buffer& b = byFd_.at(h->second);
  *bytes = b.bytes;
  return b.data;
}

void ReplayMemory::release(void* handle) {
  auto h = byHandle_.find(handle);
  if (h == byHandle_.end()) return;
  auto b = byFd_.find(h->second);
  if (b != byFd_.end()) {
    munmap(b->second.data, b->second.bytes);
    close(b->first);
    byFd_.erase(b);
  }
  byHandle_.erase(h);
}

}  // namespace qnn::replay
