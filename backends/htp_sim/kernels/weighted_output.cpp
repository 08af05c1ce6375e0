#include "htp_sim/kernels/weighted_output.h"

#include "htp_sim/kernels/quant_gemm.h"

// GCC 12 reports its own AVX-512 intrinsic headers (their _mm512_undefined_*
// placeholders) as maybe-uninitialized under -O2: false positives.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <cmath>
#include <functional>
#include <type_traits>

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
  shiftsInRange_ = std::all_of(half_.begin(), half_.end(), [](int64_t h) { return h != 0; });
  wideShifts_ = std::all_of(mult_.begin(), mult_.end(), [](const fx::FixedPointMultiplier& m) {
    return 31 - m.exponent >= 31 && 31 - m.exponent <= 62 && m.mantissa >= 0;
  });
  biasAcc_.assign(n, 0);
  correction_.assign(n, 0);
  addend_.assign(n, 0);
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
  refreshAddend();
}

void WeightedOutput::refreshAddend() {
  for (size_t c = 0; c < addend_.size(); ++c) addend_[c] = biasAcc_[c] + correction_[c];
}

void WeightedOutput::setZeroPointCorrection(int64_t z, const std::vector<int64_t>& columnSums, size_t channelBase) {
  for (size_t j = 0; j < columnSums.size(); ++j) correction_[channelBase + j] = -z * columnSums[j];
  refreshAddend();
}

// The fast loop (int32 accumulators) assumes every sum fits int32 and every shift is
// in 1..62 (so the product fits int64); a row where that fails, and every row of int64
// accumulators, goes element by element through fx::requantize's 128-bit rounding inline.
// Both give the same result where both apply.
template <typename TAcc>
void WeightedOutput::finishRowImpl(const TAcc* acc, size_t n, size_t channelBase, const int64_t* colCorrection,
                                   int64_t* out) const {
  const int64_t* add = addend_.data() + channelBase;
  const int64_t* mant = mantissa_.data() + channelBase;
  const int64_t* shift = shift_.data() + channelBase;
  const int64_t* half = half_.data() + channelBase;
  const int64_t lo = range_.lo, hi = range_.hi, outOffset = outOffset_;
  // int64 sums (16-bit activations) mostly leave int32.
  if constexpr (!std::is_same_v<TAcc, int64_t>) {
    bool exact = true;
    for (size_t j = 0; j < n; ++j) {
      const int64_t a = int64_t(acc[j]) + add[j] + (colCorrection ? colCorrection[j] : 0);
      exact &= a >= INT32_MIN && a <= INT32_MAX && half[j] != 0;
      const int64_t p = (a < INT32_MIN ? INT32_MIN : a > INT32_MAX ? INT32_MAX : a) * mant[j];  // no overflow
      int64_t r = ((p + half[j] - (p < 0)) >> shift[j]) - outOffset;
      r = r < lo ? lo : r;
      out[j] = r > hi ? hi : r;
    }
    if (exact) return;
  }
  // The rule's 128-bit rounding of applyMultiplier inline (16-bit activations' sums leave int32);
  // a shift outside 1..62 or a product beyond int64 after the shift takes finish itself.
  __extension__ typedef __int128 Wide;
  for (size_t j = 0; j < n; ++j) {
    const int64_t a = int64_t(acc[j]) + add[j] + (colCorrection ? colCorrection[j] : 0);
    if (half[j] == 0) {
      out[j] = finish(a, channelBase + j);
      continue;
    }
    const Wide p = Wide(a) * mant[j];
    const Wide r = (p + half[j] - (p < 0)) >> shift[j];
    if (r > INT64_MAX || r < INT64_MIN) {
      out[j] = finish(a, channelBase + j);
      continue;
    }
    const int64_t v = int64_t(r) - outOffset;
    out[j] = v < lo ? lo : v > hi ? hi : v;
  }
}

