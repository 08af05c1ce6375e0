// The generic element-wise ops of later op sets (ElementWiseBinary,
// ElementWiseUnary, ElementWiseNeuron) name, through their `operation` param, one
// of the dedicated ops. The value -> op tables of QnnOpDef.h live here once, for
// every backend's dispatching kernel.
#pragma once

#include <cstdint>
#include <string>

namespace qnn::sdk {

// The dedicated op that `operation` of `genericOp` names, or nullptr when the
// value has no dedicated op (ElementWiseUnary RECIPROCAL, ElementWiseNeuron
// HARD_SIGMOID). *defined is false when the value is past the table (or the op
// is not one of the three); the result is then nullptr too.
const char* genericElementWiseTarget(const std::string& genericOp, uint32_t operation, bool* defined);

// Number of operation values of `genericOp` (0 for another op).
uint32_t genericElementWiseOperationCount(const std::string& genericOp);

}  // namespace qnn::sdk
