// Argument checks every backend's kernels share, with uniform messages (they
// name the op, the tensor role, the shapes or the datatype).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/op_params.h"
#include "core/status.h"
#include "core/tensor_view.h"

namespace qnn::sdk {

// "[1,2,3]".
std::string dimsToString(const std::vector<uint32_t>& dims);
// The number of inputs (minIn..maxIn) and outputs.
Status checkArity(const char* op, const std::vector<TensorView>& inputs, size_t minIn, size_t maxIn,
                  const std::vector<TensorView>& outputs, size_t numOut);
// Fails with a message naming op and both shapes when they differ.
Status checkOutputDims(const char* op, const TensorView& out, const std::vector<uint32_t>& expected);
Status checkRank(const char* op, const char* role, const TensorView& t, size_t rank);
Status checkDType(const char* op, const char* role, const TensorView& t, std::initializer_list<DType> allowed);
// out has in's datatype (a known size) and, for fixed point, its quantization
// (the ops that move or keep values do not requantize).
Status checkSameElementType(const char* op, const char* role, const TensorView& in, const TensorView& out);
// Dims of a reduced-rank output: an empty shape (all axes removed) is written as
// [1] by clients, so both are accepted.
Status checkOutputDimsAllowScalar(const char* op, const TensorView& out, const std::vector<uint32_t>& expected);
// Numpy-style broadcasting of two shapes (right-aligned). Fails if incompatible.
Status broadcastShapes(const char* op, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                       std::vector<uint32_t>* out);
// A UINT_32 tensor param of exactly `dims` (absent optional params take `def`),
// every value in 0..INT32_MAX.
Status readUintTensorParam(const OpParams& params, const char* op, const char* name, std::vector<uint32_t> dims,
                           bool mandatory, std::vector<int64_t> def, std::vector<int64_t>* out);

// Stride, padding and dilation of the 2-D convolutions (params stride,
// pad_amount [[top, bottom], [left, right]] and, when hasDilation, dilation).
struct ConvWindow {
  int64_t strideH = 1, strideW = 1, dilH = 1, dilW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
};
Status readConvWindow(const OpParams& params, const char* op, bool hasDilation, ConvWindow* w);
// floor((pad_before + in + pad_after - dilated_filter) / stride) + 1, 0 when the
// padded input is smaller than the dilated filter.
int64_t convOutSize(int64_t in, int64_t filter, int64_t dil, int64_t stride, int64_t padBefore, int64_t padAfter);

// The shapes of a 2-D convolution over an NHWC input [batch, inH, inW, cin]
// and an HWIO filter [fh, fw, cin / groups, cout]; DepthWiseConv2d is the
// case groups = cin with filter [fh, fw, 1, cin * multiplier].
struct ConvGeometry {
  uint32_t batch = 0, inH = 0, inW = 0, cin = 0, fh = 0, fw = 0, cout = 0, groups = 1, cinG = 0, coutG = 0;
  int64_t outH = 0, outW = 0;
};
// Checks the filter against the input and the window, computes the output
// size and checks out[0]'s dims, with messages naming op and tensors.
// depthwise: DepthWiseConv2d's filter rule (groups is then cin).
Status resolveConvGeometry(const char* op, const TensorView& in, const TensorView& filter, const TensorView& out,
                           const ConvWindow& w, uint32_t groups, bool depthwise, ConvGeometry* g);

// PoolMax2d / PoolAvg2d params: filter_size, stride, pad_amount (mandatory),
// rounding_mode (0 FLOOR, 1 CEIL), count_pad_for_edges (PoolAvg2d only).
struct PoolWindow {
  int64_t fh = 1, fw = 1, sh = 1, sw = 1, padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  bool ceil = false, countPad = false;
};
Status readPoolWindow(const OpParams& params, const char* op, bool isMax, PoolWindow* w);

// Window params of the 1-D and 3-D convolutions and pools (stride, pad_amount,
// dilation, filter_size, output_padding), read for any number of spatial dims:
// `perDim` values for each of `spatial` dims of param `name` (a scalar when that
// is one value in all; the 1-D ops give per-dim values as scalars and pad_amount
// as [2], the 3-D ops tensors [3] and [3, 2]); absent and not mandatory: `def`
// repeated. Values must be in [minValue, 2^31).
Status readSpatialParam(const OpParams& params, const char* op, const char* name, size_t spatial, size_t perDim,
                        bool mandatory, int64_t def, int64_t minValue, std::vector<int64_t>* out);

// StridedSlice params: ranges [n, 3] (begin, end, stride) and the four masks.
struct StridedSliceParams {
  std::vector<int64_t> ranges;
  uint32_t beginMask = 0, endMask = 0, shrinkMask = 0, newAxesMask = 0;
};
Status readStridedSliceParams(const OpParams& params, StridedSliceParams* out);

// One axis of a StridedSlice that is not shrunk: begin and end (negative values
// count from the end) clamped to [0, dim] going forward and [-1, dim-1] going
// backward; a masked bound takes the axis's first or last element. end is exclusive.
struct SliceRange {
  int64_t begin = 0, end = 0;
};
SliceRange resolveSliceRange(int64_t begin, int64_t end, int64_t stride, int64_t dim, bool beginMasked,
                             bool endMasked);

}  // namespace qnn::sdk
