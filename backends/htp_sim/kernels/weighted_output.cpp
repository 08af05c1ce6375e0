#include "weighted_output.h"

#include <algorithm>
#include <cmath>

namespace qnn::htp {

UnsignedInput unsignedInput(const TensorView& x, const Encoding& e) {
  UnsignedInput u;
  u.narrow = sdk::dtypeSize(x.dtype) == 1;
  if (x.dtype == DType::kSFixed8) u.shift = 128;
  if (x.dtype == DType::kSFixed16) u.shift = 32768;
  u.zeroPoint = int64_t(u.shift) - e.offset;
  return u;
}

Status WeightedOutput::prepare(const char* op, const Encoding& x, const std::vector<Encoding>& w,
                               const TensorView* bias, const TensorView& out) {
  x_ = x;
  w_ = w;
  const size_t n = w.size();
  Encoding eout;
  QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", out, &eout));
  outOffset_ = eout.offset;
  range_ = rangeOf(out);
  // A fused activation narrows the range: saturating to it equals clamping afterwards.
  const fx::QuantRange full = range_;
  if (clampMin_ > -INFINITY) range_.lo = std::max(range_.lo, fx::quantizeValue(clampMin_, eout.scale, eout.offset, full));
  if (clampMax_ < INFINITY) range_.hi = std::min(range_.hi, fx::quantizeValue(clampMax_, eout.scale, eout.offset, full));
  if (range_.lo > range_.hi) range_.hi = range_.lo;
  mult_.resize(n);
  for (size_t c = 0; c < n; ++c)
    QNN_SDK_RETURN_IF_ERROR(
        multiplierFor(op, double(x.scale) * double(w[c].scale) / double(eout.scale), &mult_[c]));
  mantissa_.resize(n), shift_.resize(n), half_.resize(n);
  for (size_t c = 0; c < n; ++c) {
    mantissa_[c] = mult_[c].mantissa;
    const int64_t shift = 31 - mult_[c].exponent;
    shift_[c] = std::min<int64_t>(std::max<int64_t>(shift, 1), 62);  // in range for the shift; exact path otherwise
    half_[c] = shift >= 1 && shift <= 62 ? int64_t(1) << (shift - 1) : 0;
  }
  biasAcc_.assign(n, 0);
  correction_.assign(n, 0);
  biasPending_ = false;
  if (bias) {
    if (bias->numElements() != n)
      return sdk::invalidTensor(std::string(op) + ": in[2] (bias) has " + std::to_string(bias->numElements()) +
                                " elements, expected " + std::to_string(n));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[2] (bias)", *bias, 0, uint32_t(n), &biasEnc_));
    if (bias->data) readBias(*bias);
    else biasPending_ = true;
  }
  return Status::ok();
}

void WeightedOutput::readBias(const TensorView& bias) {
  for (size_t c = 0; c < biasAcc_.size(); ++c) {
    const double real = double(biasEnc_[c].scale) * double(loadInt(bias, c) + biasEnc_[c].offset);
    biasAcc_[c] = std::llround(real / (double(x_.scale) * double(w_[c].scale)));
  }
}

void WeightedOutput::setZeroPointCorrection(int64_t z, const std::vector<int64_t>& columnSums, size_t channelBase) {
  for (size_t j = 0; j < columnSums.size(); ++j) correction_[channelBase + j] = -z * columnSums[j];
}

// The fast loop assumes every sum fits int32 and every shift is in 1..62 (so
// the product fits int64); a row where that fails is redone element by element
// with the exact fx::requantize. Both give the same result where both apply.
template <typename TAcc>
void WeightedOutput::finishRowImpl(const TAcc* acc, size_t n, size_t channelBase, const int64_t* colCorrection,
                                   int64_t* out) const {
  const int64_t* bias = biasAcc_.data() + channelBase;
  const int64_t* corr = correction_.data() + channelBase;
  const int64_t* mant = mantissa_.data() + channelBase;
  const int64_t* shift = shift_.data() + channelBase;
  const int64_t* half = half_.data() + channelBase;
  const int64_t lo = range_.lo, hi = range_.hi, outOffset = outOffset_;
  bool exact = true;
  for (size_t j = 0; j < n; ++j) {
    const int64_t a = int64_t(acc[j]) + bias[j] + corr[j] + (colCorrection ? colCorrection[j] : 0);
    exact &= a >= INT32_MIN && a <= INT32_MAX && half[j] != 0;
    const int64_t p = (a < INT32_MIN ? INT32_MIN : a > INT32_MAX ? INT32_MAX : a) * mant[j];  // no overflow
    int64_t r = ((p + half[j] - (p < 0)) >> shift[j]) - outOffset;
    r = r < lo ? lo : r;
    out[j] = r > hi ? hi : r;
  }
  if (exact) return;
  for (size_t j = 0; j < n; ++j) {
    const int64_t a = int64_t(acc[j]) + bias[j] + corr[j] + (colCorrection ? colCorrection[j] : 0);
    out[j] = finish(a, channelBase + j);
  }
}

__attribute__((target_clones("avx512f", "default"))) void WeightedOutput::finishRow(
    const int32_t* acc, size_t n, size_t channelBase, const int64_t* colCorrection, int64_t* out) const {
  finishRowImpl(acc, n, channelBase, colCorrection, out);
}
__attribute__((target_clones("avx512f", "default"))) void WeightedOutput::finishRow(
    const int64_t* acc, size_t n, size_t channelBase, const int64_t* colCorrection, int64_t* out) const {
  finishRowImpl(acc, n, channelBase, colCorrection, out);
}

std::vector<int32_t> offsetWeightsChannelLast(const TensorView& w, const std::vector<Encoding>& enc) {
  std::vector<int32_t> v(w.numElements());
  const size_t channels = enc.size();
  for (size_t i = 0; i < v.size(); ++i) v[i] = int32_t(loadInt(w, i) + enc[i % channels].offset);
  return v;
}

}  // namespace qnn::htp
