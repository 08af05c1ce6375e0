// The float algorithms every backend can run (the CPU backend as its kernels,
// the HTP simulator on dequantized values): ops whose math is the same whatever
// runs it — detection post-processing, RoI sampling, recurrent cells, GroupNorm,
// image transforms, GridSample, Lrn, L2Norm and Moments, the normalizations,
// the 1-D / 3-D convolutions and pools, Resize, and the transformer ops of later
// op sets (RmsNorm, HadamardTransform, Logit, MaskedSoftmax, RotaryEmbedding, Stft,
// RandomUniformLike, Buffer; op set 2.13's RandomNormalLike, ElementWiseMux, Inverse,
// GroupQueryAttention). Each factory takes the op type (several ops share a family)
// and returns nullptr for a type it does not know.
#pragma once

#include "core/op_kernel.h"

namespace qnn::ops {

#define QNN_DECLARE_SHARED_OP(fn) std::unique_ptr<sdk::OpKernel> fn(const std::string& opType)

QNN_DECLARE_SHARED_OP(makeNonMaxSuppression);        // non_max_suppression.cpp
QNN_DECLARE_SHARED_OP(makeDetectionNms);             // detection_nms.cpp: BoxWithNmsLimit, MultiClassNms, GenerateProposals, CombinedNms
QNN_DECLARE_SHARED_OP(makeDetectionOutput);          // detection_output.cpp
QNN_DECLARE_SHARED_OP(makeRoi);                      // roi_ops.cpp: RoiAlign, RoiPooling
QNN_DECLARE_SHARED_OP(makeBoxOps);                   // box_ops.cpp: AxisAlignedBboxTransform, HeatMapMaxKeyPoint
QNN_DECLARE_SHARED_OP(makeExtractGlimpse);           // extract_glimpse.cpp
QNN_DECLARE_SHARED_OP(makeGroupNorm);                // group_norm.cpp
QNN_DECLARE_SHARED_OP(makeImageProjectionTransform); // image_projection.cpp
QNN_DECLARE_SHARED_OP(makeRecurrent);                // recurrent.cpp: Gru, Lstm
QNN_DECLARE_SHARED_OP(makeGridSample);               // grid_sample.cpp
QNN_DECLARE_SHARED_OP(makeLrn);                      // lrn.cpp
QNN_DECLARE_SHARED_OP(makeL2NormMoments);            // l2norm_moments.cpp: L2Norm, Moments
QNN_DECLARE_SHARED_OP(makeNorm);                     // norm.cpp: LayerNorm, Batchnorm, InstanceNorm
QNN_DECLARE_SHARED_OP(makeConvNd);                   // conv_nd.cpp: Conv1d, DepthWiseConv1d, TransposeConv1d/2d/3d, Conv3d
QNN_DECLARE_SHARED_OP(makePool);                     // pool.cpp: PoolMax2d/3d, PoolAvg2d/3d, L2Pool2d
QNN_DECLARE_SHARED_OP(makeResize);                   // resize.cpp: Resize, ResizeBilinear, ResizeNearestNeighbor
QNN_DECLARE_SHARED_OP(makeYuvToRgb);                 // yuv_to_rgb.cpp: Nv12ToRgb, Nv21ToRgb
QNN_DECLARE_SHARED_OP(makeRmsNorm);                  // rms_norm.cpp: RmsNorm
QNN_DECLARE_SHARED_OP(makeHadamardLogit);            // hadamard_logit.cpp: HadamardTransform, Logit
QNN_DECLARE_SHARED_OP(makeMaskedSoftmax);            // masked_softmax.cpp: MaskedSoftmax
QNN_DECLARE_SHARED_OP(makeRotaryEmbedding);          // rotary_embedding.cpp: RotaryEmbedding
QNN_DECLARE_SHARED_OP(makeStft);                     // stft.cpp: Stft
QNN_DECLARE_SHARED_OP(makeRandomUniformLike);        // random_uniform_like.cpp: RandomUniformLike
QNN_DECLARE_SHARED_OP(makeBuffer);                   // buffer.cpp: Buffer (stateful sliding window, any datatype)
// Op set 2.13 (API 2.39).
QNN_DECLARE_SHARED_OP(makeRandomNormalLike);         // random_normal_like.cpp: RandomNormalLike
QNN_DECLARE_SHARED_OP(makeElementWiseMux);           // element_wise_mux.cpp: ElementWiseMux (any datatype, copied)
QNN_DECLARE_SHARED_OP(makeInverse);                  // inverse.cpp: Inverse
QNN_DECLARE_SHARED_OP(makeGroupQueryAttention);      // group_query_attention.cpp: GroupQueryAttention

#undef QNN_DECLARE_SHARED_OP

// The factory of a shared op type (the table of shared_ops.cpp), or nullptr.
sdk::OpKernelFactory findSharedOp(const std::string& opType);

}  // namespace qnn::ops
