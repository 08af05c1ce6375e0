// Conversions between the client's C structs and the core's own types, with
// every check that a malformed struct deserves. Nothing here keeps pointers into
// client memory.
#pragma once

#include <string>

#include "QnnTypes.h"
#include "core/op_params.h"
#include "core/status.h"
#include "graph/graph_ir.h"

namespace qnn::sdk {

// The fields every tensor version shares (V2 extends V1's layout).
const Qnn_TensorV1_t& tensorFields(const Qnn_Tensor_t& t);
Qnn_TensorV1_t& tensorFields(Qnn_Tensor_t& t);
bool tensorVersionSupported(const Qnn_Tensor_t& t);

enum class TensorUse { kCreate, kParam };
// Reads a tensor being created (or passed as a tensor param): version, name,
// type, datatype, dims, quantization; copies static data for STATIC tensors.
Status readTensorInfo(const Qnn_Tensor_t& t, TensorUse use, TensorInfo* out);
Status readQuantization(const Qnn_QuantizeParams_t& q, const std::vector<uint32_t>& dims, QuantInfo* out);
// For a packed fixed-point datatype of `bits` (2 or 4) bits (`dtype` names it): the
// encoding must be present and of that bitwidth or unstated; sets the bitwidth to
// `bits` (the 8-bit container form).
Status applyPackedBitWidth(const std::string& what, const std::string& dtype, uint32_t bits, QuantInfo* quant);
// The encoding in force: `q` itself, or for QNN_QUANTIZATION_ENCODING_ARRAY_OF the
// element its index tensor selects (the index tensor must be STATIC and carry its
// value; anything else is refused as not supported).
Status activeEncoding(const Qnn_QuantizeParams_t& q, const Qnn_QuantizeParams_t** active);
// For FLOAT_8 / FLOAT_4 (`rawType`): the encoding is one the runtime decodes (MICROSCALING with an
// MXFP8/MXFP4 element format and consistent blocks, or none for FLOAT_4), else why not.
Status checkMiniFloatEncoding(const std::string& what, uint32_t rawType, const Qnn_QuantizeParams_t& q,
                              const std::vector<uint32_t>& dims);
// Reads one op param into (name, value).
Status readParam(const Qnn_Param_t& p, std::string* name, ParamValue* value);

}  // namespace qnn::sdk
