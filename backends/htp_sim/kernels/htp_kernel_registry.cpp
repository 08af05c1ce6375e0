// The one table of op types the HTP simulator executes. Adding an op: write
// its kernel family file, declare the factory in htp_kernel_registry.h, add
// rows here and update docs/htp-fixed-point.md.
// fp16-mode float kernels have their own table (kFp16Table); an op in both
// tables gets a kernel that picks one by the tensors' datatype at prepare.
#include "htp_sim/kernels/htp_kernel_registry.h"

#include "htp_sim/kernels/dtype_dispatch.h"
#include "htp_sim/kernels/fp16.h"

#include <algorithm>

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
    {"Conv3d", makeQuantConv3d},
    {"TransposeConv3d", makeQuantConv3d},
    {"Batchnorm", makeQuantBatchnorm},
    {"PoolMax2d", makeQuantPool},
    {"PoolAvg2d", makeQuantPool},
    {"PoolAvg3d", makeQuantPool3d},
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
    {"Cast", makeQuantCastValues},
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
    {"ElementWisePower", makeQuantPower},
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
    {"DepthToSpace", makeQuantRearrange},
    {"SpaceToDepth", makeQuantRearrange},
    {"BatchToSpace", makeQuantRearrange},
    {"SpaceToBatch", makeQuantRearrange},
    {"ChannelShuffle", makeQuantRearrange},
    {"Pack", makeQuantRearrange},
    {"UnPack", makeQuantRearrange},
    {"ArgbToRgb", makeQuantRearrange},
    {"ExtractPatches", makeQuantRearrange},
    {"GatherElements", makeQuantRearrange},
    {"GatherNd", makeQuantRearrange},
    {"ScatterElements", makeQuantRearrange},
    {"ScatterNd", makeQuantRearrange},
    {"CumulativeSum", makeQuantIndexOps},
    {"NonZero", makeQuantIndexOps},
    {"OneHot", makeQuantIndexOps},

    // Real values through the shared float algorithms (real_valued.cpp); they
    // take fixed-point and float (fp16-mode) tensors alike.
    {"NonMaxSuppression", makeRealValued},
    {"MultiClassNms", makeRealValued},
    {"DetectionOutput", makeRealValued},
    {"RoiAlign", makeRealValued},
    {"HeatMapMaxKeyPoint", makeRealValued},
    {"ExtractGlimpse", makeRealValued},
    {"GroupNorm", makeRealValued},
    {"ImageProjectionTransform", makeRealValued},
    {"Lstm", makeRealValued},
    {"GridSample", makeRealValued},
    {"L2Norm", makeRealValued},
    {"Lrn", makeRealValued},
    {"Nv12ToRgb", makeRealValued},
    {"Nv21ToRgb", makeRealValued},

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
    {"ElementWiseUnary", makeQuantTable},
    {"ElementWiseNeuron", makeQuantTable},
    // Moves frames bit for bit, fixed-point and fp16 alike (after op set 2.7).
    {"Buffer", makeSharedMove},
};

