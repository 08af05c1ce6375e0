#include "core/large_buffer.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace qnn::sdk {
namespace {

#if defined(__SANITIZE_ADDRESS__)
#define QNN_LARGE_BUFFER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QNN_LARGE_BUFFER_ASAN 1
#endif
#endif
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(QNN_LARGE_BUFFER_ASAN)
// ASan builds keep every buffer in malloc, where overflows are caught.
constexpr bool kPooled = true;
#else
constexpr bool kPooled = false;
#endif

constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kChunkBytes = size_t(32) << 20;  // address space per pool chunk (pages commit when touched)
constexpr size_t kPooledMin = size_t(64) << 10;   // smaller buffers: malloc
constexpr size_t kGrain = 64;                     // piece alignment and size granularity

size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

// A 2 MiB-aligned mapping marked for huge pages, or null.
uint8_t* mapHuge(size_t bytes) {
#if defined(__linux__)
  void* raw = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  auto* p = static_cast<uint8_t*>(raw);
  uint8_t* aligned = reinterpret_cast<uint8_t*>(roundUp(reinterpret_cast<uintptr_t>(p), kHugePage));
  if (aligned > p) munmap(p, size_t(aligned - p));
  if (uint8_t* end = aligned + bytes; end < p + bytes + kHugePage) munmap(end, size_t(p + bytes + kHugePage - end));
#if defined(MADV_HUGEPAGE)
  (void)madvise(aligned, bytes, MADV_HUGEPAGE);  // a hint: without THP the pages stay 4 KiB
#endif
  return aligned;
#else
  (void)bytes;
  return nullptr;
#endif
}

void unmap(uint8_t* p, size_t bytes) {
#if defined(__linux__)
  munmap(p, bytes);
#else
  (void)p, (void)bytes;
#endif
}

// Buffers of 64 KiB or more are pieces of 2 MiB-aligned huge-page chunks, packed first-fit, so several
// medium buffers share huge pages instead of each rounding up to its own. A chunk is unmapped when its
// last piece is released.
struct Chunk {
  uint8_t* base = nullptr;
  size_t size = 0;
  std::map<size_t, size_t> holes;  // offset -> length of the free ranges, coalesced
};

class Pool {
 public:
  void* allocate(size_t bytes) {
    const size_t need = roundUp(bytes, kGrain);
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& chunk : chunks_)
      if (void* p = carve(*chunk, need)) return p;
    auto chunk = std::make_unique<Chunk>();
    chunk->size = need > kChunkBytes / 2 ? roundUp(need, kHugePage) : kChunkBytes;
    chunk->base = mapHuge(chunk->size);
    if (!chunk->base) return nullptr;
    chunk->holes[0] = chunk->size;
    void* p = carve(*chunk, need);
    chunks_.push_back(std::move(chunk));
    return p;
  }

  // False when p is not a piece of the pool.
  bool release(void* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pieces_.find(p);
    if (it == pieces_.end()) return false;
    auto [chunk, length] = it->second;
    pieces_.erase(it);
    size_t offset = size_t(static_cast<uint8_t*>(p) - chunk->base);
    auto next = chunk->holes.lower_bound(offset);
    if (next != chunk->holes.end() && next->first == offset + length) {  // merge with the hole after
      length += next->second;
      next = chunk->holes.erase(next);
    }
    if (next != chunk->holes.begin()) {  // and with the one before
      auto prev = std::prev(next);
      if (prev->first + prev->second == offset) {
        offset = prev->first;
        length += prev->second;
        chunk->holes.erase(prev);
      }
    }
    chunk->holes[offset] = length;
    if (offset == 0 && length == chunk->size) {
      for (auto c = chunks_.begin(); c != chunks_.end(); ++c)
        if (c->get() == chunk) {
          unmap(chunk->base, chunk->size);
          chunks_.erase(c);
          break;
        }
    }
    return true;
  }

 private:
  void* carve(Chunk& chunk, size_t need) {
    for (auto it = chunk.holes.begin(); it != chunk.holes.end(); ++it) {
      if (it->second < need) continue;
      const size_t offset = it->first, left = it->second - need;
      chunk.holes.erase(it);
      if (left) chunk.holes[offset + need] = left;
      void* p = chunk.base + offset;
      pieces_[p] = {&chunk, need};
      return p;
    }
    return nullptr;
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::map<void*, std::pair<Chunk*, size_t>> pieces_;  // piece -> its chunk and length
};

Pool& pool() {
  // Never destroyed: kernels of graphs freed during static destruction still release their buffers.
  static Pool* instance = new Pool;
  return *instance;
}

}  // namespace

void* allocateLargeBuffer(size_t bytes) {
  if (kPooled && bytes >= kPooledMin)
    if (void* p = pool().allocate(bytes)) return p;
  // Small buffers, sanitizer builds, or no mapping to be had (then malloc decides).
  void* p = std::aligned_alloc(kGrain, roundUp(bytes == 0 ? 1 : bytes, kGrain));
  if (!p) throw std::bad_alloc();
  return p;
}

void releaseLargeBuffer(void* p) noexcept {
  if (!p) return;
  if (kPooled && pool().release(p)) return;
  std::free(p);
}

}  // namespace qnn::sdk
