// The one table of op types the CPU backend implements. Adding an op: write its
// kernel family file, declare the factory in kernel_factories.h, add rows here.
#include <cstring>

#include "core/op_table.h"

#include "kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

struct KernelEntry {
  const char* opType;
  KernelFactory factory;
};

constexpr KernelEntry kKernelTable[] = {
    {"Conv2d", makeConv2d},
    {"DepthWiseConv2d", makeDepthWiseConv2d},
    {"TransposeConv2d", makeTransposeConv2d},
    {"FullyConnected", makeFullyConnected},
    {"MatMul", makeMatMul},
    {"PoolMax2d", makePool},
    {"PoolAvg2d", makePool},
    {"Conv1d", makeConvNd},
    {"DepthWiseConv1d", makeConvNd},
    {"TransposeConv1d", makeConvNd},
    {"Conv3d", makeConvNd},
    {"TransposeConv3d", makeConvNd},
    {"NonMaxSuppression", makeNonMaxSuppression},
    {"NonZero", makeNonZero},
    {"PoolMax3d", makePool},
    {"PoolAvg3d", makePool},
    {"L2Pool2d", makePool},
    {"Softmax", makeSoftmax},
    {"LogSoftmax", makeSoftmax},
    {"LayerNorm", makeNorm},
    {"Batchnorm", makeNorm},
    {"InstanceNorm", makeNorm},
    {"Resize", makeResize},
    {"ResizeBilinear", makeResize},
    {"ResizeNearestNeighbor", makeResize},

    {"ElementWiseAdd", makeElementWiseBinary},
    {"ElementWiseSubtract", makeElementWiseBinary},
    {"ElementWiseMultiply", makeElementWiseBinary},
    {"ElementWiseDivide", makeElementWiseBinary},
    {"ElementWiseMaximum", makeElementWiseBinary},
    {"ElementWiseMinimum", makeElementWiseBinary},
    {"ElementWisePower", makeElementWiseBinary},
    {"ElementWiseSquaredDifference", makeElementWiseBinary},
    {"ElementWiseFloorDiv", makeElementWiseBinary},
    {"ElementWiseFmod", makeElementWiseBinary},
    {"ElementWiseMod", makeElementWiseBinary},
    {"ElementWiseEqual", makeElementWiseBinary},
    {"ElementWiseNotEqual", makeElementWiseBinary},
    {"ElementWiseGreater", makeElementWiseBinary},
    {"ElementWiseGreaterEqual", makeElementWiseBinary},
    {"ElementWiseLess", makeElementWiseBinary},
    {"ElementWiseLessEqual", makeElementWiseBinary},
    {"ElementWiseAnd", makeElementWiseBinary},
    {"ElementWiseOr", makeElementWiseBinary},
    {"ElementWiseXor", makeElementWiseBinary},
    {"ElementWiseSelect", makeSelect},

    {"ElementWiseSquareRoot", makeElementWiseUnary},
    {"ElementWiseRsqrt", makeElementWiseUnary},
    {"ElementWiseExp", makeElementWiseUnary},
    {"ElementWiseLog", makeElementWiseUnary},
    {"ElementWiseAbs", makeElementWiseUnary},
    {"ElementWiseNeg", makeElementWiseUnary},
    {"ElementWiseFloor", makeElementWiseUnary},
    {"ElementWiseCeil", makeElementWiseUnary},
    {"ElementWiseRound", makeElementWiseUnary},
    {"ElementWiseSign", makeElementWiseUnary},
    {"ElementWiseSin", makeElementWiseUnary},
    {"ElementWiseCos", makeElementWiseUnary},
    {"ElementWiseAsin", makeElementWiseUnary},
    {"ElementWiseAtan", makeElementWiseUnary},
    {"ElementWiseSoftplus", makeElementWiseUnary},
    {"ElementWiseNot", makeElementWiseUnary},

    {"Relu", makeActivation},
    {"Relu1", makeActivation},
    {"Relu6", makeActivation},
    {"ReluMinMax", makeActivation},
    {"Gelu", makeActivation},
    {"Sigmoid", makeActivation},
    {"Tanh", makeActivation},
    {"HardSwish", makeActivation},
    {"Elu", makeActivation},
    {"Prelu", makePrelu},
    {"ElementWiseBinary", makeGenericElementWise},
    {"ElementWiseUnary", makeGenericElementWise},
    {"ElementWiseNeuron", makeGenericElementWise},

    {"Reshape", makeReshapeLike},
    {"Squeeze", makeReshapeLike},
    {"ExpandDims", makeReshapeLike},
    {"Transpose", makeTranspose},
    {"Tile", makeTile},
    {"Concat", makeConcat},
    {"Split", makeSplit},
    {"StridedSlice", makeStridedSlice},
    {"Gather", makeGather},
    {"GatherElements", makeGatherElements},
    {"CumulativeSum", makeCumulativeSum},
    {"GatherNd", makeScatterGatherNd},
    {"ScatterElements", makeScatterGatherNd},
    {"ScatterNd", makeScatterGatherNd},
    {"DepthToSpace", makeDepthSpace},
    {"SpaceToDepth", makeDepthSpace},
    {"OneHot", makeOneHot},
    {"Lrn", makeLrn},
    {"GridSample", makeGridSample},
    {"IsInf", makeElementWiseUnary},
    {"IsNan", makeElementWiseUnary},
    {"ReduceSumSquare", makeReduce},
    {"RmsNorm", makeRmsNorm},
    {"HadamardTransform", makeHadamardLogit},
    {"Logit", makeHadamardLogit},
    {"Shape", makeShapePack},
    {"ConstantOfShape", makeShapePack},
    {"Pack", makeShapePack},
    {"UnPack", makeShapePack},
    {"ChannelShuffle", makeShapePack},
    {"L2Norm", makeL2NormMoments},
    {"Moments", makeL2NormMoments},
    {"Pad", makePad},
    {"ReduceMean", makeReduce},
    {"ReduceSum", makeReduce},
    {"ReduceMax", makeReduce},
    {"ReduceMin", makeReduce},
    {"ReduceProd", makeReduce},
    {"Quantize", makeQuantizeLike},
    {"Dequantize", makeQuantizeLike},
    {"Cast", makeQuantizeLike},
    {"Convert", makeQuantizeLike},
    {"Argmax", makeArgMinMax},
    {"Argmin", makeArgMinMax},
    {"TopK", makeTopK},
};

}  // namespace

KernelFactory findKernel(const std::string& opType) { return sdk::findInOpTable(kKernelTable, opType); }

std::vector<std::string> supportedOpTypes() { return sdk::opTableNames(kKernelTable); }

}  // namespace qnn::cpu
