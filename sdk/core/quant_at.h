// The scale and offset that apply to one element of a quantized tensor, for every encoding kind:
// per tensor, per channel, and blockwise expansion (a per-channel scale times the integer
// multiplier of the element's block). One lookup shared by every backend's dequantize/quantize.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/tensor_view.h"

namespace qnn::sdk {

// Whether a per-channel or blockwise encoding fits a tensor of `dims` (channel counts, axis, blocks):
// what readers of stored encodings (context binaries, binary sections) check before QuantAt may
// index with them. Null when it fits, else the reason.
inline const char* quantShapeMismatch(const QuantInfo& q, const std::vector<uint32_t>& dims) {
  if (!q.perChannel()) return nullptr;
  if (q.axis < 0 || static_cast<size_t>(q.axis) >= dims.size()) return "per-channel axis outside the tensor's rank";
  const uint32_t channels = dims[q.axis];
  if (q.scales.size() != channels || q.offsets.size() != channels) return "per-channel scale count is not the channel count";
  if (q.kind != QuantInfo::Kind::kBlockwiseExpansion) return nullptr;
  const int32_t blockAxis = blockwiseBlockAxis(dims.size(), q.axis);
  if (blockAxis < 0) return "blockwise encoding without a block axis";
  if (q.numBlocks == 0 || dims[blockAxis] % q.numBlocks != 0) return "block count does not divide the block axis";
  if (q.blockScales.size() != static_cast<size_t>(channels) * q.numBlocks) return "block-scale count is not channels x blocks";
  return nullptr;
}

class QuantAt {
 public:
  // `q` and `dims` must outlive this object; the encoding must have been validated against the
  // dims (readQuantization does so for every tensor a client creates).
  QuantAt(const QuantInfo& q, const std::vector<uint32_t>& dims) : q_(q) {
    if (!q.perChannel() || q.axis < 0 || static_cast<size_t>(q.axis) >= dims.size()) return;
    channels_ = dims[q.axis];
    for (size_t d = q.axis + 1; d < dims.size(); ++d) channelInner_ *= dims[d];
    if (q.kind != QuantInfo::Kind::kBlockwiseExpansion) return;
    const int32_t blockAxis = blockwiseBlockAxis(dims.size(), q.axis);
    if (blockAxis < 0 || q.numBlocks == 0) return;
    blockAxisLen_ = dims[blockAxis];
    blockLen_ = blockAxisLen_ / q.numBlocks;
    for (size_t d = blockAxis + 1; d < dims.size(); ++d) blockInner_ *= dims[d];
  }

  bool uniform() const { return !q_.perChannel(); }

  // Element i's channel (per-channel and blockwise encodings).
  size_t channel(size_t i) const { return (i / channelInner_) % channels_; }
  // Element i's block multiplier (blockwise encodings; 1 otherwise).
  uint16_t multiplier(size_t i) const {
    if (q_.kind != QuantInfo::Kind::kBlockwiseExpansion || !blockLen_) return 1;
    return q_.blockScales[channel(i) * q_.numBlocks + ((i / blockInner_) % blockAxisLen_) / blockLen_];
  }

  void at(size_t i, float* scale, int32_t* offset) const {
    if (!q_.perChannel()) {
      *scale = q_.scale;
      *offset = q_.offset;
      return;
    }
    const size_t c = channel(i);
    *offset = q_.offsets[c];
    *scale = q_.kind == QuantInfo::Kind::kBlockwiseExpansion ? q_.scales[c] * static_cast<float>(multiplier(i))
                                                             : q_.scales[c];
  }

 private:
  const QuantInfo& q_;
  size_t channels_ = 1, channelInner_ = 1;
  size_t blockAxisLen_ = 1, blockLen_ = 0, blockInner_ = 1;
};

}  // namespace qnn::sdk
