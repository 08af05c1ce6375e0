// TensorSpec: an owning copy of what the tools need to know about a graph input
// or output (id, name, dtype, shape, scale/offset). Tensors handed out by model
// libraries and the system library are borrowed; the tools copy them once so the
// run does not depend on those lifetimes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "QnnTypes.h"

namespace qnn::tools {

struct TensorSpec {
  uint32_t id = 0;
  std::string name;
  Qnn_TensorType_t type = QNN_TENSOR_TYPE_UNDEFINED;
  Qnn_TensorDataFormat_t dataFormat = QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER;
  Qnn_DataType_t dataType = QNN_DATATYPE_UNDEFINED;
  // Per-tensor encoding (scale-offset or bitwidth scale-offset); per-axis
  // encodings are recorded as unsupported for float conversion.
  bool quantized = false;
  bool perAxisQuantized = false;
  float scale = 1.0f;
  int32_t offset = 0;
  std::vector<uint32_t> dims;

  static TensorSpec fromQnn(const Qnn_Tensor_t& tensor);
  size_t elementCount() const;
  size_t byteSize() const;  // 0 when the dtype has no fixed size
  std::string shapeString() const;
};

// A Qnn_Tensor_t (version 1) describing spec with a client buffer. It points into
// spec (name, dims), which must outlive it.
Qnn_Tensor_t makeClientTensor(TensorSpec& spec, void* data, uint32_t dataSize);

}  // namespace qnn::tools
