// BatchToSpace, SpaceToBatch (NHWC, TensorFlow's batch_to_space_nd /
// space_to_batch_nd with block [bh, bw]) and BatchPermutation. They only move
// elements: any dtype, copied as bytes one pixel (all channels) at a time.
//  * Batch index of block position (i, j) of image n: (i * bw + j) * N + n, N the
//    batch of the spatial side.
//  * SpaceToBatch pads with real zero (for fixed point the quantized zero, -offset).
//  * BatchPermutation: out[k] = in[indices[k]]; an index outside [0, batch) fails
//    the execute, leaving the output unwritten.
#include <array>
#include <cstring>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

class BatchSpaceKernel final : public Kernel {
 public:
  explicit BatchSpaceKernel(bool toSpace) : toSpace_(toSpace), op_(toSpace ? "BatchToSpace" : "SpaceToBatch") {}

  Status init(const OpParams& params) override {
    std::vector<int64_t> block, edges;
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op_, "block_size", {2}, true, {}, &block));
    QNN_SDK_RETURN_IF_ERROR(
        readUintTensorParam(params, op_, toSpace_ ? "crops" : "pad_amount", {2, 2}, false, {0, 0, 0, 0}, &edges));
    if (block[0] < 1 || block[1] < 1) return sdk::invalidParam(std::string(op_) + ": block_size elements must be >= 1");
    bh_ = block[0], bw_ = block[1];
    top_ = edges[0], bottom_ = edges[1], left_ = edges[2], right_ = edges[3];
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[0]", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op_, "out[0]", inputs[0], outputs[0]));
    const auto& in = inputs[0].dims;
    in_ = {in[0], in[1], in[2], in[3]};
    std::vector<uint32_t> outDims;
    if (toSpace_) {
      const int64_t h = in[1] * bh_ - top_ - bottom_, w = in[2] * bw_ - left_ - right_;
      if (in[0] % (bh_ * bw_) != 0 || h < 0 || w < 0)
        return sdk::invalidTensor(std::string(op_) + ": in[0] " + dimsToString(in) + " needs a batch divisible by " +
                                  std::to_string(bh_ * bw_) + " and crops smaller than the output");
      outDims = {uint32_t(in[0] / (bh_ * bw_)), uint32_t(h), uint32_t(w), in[3]};
    } else {
      const int64_t h = in[1] + top_ + bottom_, w = in[2] + left_ + right_;
      if (h % bh_ != 0 || w % bw_ != 0)
        return sdk::invalidTensor(std::string(op_) + ": the padded height and width (" + std::to_string(h) + ", " +
                                  std::to_string(w) + ") must be divisible by block_size");
      outDims = {uint32_t(in[0] * bh_ * bw_), uint32_t(h / bh_), uint32_t(w / bw_), in[3]};
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_, outputs[0], outDims));
    out_ = {outDims[0], outDims[1], outDims[2], outDims[3]};
    es_ = sdk::dtypeSize(inputs[0].dtype);
    zero_ = zeroElementBytes(inputs[0]);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const uint8_t* src = inputs[0].as<const uint8_t>();
    uint8_t* dst = outputs[0].as<uint8_t>();
    const size_t pixelBytes = size_t(in_[3]) * es_;
    const size_t outPixels = size_t(out_[0]) * out_[1] * out_[2];
    parallelFor(outPixels, std::max<size_t>(1, kElementwiseGrain / std::max<size_t>(in_[3], 1)), [&](size_t p0, size_t p1) {
      for (size_t p = p0; p < p1; ++p) {
        const int64_t ow = int64_t(p % out_[2]), oh = int64_t(p / out_[2] % out_[1]), ob = int64_t(p / out_[2] / out_[1]);
        uint8_t* o = dst + p * pixelBytes;
        int64_t b, h, w;
        if (toSpace_) {
          const int64_t ph = oh + top_, pw = ow + left_;
          b = ((ph % bh_) * bw_ + pw % bw_) * out_[0] + ob, h = ph / bh_, w = pw / bw_;
        } else {
          const int64_t n = ob % in_[0], blk = ob / in_[0];
          b = n, h = oh * bh_ + blk / bw_ - top_, w = ow * bw_ + blk % bw_ - left_;
          if (h < 0 || h >= in_[1] || w < 0 || w >= in_[2]) {
            for (uint32_t c = 0; c < in_[3]; ++c) std::memcpy(o + c * es_, zero_.data(), es_);
            continue;
          }
        }
        std::memcpy(o, src + ((size_t(b) * in_[1] + size_t(h)) * in_[2] + size_t(w)) * pixelBytes, pixelBytes);
      }
    });
    return Status::ok();
  }

 private:
  const bool toSpace_;
  const char* op_;
  int64_t bh_ = 1, bw_ = 1, top_ = 0, bottom_ = 0, left_ = 0, right_ = 0;
  std::array<uint32_t, 4> in_{}, out_{};
  size_t es_ = 0;
  std::vector<uint8_t> zero_;
};

class BatchPermutationKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "BatchPermutation";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", inputs[0], outputs[0]));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (indices)", inputs[1], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (indices)", inputs[1], {DType::kInt32, DType::kUInt32}));
    if (inputs[0].rank() == 0 || inputs[1].dims[0] != inputs[0].dims[0])
      return sdk::invalidTensor(std::string(op) + ": in[1] must hold one index per batch of in[0] " +
                                dimsToString(inputs[0].dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    batch_ = inputs[0].dims[0];
    sliceBytes_ = batch_ ? inputs[0].byteSize() / batch_ : 0;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const int32_t* idx = inputs[1].as<const int32_t>();
    for (uint32_t k = 0; k < batch_; ++k)
      if (idx[k] < 0 || uint32_t(idx[k]) >= batch_)
        return sdk::invalidTensor("BatchPermutation: index " + std::to_string(idx[k]) + " at position " +
                                  std::to_string(k) + " is outside [0, " + std::to_string(batch_) + ")");
    const uint8_t* src = inputs[0].as<const uint8_t>();
    uint8_t* dst = outputs[0].as<uint8_t>();
    for (uint32_t k = 0; k < batch_; ++k) std::memcpy(dst + k * sliceBytes_, src + size_t(idx[k]) * sliceBytes_, sliceBytes_);
    return Status::ok();
  }

 private:
  uint32_t batch_ = 0;
  size_t sliceBytes_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeBatchSpace(const std::string& opType) {
  if (opType == "BatchToSpace") return std::make_unique<BatchSpaceKernel>(true);
  if (opType == "SpaceToBatch") return std::make_unique<BatchSpaceKernel>(false);
  if (opType == "BatchPermutation") return std::make_unique<BatchPermutationKernel>();
  return nullptr;
}

}  // namespace qnn::cpu
