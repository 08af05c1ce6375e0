// Quantize (FLOAT_32 -> fixed point), Dequantize (fixed point -> FLOAT_32) and
// Convert (fixed point -> fixed point) with the helpers of the fixed-point rule:
//   Quantize:   q = saturate(nearbyint(x / s) - offset), the quotient in float32
//               (half to even; outputs wider than 16 bits divide in double)
//   Dequantize: x = s * float(q + offset)
//   Convert:    q' = requantize(q + offset, s / s')
// quantizeFloats / dequantizeAll (the first two, also the real-valued kernels' conversions) take
// 16 values at a time on AVX-512 for 8/16-bit fixed-point tensors: the same float32 division and
// product, rounding half to even, NaN to real 0 and the clamp in float where the bounds
// (lo + offset, hi + offset) and every q + offset are exact (|offset| < 2^24 checked per call).
#include <cstdlib>
#include <type_traits>

// GCC 12 reports its own AVX-512 intrinsic headers as maybe-uninitialized under -O2: false positives.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "htp_sim/kernels/copy_runs.h"
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"
#include "htp_sim/kernels/quant_gemm.h"

namespace qnn::htp {
namespace {

// 8/16-bit fixed point with an offset that keeps every bound and q + offset below 2^24 in
// magnitude (exact in float32 and int32): the AVX-512 conversions apply.
bool vectorConvertible(DType t, int32_t offset) {
  const bool narrow = t == DType::kUFixed8 || t == DType::kSFixed8 || t == DType::kUFixed16 || t == DType::kSFixed16;
  return narrow && std::abs(int64_t(offset)) < (int64_t(1) << 23) && vnniAvailable();
}

template <typename T>
__attribute__((target("avx512f"))) void quantizeAvx512(const float* x, size_t n, Encoding e, fx::QuantRange r,
                                                       T* y) {
  const __m512 scale = _mm512_set1_ps(e.scale);
  const __m512 lo = _mm512_set1_ps(float(r.lo + e.offset)), hi = _mm512_set1_ps(float(r.hi + e.offset));
  const __m512i offset = _mm512_set1_epi32(e.offset);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512 q = _mm512_roundscale_ps(_mm512_div_ps(_mm512_loadu_ps(x + i), scale),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    q = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(q, q, _CMP_ORD_Q), q);  // NaN: real 0
    q = _mm512_min_ps(_mm512_max_ps(q, lo), hi);
    const __m512i v = _mm512_sub_epi32(_mm512_cvtps_epi32(q), offset);
    if constexpr (sizeof(T) == 1) _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi32_epi8(v));
    else _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), _mm512_cvtepi32_epi16(v));
  }
  for (; i < n; ++i) y[i] = T(fx::quantizeValue(x[i], e.scale, e.offset, r));
}

template <typename T>
__attribute__((target("avx512f"))) void dequantizeAvx512(const T* q, size_t n, Encoding e, float* y) {
  const __m512 scale = _mm512_set1_ps(e.scale);
  const __m512i offset = _mm512_set1_epi32(e.offset);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512i v;
    if constexpr (sizeof(T) == 1) {
      const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + i));
      v = std::is_signed_v<T> ? _mm512_cvtepi8_epi32(raw) : _mm512_cvtepu8_epi32(raw);
    } else {
      const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + i));
      v = std::is_signed_v<T> ? _mm512_cvtepi16_epi32(raw) : _mm512_cvtepu16_epi32(raw);
    }
    _mm512_storeu_ps(y + i, _mm512_mul_ps(scale, _mm512_cvtepi32_ps(_mm512_add_epi32(v, offset))));
  }
  for (; i < n; ++i) y[i] = fx::dequantizeValue(q[i], e.scale, e.offset);
}

}  // namespace

void quantizeFloats(const float* x, size_t n, Encoding e, fx::QuantRange range, const TensorView& out) {
  if (vectorConvertible(out.dtype, e.offset)) {
    switch (out.dtype) {
      case DType::kUFixed8: return quantizeAvx512(x, n, e, range, out.as<uint8_t>());
      case DType::kSFixed8: return quantizeAvx512(x, n, e, range, out.as<int8_t>());
      case DType::kUFixed16: return quantizeAvx512(x, n, e, range, out.as<uint16_t>());
      default: return quantizeAvx512(x, n, e, range, out.as<int16_t>());
    }
  }
  for (size_t i = 0; i < n; ++i) storeInt(out, i, fx::quantizeValue(x[i], e.scale, e.offset, range));
}

void dequantizeAll(const TensorView& t, Encoding e, float* out) {
  const size_t n = t.numElements();
  if (vectorConvertible(t.dtype, e.offset)) {
    switch (t.dtype) {
      case DType::kUFixed8: return dequantizeAvx512(t.as<const uint8_t>(), n, e, out);
      case DType::kSFixed8: return dequantizeAvx512(t.as<const int8_t>(), n, e, out);
      case DType::kUFixed16: return dequantizeAvx512(t.as<const uint16_t>(), n, e, out);
      default: return dequantizeAvx512(t.as<const int16_t>(), n, e, out);
    }
  }
  for (size_t i = 0; i < n; ++i) out[i] = fx::dequantizeValue(loadInt(t, i), e.scale, e.offset);
}

namespace {

class QuantCast final : public Kernel {
 public:
  explicit QuantCast(std::string op) : op_(std::move(op)) {}

  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    if (op_ == "Quantize") {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &enc_));
      range_ = rangeOf(outputs[0]);
    } else if (op_ == "Dequantize") {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
      QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &enc_));
    } else {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(requant_.prepare(op, inputs[0], outputs[0]));
      // Inputs of at most 16 bits: the requantization of every stored value,
      // tabulated once (the KV-cache Converts of an LLM decode step run it per element).
      if (table_.build(inputs[0].dtype, outputs[0].dtype, [this](int64_t q) { return requant_(q); }))
        table_.useRequantization(requant_.inOffset(), requant_.multiplier(), requant_.outOffset(), requant_.range());
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = inputs[0].numElements();
    if (op_ == "Quantize") {
      quantizeFloats(inputs[0].as<const float>(), n, enc_, range_, outputs[0]);
    } else if (op_ == "Dequantize") {
      dequantizeAll(inputs[0], enc_, outputs[0].as<float>());
    } else if (!table_.empty()) {
      table_.apply(inputs[0].data, n, outputs[0].data);
    } else {
      for (size_t i = 0; i < n; ++i) storeInt(outputs[0], i, requant_(loadInt(inputs[0], i)));
    }
    return Status::ok();
  }

 private:
  std::string op_;
  Encoding enc_;
  fx::QuantRange range_;
  Requantizer requant_;
  StoredValueTable table_;  // Convert of 8/16-bit values: requant_ of every stored value
};

}  // namespace

std::unique_ptr<Kernel> makeQuantCast(const std::string& op) { return std::make_unique<QuantCast>(op); }

}  // namespace qnn::htp
