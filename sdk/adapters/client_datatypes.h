// Qnn_DataType_t values added after API 2.7, which the core's DType does not model:
// BFLOAT_16, FLOAT_64, STRING (refused), and the narrow types of API 2.39 (INT_2/4,
// UINT_2/4, SFIXED/UFIXED_POINT_2/4, FLOAT_4, FLOAT_8). The narrow types are accepted
// only as STATIC data, which readTensorInfo turns at creation into a form every
// backend and the context binary already handle:
//  - packed 2/4-bit integers and fixed point: one value per byte of the 8-bit type of
//    the same kind (INT_8, UINT_8, SFIXED/UFIXED_POINT_8 with quantization bitwidth
//    2 or 4), sign-extended for the signed types;
//  - FLOAT_8 (OCP FP8 E4M3 / E5M2) and FLOAT_4 (OCP FP4 E2M1): decoded to FLOAT_32,
//    microscaling (MX) block scales applied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/status.h"

namespace qnn::sdk {

// Bits of one element of a packed type (INT_2/4, UINT_2/4, SFIXED/UFIXED_POINT_2/4,
// FLOAT_4): 2 or 4; 0 for any other value (FLOAT_8 is one element per byte).
uint32_t packedBits(uint32_t rawDataType);
// True for QNN_DATATYPE_FLOAT_8 / FLOAT_4 (minifloats, decoded to FLOAT_32).
bool isMiniFloat(uint32_t rawDataType);
// The form the record keeps a narrow type in (INT_8, UINT_8, SFIXED/UFIXED_POINT_8,
// FLOAT_32); any other value is returned as it is.
DType storageDType(uint32_t rawDataType);
// "SFIXED_POINT_4", "FLOAT_32", ... for every datatype the public header names,
// "0x...." (hex) for anything else. Returns a new string; keeps nothing.
std::string qnnDatatypeName(uint32_t rawDataType);
// Bytes that hold `elements` values of `bits` bits packed without gaps (8: one per byte).
uint64_t packedBytes(uint64_t elements, uint32_t bits);
// One value per byte from `packed` (`bits` 2 or 4; element 0 in the lowest bits of
// byte 0), sign-extended when `isSigned`. `packed` holds packedBytes(elements, bits) bytes.
std::vector<uint8_t> unpackBits(const uint8_t* packed, size_t elements, uint32_t bits, bool isSigned);
// Static data of a fixed-point `dtype` whose encoding states a narrower `bitwidth`
// (4-bit values in SFIXED/UFIXED_POINT_8 containers, for one): every value is the
// container's low `bitwidth` bits. A signed value may come sign-extended or with
// the upper bits cleared (the ONNX Runtime QNN EP clears them: -3 as 0x0D); both are
// rewritten in place to the sign-extended form every kernel reads. A value with any
// other upper bits (out of the bitwidth's range) is refused, naming `what`, the
// element and the range. Nothing happens for other types or a full bitwidth.
Status normalizeNarrowValues(const std::string& what, DType dtype, uint32_t bitwidth, uint8_t* data, size_t bytes);

// Element formats of FLOAT_8 / FLOAT_4 data (OCP 8-bit floating point and OCP
// Microscaling formats): E4M3 (bias 7, no infinities, S.1111.111 is NaN, max 448),
// E5M2 (bias 15, IEEE-like: exponent 31 is infinity / NaN), E2M1 (bias 1, no
// infinities or NaN, max 6).
enum class MiniFloat { kE4M3, kE5M2, kE2M1 };
const char* miniFloatName(MiniFloat f);
// The value of one element (the low 8 or 4 bits of `bits`), exactly.
double decodeMiniFloat(MiniFloat f, uint8_t bits);
// An E8M0 scale (OCP MX shared scale): 2^(bits - 127); 0xFF is NaN.
double decodeE8M0(uint8_t bits);
// Block scales of a microscaling encoding: the tensor is cut into blocks of
// `blockDims` (one per dimension; edge blocks may be short), numbered row-major over
// the grid of blocks; element e is scaled by scales[its block].
struct MxBlocks {
  std::vector<uint32_t> blockDims;
  std::vector<double> scales;
};
// Static data of `elements` minifloats of format `f` (FLOAT_8: one per byte; FLOAT_4:
// packed, two per byte) as FLOAT_32 values, each times its block's scale when `mx` is
// given (`dims` the tensor's). The product is rounded to float32 (exact unless it
// leaves float32's range).
std::vector<float> decodeMiniFloats(MiniFloat f, const uint8_t* data, size_t elements,
                                    const std::vector<uint32_t>& dims, const MxBlocks* mx);

}  // namespace qnn::sdk
