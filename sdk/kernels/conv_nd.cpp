// Conv1d, DepthWiseConv1d, TransposeConv1d, Conv3d and TransposeConv3d on
// channel-last float32 ([batch, spatial..., channel]), one direct kernel for any
// number of spatial dims: each output pixel walks the filter taps that land in
// the input, vectorized over output channels. These ops are rare in the target
// models (the 2-D ones have the im2col + GEMM path in conv.cpp); correctness and
// one code path for 1-D and 3-D matter more here than speed.
//  * Conv / DepthWise: out[o] = bias + sum_k in[o*s - p + k*d, ci] * W[k, ci_in_group, co]
//    (DepthWiseConv1d is the grouped conv with group = channel_in, filter [k, 1, cout]).
//  * Transpose: out[o] = bias + sum over (i, k) with o = i*s - p + k*d of in[i, ci] * W[k, ci, co_in_group].
#include <algorithm>
#include <array>
#include <cstring>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {

namespace {

constexpr size_t kMaxSpatial = 3;
enum class ConvKind { kConv, kDepthwise, kTranspose };

class ConvNdKernel final : public Kernel {
 public:
  ConvNdKernel(const char* op, size_t spatial, ConvKind kind) : op_(op), spatial_(spatial), kind_(kind) {}

  Status init(const OpParams& params) override {
    std::vector<int64_t> stride, pad, dil, outPad;
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "stride", spatial_, 1, true, 1, 1, &stride));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "pad_amount", spatial_, 2, true, 0, 0, &pad));
    // TransposeConv1d has no dilation param; the rest default to 1.
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "dilation", spatial_, 1, false, 1, 1, &dil));
    if (kind_ == ConvKind::kTranspose)
      QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_, "output_padding", spatial_, 1, false, 0, 0, &outPad));
    group_ = kind_ == ConvKind::kDepthwise ? 0 : params.u32("group", 1);
    if (kind_ != ConvKind::kDepthwise && group_ == 0) return sdk::invalidParam(std::string(op_) + ": group must be > 0");
    for (size_t d = 0; d < spatial_; ++d) {
      stride_[d] = stride[d], dil_[d] = dil[d], padBefore_[d] = pad[2 * d], padAfter_[d] = pad[2 * d + 1];
      outPad_[d] = outPad.empty() ? 0 : outPad[d];
      if (outPad_[d] >= stride_[d])
        return sdk::invalidParam(std::string(op_) + ": output_padding must be < stride");
    }
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t rank = spatial_ + 2;
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 2, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[0] (input)", inputs[0], rank));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[1] (filter)", inputs[1], rank));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0] (input)", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[1] (filter)", inputs[1], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], cin_ = in[rank - 1];
    const uint32_t filterIn = f[rank - 2], filterOut = f[rank - 1];
    if (kind_ == ConvKind::kTranspose) {
      // Filter [k..., channel_in, channel_out / group].
      if (filterIn != cin_ || cin_ % group_ != 0)
        return sdk::invalidTensor(std::string(op_) + ": in[1] (filter) " + dimsToString(f) +
                                  " needs channel_in = " + std::to_string(cin_) + " (a multiple of group " +
                                  std::to_string(group_) + ") in its second-to-last dim");
      cinG_ = cin_ / group_, coutG_ = filterOut, cout_ = coutG_ * group_;
    } else {
      if (kind_ == ConvKind::kDepthwise) {
        // Filter [k..., 1, channel_out], channel_out a multiple of channel_in.
        if (filterIn != 1 || cin_ == 0 || filterOut % cin_ != 0)
          return sdk::invalidTensor(std::string(op_) + ": in[1] (filter) " + dimsToString(f) +
                                    " must be [filter..., 1, channel_out] with channel_out a multiple of channel_in " +
                                    std::to_string(cin_));
        group_ = cin_;
      } else if (group_ == 0 || cin_ % group_ != 0 || filterIn * group_ != cin_ || filterOut % group_ != 0) {
        return sdk::invalidTensor(std::string(op_) + ": in[1] (filter) " + dimsToString(f) + " does not fit channel_in " +
                                  std::to_string(cin_) + " with group " + std::to_string(group_) +
                                  " (needs channel_in / group and a channel_out divisible by group)");
      }
      cinG_ = cin_ / group_, cout_ = filterOut, coutG_ = cout_ / group_;
    }
    if (inputs.size() == 3) {
      QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[2] (bias)", inputs[2], 1));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[2] (bias)", inputs[2], {DType::kFloat32}));
      if (inputs[2].dims[0] != cout_)
        return sdk::invalidTensor(std::string(op_) + ": in[2] (bias) has " + std::to_string(inputs[2].dims[0]) +
                                  " elements, expected channel_out = " + std::to_string(cout_));
    }
    std::vector<uint32_t> outDims{batch_};
    inPixels_ = outPixels_ = taps_ = 1;
    for (size_t d = 0; d < spatial_; ++d) {
      in_[d] = in[d + 1], filter_[d] = f[d];
      const int64_t dilated = (filter_[d] - 1) * dil_[d] + 1;
      if (kind_ == ConvKind::kTranspose)
        out_[d] = stride_[d] * (in_[d] - 1) + dilated - padBefore_[d] - padAfter_[d] + outPad_[d];
      else
        out_[d] = padBefore_[d] + in_[d] + padAfter_[d] < dilated
                      ? 0
                      : (padBefore_[d] + in_[d] + padAfter_[d] - dilated) / stride_[d] + 1;
      if (in_[d] <= 0 || filter_[d] <= 0 || out_[d] <= 0)
        return sdk::invalidTensor(std::string(op_) + ": input " + dimsToString(in) + " with filter " + dimsToString(f) +
                                  " and this padding leaves no output");
      outDims.push_back(uint32_t(out_[d]));
      inPixels_ *= size_t(in_[d]), outPixels_ *= size_t(out_[d]), taps_ *= size_t(filter_[d]);
    }
    outDims.push_back(cout_);
    return checkOutputDims(op_, outputs[0], outDims);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* input = inputs[0].as<const float>();
    const float* filter = inputs[1].as<const float>();
    const float* bias = inputs.size() == 3 ? inputs[2].as<const float>() : nullptr;
    float* output = outputs[0].as<float>();
    const size_t work = size_t(cout_) * taps_ * std::max<uint32_t>(cinG_, 1);
    parallelFor(size_t(batch_) * outPixels_, rowGrain(work), [&](size_t p0, size_t p1) {
      std::array<int64_t, kMaxSpatial> o{}, k{};
      for (size_t p = p0; p < p1; ++p) {
        const size_t b = p / outPixels_;
        unflatten(p % outPixels_, out_, &o);
        float* __restrict out = output + p * cout_;
        if (bias) std::memcpy(out, bias, cout_ * sizeof(float));
        else std::fill(out, out + cout_, 0.f);
        const float* image = input + b * inPixels_ * cin_;
        for (size_t t = 0; t < taps_; ++t) {
          unflatten(t, filter_, &k);
          size_t inPixel = 0;
          if (!inputPixel(o, k, &inPixel)) continue;
          const float* px = image + inPixel * cin_;
          if (kind_ == ConvKind::kTranspose) {
            const float* tap = filter + t * size_t(cin_) * coutG_;  // [ci][co in group]
            for (uint32_t g = 0; g < group_; ++g) {
              float* __restrict outG = out + size_t(g) * coutG_;
              for (uint32_t ci = g * cinG_; ci < (g + 1) * cinG_; ++ci) {
                const float x = px[ci];
                const float* __restrict w = tap + size_t(ci) * coutG_;
                for (uint32_t c = 0; c < coutG_; ++c) outG[c] += x * w[c];
              }
            }
          } else {
            const float* tap = filter + t * size_t(cinG_) * cout_;  // [ci in group][co]
            for (uint32_t g = 0; g < group_; ++g) {
              float* __restrict outG = out + size_t(g) * coutG_;
              for (uint32_t ci = 0; ci < cinG_; ++ci) {
                const float x = px[g * cinG_ + ci];
                const float* __restrict w = tap + size_t(ci) * cout_ + size_t(g) * coutG_;
                for (uint32_t c = 0; c < coutG_; ++c) outG[c] += x * w[c];
              }
            }
          }
        }
      }
    });
    return Status::ok();
  }

 private:
  // Row-major multi-index of `flat` over `extent` (spatial_ dims).
  void unflatten(size_t flat, const std::array<int64_t, kMaxSpatial>& extent, std::array<int64_t, kMaxSpatial>* idx) const {
    for (size_t d = spatial_; d-- > 0;) {
      (*idx)[d] = int64_t(flat % size_t(extent[d]));
      flat /= size_t(extent[d]);
    }
  }

  // The input pixel that output pixel o reads through tap k, false when it lies
  // in the padding (or, transposed, between strides).
  bool inputPixel(const std::array<int64_t, kMaxSpatial>& o, const std::array<int64_t, kMaxSpatial>& k,
                  size_t* pixel) const {
    size_t flat = 0;
    for (size_t d = 0; d < spatial_; ++d) {
      int64_t i;
      if (kind_ == ConvKind::kTranspose) {
        const int64_t scaled = o[d] + padBefore_[d] - k[d] * dil_[d];
        if (scaled < 0 || scaled % stride_[d] != 0) return false;
        i = scaled / stride_[d];
      } else {
        i = o[d] * stride_[d] - padBefore_[d] + k[d] * dil_[d];
      }
      if (i < 0 || i >= in_[d]) return false;
      flat = flat * size_t(in_[d]) + size_t(i);
    }
    *pixel = flat;
    return true;
  }

  const char* op_;
  const size_t spatial_;
  const ConvKind kind_;
  std::array<int64_t, kMaxSpatial> stride_{}, dil_{}, padBefore_{}, padAfter_{}, outPad_{};
  std::array<int64_t, kMaxSpatial> in_{}, filter_{}, out_{};
  uint32_t group_ = 1, batch_ = 0, cin_ = 0, cout_ = 0, cinG_ = 0, coutG_ = 0;
  size_t inPixels_ = 0, outPixels_ = 0, taps_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeConvNd(const std::string& opType) {
  if (opType == "Conv1d") return std::make_unique<ConvNdKernel>("Conv1d", 1, ConvKind::kConv);
  if (opType == "DepthWiseConv1d") return std::make_unique<ConvNdKernel>("DepthWiseConv1d", 1, ConvKind::kDepthwise);
  if (opType == "TransposeConv1d") return std::make_unique<ConvNdKernel>("TransposeConv1d", 1, ConvKind::kTranspose);
  // The HTP simulator's fp16 graphs run TransposeConv2d here (the CPU backend has its GEMM path in conv.cpp).
  if (opType == "TransposeConv2d") return std::make_unique<ConvNdKernel>("TransposeConv2d", 2, ConvKind::kTranspose);
  if (opType == "Conv3d") return std::make_unique<ConvNdKernel>("Conv3d", 3, ConvKind::kConv);
  if (opType == "TransposeConv3d") return std::make_unique<ConvNdKernel>("TransposeConv3d", 3, ConvKind::kTranspose);
  return nullptr;
}

}  // namespace qnn::ops
