// Factories of the CPU kernels, one per kernel family. Each takes the op type
// (several ops share a family) and returns nullptr for a type it does not know.
#pragma once

#include "cpu/kernels/kernel.h"
#include "kernels/shared_ops.h"

namespace qnn::cpu {

#define QNN_CPU_DECLARE_FACTORY(fn) std::unique_ptr<Kernel> fn(const std::string& opType)

// The shared float algorithms of sdk/ops/ (ops/shared_ops.h) are CPU kernels as they are.
using ops::makeBoxOps;
using ops::makeBuffer;
using ops::makeRandomUniformLike;
using ops::makeRandomNormalLike;
using ops::makeElementWiseMux;
using ops::makeInverse;
using ops::makeGroupQueryAttention;
using ops::makeStft;
using ops::makeHadamardLogit;
using ops::makeMaskedSoftmax;
using ops::makeRmsNorm;
using ops::makeRotaryEmbedding;
using ops::makeConvNd;
using ops::makeDetectionNms;
using ops::makeDetectionOutput;
using ops::makeExtractGlimpse;
using ops::makeGroupNorm;
using ops::makeGridSample;
using ops::makeImageProjectionTransform;
using ops::makeL2NormMoments;
using ops::makeNorm;
using ops::makePool;
using ops::makeLrn;
using ops::makeNonMaxSuppression;
using ops::makeRecurrent;
using ops::makeResize;
using ops::makeRoi;
using ops::makeYuvToRgb;

// Compute-heavy families.
QNN_CPU_DECLARE_FACTORY(makeConv2d);            // conv.cpp: Conv2d
QNN_CPU_DECLARE_FACTORY(makeDepthWiseConv2d);   // conv.cpp: DepthWiseConv2d
QNN_CPU_DECLARE_FACTORY(makeTransposeConv2d);   // conv.cpp: TransposeConv2d
QNN_CPU_DECLARE_FACTORY(makeFullyConnected);    // matmul.cpp: FullyConnected
QNN_CPU_DECLARE_FACTORY(makeMatMul);            // matmul.cpp: MatMul
QNN_CPU_DECLARE_FACTORY(makePool2d);            // pool2d.cpp: PoolMax2d, PoolAvg2d (float; the rest via makePool)
QNN_CPU_DECLARE_FACTORY(makeLayerNorm);         // layer_norm.cpp: LayerNorm (trailing axes; the rest via makeNorm)
QNN_CPU_DECLARE_FACTORY(makeSoftmax);           // softmax.cpp: Softmax, LogSoftmax
QNN_CPU_DECLARE_FACTORY(makeShapePack);         // shape_pack.cpp: Shape, ConstantOfShape, Pack, UnPack, ChannelShuffle

// Element-wise, data movement, reductions, conversions.
QNN_CPU_DECLARE_FACTORY(makeElementWiseBinary); // elementwise_binary.cpp
QNN_CPU_DECLARE_FACTORY(makeElementWiseUnary);  // elementwise_unary.cpp (also IsInf, IsNan)
QNN_CPU_DECLARE_FACTORY(makeSelect);            // elementwise_binary.cpp: ElementWiseSelect
QNN_CPU_DECLARE_FACTORY(makeActivation);        // activation.cpp: Relu, ReluMinMax, Relu1, Relu6, Gelu, Sigmoid, Tanh, HardSwish, Elu
QNN_CPU_DECLARE_FACTORY(makePrelu);             // activation.cpp: Prelu
QNN_CPU_DECLARE_FACTORY(makeGenericElementWise); // elementwise_generic.cpp: ElementWiseBinary/Unary/Neuron
QNN_CPU_DECLARE_FACTORY(makeReshapeLike);       // shape_ops.cpp: Reshape, Squeeze, ExpandDims
QNN_CPU_DECLARE_FACTORY(makeTranspose);         // shape_ops.cpp: Transpose
QNN_CPU_DECLARE_FACTORY(makeTile);              // shape_ops.cpp: Tile
QNN_CPU_DECLARE_FACTORY(makeConcat);            // concat_split.cpp: Concat
QNN_CPU_DECLARE_FACTORY(makeSplit);             // concat_split.cpp: Split
QNN_CPU_DECLARE_FACTORY(makeStridedSlice);      // slice_gather_pad.cpp: StridedSlice
QNN_CPU_DECLARE_FACTORY(makeGather);            // slice_gather_pad.cpp: Gather
QNN_CPU_DECLARE_FACTORY(makeGatherElements);    // gather_elements.cpp
QNN_CPU_DECLARE_FACTORY(makeCumulativeSum);     // cumulative_sum.cpp
QNN_CPU_DECLARE_FACTORY(makeScatterGatherNd);   // scatter_gather_nd.cpp: ScatterElements, ScatterNd, GatherNd
QNN_CPU_DECLARE_FACTORY(makeDepthSpace);        // depth_space.cpp: DepthToSpace, SpaceToDepth
QNN_CPU_DECLARE_FACTORY(makeOneHot);            // one_hot.cpp: OneHot
QNN_CPU_DECLARE_FACTORY(makePad);               // slice_gather_pad.cpp: Pad
QNN_CPU_DECLARE_FACTORY(makeReduce);            // reduce.cpp: ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd, ReduceSumSquare
QNN_CPU_DECLARE_FACTORY(makeQuantizeLike);      // quant_cast.cpp: Quantize, Dequantize, Cast, Convert
QNN_CPU_DECLARE_FACTORY(makeArgMinMax);         // argmax_topk.cpp: Argmax, Argmin
QNN_CPU_DECLARE_FACTORY(makeTopK);              // argmax_topk.cpp: TopK
QNN_CPU_DECLARE_FACTORY(makeNonZero);           // non_zero.cpp
QNN_CPU_DECLARE_FACTORY(makeBatchSpace);        // batch_space.cpp: BatchToSpace, SpaceToBatch, BatchPermutation
QNN_CPU_DECLARE_FACTORY(makeImagePatches);      // image_patches.cpp: ArgbToRgb, ExtractPatches
QNN_CPU_DECLARE_FACTORY(makeCropAndResize);     // crop_and_resize.cpp
QNN_CPU_DECLARE_FACTORY(makeCorrelation1D);     // correlation_1d.cpp
QNN_CPU_DECLARE_FACTORY(makeFpnBoxes);          // fpn_boxes.cpp: BboxTransform, DistributeFpnProposals, CollectRpnProposals

#undef QNN_CPU_DECLARE_FACTORY

}  // namespace qnn::cpu
