// Struct layouts of clients built against QNN headers older than the ones in include/QNN,
// and the conversions between them and the current (API 2.32) structs.
//
// Only three layouts changed under old clients (x86_64; the API facts are summarised in
// docs/compatibility.md):
//   - Qnn_Tensor_t was {version, Qnn_TensorV1_t} = 120 bytes before API 2.14 (144 after):
//     the V1 part sits at offset 8 in both, so only array strides differ.
//   - Qnn_Scalar_t was 8 bytes with the value at offset 4 in API 2.7 (16 bytes, value at 8,
//     from 2.10 on); Qnn_Param_t holds a scalar or a tensor, so it was 136 bytes (160 after).
//   - Qnn_MemDescriptor_t was 40 bytes before dmaBufInfo joined its union (48 now).
// Everything else a client passes (configs, handles, profile data, op-config headers) kept its
// layout, so the adapters forward it untouched. Nothing here knows which program is calling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "QnnInterface.h"

namespace qnn::adapters {

// How a client's structs are laid out. `minor` is the client's core API minor (major 2).
struct ClientLayout {
  uint32_t minor;
  size_t tensorStride;       // sizeof(Qnn_Tensor_t) of the client
  size_t scalarValueOffset;  // offset of the value union in Qnn_Scalar_t
  size_t paramStride;        // sizeof(Qnn_Param_t)
  size_t paramUnionOffset;   // offset of the scalar/tensor union in Qnn_Param_t
  size_t memDescriptorStride;
};

// The layout of clients of API 2.<minor>; minors >= 14 use the current layout.
ClientLayout layoutForMinor(uint32_t minor);

// Converted copies of a client's structs, kept alive for the duration of one call (or, for
// asynchronous execution, until its notification). Pointers into it stay valid because
// every container is a deque or is sized once.
class Converted {
 public:
  explicit Converted(const ClientLayout& layout) : layout_(layout) {}

  // Tensor arrays: `count` tensors read at the client's stride.
  Qnn_Tensor_t* tensors(const void* clientArray, uint32_t count);
  Qnn_Tensor_t* tensor(const void* clientTensor) { return tensors(clientTensor, 1); }
  Qnn_Param_t* params(const void* clientArray, uint32_t count);
  // An op config by value: its params, inputs and outputs are converted arrays.
  Qnn_OpConfig_t opConfig(const Qnn_OpConfig_t& client);
  Qnn_MemDescriptor_t* memDescriptors(const void* clientArray, uint32_t count);

 private:
  ClientLayout layout_;
  std::deque<std::vector<Qnn_Tensor_t>> tensorArrays_;
  std::deque<std::vector<Qnn_Param_t>> paramArrays_;
  std::deque<std::vector<Qnn_MemDescriptor_t>> memArrays_;
};

// Writes what a backend fills in a tensor back into the client's: its id and, for a client
// buffer, the buffer's data size (dimension values reach the client through the shared
// dimensions pointer). Nothing else is written: pointers, types and quantization stay the
// client's own, as they are at the time of the write.
void writeBackTensors(const ClientLayout& layout, const Qnn_Tensor_t* converted, void* clientArray,
                      uint32_t count);

// Writes a current tensor into a client's tensor slot (for structures the library returns).
void storeTensor(const ClientLayout& layout, const Qnn_Tensor_t& tensor, void* clientSlot);

}  // namespace qnn::adapters