// fp16 mode (docs/htp-simulator.md): float tensors, computed in float32 and
// rounded to half after every op.
constexpr KernelEntry kFp16Table[] = {
    {"Conv2d", makeFp16Conv2d},
    {"DepthWiseConv2d", makeFp16Conv2d},
    {"FullyConnected", makeFp16FullyConnected},
    {"MatMul", makeFp16MatMul},
    {"ElementWiseAdd", makeFp16Binary},
    {"ElementWiseSubtract", makeFp16Binary},
    {"ElementWiseMultiply", makeFp16Binary},
    {"ElementWiseDivide", makeFp16Binary},
    {"ElementWiseMaximum", makeFp16Binary},
    {"ElementWiseMinimum", makeFp16Binary},
    {"ElementWiseSquaredDifference", makeFp16Binary},
    {"ElementWisePower", makeFp16Binary},
    {"ElementWiseFloorDiv", makeFp16Binary},
    {"Prelu", makeFp16Binary},
    {"Relu", makeFp16Unary},
    {"Relu1", makeFp16Unary},
    {"Relu6", makeFp16Unary},
    {"ReluMinMax", makeFp16Unary},
    {"Sigmoid", makeFp16Unary},
    {"Tanh", makeFp16Unary},
    {"Gelu", makeFp16Unary},
    {"HardSwish", makeFp16Unary},
    {"Elu", makeFp16Unary},
    {"ElementWiseExp", makeFp16Unary},
    {"ElementWiseLog", makeFp16Unary},
    {"ElementWiseSquareRoot", makeFp16Unary},
    {"ElementWiseRsqrt", makeFp16Unary},
    {"ElementWiseAbs", makeFp16Unary},
    {"ElementWiseNeg", makeFp16Unary},
    {"ElementWiseAtan", makeFp16Unary},
    {"ElementWiseAsin", makeFp16Unary},
    {"ElementWiseSin", makeFp16Unary},
    {"ElementWiseCos", makeFp16Unary},
    {"ElementWiseCeil", makeFp16Unary},
    {"ElementWiseFloor", makeFp16Unary},
    {"ElementWiseRound", makeFp16Unary},
    {"ElementWiseSign", makeFp16Unary},
    {"ElementWiseUnary", makeFp16Unary},
    {"ElementWiseNeuron", makeFp16Unary},
    {"PoolMax2d", makeFp16Pool},
    {"PoolAvg2d", makeFp16Pool},
    {"ReduceMean", makeFp16Reduce},
    {"ReduceSum", makeFp16Reduce},
    {"ReduceMax", makeFp16Reduce},
    {"ReduceMin", makeFp16Reduce},
    {"ReduceSumSquare", makeFp16Reduce},
    {"Softmax", makeFp16Softmax},
    {"LogSoftmax", makeFp16Softmax},
    {"LayerNorm", makeFp16LayerNorm},
    {"Reshape", makeFp16Movement},
    {"Squeeze", makeFp16Movement},
    {"ExpandDims", makeFp16Movement},
    {"Transpose", makeFp16Movement},
    {"Tile", makeFp16Movement},
    {"StridedSlice", makeFp16Movement},
    {"Pad", makeFp16Movement},
    {"Concat", makeFp16Movement},
    {"Split", makeFp16Movement},
    {"Gather", makeFp16Movement},
    {"Argmax", makeFp16Typed},
    {"Argmin", makeFp16Typed},
    {"TopK", makeFp16Typed},
    {"ElementWiseEqual", makeFp16Typed},
    {"ElementWiseNotEqual", makeFp16Typed},
    {"ElementWiseGreater", makeFp16Typed},
    {"ElementWiseGreaterEqual", makeFp16Typed},
    {"ElementWiseLess", makeFp16Typed},
    {"ElementWiseLessEqual", makeFp16Typed},
    {"ElementWiseNot", makeFp16Typed},
    {"ElementWiseSelect", makeFp16Typed},
    // Float graphs of these ops run the shared float algorithms (real_valued.cpp).
    {"TransposeConv2d", makeRealValued},
    {"Conv3d", makeRealValued},
    {"TransposeConv3d", makeRealValued},
    {"PoolAvg3d", makeRealValued},
    {"Batchnorm", makeRealValued},
    {"InstanceNorm", makeRealValued},
    {"Resize", makeRealValued},
    {"ResizeBilinear", makeRealValued},
    {"ResizeNearestNeighbor", makeRealValued},
    {"DepthToSpace", makeFp16Movement},
    {"SpaceToDepth", makeFp16Movement},
    {"BatchToSpace", makeFp16Movement},
    {"SpaceToBatch", makeFp16Movement},
    {"ChannelShuffle", makeFp16Movement},
    {"Pack", makeFp16Movement},
    {"UnPack", makeFp16Movement},
    {"ArgbToRgb", makeFp16Movement},
    {"ExtractPatches", makeFp16Movement},
    {"GatherElements", makeFp16Movement},
    {"GatherNd", makeFp16Movement},
    {"ScatterElements", makeFp16Movement},
    {"ScatterNd", makeFp16Movement},
    // Ops after op set 2.7 (sdk/opdefs/opdefs_post_2_7.json).
    {"RmsNorm", makeRealValued},
    {"HadamardTransform", makeRealValued},
    {"Logit", makeRealValued},
    {"MaskedSoftmax", makeRealValued},
    {"RotaryEmbedding", makeRealValued},
    {"Stft", makeRealValued},
    {"RandomUniformLike", makeRealValued},
    {"RandomNormalLike", makeRealValued},
    {"ElementWiseMux", makeRealValued},
    {"GroupQueryAttention", makeRealValued},
    {"IsInf", makeFp16FloatClass},
    {"IsNan", makeFp16FloatClass},
};

std::unique_ptr<Kernel> makeQuantOrFp16(const std::string& opType) {
  KernelFactory quant = sdk::findInOpTable(kKernelTable, opType);
  KernelFactory fp16 = sdk::findInOpTable(kFp16Table, opType);
  return makeDtypeDispatch(quant ? quant(opType) : nullptr, fp16 ? fp16(opType) : nullptr);
}

}  // namespace

KernelFactory findKernel(const std::string& opType) {
  KernelFactory quant = sdk::findInOpTable(kKernelTable, opType);
  KernelFactory fp16 = sdk::findInOpTable(kFp16Table, opType);
  if (quant && fp16) return makeQuantOrFp16;
  return quant ? quant : fp16;
}

std::vector<std::string> supportedOpTypes() {
  std::vector<std::string> ops = sdk::opTableNames(kKernelTable);
  for (const std::string& op : sdk::opTableNames(kFp16Table))
    if (!sdk::findInOpTable(kKernelTable, op)) ops.push_back(op);
  std::sort(ops.begin(), ops.end());
  return ops;
}

}  // namespace qnn::htp
