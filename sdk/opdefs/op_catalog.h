// The QNN op definitions (package qti.aisw) as data the project owns
// (op_catalog_data.inc, generated from the facts by tools/gen_op_catalog.py), and
// the validation of a node against them. Backends call validateAgainstOpDef
// before their own kernel-level checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/op_params.h"
#include "core/status.h"

namespace qnn::sdk {

inline constexpr const char* kBuiltinOpPackage = "qti.aisw";
inline constexpr uint8_t kUnboundedCount = 255;

struct ParamDef {
  const char* name;
  bool isTensor;
  DType dtype;  // kUndefined: backend specific
  bool mandatory;
  int rank;     // tensor params: expected rank, -1 unknown; scalars 0
};

struct OpDef {
  const char* name;
  uint8_t minInputs, maxInputs;    // maxInputs == kUnboundedCount: variadic
  uint8_t minOutputs, maxOutputs;
  const ParamDef* params;
  uint8_t numParams;
  bool cpuSupported;  // per the vendor's CPU column
  bool htpSupported;  // per the vendor's HTP column
  uint32_t optionalInputs;  // bit i: in[i] may be omitted (a NULL tensor); bit 31 covers every later index
  bool inputIsOptional(size_t i) const { return (optionalInputs >> (i < 31 ? i : 31)) & 1u; }
};

// nullptr if the op type is not a qti.aisw op.
const OpDef* findOpDef(const std::string& typeName);
const std::vector<const OpDef*>& allOpDefs();

// Checks counts of inputs/outputs and every param (known name, scalar/tensor,
// datatype family, rank, mandatory params present). Messages name the op, the
// node and the param.
Status validateAgainstOpDef(const OpDef& def, const std::string& nodeName, const OpParams& params,
                            size_t numInputs, size_t numOutputs);

}  // namespace qnn::sdk
