// TensorView: what a kernel sees of a tensor. It never owns the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dtype.h"

namespace qnn::sdk {

// Quantization of a fixed-point tensor: real = scale * (q + offset), the QNN
// convention (offset is the negated zero point).
//
// kBlockwiseExpansion is QNN's BLOCKWISE_EXPANSION ("low-power blockwise", LPBQ): a per-channel
// encoding along `axis` whose channels are each cut into `numBlocks` equal blocks along the block
// axis (blockwiseBlockAxis), every block with an integer multiplier of its channel's scale:
//   real = scales[c] * blockScales[c * numBlocks + b] * (q + offsets[c]).
// Element index -> (scale, offset) for every kind: core/quant_at.h.
struct QuantInfo {
  enum class Kind { kNone, kScaleOffset, kAxisScaleOffset, kBlockwiseExpansion };
  Kind kind = Kind::kNone;
  float scale = 0.f;  // kScaleOffset
  int32_t offset = 0;
  int32_t axis = 0;             // kAxisScaleOffset, kBlockwiseExpansion: the channel axis
  std::vector<float> scales;    // kAxisScaleOffset, kBlockwiseExpansion: one per channel
  std::vector<int32_t> offsets; // kAxisScaleOffset, kBlockwiseExpansion: one per channel
  uint32_t bitwidth = 0;        // 0 = the width of the dtype
  // kBlockwiseExpansion only:
  uint32_t numBlocks = 0;              // blocks per channel
  uint32_t blockScaleBitwidth = 0;     // as the client gave it (QNN's blockScaleBitwidth)
  bool blockScales16 = false;          // the client stored them as 16-bit (else 8-bit)
  std::vector<uint16_t> blockScales;   // channels x numBlocks, channel-major

  bool operator==(const QuantInfo& o) const {
    return kind == o.kind && scale == o.scale && offset == o.offset && axis == o.axis &&
           scales == o.scales && offsets == o.offsets && bitwidth == o.bitwidth && numBlocks == o.numBlocks &&
           blockScaleBitwidth == o.blockScaleBitwidth && blockScales16 == o.blockScales16 &&
           blockScales == o.blockScales;
  }
  bool perChannel() const { return kind == Kind::kAxisScaleOffset || kind == Kind::kBlockwiseExpansion; }
};

// The axis a blockwise-expansion encoding cuts into blocks: the one its clients use (ExecuTorch,
// ONNX Runtime, MNN, mllm) - the input-channel axis of a weight whose output channels are `axis`:
// rank-2 for an axis that is last (HWIO convolution filters, [in, out] MatMul operands), 1 for
// axis 0 ([out, in] FullyConnected weights). -1: no block axis defined (rank < 2, or a middle axis).
inline int32_t blockwiseBlockAxis(size_t rank, int32_t axis) {
  if (rank < 2 || axis < 0) return -1;
  if (static_cast<size_t>(axis) == rank - 1) return static_cast<int32_t>(rank - 2);
  if (axis == 0) return 1;
  return -1;
}

struct TensorView {
  void* data = nullptr;  // borrowed; valid for the duration of the call
  DType dtype = DType::kUndefined;
  std::vector<uint32_t> dims;
  QuantInfo quant;

  size_t rank() const { return dims.size(); }
  size_t numElements() const {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return n;
  }
  size_t byteSize() const { return numElements() * dtypeSize(dtype); }
  template <typename T>
  T* as() const { return static_cast<T*>(data); }
};

}  // namespace qnn::sdk
