// memfd-backed buffers standing in for the client memory a recording
// registered with QnnMem_register: the replay registers their fds, copies
// recorded input bytes in before an execute and reads outputs back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace qnn::replay {

class ReplayMemory {
 public:
  ReplayMemory() = default;
  ReplayMemory(const ReplayMemory&) = delete;
  ReplayMemory& operator=(const ReplayMemory&) = delete;
  ~ReplayMemory();

  // A new shared buffer of `bytes`; returns its fd (owned here). Throws ToolError.
  int create(size_t bytes);
  // Associates the backend's handle with the buffer of `fd`.
  void bind(void* handle, int fd);
  // The buffer of a registered handle, or null.
  uint8_t* data(void* handle, size_t* bytes) const;
  void release(void* handle);

 private:
  struct Buffer {
    int fd;
    uint8_t* data;
    size_t bytes;
  };
  std::map<int, Buffer> byFd_;
  std::map<void*, int> byHandle_;
};

}  // namespace qnn::replay
