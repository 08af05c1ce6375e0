// Quantized Softmax on the last axis, in integers after a prepare-time table:
//   d_i = max_j q_j - q_i                      (stored units, >= 0)
//   E[d] = round_half_away(exp(-beta * s_in * d) * 2^30)   (table, double)
//   S = sum_i E[d_i]                            (int64)
//   p_i = round_half_away(E[d_i] * 2^30 / S)    (probability in Q30)
//   out = requantize(p_i, 2^-30 / s_out)
// LogSoftmax shares the table and the sum: log p_i = -beta s_in d_i - ln(S / 2^30),
// evaluated in double from those integers and quantized (quantize helper).
// Softmax between unsigned 8/16-bit tensors takes a typed loop: E = 0 gives p = 0 (its output is
// computed once), and the rounded quotient, at most 2^30, comes from a double estimate corrected
// to the exact floor((2 E 2^30 + S) / (2 S)) in uint64 (2 E 2^30 + S < 2^63 for rows shorter than
// 2^31): the same p as the 128-bit division.
// On AVX-512 the typed rows run 8 values at a time: the same estimate and corrections per lane
// (E = 0 gives p = 0 there too), 8 values of E = 0 (mask, far below the maximum) skip the
// table and the quotient; requantize in int64 lanes (p <= 2^30, shift 1..62 checked at prepare).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

// GCC 12 reports its own AVX-512 intrinsic headers as maybe-uninitialized under -O2: false positives.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"
#include "htp_sim/kernels/quant_gemm.h"

namespace qnn::htp {

std::atomic<bool> gSoftmaxVectorRows{true};

namespace {

constexpr int kProbabilityBits = 30;

// One typed row's constants (softmaxRows).
struct SoftmaxRow {
  const int64_t* table;  // E[d]
  size_t nonzero;        // E[d] > 0 exactly for d < nonzero (E does not increase with d)
  fx::FixedPointMultiplier mult;
  int32_t outOffset;
  fx::QuantRange range;
};

// The scalar quotient and requantization of one value (e = E[d]; e = 0 gives p = 0).
inline int64_t softmaxValue(uint64_t e, uint64_t sum, double inverse, const SoftmaxRow& c) {
  const uint64_t den = 2 * sum, num = (e << (kProbabilityBits + 1)) + sum;
  uint64_t p = uint64_t(double(num) * inverse);
  while (p * den > num) --p;
  while ((p + 1) * den <= num) ++p;
  return fx::requantize(int64_t(p), c.mult, c.outOffset, c.range);
}

template <typename T>
__attribute__((target("avx512f,avx512vl"))) inline __m256i load8x32(const T* p) {
  if constexpr (sizeof(T) == 1) return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
  else return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// The largest of n unsigned 8/16-bit values.
template <typename T>
__attribute__((target("avx512f,avx512bw"))) T rowMaxAvx512(const T* x, size_t n) {
  constexpr size_t kLanes = 64 / sizeof(T);
  __m512i m = _mm512_setzero_si512();
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m512i v = _mm512_loadu_si512(x + i);
    m = sizeof(T) == 1 ? _mm512_max_epu8(m, v) : _mm512_max_epu16(m, v);
  }
  alignas(64) T lanes[kLanes];
  _mm512_store_si512(lanes, m);
  T r = 0;
  for (T v : lanes) r = std::max(r, v);
  for (; i < n; ++i) r = std::max(r, x[i]);
  return r;
}

// The typed row on AVX-512: returns how many values it wrote (a multiple of 8; the caller finishes
// the rest with softmaxValue from the returned sum). maxQ is the row's maximum.
template <typename TIn, typename TOut>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) size_t softmaxRowAvx512(const TIn* x, TOut* y,
                                                                                      size_t n, uint32_t maxQ,
                                                                                      const SoftmaxRow& c,
                                                                                      uint64_t* sumOut) {
  const size_t vec = n / 8 * 8;
  const __m256i maxV = _mm256_set1_epi32(int(maxQ)), nonzero = _mm256_set1_epi32(int(c.nonzero));
  const long long* table = reinterpret_cast<const long long*>(c.table);
  __m512i acc = _mm512_setzero_si512();
  for (size_t i = 0; i < vec; i += 8) {
    const __m256i d = _mm256_sub_epi32(maxV, load8x32(x + i));
    const __mmask8 live = _mm256_cmplt_epu32_mask(d, nonzero);
    if (live) acc = _mm512_add_epi64(acc, _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), live, d, table, 8));
  }
  alignas(64) uint64_t lanes[8];
  _mm512_store_si512(lanes, acc);
  uint64_t sum = 0;
  for (uint64_t lane : lanes) sum += lane;
  for (size_t i = vec; i < n; ++i) sum += uint64_t(c.table[maxQ - x[i]]);
  *sumOut = sum;
  const uint64_t den = 2 * sum;
  const __m512i sumV = _mm512_set1_epi64(int64_t(sum)), denV = _mm512_set1_epi64(int64_t(den));
  const __m512d inverse = _mm512_set1_pd(1.0 / double(den));
  const __m512i one = _mm512_set1_epi64(1), mant = _mm512_set1_epi64(c.mult.mantissa);
  const int shift = 31 - c.mult.exponent;
  const __m512i half = _mm512_set1_epi64(int64_t(1) << (shift - 1));
  const __m128i shiftV = _mm_cvtsi32_si128(shift);
  const __m512i outOffset = _mm512_set1_epi64(c.outOffset);
  const __m512i lo = _mm512_set1_epi64(c.range.lo), hi = _mm512_set1_epi64(c.range.hi);
  const __m512i zeroOut = _mm512_set1_epi64(fx::requantize(0, c.mult, c.outOffset, c.range));
  for (size_t i = 0; i < vec; i += 8) {
    const __m256i d = _mm256_sub_epi32(maxV, load8x32(x + i));
    const __mmask8 live = _mm256_cmplt_epu32_mask(d, nonzero);
    __m512i v = zeroOut;
    if (live) {
      const __m512i e = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), live, d, table, 8);
      const __m512i num = _mm512_add_epi64(_mm512_slli_epi64(e, kProbabilityBits + 1), sumV);
      __m512i p = _mm512_cvttpd_epu64(_mm512_mul_pd(_mm512_cvtepu64_pd(num), inverse));
      for (__mmask8 m; (m = _mm512_cmpgt_epu64_mask(_mm512_mullo_epi64(p, denV), num));)
        p = _mm512_mask_sub_epi64(p, m, p, one);
      for (__mmask8 m; (m = _mm512_cmple_epu64_mask(_mm512_mullo_epi64(_mm512_add_epi64(p, one), denV), num));)
        p = _mm512_mask_add_epi64(p, m, p, one);
      // p <= 2^30 and mantissa < 2^31: the product is exact in 64 bits, p >= 0 rounds half up.
      v = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(p, mant), half), shiftV);
      v = _mm512_min_epi64(_mm512_max_epi64(_mm512_sub_epi64(v, outOffset), lo), hi);
    }
    if constexpr (sizeof(TOut) == 1) _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi64_epi8(v));
    else _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi64_epi16(v));
  }
  return vec;
}

