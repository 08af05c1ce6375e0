// The one table of op types the HTP simulator executes. Adding an op: write
// its kernel family file, declare the factory in htp_kernel_registry.h, add
// rows here and update /work/notes/htp-kernels.md + docs/htp-fixed-point.md.
#include "htp_kernel_registry.h"

#include "core/op_table.h"

namespace qnn::htp {
namespace {

struct KernelEntry {
  const char* opType;
  KernelFactory factory;
};

constexpr KernelEntry kKernelTable[] = {
    {"Conv2d", makeQuantConv2d},
    {"DepthWiseConv2d", makeQuantDepthWiseConv2d},
    {"FullyConnected", makeQuantFullyConnected},
    {"MatMul", makeQuantMatMul},
    {"TransposeConv2d", makeQuantTransposeConv2d},
    {"Batchnorm", makeQuantBatchnorm},
    {"PoolMax2d", makeQuantPool},
    {"PoolAvg2d", makeQuantPool},
    {"ReduceMean", makeQuantReduce},
    {"ReduceSum", makeQuantReduce},
    {"ReduceMax", makeQuantReduce},
    {"ReduceMin", makeQuantReduce},
    {"Softmax", makeQuantSoftmax},
    {"LogSoftmax", makeQuantSoftmax},
    {"LayerNorm", makeQuantLayerNorm},
    {"InstanceNorm", makeQuantInstanceNorm},
    {"Resize", makeQuantResize},
    {"ResizeBilinear", makeQuantResize},
    {"ResizeNearestNeighbor", makeQuantResize},
    {"Quantize", makeQuantCast},
    {"Dequantize", makeQuantCast},
    {"Convert", makeQuantCast},
    {"Argmax", makeQuantArgMinMax},
    {"Argmin", makeQuantArgMinMax},
    {"TopK", makeQuantTopK},

    {"ElementWiseAdd", makeQuantBinary},
    {"ElementWiseSubtract", makeQuantBinary},
    {"ElementWiseMultiply", makeQuantBinary},
    {"ElementWiseMaximum", makeQuantBinary},
    {"ElementWiseMinimum", makeQuantBinary},
    {"ElementWiseDivide", makeQuantBinary},
    {"ElementWiseSquaredDifference", makeQuantBinary},
    {"ElementWiseFloorDiv", makeQuantBinary},
    {"ElementWiseEqual", makeQuantCompareLogic},
    {"ElementWiseNotEqual", makeQuantCompareLogic},
    {"ElementWiseGreater", makeQuantCompareLogic},
    {"ElementWiseGreaterEqual", makeQuantCompareLogic},
    {"ElementWiseLess", makeQuantCompareLogic},
    {"ElementWiseLessEqual", makeQuantCompareLogic},
    {"ElementWiseAnd", makeQuantCompareLogic},
    {"ElementWiseNot", makeQuantCompareLogic},
    {"ElementWiseSelect", makeQuantSelect},
    {"Prelu", makeQuantPrelu},

    {"Relu", makeQuantClamp},
    {"Relu1", makeQuantClamp},
    {"Relu6", makeQuantClamp},
    {"ReluMinMax", makeQuantClamp},

    {"Reshape", makeQuantMovement},
    {"Squeeze", makeQuantMovement},
    {"ExpandDims", makeQuantMovement},
    {"Transpose", makeQuantMovement},
    {"Tile", makeQuantMovement},
    {"StridedSlice", makeQuantMovement},
    {"Pad", makeQuantMovement},
    {"Concat", makeQuantMovement},
    {"Split", makeQuantMovement},
    {"Gather", makeQuantMovement},

    {"Sigmoid", makeQuantTable},
    {"Tanh", makeQuantTable},
    {"Gelu", makeQuantTable},
    {"HardSwish", makeQuantTable},
    {"Elu", makeQuantTable},
    {"ElementWiseExp", makeQuantTable},
    {"ElementWiseLog", makeQuantTable},
    {"ElementWiseSquareRoot", makeQuantTable},
    {"ElementWiseRsqrt", makeQuantTable},
    {"ElementWiseAbs", makeQuantTable},
    {"ElementWiseNeg", makeQuantTable},
    {"ElementWiseFloor", makeQuantTable},
    {"ElementWiseCeil", makeQuantTable},
    {"ElementWiseRound", makeQuantTable},
    {"ElementWiseSign", makeQuantTable},
    {"ElementWiseSin", makeQuantTable},
    {"ElementWiseCos", makeQuantTable},
    {"ElementWiseAsin", makeQuantTable},
    {"ElementWiseAtan", makeQuantTable},
};

}  // namespace

KernelFactory findKernel(const std::string& opType) { return sdk::findInOpTable(kKernelTable, opType); }

std::vector<std::string> supportedOpTypes() { return sdk::opTableNames(kKernelTable); }

}  // namespace qnn::htp
