// Rebuilds QNN structs from recorded Values, owning every string, dims array
// and data buffer they point at.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "trace/trace_reader.h"

namespace qnn::replay {

struct OwnedTensor {
  Qnn_Tensor_t tensor = QNN_TENSOR_INIT;
  std::string name;
  std::vector<uint32_t> dims;
  std::vector<uint8_t> data;
  std::vector<Qnn_ScaleOffset_t> scaleOffsets;
  std::vector<float> scales;     // BW_AXIS_SCALE_OFFSET
  std::vector<int32_t> offsets;  // BW_AXIS_SCALE_OFFSET (empty when recorded without)
  Qnn_BlockwiseExpansion_t blockwise = QNN_BLOCKWISE_EXPANSION_INIT;  // BLOCKWISE_EXPANSION
  std::vector<uint8_t> blockScales8;
  std::vector<uint16_t> blockScales16;
  Qnn_MicroscalingEncoding_t microscaling = QNN_MICROSCALING_ENCODING_INIT;  // MICROSCALING
  std::vector<uint32_t> blockDimensions;
  std::vector<float> blockScalesFloat;
  const trace::Value* memHandle = nullptr;  // recorded handle of a mem-handle tensor

  // `tensor` points into this object (blockwise): it stays where it was built.
  OwnedTensor() = default;
  OwnedTensor(const OwnedTensor&) = delete;
  OwnedTensor& operator=(const OwnedTensor&) = delete;
};

// Throws ToolError on a malformed record. With `withData` the recorded blob is
// copied in; `allocate` gives a zeroed buffer of dataSize instead (outputs).
// Mem-handle tensors get a null handle: the caller maps `memHandle`.
void buildTensor(const trace::Value& v, const trace::Trace& t, bool withData, bool allocate, OwnedTensor& out);

struct OwnedOp {
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  std::string name, package, type;
  std::deque<OwnedTensor> tensors;  // deque: stable addresses
  std::deque<std::string> paramNames;
  std::vector<Qnn_Param_t> params;
  std::vector<Qnn_Tensor_t> inputs, outputs;
};

void buildOp(const trace::Value& v, const trace::Trace& t, OwnedOp& out);

const trace::Value& field(const trace::Value& v, const char* name);

}  // namespace qnn::replay
