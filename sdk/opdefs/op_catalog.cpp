#include "opdefs/op_catalog.h"

#include <cstring>

namespace qnn::sdk {
namespace {
#include "opdefs/op_catalog_data.inc"

// Integer params accept any integer scalar type (clients commonly pass INT_32 for
// UINT_32 axes); float params need FLOAT_32; bool params accept BOOL_8 or UINT_8.
bool dtypeCompatible(DType want, DType got) {
  if (want == DType::kUndefined) return true;
  if (want == got) return true;
  auto isInt = [](DType t) {
    switch (t) {
      case DType::kInt8: case DType::kInt16: case DType::kInt32: case DType::kInt64:
      case DType::kUInt8: case DType::kUInt16: case DType::kUInt32: case DType::kUInt64: return true;
      default: return false;
    }
  };
  if ((want == DType::kUInt32 || want == DType::kInt32) && isInt(got)) return true;
  if (want == DType::kBool8 && (got == DType::kUInt8 || isInt(got))) return true;
  if (want == DType::kFloat32 && got == DType::kFloat16) return true;
  return false;
}

std::string describeCount(uint8_t lo, uint8_t hi) {
  if (hi == kUnboundedCount) return "at least " + std::to_string(lo);
  if (lo == hi) return std::to_string(lo);
  return std::to_string(lo) + " to " + std::to_string(hi);
}

}  // namespace

const OpDef* findOpDef(const std::string& typeName) {
  for (const OpDef& d : kOpDefs)
    if (typeName == d.name) return &d;
  return nullptr;
}

const std::vector<const OpDef*>& allOpDefs() {
  static const std::vector<const OpDef*> all = [] {
    std::vector<const OpDef*> v;
    for (const OpDef& d : kOpDefs) v.push_back(&d);
    return v;
  }();
  return all;
}

Status validateAgainstOpDef(const OpDef& def, const std::string& nodeName, const OpParams& params,
                            size_t numInputs, size_t numOutputs) {
  std::string where = std::string(def.name) + " node '" + nodeName + "'";
  if (numInputs < def.minInputs || (def.maxInputs != kUnboundedCount && numInputs > def.maxInputs))
    return invalidTensor(where + ": takes " + describeCount(def.minInputs, def.maxInputs) + " inputs, got " +
                         std::to_string(numInputs));
  if (numOutputs < def.minOutputs || (def.maxOutputs != kUnboundedCount && numOutputs > def.maxOutputs))
    return invalidTensor(where + ": produces " + describeCount(def.minOutputs, def.maxOutputs) + " outputs, got " +
                         std::to_string(numOutputs));
  for (auto& [name, value] : params.all()) {
    const ParamDef* pd = nullptr;
    for (uint8_t i = 0; i < def.numParams; ++i)
      if (name == def.params[i].name) pd = &def.params[i];
    if (!pd) return invalidParam(where + ": unknown param '" + name + "'");
    if (pd->isTensor != value.isTensor)
      return invalidParam(where + ": param '" + name + "' must be a " + (pd->isTensor ? "tensor" : "scalar"));
    if (!dtypeCompatible(pd->dtype, value.dtype))
      return invalidParam(where + ": param '" + name + "' has datatype " + dtypeName(value.dtype) + ", expected " +
                          dtypeName(pd->dtype));
    if (pd->isTensor && pd->rank > 0 && value.dims.size() != static_cast<size_t>(pd->rank))
      return invalidParam(where + ": param '" + name + "' must have rank " + std::to_string(pd->rank) + ", got " +
                          std::to_string(value.dims.size()));
  }
  for (uint8_t i = 0; i < def.numParams; ++i)
    if (def.params[i].mandatory && !params.has(def.params[i].name))
      return invalidParam(where + ": mandatory param '" + std::string(def.params[i].name) + "' is missing");
  return Status::ok();
}

}  // namespace qnn::sdk
