// RotaryEmbedding (float32), ONNX's RotaryEmbedding (opset 23) on the native
// layout [batch, num_heads, seq, head_size] that QNN takes (ONNX Runtime's QNN EP
// reshapes rank-3 inputs to it): for token (b, s) the cos/sin row is the caches'
// row position_ids[b][s] (caches [max_position, rotary_dim / 2]) or, without
// position ids, row [b][s] of caches [batch, seq, rotary_dim / 2] (also taken:
// [1, seq, r/2] or [seq, r/2], shared by the batch). Of each head's features the
// first rotary_dim (0 = head_size; even) rotate in pairs — halves (k, k + r/2), or
// neighbours (2k, 2k + 1) when interleaved — as (x1 cos - x2 sin, x2 cos + x1 sin);
// the rest pass through. A position id outside the caches fails the execute.
#include <cstring>


#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class RotaryEmbeddingKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    interleaved_ = params.b("interleaved", false);
    rotaryParam_ = params.u32("rotary_embedding_dim", 0);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "RotaryEmbedding";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 3, 4, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 4));
    for (size_t i = 0; i < 3; ++i) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0..2]", inputs[i], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& d = inputs[0].dims;
    batch_ = d[0], heads_ = d[1], seq_ = d[2], headSize_ = d[3];
    rotary_ = rotaryParam_ ? rotaryParam_ : headSize_;
    if (rotary_ % 2 != 0 || rotary_ > headSize_)
      return sdk::invalidParam(std::string(op) + ": rotary_embedding_dim " + std::to_string(rotary_) +
                               " must be even and at most head_size " + std::to_string(headSize_));
    const uint32_t half = rotary_ / 2;
    const TensorView& cosT = inputs[1];
    if (cosT.dims != inputs[2].dims)
      return sdk::invalidTensor(std::string(op) + ": cos_cache " + dimsToString(cosT.dims) + " and sin_cache " +
                                dimsToString(inputs[2].dims) + " differ");
    if (cosT.dims.empty() || cosT.dims.back() != half)
      return sdk::invalidTensor(std::string(op) + ": the caches' last dim must be rotary_dim / 2 = " + std::to_string(half));
    withIds_ = inputs.size() == 4 && !inputs[3].dims.empty();
    if (withIds_) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[3] (position_ids)", inputs[3], {DType::kInt32, DType::kUInt32, DType::kInt64}));
      if (inputs[3].dims != std::vector<uint32_t>{batch_, seq_})
        return sdk::invalidTensor(std::string(op) + ": position_ids must be [" + std::to_string(batch_) + ", " +
                                  std::to_string(seq_) + "]");
      if (cosT.rank() != 2)
        return sdk::invalidTensor(std::string(op) + ": with position_ids the caches must be [max_position, rotary_dim / 2]");
      maxPosition_ = cosT.dims[0];
    } else if (cosT.rank() == 3 && (cosT.dims[0] == batch_ || cosT.dims[0] == 1) && cosT.dims[1] == seq_) {
      cacheBatchStride_ = cosT.dims[0] == 1 ? 0 : size_t(seq_) * half;
    } else if (cosT.rank() == 2 && cosT.dims[0] == seq_) {
      cacheBatchStride_ = 0;
    } else {
      return sdk::invalidTensor(std::string(op) + ": without position_ids the caches must be [batch, seq, rotary_dim / 2] "
                                "(or [seq, rotary_dim / 2]), got " + dimsToString(cosT.dims));
    }
    return checkOutputDims(op, outputs[0], d);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const uint32_t half = rotary_ / 2;
    std::vector<size_t> rows(size_t(batch_) * seq_);
    for (uint32_t b = 0; b < batch_; ++b)
      for (uint32_t s = 0; s < seq_; ++s) {
        const size_t i = size_t(b) * seq_ + s;
        if (!withIds_) {
          rows[i] = b * cacheBatchStride_ / (half ? half : 1) + s;
          continue;
        }
        const int64_t id = positionId(inputs[3], i);
        if (id < 0 || uint64_t(id) >= maxPosition_)
          return sdk::invalidTensor("RotaryEmbedding: position id " + std::to_string(id) + " at [" + std::to_string(b) +
                                    ", " + std::to_string(s) + "] is outside the caches' " + std::to_string(maxPosition_) +
                                    " positions");
        rows[i] = size_t(id);
      }
    const float* x = inputs[0].as<const float>();
    const float* cosC = inputs[1].as<const float>();
    const float* sinC = inputs[2].as<const float>();
    float* y = outputs[0].as<float>();
    for (uint32_t b = 0; b < batch_; ++b)
      for (uint32_t n = 0; n < heads_; ++n)
        for (uint32_t s = 0; s < seq_; ++s) {
          const size_t off = ((size_t(b) * heads_ + n) * seq_ + s) * headSize_;
          const float* xi = x + off;
          float* yi = y + off;
          const float* c = cosC + rows[size_t(b) * seq_ + s] * half;
          const float* sn = sinC + rows[size_t(b) * seq_ + s] * half;
          for (uint32_t k = 0; k < half; ++k) {
            const uint32_t i1 = interleaved_ ? 2 * k : k, i2 = interleaved_ ? 2 * k + 1 : k + half;
            const float x1 = xi[i1], x2 = xi[i2];
            yi[i1] = x1 * c[k] - x2 * sn[k];
            yi[i2] = x2 * c[k] + x1 * sn[k];
          }
          if (rotary_ < headSize_) std::memcpy(yi + rotary_, xi + rotary_, (headSize_ - rotary_) * sizeof(float));
        }
    return Status::ok();
  }

 private:
  static int64_t positionId(const TensorView& t, size_t i) {
    if (t.dtype == DType::kInt64) return t.as<const int64_t>()[i];
    if (t.dtype == DType::kUInt32) return int64_t(t.as<const uint32_t>()[i]);
    return t.as<const int32_t>()[i];
  }

  bool interleaved_ = false, withIds_ = false;
  uint32_t rotaryParam_ = 0, rotary_ = 0, batch_ = 0, heads_ = 0, seq_ = 0, headSize_ = 0;
  uint64_t maxPosition_ = 0;
  size_t cacheBatchStride_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeRotaryEmbedding(const std::string& opType) {
  if (opType == "RotaryEmbedding") return std::make_unique<RotaryEmbeddingKernel>();
  return nullptr;
}

}  // namespace qnn::ops
