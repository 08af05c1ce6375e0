// The adapters' write-back into an old client's tensors (sdk/adapters/client_layouts.cpp):
// only what a backend fills in -- the id and a client buffer's data size -- lands in the
// client's 120-byte slots (API 2.7 .. 2.13 layout: version at 0, id at 8, clientBuf.data at
// 104, clientBuf.dataSize at 112); every other byte, and the bytes after the array, stay the
// client's, even when the client changed them after the call started (asynchronous execute).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "adapters/client_layouts.h"

namespace {

constexpr size_t kStride = 120, kId = 8, kData = 104, kDataSize = 112;

uint32_t u32(const std::vector<unsigned char>& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, &b[at], 4);
  return v;
}

TEST(ClientLayout, WriteBackTouchesOnlyIdAndDataSizeOfOldClientTensors) {
  const qnn::adapters::ClientLayout layout = qnn::adapters::layoutForMinor(7);
  ASSERT_EQ(layout.tensorStride, kStride);
  // Two client tensors and 16 canary bytes, every byte a known pattern.
  std::vector<unsigned char> client(2 * kStride + 16);
  for (size_t k = 0; k < client.size(); ++k) client[k] = static_cast<unsigned char>(k * 7 + 3);
  for (size_t t = 0; t < 2; ++t) {
    uint32_t version = 1, memType = QNN_TENSORMEMTYPE_RAW;
    std::memcpy(&client[t * kStride], &version, 4);
    std::memcpy(&client[t * kStride + 8 + offsetof(Qnn_TensorV1_t, memType)], &memType, 4);
  }
  qnn::adapters::Converted converted(layout);
  Qnn_Tensor_t* mine = converted.tensors(client.data(), 2);
  ASSERT_NE(mine, nullptr);
  EXPECT_EQ(mine[1].v1.clientBuf.dataSize, u32(client, kStride + kDataSize));
  // The backend fills in ids and output sizes and scribbles on fields it does not own in its copy.
  mine[0].v1.id = 41;
  mine[1].v1.id = 42;
  mine[0].v1.clientBuf.dataSize = 7;
  mine[1].v1.clientBuf.dataSize = 9;
  mine[0].v1.name = "backend's";
  mine[1].v1.clientBuf.data = nullptr;
  // Meanwhile the client changed a field of its own (its data pointer).
  client[kStride + kData] ^= 0xff;
  std::vector<unsigned char> expected = client;
  qnn::adapters::writeBackTensors(layout, mine, client.data(), 2);
  for (size_t t = 0; t < 2; ++t) {
    uint32_t id = 41 + uint32_t(t), size = t ? 9 : 7;
    std::memcpy(&expected[t * kStride + kId], &id, 4);
    std::memcpy(&expected[t * kStride + kDataSize], &size, 4);
  }
  EXPECT_EQ(client, expected);
}

TEST(ClientLayout, WriteBackLeavesMemHandleTensorsUnionAlone) {
  const qnn::adapters::ClientLayout layout = qnn::adapters::layoutForMinor(13);
  std::vector<unsigned char> client(kStride, 0x5c);
  uint32_t version = 1, memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  std::memcpy(&client[0], &version, 4);
  std::memcpy(&client[8 + offsetof(Qnn_TensorV1_t, memType)], &memType, 4);
  qnn::adapters::Converted converted(layout);
  Qnn_Tensor_t* mine = converted.tensor(client.data());
  mine->v1.id = 5;
  mine->v1.clientBuf.dataSize = 1234;  // the union's bytes: not a size for a mem handle
  std::vector<unsigned char> expected = client;
  uint32_t id = 5;
  std::memcpy(&expected[kId], &id, 4);
  qnn::adapters::writeBackTensors(layout, mine, client.data(), 1);
  EXPECT_EQ(client, expected);
}

}  // namespace
