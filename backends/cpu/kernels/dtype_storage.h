// Compile-time map from a DType to the C++ type its elements are stored as, for
// kernels that instantiate one loop per supported dtype.
#pragma once

#include <cstdint>

#include "cpu/kernels/kernel.h"

namespace qnn::cpu {

template <DType D> struct Storage;
template <> struct Storage<DType::kFloat32> { using type = float; };
template <> struct Storage<DType::kInt8> { using type = int8_t; };
template <> struct Storage<DType::kUInt8> { using type = uint8_t; };
template <> struct Storage<DType::kInt32> { using type = int32_t; };
template <> struct Storage<DType::kInt16> { using type = int16_t; };
template <> struct Storage<DType::kUInt16> { using type = uint16_t; };
template <> struct Storage<DType::kUInt32> { using type = uint32_t; };
template <> struct Storage<DType::kInt64> { using type = int64_t; };
template <> struct Storage<DType::kBool8> { using type = uint8_t; };  // 0 = false, else true

}  // namespace qnn::cpu
