// Independent reference implementations of the compute-heavy ops, written as
// plain nested loops straight from the op definitions (opdefs.json) with double
// accumulation. They share no code with the CPU kernels on purpose: they are
// the ground truth the conformance cases compare the kernels with.
#pragma once

#include <cstdint>
#include <vector>

namespace qnn::conformance::ref {

using Dims = std::vector<uint32_t>;
using Floats = std::vector<float>;

struct ConvGeometry {
  uint32_t strideH = 1, strideW = 1;
  uint32_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  uint32_t dilH = 1, dilW = 1;  // Conv2d / DepthWiseConv2d only
  uint32_t group = 1;           // Conv2d / TransposeConv2d only
  uint32_t outPadH = 0, outPadW = 0;  // TransposeConv2d only
};

// NHWC input, HWIO filter [fh, fw, Cin/group, Cout]; bias may be empty.
Floats conv2d(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
              const ConvGeometry& g, Dims* outDims);
// Filter [fh, fw, 1, Cin*multiplier]; output channel o reads input channel o / multiplier.
Floats depthwiseConv2d(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
                       const ConvGeometry& g, Dims* outDims);
// Filter [fh, fw, Cin, Cout/group].
Floats transposeConv2d(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
                       const ConvGeometry& g, Dims* outDims);

// x . W^T + b, W = [m, n].
Floats fullyConnected(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
                      bool keepDims, Dims* outDims);
// Batched op(A) x op(B) (+ bias[N]) with broadcast batch dims.
Floats matMul(const Floats& a, const Dims& ad, const Floats& b, const Dims& bd, const Floats& bias, bool transA,
              bool transB, Dims* outDims);

struct PoolGeometry {
  uint32_t filterH = 1, filterW = 1, strideH = 1, strideW = 1;
  uint32_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  bool ceilMode = false;
  bool countPadForEdges = false;  // PoolAvg2d only
};
Floats poolMax2d(const Floats& x, const Dims& xd, const PoolGeometry& g, Dims* outDims);
Floats poolAvg2d(const Floats& x, const Dims& xd, const PoolGeometry& g, Dims* outDims);

Floats softmax(const Floats& x, const Dims& d, uint32_t axis, float beta, bool logSoftmax);

// gamma/beta empty = ones/zeros; they are laid out over the (sorted) axes.
Floats layerNorm(const Floats& x, const Dims& d, std::vector<uint32_t> axes, const Floats& gamma,
                 const Floats& beta, float epsilon);
Floats batchnorm(const Floats& x, const Dims& d, const Floats& weight, const Floats& bias);
Floats instanceNorm(const Floats& x, const Dims& d, const Floats& gamma, const Floats& beta, float epsilon,
                    bool normalizeVariance);

// QNN Resize (ONNX semantics). transformation: 0 half_pixel, 1 pytorch_half_pixel,
// 2 align_corners, 3 asymmetric; nearestMode: 0 round_prefer_floor,
// 1 round_prefer_ceil, 2 floor, 3 ceil. x is [B, H, W, C] or [B, W, C].
Floats resize(const Floats& x, const Dims& xd, const Dims& outDims, uint32_t transformation, bool linear,
              uint32_t nearestMode);
// QNN Resize CUBIC on [B, H, W, C]: ONNX's reference algorithm with coefficient a.
Floats resizeCubic(const Floats& x, const Dims& xd, const Dims& outDims, uint32_t transformation, double a,
                   bool excludeOutside);
// TensorFlow resize_bilinear / resize_nearest_neighbor on [B, H, W, C].
Floats resizeBilinearTf(const Floats& x, const Dims& xd, const Dims& outDims, bool alignCorners, bool halfPixel);
Floats resizeNearestTf(const Floats& x, const Dims& xd, const Dims& outDims, bool alignCorners, bool halfPixel);

}  // namespace qnn::conformance::ref
