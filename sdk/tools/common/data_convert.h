// Conversion between the float32 files users provide and the tensor's native
// dtype. Fixed-point tensors are quantized with q = round(x / scale) - offset
// (round half to even, saturated; the QNN convention real = scale * (q + offset))
// and dequantized back; integer and bool types are rounded and saturated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "QnnTypes.h"

namespace qnn::tools {

struct TensorSpec;

size_t dataTypeSize(Qnn_DataType_t type);  // 0 for unknown types
std::string dataTypeName(Qnn_DataType_t type);

// Throws ToolError when the tensor's encoding cannot be converted (per-axis).
std::vector<uint8_t> floatToNative(const float* values, size_t count, const TensorSpec& spec);
std::vector<float> nativeToFloat(const void* data, size_t count, const TensorSpec& spec);

uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);

}  // namespace qnn::tools
