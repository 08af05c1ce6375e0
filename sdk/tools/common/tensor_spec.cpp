#include "tools/common/tensor_spec.h"

#include "tools/common/data_convert.h"

namespace qnn::tools {

TensorSpec TensorSpec::fromQnn(const Qnn_Tensor_t& tensor) {
  // Version 2 starts with the version-1 fields in the same order (common initial
  // sequence), so v1 reads both.
  const Qnn_TensorV1_t& t = tensor.v1;
  TensorSpec s;
  s.id = t.id;
  s.name = t.name ? t.name : "";
  s.type = t.type;
  s.dataFormat = t.dataFormat;
  s.dataType = t.dataType;
  if (t.quantizeParams.encodingDefinition == QNN_DEFINITION_DEFINED) {
    switch (t.quantizeParams.quantizationEncoding) {
      case QNN_QUANTIZATION_ENCODING_SCALE_OFFSET:
        s.quantized = true;
        s.scale = t.quantizeParams.scaleOffsetEncoding.scale;
        s.offset = t.quantizeParams.scaleOffsetEncoding.offset;
        break;
      case QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET:
        s.quantized = true;
        s.scale = t.quantizeParams.bwScaleOffsetEncoding.scale;
        s.offset = t.quantizeParams.bwScaleOffsetEncoding.offset;
        break;
      default:
        s.perAxisQuantized = true;
        break;
    }
  }
  if (t.dimensions) s.dims.assign(t.dimensions, t.dimensions + t.rank);
  return s;
}

size_t TensorSpec::elementCount() const {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

size_t TensorSpec::byteSize() const { return elementCount() * dataTypeSize(dataType); }

std::string TensorSpec::shapeString() const {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

Qnn_Tensor_t makeClientTensor(TensorSpec& spec, void* data, uint32_t dataSize) {
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.id = spec.id;
  t.v1.name = spec.name.c_str();
  t.v1.type = spec.type;
  t.v1.dataFormat = spec.dataFormat;
  t.v1.dataType = spec.dataType;
  if (spec.quantized) {
    t.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
    t.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
    t.v1.quantizeParams.scaleOffsetEncoding.scale = spec.scale;
    t.v1.quantizeParams.scaleOffsetEncoding.offset = spec.offset;
  }
  t.v1.rank = static_cast<uint32_t>(spec.dims.size());
  t.v1.dimensions = spec.dims.data();
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  t.v1.clientBuf.data = data;
  t.v1.clientBuf.dataSize = dataSize;
  return t;
}

}  // namespace qnn::tools