__attribute__((target_clones("avx512f", "default"))) void WeightedOutput::finishRow(
    const int32_t* acc, size_t n, size_t channelBase, const int64_t* colCorrection, int64_t* out) const {
  finishRowImpl(acc, n, channelBase, colCorrection, out);
}
namespace {
// finishRowImpl's 128-bit rounding for int64 sums on AVX-512, 8 channels at a time, every shift s in
// 31..62 and mantissa in [0, 2^31): a = ah 2^31 + al (0 <= al < 2^31), p = a m = H 2^31 + L with
// H = ah m, L = al m < 2^62; (p + c) >> s = (H + ((L + c) >> 31)) >> (s - 31) for the rounding term
// c = half - (a < 0) (floor of a floor), all in int64 for |a| < 2^62. Lanes beyond that take `exact`.
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) void finishWideRowAvx512(
    const int64_t* acc, size_t n, const int64_t* add, const int64_t* colCorrection, const int64_t* mant,
    const int64_t* shift, const int64_t* half, int64_t outOffset, int64_t lo, int64_t hi, int64_t* out,
    const std::function<int64_t(int64_t, size_t)>& exact) {
  const __m512i vOff = _mm512_set1_epi64(outOffset), vLo = _mm512_set1_epi64(lo), vHi = _mm512_set1_epi64(hi);
  const __m512i low31 = _mm512_set1_epi64((int64_t(1) << 31) - 1), limit = _mm512_set1_epi64(int64_t(1) << 62);
  const __m512i thirtyOne = _mm512_set1_epi64(31);
  for (size_t j = 0; j < n; j += 8) {
    const __mmask8 lanes = n - j >= 8 ? __mmask8(0xff) : __mmask8((1u << (n - j)) - 1);
    __m512i a = _mm512_add_epi64(_mm512_maskz_loadu_epi64(lanes, acc + j), _mm512_maskz_loadu_epi64(lanes, add + j));
    if (colCorrection) a = _mm512_add_epi64(a, _mm512_maskz_loadu_epi64(lanes, colCorrection + j));
    const __m512i m = _mm512_maskz_loadu_epi64(lanes, mant + j);
    const __mmask8 big = _mm512_cmpge_epu64_mask(_mm512_abs_epi64(a), limit) & lanes;
    const __m512i ah = _mm512_srai_epi64(a, 31), al = _mm512_and_si512(a, low31);
    const __m512i hiPart = _mm512_mul_epi32(ah, m);  // |ah| < 2^31: signed 32 x 32
    const __m512i loPart = _mm512_mul_epu32(al, m);  // < 2^62
    const __m512i c = _mm512_add_epi64(_mm512_maskz_loadu_epi64(lanes, half + j), _mm512_srai_epi64(a, 63));
    const __m512i sum = _mm512_add_epi64(hiPart, _mm512_srai_epi64(_mm512_add_epi64(loPart, c), 31));
    const __m512i s = _mm512_sub_epi64(_mm512_maskz_loadu_epi64(lanes, shift + j), thirtyOne);
    __m512i r = _mm512_sub_epi64(_mm512_srav_epi64(sum, s), vOff);
    r = _mm512_min_epi64(_mm512_max_epi64(r, vLo), vHi);
    _mm512_mask_storeu_epi64(out + j, lanes, r);
    for (__mmask8 b = big; b; b &= __mmask8(b - 1)) {
      const size_t lane = size_t(__builtin_ctz(b));
      out[j + lane] = exact(acc[j + lane] + add[j + lane] + (colCorrection ? colCorrection[j + lane] : 0), j + lane);
    }
  }
}
}  // namespace

__attribute__((target_clones("avx512f", "default"))) void WeightedOutput::finishRow(
    const int64_t* acc, size_t n, size_t channelBase, const int64_t* colCorrection, int64_t* out) const {
  if (wideShifts_ && vnniAvailable())
    return finishWideRowAvx512(acc, n, addend_.data() + channelBase, colCorrection, mantissa_.data() + channelBase,
                               shift_.data() + channelBase, half_.data() + channelBase, outOffset_, range_.lo,
                               range_.hi, out, [&](int64_t a, size_t j) { return finish(a, channelBase + j); });
  finishRowImpl(acc, n, channelBase, colCorrection, out);
}

namespace {
// Eight channels of the epilogue in int64 lanes: the same arithmetic as
// finishRowImpl. Lanes whose sum leaves int32 are flagged in *outOfRange.
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) inline __m512i requantizeLanes(
    __m256i acc, const int64_t* add, const int64_t* mant, const int64_t* shift, const int64_t* half, __mmask8 lanes,
    __m512i outOffset, __m512i lo, __m512i hi, __mmask8* outOfRange) {
  const __m512i a = _mm512_add_epi64(_mm512_cvtepi32_epi64(acc), _mm512_maskz_loadu_epi64(lanes, add));
  *outOfRange = (_mm512_cmpgt_epi64_mask(a, _mm512_set1_epi64(INT32_MAX)) |
                 _mm512_cmplt_epi64_mask(a, _mm512_set1_epi64(INT32_MIN))) & lanes;
  const __m512i p = _mm512_mul_epi32(a, _mm512_maskz_loadu_epi64(lanes, mant));  // signed 32 x 32 -> 64
  const __m512i rounded = _mm512_add_epi64(p, _mm512_add_epi64(_mm512_maskz_loadu_epi64(lanes, half),
                                                                _mm512_srai_epi64(p, 63)));
  __m512i r = _mm512_sub_epi64(_mm512_srav_epi64(rounded, _mm512_maskz_loadu_epi64(lanes, shift)), outOffset);
  return _mm512_min_epi64(_mm512_max_epi64(r, lo), hi);
}

