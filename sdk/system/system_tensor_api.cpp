// QnnSystemTensor_getMemoryFootprint of libQnnSystem.so: the bytes a tensor's flat client
// buffer holds — the product of its dims (rank 0: one element) times the element size,
// 4-bit types packed two values per byte (QnnTypes.h's SFIXED/UFIXED_POINT_4).
#include <limits>

#include "System/QnnSystemTensor.h"
#include "core/dtype.h"
#include "adapters/client_datatypes.h"
#include "system/system_guard.h"

namespace {
constexpr qnn::system::ComponentErrors kTensorErrors{
    QNN_SYSTEM_TENSOR_ERROR_INVALID_ARGUMENT, QNN_SYSTEM_TENSOR_ERROR_INVALID_TENSOR,
    QNN_SYSTEM_TENSOR_ERROR_INVALID_TENSOR, QNN_SYSTEM_TENSOR_ERROR_UNSUPPORTED_FEATURE,
    QNN_SYSTEM_TENSOR_ERROR_INVALID_ARGUMENT};

qnn::sdk::Status footprintOf(const Qnn_Tensor_t& t, uint64_t* bytes) {
  using qnn::sdk::Status;
  Qnn_DataType_t dataType;
  Qnn_TensorDataFormat_t format;
  uint32_t rank;
  const uint32_t* dims;
  if (t.version == QNN_TENSOR_VERSION_1) {
    dataType = t.v1.dataType, format = t.v1.dataFormat, rank = t.v1.rank, dims = t.v1.dimensions;
  } else if (t.version == QNN_TENSOR_VERSION_2) {
    dataType = t.v2.dataType, format = t.v2.dataFormat, rank = t.v2.rank, dims = t.v2.dimensions;
  } else {
    return {qnn::sdk::StatusCode::kInvalidHandle, "tensor version " + std::to_string(int(t.version)) + " is not 1 or 2"};
  }
  if (format != QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER)
    return {qnn::sdk::StatusCode::kNotSupported, "only flat-buffer tensors have a footprint here"};
  if (rank > 0 && !dims) return {qnn::sdk::StatusCode::kInvalidHandle, "rank " + std::to_string(rank) + " with null dimensions"};
  const uint32_t raw = uint32_t(dataType);
  const uint32_t packedBits = qnn::sdk::packedBits(raw);  // 2/4-bit types, FLOAT_4
  const bool narrow = packedBits != 0 || qnn::sdk::isMiniFloat(raw);
  const size_t elementSize = narrow ? 1 : qnn::sdk::dtypeSize(static_cast<qnn::sdk::DType>(raw));
  if (!narrow && (!qnn::sdk::dtypeIsKnown(raw) || elementSize == 0))
    return {qnn::sdk::StatusCode::kInvalidHandle, "datatype " + qnn::sdk::qnnDatatypeName(raw) + " has no element size"};
  uint64_t elements = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    if (dims[d] != 0 && elements > std::numeric_limits<uint64_t>::max() / dims[d])
      return {qnn::sdk::StatusCode::kInvalidArgument, "the dims overflow 64 bits"};
    elements *= dims[d];
  }
  *bytes = narrow ? qnn::sdk::packedBytes(elements, packedBits) : elements * elementSize;
  return Status::ok();
}
}  // namespace

extern "C" {

QNN_API Qnn_ErrorHandle_t QnnSystemTensor_getMemoryFootprint(Qnn_Tensor_t tensor, uint64_t* footprint) {
  const char* entry = __func__;
  return qnn::system::guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!footprint)
      return qnn::system::toComponentError(entry, qnn::sdk::invalidArgument("footprint is null"), kTensorErrors);
    uint64_t bytes = 0;
    const Qnn_ErrorHandle_t err = qnn::system::toComponentError(entry, footprintOf(tensor, &bytes), kTensorErrors);
    if (err == QNN_SUCCESS) *footprint = bytes;
    return err;
  }, QNN_SYSTEM_TENSOR_ERROR_INVALID_ARGUMENT);
}

}  // extern "C"
