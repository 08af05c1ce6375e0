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
// For a packed 4-bit datatype (`dtype` names it): the encoding must be present and
// of bitwidth 4 or unstated; sets the bitwidth to 4 (the 8-bit container form).
Status applyPacked4BitWidth(const std::string& what, const std::string& dtype, QuantInfo* quant);
// Reads one op param into (name, value).
Status readParam(const Qnn_Param_t& p, std::string* name, ParamValue* value);

}  // namespace qnn::sdk
