// MaskedSoftmax (QnnOpDef.h 2.32), as the QAIRT converter's ONNX block-op
// function defines it, softmax over the last axis of data [..., W, C]:
//  - UNCOMPRESSED (mode 0): softmax(data + mask), the float mask (0 to keep,
//    a large negative value to drop) broadcast onto data numpy-style.
//  - COMPRESSED (mode 1): mask [1, S] holds S sequence lengths packed along
//    the last axis (W == C, sum <= C). Element (w, c) is kept when w and c
//    fall in the same sequence; the kept ones of a row go through softmax with
//    the others at -10000, and the dropped ones are output as 0 (rows past the
//    last sequence are all 0).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>


#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

constexpr uint32_t kUncompressed = 0, kCompressed = 1;

// Softmax of n values in place.
void softmaxRow(float* y, size_t n) {
  float m = -std::numeric_limits<float>::infinity();
  for (size_t i = 0; i < n; ++i) m = std::max(m, y[i]);
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += (y[i] = std::exp(y[i] - m));
  const float inv = float(1.0 / sum);
  for (size_t i = 0; i < n; ++i) y[i] *= inv;
}

class MaskedSoftmaxKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    mode_ = params.u32("mode", kUncompressed);
    if (mode_ != kUncompressed && mode_ != kCompressed)
      return sdk::invalidParam("MaskedSoftmax: mode " + std::to_string(mode_) +
                               " is not UNCOMPRESSED (0) or COMPRESSED (1)");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "MaskedSoftmax";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (data)", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], {DType::kFloat32}));
    const auto& d = in[0].dims;
    if (d.empty() || d.back() == 0) return sdk::invalidTensor("MaskedSoftmax: in[0] must have rank >= 1 and a last dim > 0");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], d));
    channels_ = d.back();
    rows_ = in[0].numElements() / channels_;
    if (mode_ == kUncompressed) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (mask)", in[1], {DType::kFloat32}));
      std::vector<uint32_t> outDims;
      QNN_SDK_RETURN_IF_ERROR(sdk::broadcastShapes(op, d, in[1].dims, &outDims));
      if (outDims != d)
        return sdk::invalidTensor("MaskedSoftmax: mask " + dimsToString(in[1].dims) + " does not broadcast onto data " +
                                  dimsToString(d));
      planMaskRows(d, in[1].dims);
      return Status::ok();
    }
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (sequence lengths)", in[1], {DType::kInt32, DType::kUInt32}));
    if (d.size() < 2 || d[d.size() - 2] != channels_)
      return sdk::invalidTensor("MaskedSoftmax: COMPRESSED mode needs data [..., W, C] with W == C, got " +
                                dimsToString(d));
    if (in[1].numElements() == 0) return sdk::invalidTensor("MaskedSoftmax: in[1] holds no sequence length");
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const float* x = in[0].as<const float>();
    float* y = out[0].as<float>();
    const size_t C = channels_;
    if (mode_ == kUncompressed) {
      const float* mask = in[1].as<const float>();
      parallelFor(rows_, rowGrain(C * 8), [&](size_t r0, size_t r1) {
        for (size_t r = r0; r < r1; ++r) {
          const float* m = mask + maskRowOffset(r);
          for (size_t c = 0; c < C; ++c) y[r * C + c] = x[r * C + c] + m[maskStep_ * c];
          softmaxRow(y + r * C, C);
        }
      });
      return Status::ok();
    }
    // Sequence of each position along C (-1 past the last one).
    std::vector<int64_t> seqOf(C, -1);
    int64_t start = 0;
    const size_t numSeq = in[1].numElements();
    for (size_t s = 0; s < numSeq; ++s) {
      const int64_t len = in[1].dtype == DType::kInt32 ? int64_t(in[1].as<const int32_t>()[s])
                                                       : int64_t(in[1].as<const uint32_t>()[s]);
      if (len < 0 || start + len > int64_t(C))
        return sdk::invalidTensor("MaskedSoftmax: the sequence lengths must be >= 0 and sum to at most " +
                                  std::to_string(C) + " (the last dim)");
      for (int64_t p = start; p < start + len; ++p) seqOf[size_t(p)] = int64_t(s);
      start += len;
    }
    parallelFor(rows_, rowGrain(C * 8), [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const int64_t rowSeq = seqOf[r % C];  // w = the row's position along the second-to-last dim
        const float* xr = x + r * C;
        float* yr = y + r * C;
        for (size_t c = 0; c < C; ++c) yr[c] = rowSeq >= 0 && seqOf[c] == rowSeq ? xr[c] : -10000.f;
        softmaxRow(yr, C);
        for (size_t c = 0; c < C; ++c)
          if (rowSeq < 0 || seqOf[c] != rowSeq) yr[c] = 0.f;
      }
    });
    return Status::ok();
  }

 private:
  // The mask broadcast onto data row by row: the mask's element strides
  // aligned to data's dims (0 where the mask has size 1 or no dim), so row r
  // (a multi-index over data's leading dims) starts at maskRowOffset(r) and
  // steps by maskStep_ along the last dim.
  void planMaskRows(const std::vector<uint32_t>& data, const std::vector<uint32_t>& mask) {
    const size_t rank = data.size(), lead = rank - mask.size();
    maskStrides_.assign(rank, 0);
    size_t stride = 1;
    for (size_t k = mask.size(); k-- > 0;) {
      maskStrides_[lead + k] = mask[k] == 1 ? 0 : stride;
      stride *= mask[k];
    }
    maskStep_ = maskStrides_.back();
    rowDims_.assign(data.begin(), data.end() - 1);
  }
  size_t maskRowOffset(size_t row) const {
    size_t off = 0;
    for (size_t k = rowDims_.size(); k-- > 0;) {
      off += (row % rowDims_[k]) * maskStrides_[k];
      row /= rowDims_[k];
    }
    return off;
  }
  uint32_t mode_ = kUncompressed;
  size_t channels_ = 0, rows_ = 0, maskStep_ = 0;
  std::vector<size_t> maskStrides_;
  std::vector<uint32_t> rowDims_;
};

}  // namespace

std::unique_ptr<Kernel> makeMaskedSoftmax(const std::string& opType) {
  return opType == "MaskedSoftmax" ? std::make_unique<MaskedSoftmaxKernel>() : nullptr;
}

}  // namespace qnn::ops