class QuantSoftmax final : public Kernel {
 public:
  explicit QuantSoftmax(bool isLog) : isLog_(isLog), op_(isLog ? "LogSoftmax" : "Softmax") {}

  Status init(const OpParams& params) override {
    if (isLog_ && !params.has("axis")) return sdk::invalidParam("LogSoftmax: missing mandatory param axis");
    hasAxis_ = params.has("axis");
    axis_ = params.u32("axis", 0);
    beta_ = params.f32("beta", 1.f);
    if (!std::isfinite(beta_) || beta_ <= 0) return sdk::invalidParam(std::string(op_) + ": beta must be finite and > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_;
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    const size_t rank = inputs[0].rank();
    if (rank == 0) return sdk::invalidTensor("Softmax: in[0] must have rank >= 1");
    if (hasAxis_ && axis_ != rank - 1)
      return sdk::notSupported(std::string(op_) + ": only the last axis (N-1) is supported on HTP, got axis " +
                               std::to_string(axis_));
    rowLen_ = inputs[0].dims.back();
    Encoding ein, eout;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ein));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout));
    outOffset_ = eout.offset;
    outScale_ = eout.scale;
    inScale_ = ein.scale;
    range_ = rangeOf(outputs[0]);
    const fx::QuantRange inRange = rangeOf(inputs[0]);
    expTable_.resize(size_t(inRange.hi - inRange.lo + 1));
    for (size_t d = 0; d < expTable_.size(); ++d)
      expTable_[d] = std::llround(std::exp(-double(beta_) * double(ein.scale) * double(d)) *
                                  double(int64_t(1) << kProbabilityBits));
    QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, std::ldexp(1.0, -kProbabilityBits) / double(eout.scale), &mult_));
    const auto unsignedType = [](DType t) { return t == DType::kUFixed8 || t == DType::kUFixed16; };
    typed_ = !isLog_ && rowLen_ < (size_t(1) << 31) && unsignedType(inputs[0].dtype) && unsignedType(outputs[0].dtype);
    zeroOut_ = fx::requantize(0, mult_, outOffset_, range_);
    nonzero_ = size_t(std::find(expTable_.begin(), expTable_.end(), 0) - expTable_.begin());
    const int shift = 31 - mult_.exponent;
    vector_ = typed_ && gSoftmaxVectorRows.load() && vnniAvailable() && shift >= 1 && shift <= 62;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (rowLen_ == 0) return Status::ok();
    if (typed_) {
      const bool in8 = inputs[0].dtype == DType::kUFixed8, out8 = outputs[0].dtype == DType::kUFixed8;
      if (in8 && out8) softmaxRows<uint8_t, uint8_t>(inputs[0], outputs[0]);
      else if (in8) softmaxRows<uint8_t, uint16_t>(inputs[0], outputs[0]);
      else if (out8) softmaxRows<uint16_t, uint8_t>(inputs[0], outputs[0]);
      else softmaxRows<uint16_t, uint16_t>(inputs[0], outputs[0]);
      return Status::ok();
    }
    const size_t rows = inputs[0].numElements() / rowLen_;
    std::vector<int64_t> q(rowLen_);
    for (size_t r = 0; r < rows; ++r) {
      int64_t maxQ = INT64_MIN;
      for (size_t i = 0; i < rowLen_; ++i) maxQ = std::max(maxQ, q[i] = loadInt(inputs[0], r * rowLen_ + i));
      int64_t sum = 0;
      for (size_t i = 0; i < rowLen_; ++i) sum += expTable_[size_t(maxQ - q[i])];
      const double logSum = std::log(double(sum) / double(int64_t(1) << kProbabilityBits));
      for (size_t i = 0; i < rowLen_; ++i) {
        const size_t d = size_t(maxQ - q[i]);
        int64_t y;
        if (isLog_) {
          y = fx::quantizeValue(-double(beta_) * double(inScale_) * double(d) - logSum, outScale_, outOffset_, range_);
        } else {
          const int64_t p = fx::roundedDivide(expTable_[d] << kProbabilityBits, sum);
          y = fx::requantize(p, mult_, outOffset_, range_);
        }
        storeInt(outputs[0], r * rowLen_ + i, y);
      }
    }
    return Status::ok();
  }

 private:
  template <typename TIn, typename TOut>
  void softmaxRows(const TensorView& in, const TensorView& out) const {
    const TIn* x = in.as<const TIn>();
    TOut* y = out.as<TOut>();
    const size_t rows = in.numElements() / rowLen_;
    const int64_t* table = expTable_.data();
    const SoftmaxRow c{table, nonzero_, mult_, outOffset_, range_};
    for (size_t r = 0; r < rows; ++r, x += rowLen_, y += rowLen_) {
      TIn maxQ = 0;
      if (vector_) maxQ = rowMaxAvx512(x, rowLen_);
      else
        for (size_t i = 0; i < rowLen_; ++i) maxQ = std::max(maxQ, x[i]);
      uint64_t sum = 0;
      size_t done = 0;
      if (vector_) {
        done = softmaxRowAvx512<TIn, TOut>(x, y, rowLen_, maxQ, c, &sum);
      } else {
        for (size_t i = 0; i < rowLen_; ++i) sum += uint64_t(table[maxQ - x[i]]);
      }
      const double inverse = 1.0 / double(2 * sum);  // sum >= E[0] = 2^30 (the maximum's term)
      for (size_t i = done; i < rowLen_; ++i) {
        const uint64_t e = uint64_t(table[maxQ - x[i]]);
        y[i] = TOut(e == 0 ? zeroOut_ : softmaxValue(e, sum, inverse, c));
      }
    }
  }

  bool isLog_;
  const char* op_;
  bool hasAxis_ = false;
  uint32_t axis_ = 0;
  float beta_ = 1.f;
  size_t rowLen_ = 0;
  std::vector<int64_t> expTable_;
  fx::FixedPointMultiplier mult_;
  int32_t outOffset_ = 0;
  float outScale_ = 1.f, inScale_ = 1.f;
  fx::QuantRange range_;
  bool typed_ = false;  // unsigned 8/16-bit Softmax: softmaxRows
  bool vector_ = false;  // ... on AVX-512 (softmaxRowAvx512)
  int64_t zeroOut_ = 0;  // the output of p = 0
  size_t nonzero_ = 0;   // E[d] > 0 for d < nonzero_
};

}  // namespace

std::unique_ptr<Kernel> makeQuantSoftmax(const std::string& op) {
  return std::make_unique<QuantSoftmax>(op == "LogSoftmax");
}

}  // namespace qnn::htp
