#include "htp_sim/htp_support.h"

#include <algorithm>
#include <cstring>

#include "QnnTypes.h"
#include "adapters/client_datatypes.h"

namespace qnn::htp {
namespace {

using sdk::DType;
using sdk::QuantInfo;
using sdk::Status;
using sdk::TensorInfo;

struct HtpSlotRule {
  uint8_t index;
  bool isOutput;
  bool variadic;  // this rule covers every tensor from index on
  uint8_t numDtypes;
  DType dtypes[9];
};

struct HtpOpSupport {
  const char* name;
  bool fp16;  // runs float tensors in fp16 mode
  const HtpSlotRule* slots;
  uint8_t numSlots;
  uint8_t maxInputRank, maxOutputRank;  // 0: no limit stated
};

#include "htp_sim/htp_support_data.inc"
#include "htp_sim/htp_support_observed.inc"

const HtpOpSupport* findOp(const std::string& name) {
  for (const HtpOpSupport& op : kHtpOps)
    if (name == op.name) return &op;
  for (const HtpOpSupport& op : kHtpObservedOps)
    if (name == op.name) return &op;
  return nullptr;
}

bool runsFp16(const HtpOpSupport& op) {
  if (op.fp16) return true;
  for (const char* name : kHtpFp16Extras)
    if (std::strcmp(name, op.name) == 0) return true;
  return false;
}

// The slot's datatypes of the op definitions, or one the vendor's HTP is known to take there.
bool slotTakes(const HtpOpSupport& op, const HtpSlotRule* rule, bool output, size_t index, DType dtype) {
  if (rule && std::find(rule->dtypes, rule->dtypes + rule->numDtypes, dtype) != rule->dtypes + rule->numDtypes)
    return true;
  for (const HtpSlotExtra& e : kHtpSlotExtras)
    if (e.isOutput == output && e.index == index && std::strcmp(e.op, op.name) == 0 &&
        std::find(e.dtypes, e.dtypes + e.numDtypes, dtype) != e.dtypes + e.numDtypes)
      return true;
  return false;
}

const HtpSlotRule* ruleFor(const HtpOpSupport& op, bool output, size_t index) {
  const HtpSlotRule* best = nullptr;
  for (uint8_t i = 0; i < op.numSlots; ++i) {
    const HtpSlotRule& r = op.slots[i];
    if (r.isOutput != output) continue;
    if (r.index == index) return &r;
    if (r.variadic && r.index <= index) best = &r;
  }
  return best;
}

// Ops whose input 1 is a weight that may be per-channel and 4-bit.
bool hasWeightInput(const std::string& op) {
  return op == "Conv2d" || op == "DepthWiseConv2d" || op == "TransposeConv2d" || op == "Conv3d" ||
         op == "TransposeConv3d" || op == "FullyConnected" || op == "MatMul";
}

std::string listOf(const HtpOpSupport& op, const HtpSlotRule& r, bool output, size_t index) {
  std::string s;
  for (uint8_t i = 0; i < r.numDtypes; ++i) s += (i ? ", " : "") + std::string(sdk::dtypeName(r.dtypes[i]));
  for (const HtpSlotExtra& e : kHtpSlotExtras)
    if (e.isOutput == output && e.index == index && std::strcmp(e.op, op.name) == 0)
      for (uint8_t i = 0; i < e.numDtypes; ++i) s += ", " + std::string(sdk::dtypeName(e.dtypes[i]));
  return s;
}

Status checkTensor(const sdk::NodeInfo& node, const HtpOpSupport& op, bool output, size_t index,
                   const TensorInfo& t) {
  const std::string where = "node '" + node.name + "' (op " + node.typeName + "): " + (output ? "output " : "input ") +
                            std::to_string(index) + " '" + t.name + "' ";
  // A packed type is judged in its container form and named as the client gave it.
  const std::string dtName = t.clientDataType ? sdk::qnnDatatypeName(t.clientDataType) + " (as " +
                                                    sdk::dtypeName(t.dtype) + ")"
                                              : sdk::dtypeName(t.dtype);
  const char* dt = dtName.c_str();
  if (t.kind == sdk::TensorKind::kNull) return Status::ok();
  const HtpSlotRule* rule = ruleFor(op, output, index);
  const bool listed = slotTakes(op, rule, output, index, t.dtype);
  const bool isFloat = t.dtype == DType::kFloat32 || t.dtype == DType::kFloat16;
  if (isFloat && !listed) {
    if (!runsFp16(op)) return sdk::unsupportedDType(where + "has datatype " + dt + ": op " + node.typeName +
                                               " has no fp16 implementation on the HTP");
  } else if (rule && rule->numDtypes == 0) {  // a slot recorded as float (fp16 mode) only
    return sdk::unsupportedDType(where + "has datatype " + dt + "; the HTP runs op " + node.typeName +
                                 " on float tensors in fp16 mode only");
  } else if (rule && !listed) {
    return sdk::unsupportedDType(where + "has datatype " + dt + ", which the HTP does not support there (supported: " +
                                 listOf(op, *rule, output, index) + ")");
  }
  // Rank limits stated by the op's HTP constraints.
  uint8_t maxRank = output ? op.maxOutputRank : op.maxInputRank;
  if (maxRank && t.dims.size() > maxRank)
    return sdk::unsupportedDType(where + "has rank " + std::to_string(t.dims.size()) + "; the HTP supports at most " +
                                 std::to_string(maxRank) + " for op " + node.typeName);
  if (!sdk::dtypeIsFixedPoint(t.dtype)) return Status::ok();
  const QuantInfo& q = t.quant;
  const bool weight = !output && index == 1 && hasWeightInput(node.typeName) && t.kind == sdk::TensorKind::kStatic;
  if (q.kind == QuantInfo::Kind::kNone)
    return sdk::unsupportedDType(where + "has datatype " + dt + " but no quantization encoding");
  if (q.kind == QuantInfo::Kind::kAxisScaleOffset && !weight && t.dtype != DType::kSFixed32)
    return sdk::unsupportedDType(where + "has a per-channel encoding; the HTP takes per-channel encodings only "
                                 "on the static weights of convolutions and matrix multiplications");
  if (q.bitwidth == 4 && !weight)
    return sdk::unsupportedDType(where + "is 4-bit; the HTP takes 4-bit data only as static weights of "
                                 "convolutions and matrix multiplications");
  if (q.bitwidth != 0 && q.bitwidth != 4 && q.bitwidth != 8 * sdk::dtypeSize(t.dtype))
    return sdk::unsupportedDType(where + "has a " + std::to_string(q.bitwidth) + "-bit encoding of " + dt +
                                 ", which the HTP does not support");
  return Status::ok();
}

}  // namespace

bool htpSupportsOp(const std::string& opType) { return findOp(opType) != nullptr; }

Status htpAcceptsTensor(const TensorInfo& t) {
  const std::string what = "tensor '" + t.name + "': ";
  if (!t.clientEncoding.empty())
    return {sdk::StatusCode::kNotSupported,
            what + "quantization encoding " + t.clientEncoding + " is not supported by the HTP"};
  const uint32_t raw = t.clientDataType;
  if (raw == 0 || raw == QNN_DATATYPE_INT_4 || raw == QNN_DATATYPE_SFIXED_POINT_4 || raw == QNN_DATATYPE_UFIXED_POINT_4)
    return Status::ok();
  return {sdk::StatusCode::kNotSupported,
          what + "datatype " + sdk::qnnDatatypeName(raw) +
              " is not supported by the HTP (of the 2- and 4-bit and 8-bit float types it takes the 4-bit weight types "
              "INT_4, SFIXED_POINT_4 and UFIXED_POINT_4)"};
}

std::vector<std::string> htpOpTypes() {
  std::vector<std::string> names;
  for (const HtpOpSupport& op : kHtpOps) names.push_back(op.name);
  for (const HtpOpSupport& op : kHtpObservedOps) names.push_back(op.name);
  std::sort(names.begin(), names.end());
  return names;
}

Status checkHtpSupport(const sdk::NodeInfo& node, const std::vector<const TensorInfo*>& inputs,
                       const std::vector<const TensorInfo*>& outputs) {
  const HtpOpSupport* op = findOp(node.typeName);
  if (!op)
    return sdk::unsupportedOp("node '" + node.name + "': op " + node.typeName +
                              " is not supported by the HTP backend (not in the HTP column of the op definitions)");
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i]) QNN_SDK_RETURN_IF_ERROR(checkTensor(node, *op, false, i, *inputs[i]));
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i]) QNN_SDK_RETURN_IF_ERROR(checkTensor(node, *op, true, i, *outputs[i]));
  return Status::ok();
}

}  // namespace qnn::htp
