#include "kernels/shared_ops.h"

#include <cstring>

namespace qnn::ops {
namespace {

struct Entry {
  const char* opType;
  sdk::OpKernelFactory factory;
};

constexpr Entry kSharedOps[] = {
    {"NonMaxSuppression", makeNonMaxSuppression},
    {"BoxWithNmsLimit", makeDetectionNms},
    {"MultiClassNms", makeDetectionNms},
    {"GenerateProposals", makeDetectionNms},
    {"CombinedNms", makeDetectionNms},
    {"DetectionOutput", makeDetectionOutput},
    {"RoiAlign", makeRoi},
    {"RoiPooling", makeRoi},
    {"AxisAlignedBboxTransform", makeBoxOps},
    {"HeatMapMaxKeyPoint", makeBoxOps},
    {"ExtractGlimpse", makeExtractGlimpse},
    {"GroupNorm", makeGroupNorm},
    {"RmsNorm", makeRmsNorm},
    {"HadamardTransform", makeHadamardLogit},
    {"Logit", makeHadamardLogit},
    {"MaskedSoftmax", makeMaskedSoftmax},
    {"RotaryEmbedding", makeRotaryEmbedding},
    {"Stft", makeStft},
    {"RandomUniformLike", makeRandomUniformLike},
    {"Buffer", makeBuffer},
    {"RandomNormalLike", makeRandomNormalLike},
    {"ElementWiseMux", makeElementWiseMux},
    {"Inverse", makeInverse},
    {"GroupQueryAttention", makeGroupQueryAttention},
    {"ImageProjectionTransform", makeImageProjectionTransform},
    {"Gru", makeRecurrent},
    {"Lstm", makeRecurrent},
    {"GridSample", makeGridSample},
    {"Lrn", makeLrn},
    {"L2Norm", makeL2NormMoments},
    {"Moments", makeL2NormMoments},
    {"LayerNorm", makeNorm},
    {"Batchnorm", makeNorm},
    {"InstanceNorm", makeNorm},
    {"Conv1d", makeConvNd},
    {"DepthWiseConv1d", makeConvNd},
    {"TransposeConv1d", makeConvNd},
    {"TransposeConv2d", makeConvNd},
    {"Conv3d", makeConvNd},
    {"TransposeConv3d", makeConvNd},
    {"PoolMax2d", makePool},
    {"PoolAvg2d", makePool},
    {"PoolMax3d", makePool},
    {"PoolAvg3d", makePool},
    {"L2Pool2d", makePool},
    {"Resize", makeResize},
    {"ResizeBilinear", makeResize},
    {"ResizeNearestNeighbor", makeResize},
    {"Nv12ToRgb", makeYuvToRgb},
    {"Nv21ToRgb", makeYuvToRgb},
};

}  // namespace

sdk::OpKernelFactory findSharedOp(const std::string& opType) {
  for (const Entry& e : kSharedOps)
    if (opType == e.opType) return e.factory;
  return nullptr;
}

}  // namespace qnn::ops
