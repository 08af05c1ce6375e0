#include "core/generic_elementwise.h"

#include <iterator>

namespace qnn::sdk {
namespace {

// Operation values of QnnOpDef.h, in order; nullptr where the value has no dedicated op.
const char* const kBinaryOps[] = {
    "ElementWiseAdd",     "ElementWiseAnd",        "ElementWiseDivide",  "ElementWiseEqual",
    "ElementWiseFloorDiv", "ElementWiseFmod",      "ElementWiseGreater", "ElementWiseGreaterEqual",
    "ElementWiseLess",    "ElementWiseLessEqual",  "ElementWiseMaximum", "ElementWiseMinimum",
    "ElementWiseMod",     "ElementWiseMultiply",   "ElementWiseNotEqual", "ElementWiseOr",
    "ElementWisePower",   "ElementWiseSquaredDifference", "ElementWiseSubtract", "ElementWiseXor"};
const char* const kUnaryOps[] = {"ElementWiseAbs",  "ElementWiseAsin", "ElementWiseAtan",  "ElementWiseCeil",
                                 "ElementWiseCos",  "ElementWiseExp",  "ElementWiseFloor", "ElementWiseLog",
                                 "ElementWiseNeg",  "ElementWiseNot",  nullptr /* RECIPROCAL */,
                                 "ElementWiseRound", "ElementWiseRsqrt", "ElementWiseSign", "ElementWiseSin",
                                 "ElementWiseSquareRoot"};
const char* const kNeuronOps[] = {"Elu",        "Gelu",    nullptr /* HARD_SIGMOID */, "HardSwish", "Relu",
                                  "ReluMinMax", "Sigmoid", "ElementWiseSoftplus",      "Tanh"};

struct Table {
  const char* const* ops;
  uint32_t size;
};

Table tableOf(const std::string& op) {
  if (op == "ElementWiseBinary") return {kBinaryOps, uint32_t(std::size(kBinaryOps))};
  if (op == "ElementWiseUnary") return {kUnaryOps, uint32_t(std::size(kUnaryOps))};
  if (op == "ElementWiseNeuron") return {kNeuronOps, uint32_t(std::size(kNeuronOps))};
  return {nullptr, 0};
}

}  // namespace

const char* genericElementWiseTarget(const std::string& genericOp, uint32_t operation, bool* defined) {
  const Table t = tableOf(genericOp);
  *defined = operation < t.size;
  return *defined ? t.ops[operation] : nullptr;
}

uint32_t genericElementWiseOperationCount(const std::string& genericOp) { return tableOf(genericOp).size; }

}  // namespace qnn::sdk
