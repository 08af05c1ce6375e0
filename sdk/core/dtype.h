// Datatypes of tensors and params. The enumerator values equal Qnn_DataType_t's so
// that a value crosses the C boundary with a plain cast, but the core and the
// kernels do not depend on the public headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace qnn::sdk {

enum class DType : uint32_t {
  kInt8 = 0x0008,
  kInt16 = 0x0016,
  kInt32 = 0x0032,
  kInt64 = 0x0064,
  kUInt8 = 0x0108,
  kUInt16 = 0x0116,
  kUInt32 = 0x0132,
  kUInt64 = 0x0164,
  kFloat16 = 0x0216,
  kFloat32 = 0x0232,
  kSFixed8 = 0x0308,
  kSFixed16 = 0x0316,
  kSFixed32 = 0x0332,
  kUFixed8 = 0x0408,
  kUFixed16 = 0x0416,
  kUFixed32 = 0x0432,
  kBool8 = 0x0508,
  kUndefined = 0x7fffffff,
};

// Size in bytes of one element; 0 for kUndefined or an unknown value.
size_t dtypeSize(DType t);
// True for values this build knows (every enumerator except kUndefined).
bool dtypeIsKnown(uint32_t raw);
bool dtypeIsFloat(DType t);       // kFloat16, kFloat32
bool dtypeIsFixedPoint(DType t);  // kSFixed*, kUFixed* (carry quantization params)
bool dtypeIsSigned(DType t);
// "FLOAT_32", "UFIXED_POINT_8", ... as in the QNN_DATATYPE_* names.
const char* dtypeName(DType t);
// Parses "QNN_DATATYPE_FLOAT_32" or "FLOAT_32"; kUndefined if unknown.
DType dtypeFromName(const std::string& name);

}  // namespace qnn::sdk
