// sdk/core/large_buffer: every buffer 64-byte aligned and its own (no two live
// buffers overlap, contents survive other buffers' allocation and release),
// released memory reused, the allocator usable from std::vector.
#include "core/large_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace {

using qnn::sdk::allocateLargeBuffer;
using qnn::sdk::releaseLargeBuffer;

struct Live {
  uint8_t* p;
  size_t bytes;
  uint8_t tag;
};

bool intact(const Live& b) {
  for (size_t i = 0; i < b.bytes; i += 997)
    if (b.p[i] != b.tag) return false;
  return b.bytes == 0 || b.p[b.bytes - 1] == b.tag;
}

TEST(LargeBuffer, RandomSizesStayAlignedDisjointAndIntact) {
  std::mt19937 rng(7);
  // Sizes around the pool's 64 KiB floor, medium ones sharing chunks, and ones past half a chunk.
  const size_t sizes[] = {0, 1, 100, 65535, 65536, 65537, 600000, 2u << 20, (2u << 20) + 1, 5u << 20, 17u << 20};
  std::vector<Live> live;
  for (int round = 0; round < 400; ++round) {
    if (!live.empty() && rng() % 3 == 0) {
      const size_t k = rng() % live.size();
      ASSERT_TRUE(intact(live[k])) << "buffer of " << live[k].bytes << " bytes changed";
      releaseLargeBuffer(live[k].p);
      live.erase(live.begin() + long(k));
      continue;
    }
    const size_t bytes = sizes[rng() % (sizeof(sizes) / sizeof(sizes[0]))] + (rng() % 4) * 64;
    auto* p = static_cast<uint8_t*>(allocateLargeBuffer(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    const uint8_t tag = uint8_t(1 + rng() % 250);
    std::memset(p, tag, bytes);
    for (const Live& other : live) {  // [p, p + bytes) overlaps no live buffer
      const bool disjoint = p + std::max<size_t>(bytes, 1) <= other.p || other.p + std::max<size_t>(other.bytes, 1) <= p;
      ASSERT_TRUE(disjoint) << bytes << " bytes at " << static_cast<void*>(p) << " overlap " << other.bytes;
    }
    live.push_back({p, bytes, tag});
  }
  for (const Live& b : live) {
    EXPECT_TRUE(intact(b));
    releaseLargeBuffer(b.p);
  }
}

TEST(LargeBuffer, ReleasedMemoryIsReused) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan builds take every buffer from malloc, whose quarantine delays reuse";
#endif
  // The same medium size allocated again after release lands in memory already mapped: the address of
  // one of the released buffers (first fit), not a new chunk each time.
  std::vector<void*> first;
  for (int i = 0; i < 4; ++i) first.push_back(allocateLargeBuffer(300000));
  void* keep = allocateLargeBuffer(300000);  // keeps the chunk mapped
  for (void* p : first) releaseLargeBuffer(p);
  void* again = allocateLargeBuffer(300000);
  EXPECT_NE(std::find(first.begin(), first.end(), again), first.end());
  releaseLargeBuffer(again);
  releaseLargeBuffer(keep);
}

TEST(LargeBuffer, NullReleaseIsANoOp) { releaseLargeBuffer(nullptr); }

TEST(LargeBuffer, VectorWithTheAllocator) {
  qnn::sdk::LargeVector<float> v(300000, 1.5f);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % 64, 0u);
  v.resize(1000000, 2.5f);  // reallocates, keeps the contents
  EXPECT_EQ(v[299999], 1.5f);
  EXPECT_EQ(v[999999], 2.5f);
  qnn::sdk::LargeVector<float> w = v;
  EXPECT_EQ(w, v);
}

TEST(LargeBuffer, ConcurrentAllocateAndRelease) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &failures] {
      std::mt19937 rng{unsigned(t)};
      std::vector<Live> live;
      for (int i = 0; i < 300; ++i) {
        if (live.size() > 6) {
          if (!intact(live.front())) ++failures[size_t(t)];
          releaseLargeBuffer(live.front().p);
          live.erase(live.begin());
        }
        const size_t bytes = 65536 + rng() % 700000;
        auto* p = static_cast<uint8_t*>(allocateLargeBuffer(bytes));
        const uint8_t tag = uint8_t(1 + t * 40 + i % 40);
        std::memset(p, tag, bytes);
        live.push_back({p, bytes, tag});
      }
      for (const Live& b : live) {
        if (!intact(b)) ++failures[size_t(t)];
        releaseLargeBuffer(b.p);
      }
    });
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

}  // namespace
