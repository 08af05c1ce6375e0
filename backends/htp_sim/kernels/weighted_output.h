// The quantized output stage of the weighted ops (Conv2d, DepthWiseConv2d,
// TransposeConv2d, FullyConnected, MatMul): per output channel n
//   acc  = sum (x + x_offset) * (w + w_offset[n])  +  bias_acc[n]
//   out  = saturate(applyMultiplier(acc, s_x * s_w[n] / s_out) - out_offset)
// bias_acc[n] = round_half_away(s_b[n] * (b + b_offset[n]) / (s_x * s_w[n])) in
// double: an INT32 bias in the usual encoding (scale s_x * s_w, offset 0) is
// added as stored.
#pragma once

#include <cmath>
#include <vector>

#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {

// Fixed-point input: stored values shifted to unsigned (shift 0 for UFIXED,
// 128 / 32768 for SFIXED 8/16) and the zero point in that unsigned domain,
// z = shift - offset, which is also the value that pads with real 0.
struct UnsignedInput {
  int32_t shift = 0;
  int64_t zeroPoint = 0;
  bool narrow = false;  // 8-bit
};
UnsignedInput unsignedInput(const TensorView& x, const Encoding& e);

class WeightedOutput {
 public:
  // x: input encoding; w: per-output-channel weight encodings; bias may be null
  // (no bias input). The bias values are read now when bias->data is set,
  // otherwise at every execute (biasPending()).
  Status prepare(const char* op, const Encoding& x, const std::vector<Encoding>& w, const TensorView* bias,
                 const TensorView& out);
  // A fused activation (Epilogue::clamp, ClampFusingKernel): applied by the next prepare.
  void setClamp(double realMin, double realMax) {
    clampMin_ = realMin;
    clampMax_ = realMax;
  }
  bool biasPending() const { return biasPending_; }
  // Recomputes bias_acc from a bias tensor with data.
  void readBias(const TensorView& bias);
  // Folds -z * columnSum[n] into the per-channel addend (columnSum = sum_k w'[k][n]).
  void setZeroPointCorrection(int64_t z, const std::vector<int64_t>& columnSums, size_t channelBase = 0);

 private:
  template <typename TAcc>
  void finishRowImpl(const TAcc* acc, size_t n, size_t channelBase, const int64_t* colCorrection, int64_t* out) const;

 public:

  size_t channels() const { return mult_.size(); }
  // out[j] = finish(acc[j] + addend(c) + (colCorrection ? colCorrection[j] : 0), c) with c = channelBase + j,
  // for a row of n channels: the hot loop of every weighted op, vectorizable.
  void finishRow(const int32_t* acc, size_t n, size_t channelBase, const int64_t* colCorrection, int64_t* out) const;
  void finishRow(const int64_t* acc, size_t n, size_t channelBase, const int64_t* colCorrection, int64_t* out) const;
  // Requantizes rows x n int32 accumulators (row stride ldc) of channels
  // channelBase.. and stores them into y (8- or 16-bit fixed point; other dtypes
  // go through storeInts) at element outFirst + r * outRowStride. The conv
  // epilogue: AVX-512 when the CPU has it, same results as finishRow.
  void storeRows(const int32_t* acc, size_t rows, size_t ldc, size_t n, size_t channelBase, const TensorView& y,
                 size_t outFirst, size_t outRowStride) const;
  int64_t addend(size_t n) const { return addend_[n]; }
  int64_t finish(int64_t acc, size_t n) const { return fx::requantize(acc, mult_[n], outOffset_, range_); }

 private:
  Encoding x_;
  std::vector<Encoding> w_;
  std::vector<fx::FixedPointMultiplier> mult_;
  // mult_ unpacked for the vector loop; shift outside 1..62 forces the exact path.
  std::vector<int64_t> mantissa_, shift_, half_;
  template <typename T>
  void storeRowsAs(const int32_t* acc, size_t rows, size_t ldc, size_t n, size_t channelBase, T* out,
                   size_t outRowStride) const;
  void refreshAddend();

  std::vector<int64_t> biasAcc_, correction_, addend_;  // addend_ = biasAcc_ + correction_
  bool shiftsInRange_ = true;  // every channel's shift in 1..62: the vector epilogue applies
  bool wideShifts_ = false;    // every channel's shift in 31..62: int64 sums on AVX-512 (finishRow)
  std::vector<Encoding> biasEnc_;
  bool biasPending_ = false;
  int32_t outOffset_ = 0;
  fx::QuantRange range_;
  double clampMin_ = -INFINITY, clampMax_ = INFINITY;
};

// Weight values plus their per-channel offsets, w' = w + offset[channel of the element],
// for a weight tensor whose channel index is `element % channels` (channel-last
// layouts: HWIO filters, [K, N] matrices).
std::vector<int32_t> offsetWeightsChannelLast(const TensorView& w, const std::vector<Encoding>& enc);

// Output dtypes of the weighted ops.
constexpr std::initializer_list<DType> kWeightTypes = {DType::kUFixed8, DType::kSFixed8, DType::kSFixed16};
constexpr std::initializer_list<DType> kBiasTypes = {DType::kSFixed32, DType::kUFixed8};

}  // namespace qnn::htp
