// Conversions between old client layouts and the current structs (see client_layouts.h).
#include "adapters/client_layouts.h"

#include <cstring>

namespace qnn::adapters {
namespace {

// The V1 part of a tensor starts at offset 8 in every layout (after the version word).
constexpr size_t kTensorV1Offset = offsetof(Qnn_Tensor_t, v1);
static_assert(kTensorV1Offset == 8, "Qnn_Tensor_t.v1 moved");
static_assert(sizeof(Qnn_TensorV1_t) == 112, "Qnn_TensorV1_t changed size");
static_assert(sizeof(Qnn_Tensor_t) == 144 && sizeof(Qnn_Param_t) == 160, "current layout changed");
static_assert(sizeof(Qnn_MemDescriptor_t) == 48, "current Qnn_MemDescriptor_t changed");

const unsigned char* at(const void* base, size_t index, size_t stride) {
  return static_cast<const unsigned char*>(base) + index * stride;
}
unsigned char* at(void* base, size_t index, size_t stride) { return static_cast<unsigned char*>(base) + index * stride; }

// Copies a client tensor into a current one. A pre-2.14 tensor can only be version 1;
// a version this client cannot hold is passed through as read, and the backend rejects it.
void loadTensor(const ClientLayout& layout, const unsigned char* src, Qnn_Tensor_t* dst) {
  *dst = QNN_TENSOR_INIT;
  if (layout.tensorStride == sizeof(Qnn_Tensor_t)) {
    std::memcpy(dst, src, sizeof(Qnn_Tensor_t));
    return;
  }
  std::memcpy(&dst->version, src, sizeof(dst->version));
  std::memcpy(&dst->v1, src + kTensorV1Offset, sizeof(Qnn_TensorV1_t));
}

// A scalar's value: the client's union bytes (4 in 2.7, 8 from 2.10) land at offset 8.
void loadScalar(const ClientLayout& layout, const unsigned char* src, Qnn_Scalar_t* dst) {
  *dst = QNN_SCALAR_INIT;
  std::memcpy(&dst->dataType, src, sizeof(dst->dataType));
  const size_t valueBytes = layout.scalarValueOffset == 4 ? 4 : 8;
  std::memcpy(reinterpret_cast<unsigned char*>(dst) + offsetof(Qnn_Scalar_t, floatValue),
              src + layout.scalarValueOffset, valueBytes);
}

}  // namespace

ClientLayout layoutForMinor(uint32_t minor) {
  if (minor >= 14) return {minor, sizeof(Qnn_Tensor_t), 8, sizeof(Qnn_Param_t), 16, sizeof(Qnn_MemDescriptor_t)};
  // Before 2.14: 120-byte tensors and 136-byte params; the scalar was widened in 2.10
  // (no public 2.8/2.9 headers: their clients are taken as 2.7 for the scalar).
  const size_t scalarValue = minor >= 10 ? 8 : 4;
  return {minor, 120, scalarValue, 136, 16, 40};
}

Qnn_Tensor_t* Converted::tensors(const void* clientArray, uint32_t count) {
  if (!clientArray) return nullptr;
  auto& out = tensorArrays_.emplace_back(count);
  for (uint32_t i = 0; i < count; ++i)
    loadTensor(layout_, at(clientArray, i, layout_.tensorStride), &out[i]);
  return out.data();
}

Qnn_Param_t* Converted::params(const void* clientArray, uint32_t count) {
  if (!clientArray) return nullptr;
  auto& out = paramArrays_.emplace_back(count);
  for (uint32_t i = 0; i < count; ++i) {
    const unsigned char* src = at(clientArray, i, layout_.paramStride);
    Qnn_Param_t& p = out[i];
    p = QNN_PARAM_INIT;
    std::memcpy(&p.paramType, src, sizeof(p.paramType));
    std::memcpy(&p.name, src + offsetof(Qnn_Param_t, name), sizeof(p.name));
    const unsigned char* value = src + layout_.paramUnionOffset;
    if (p.paramType == QNN_PARAMTYPE_SCALAR) {
      loadScalar(layout_, value, &p.scalarParam);
    } else {
      loadTensor(layout_, value, &p.tensorParam);
    }
  }
  return out.data();
}

Qnn_OpConfig_t Converted::opConfig(const Qnn_OpConfig_t& client) {
  Qnn_OpConfig_t op = client;
  if (client.version != QNN_OPCONFIG_VERSION_1) return op;  // the backend reports the version
  op.v1.params = params(client.v1.params, client.v1.numOfParams);
  op.v1.inputTensors = tensors(client.v1.inputTensors, client.v1.numOfInputs);
  op.v1.outputTensors = tensors(client.v1.outputTensors, client.v1.numOfOutputs);
  return op;
}

Qnn_MemDescriptor_t* Converted::memDescriptors(const void* clientArray, uint32_t count) {
  if (!clientArray) return nullptr;
  auto& out = memArrays_.emplace_back(count);
  for (uint32_t i = 0; i < count; ++i) {
    out[i] = Qnn_MemDescriptor_t{};
    std::memcpy(&out[i], at(clientArray, i, layout_.memDescriptorStride),
                std::min(layout_.memDescriptorStride, sizeof(Qnn_MemDescriptor_t)));
  }
  return out.data();
}

void storeTensor(const ClientLayout& layout, const Qnn_Tensor_t& tensor, void* clientSlot) {
  auto* dst = static_cast<unsigned char*>(clientSlot);
  if (layout.tensorStride == sizeof(Qnn_Tensor_t)) {
    std::memcpy(dst, &tensor, sizeof(Qnn_Tensor_t));
    return;
  }
  std::memcpy(dst, &tensor.version, sizeof(tensor.version));
  std::memcpy(dst + kTensorV1Offset, &tensor.v1, sizeof(Qnn_TensorV1_t));
}

void writeBackTensors(const ClientLayout& layout, const Qnn_Tensor_t* converted, void* clientArray,
                      uint32_t count) {
  if (!converted || !clientArray) return;
  // Field by field: the rest of the converted copy is a snapshot from the start of the call,
  // and after an asynchronous execute the client may already have changed its struct.
  constexpr size_t kId = kTensorV1Offset + offsetof(Qnn_TensorV1_t, id);
  constexpr size_t kDataSize =
      kTensorV1Offset + offsetof(Qnn_TensorV1_t, clientBuf) + offsetof(Qnn_ClientBuffer_t, dataSize);
  for (uint32_t i = 0; i < count; ++i) {
    unsigned char* slot = at(clientArray, i, layout.tensorStride);
    const Qnn_TensorV1_t& t = converted[i].v1;
    std::memcpy(slot + kId, &t.id, sizeof t.id);
    if (t.memType == QNN_TENSORMEMTYPE_RAW) std::memcpy(slot + kDataSize, &t.clientBuf.dataSize, sizeof t.clientBuf.dataSize);
  }
}

}  // namespace qnn::adapters
