// Qnn_DataType_t values added after API 2.7 (BFLOAT_16, FLOAT_64, SFIXED_POINT_4,
// UFIXED_POINT_4, STRING), which the core's DType does not model. The 4-bit types
// are accepted only as STATIC data: readTensorInfo unpacks them into the 8-bit
// container form (SFIXED/UFIXED_POINT_8 values with quantization bitwidth 4) that
// every backend and the context binary already handle; everything else refuses them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/status.h"

namespace qnn::sdk {

// True for QNN_DATATYPE_SFIXED_POINT_4 / UFIXED_POINT_4.
bool isPacked4Bit(uint32_t rawDataType);
// The 8-bit container type of a 4-bit type (SFIXED_POINT_8 / UFIXED_POINT_8);
// any other value is returned as it is.
DType storageDType(uint32_t rawDataType);
// "SFIXED_POINT_4", "FLOAT_32", ... for every datatype the public header names,
// "0x...." (hex) for anything else. Returns a new string; keeps nothing.
std::string qnnDatatypeName(uint32_t rawDataType);
// Bytes that hold `elements` packed 4-bit values (two per byte).
uint64_t packed4BitBytes(uint64_t elements);
// One value per byte from `packed` (first element in the low nibble), sign-extended
// when `isSigned`. `packed` must hold packed4BitBytes(elements) bytes; it is only read.
std::vector<uint8_t> unpack4Bit(const uint8_t* packed, size_t elements, bool isSigned);
// Static data of a fixed-point `dtype` whose encoding states a narrower `bitwidth`
// (4-bit values in SFIXED/UFIXED_POINT_8 containers, for one): every value is the
// container's low `bitwidth` bits. A signed value may come sign-extended or with
// the upper bits cleared (the ONNX Runtime QNN EP clears them: -3 as 0x0D); both are
// rewritten in place to the sign-extended form every kernel reads. A value with any
// other upper bits (out of the bitwidth's range) is refused, naming `what`, the
// element and the range. Nothing happens for other types or a full bitwidth.
Status normalizeNarrowValues(const std::string& what, DType dtype, uint32_t bitwidth, uint8_t* data, size_t bytes);

}  // namespace qnn::sdk
