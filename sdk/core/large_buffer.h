// Memory for buffers a kernel reads on every execute: packed weights, the
// transformed filters of Winograd convolutions, the engine's activation arena.
// Buffers of 64 KiB or more are carved from 2 MiB-aligned chunks marked for
// transparent huge pages (Linux madvise; THP's "madvise" mode is the Debian
// default), packed so medium buffers share huge pages. A model's weights are
// read once per inference from memory: in 4 KiB pages every 4 KiB costs a TLB
// miss and restarts the hardware prefetcher, in 2 MiB pages neither. Every
// buffer is 64-byte aligned. Without THP the pages stay 4 KiB; in ASan builds
// every buffer comes from malloc, so overflows are still caught.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace qnn::sdk {

// Uninitialized memory for `bytes` (0 allowed); throws std::bad_alloc. Release
// with releaseLargeBuffer.
void* allocateLargeBuffer(size_t bytes);
void releaseLargeBuffer(void* p) noexcept;

// A std::allocator with that policy, for std::vector.
template <typename T>
struct LargeBufferAllocator {
  using value_type = T;
  LargeBufferAllocator() = default;
  template <typename U>
  LargeBufferAllocator(const LargeBufferAllocator<U>&) noexcept {}
  T* allocate(size_t n) {
    if (n > size_t(-1) / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(allocateLargeBuffer(n * sizeof(T)));
  }
  void deallocate(T* p, size_t) noexcept { releaseLargeBuffer(p); }
  template <typename U>
  bool operator==(const LargeBufferAllocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const LargeBufferAllocator<U>&) const noexcept {
    return false;
  }
};

// Owns its elements, like std::vector.
template <typename T>
using LargeVector = std::vector<T, LargeBufferAllocator<T>>;

// Owns `n` uninitialized elements of a trivial type: memory reserved now (the
// out-of-memory answer comes at prepare) that commits only where it is written.
struct LargeBufferRelease {
  void operator()(void* p) const noexcept { releaseLargeBuffer(p); }
};
template <typename T>
using LargeArray = std::unique_ptr<T[], LargeBufferRelease>;
template <typename T>
LargeArray<T> allocateLargeArray(size_t n) {
  static_assert(std::is_trivial_v<T>);
  if (n > size_t(-1) / sizeof(T)) throw std::bad_alloc();
  return LargeArray<T>(static_cast<T*>(allocateLargeBuffer(n * sizeof(T))));
}

}  // namespace qnn::sdk