template <typename T>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) inline void storeLanes(T* dst, __mmask8 lanes, __m512i v) {
  if constexpr (sizeof(T) == 1) _mm512_mask_cvtepi64_storeu_epi8(dst, lanes, v);
  else _mm512_mask_cvtepi64_storeu_epi16(dst, lanes, v);
}

template <typename T>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) void storeRowsAvx512(
    const int32_t* acc, size_t rows, size_t ldc, size_t n, const int64_t* add, const int64_t* mant,
    const int64_t* shift, const int64_t* half, int64_t outOffset, int64_t lo, int64_t hi, T* out,
    size_t outRowStride, const std::function<int64_t(int64_t, size_t)>& exact) {
  const __m512i vOff = _mm512_set1_epi64(outOffset), vLo = _mm512_set1_epi64(lo), vHi = _mm512_set1_epi64(hi);
  for (size_t r = 0; r < rows; ++r) {
    const int32_t* a = acc + r * ldc;
    T* dst = out + r * outRowStride;
    for (size_t j = 0; j < n; j += 8) {
      const __mmask8 lanes = n - j >= 8 ? __mmask8(0xff) : __mmask8((1u << (n - j)) - 1);
      __mmask8 bad;
      const __m512i v = requantizeLanes(_mm256_maskz_loadu_epi32(lanes, a + j), add + j, mant + j, shift + j,
                                        half + j, lanes, vOff, vLo, vHi, &bad);
      storeLanes(dst + j, lanes, v);
      for (; bad; bad &= __mmask8(bad - 1)) {  // rare: a sum beyond int32 takes the exact path
        const size_t lane = size_t(__builtin_ctz(bad));
        dst[j + lane] = T(exact(int64_t(a[j + lane]) + add[j + lane], j + lane));
      }
    }
  }
}
}  // namespace

template <typename T>
void WeightedOutput::storeRowsAs(const int32_t* acc, size_t rows, size_t ldc, size_t n, size_t channelBase, T* out,
                                 size_t outRowStride) const {
  if (shiftsInRange_ && vnniAvailable()) {
    storeRowsAvx512<T>(acc, rows, ldc, n, addend_.data() + channelBase, mantissa_.data() + channelBase,
                       shift_.data() + channelBase, half_.data() + channelBase, outOffset_, range_.lo, range_.hi,
                       out, outRowStride,
                       [&](int64_t a, size_t j) { return finish(a, channelBase + j); });
    return;
  }
  std::vector<int64_t> row(n);
  for (size_t r = 0; r < rows; ++r) {
    finishRow(acc + r * ldc, n, channelBase, nullptr, row.data());
    for (size_t j = 0; j < n; ++j) out[r * outRowStride + j] = T(row[j]);
  }
}

void WeightedOutput::storeRows(const int32_t* acc, size_t rows, size_t ldc, size_t n, size_t channelBase,
                               const TensorView& y, size_t outFirst, size_t outRowStride) const {
  switch (y.dtype) {
    case DType::kUFixed8: storeRowsAs(acc, rows, ldc, n, channelBase, y.as<uint8_t>() + outFirst, outRowStride); return;
    case DType::kSFixed8: storeRowsAs(acc, rows, ldc, n, channelBase, y.as<int8_t>() + outFirst, outRowStride); return;
    case DType::kUFixed16:
      storeRowsAs(acc, rows, ldc, n, channelBase, y.as<uint16_t>() + outFirst, outRowStride);
      return;
    case DType::kSFixed16:
      storeRowsAs(acc, rows, ldc, n, channelBase, y.as<int16_t>() + outFirst, outRowStride);
      return;
    default: {
      std::vector<int64_t> row(n);
      for (size_t r = 0; r < rows; ++r) {
        finishRow(acc + r * ldc, n, channelBase, nullptr, row.data());
        storeInts(y, outFirst + r * outRowStride, row.data(), n);
      }
    }
  }
}

std::vector<int32_t> offsetWeightsChannelLast(const TensorView& w, const std::vector<Encoding>& enc) {
  std::vector<int32_t> v(w.numElements());
  const size_t channels = enc.size();
  for (size_t i = 0; i < v.size(); ++i) v[i] = int32_t(loadInt(w, i) + enc[i % channels].offset);
  return v;
}

}  // namespace qnn::htp
