// sdk/core/tensor_buffer: zero-filled, cache-line-aligned storage (large
// buffers from the huge-page pool, core/large_buffer.h), ownership moves.
#include "core/tensor_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

namespace {

using qnn::sdk::TensorBuffer;

bool allZero(const TensorBuffer& b) {
  for (size_t i = 0; i < b.size(); ++i)
    if (b.data()[i] != 0) return false;
  return true;
}

TEST(TensorBuffer, SmallBufferIsZeroedAndCacheLineAligned) {
  TensorBuffer b(100);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), 100u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  EXPECT_TRUE(allZero(b));
}

TEST(TensorBuffer, LargeBufferIsZeroedAndCacheLineAligned) {
  const size_t bytes = (size_t(5) << 20) + 7;  // not a multiple of the huge page
  TensorBuffer b(bytes);
  EXPECT_EQ(b.size(), bytes);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  EXPECT_TRUE(allZero(b));
  b.data()[bytes - 1] = 1;  // the whole size is writable
  EXPECT_EQ(b.data()[bytes - 1], 1);
}

TEST(TensorBuffer, EmptyBufferHasStorage) {
  TensorBuffer b(0);
  EXPECT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), 0u);
}

TEST(TensorBuffer, MoveTransfersOwnership) {
  TensorBuffer a(4096);
  a.data()[10] = 42;
  uint8_t* p = a.data();
  TensorBuffer b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.data()[10], 42);
  EXPECT_EQ(b.size(), 4096u);
}

}  // namespace
