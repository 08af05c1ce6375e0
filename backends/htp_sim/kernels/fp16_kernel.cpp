#include <algorithm>
#include <cmath>
#include <cstring>

// GCC 12 reports its own AVX-512 intrinsic headers as maybe-uninitialized (false positives).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "htp_sim/kernels/fp16.h"
#include "htp_sim/kernels/quant_gemm.h"

#include "core/weight_form_cache.h"

namespace qnn::htp {

namespace {
// The CPU's float <-> half conversions (AVX-512F: vcvtps2ph with round to nearest even,
// vcvtph2ps) give the bits of sdk/quant/half.h for every value but NaN, whose payload
// they keep where half.h makes the canonical quiet NaN: a block holding a NaN is
// converted by the scalar code. Off with QNN_HTP_PORTABLE_KERNELS=1 (vnniAvailable).
constexpr size_t kHalfBlock = 16;

__attribute__((target("avx512f"))) size_t roundToHalfVector(const float* in, float* out, size_t n) {
  size_t i = 0;
  for (; i + kHalfBlock <= n; i += kHalfBlock) {
    const __m512 v = _mm512_loadu_ps(in + i);
    if (_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q)) break;
    const __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm512_storeu_ps(out + i, _mm512_cvtph_ps(h));
  }
  return i;
}

__attribute__((target("avx512f"))) size_t halfBitsToFloatVector(const uint16_t* in, float* out, size_t n) {
  size_t i = 0;
  for (; i + kHalfBlock <= n; i += kHalfBlock) {
    const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    // exponent 31 with a nonzero mantissa: NaN
    const __m256i absh = _mm256_and_si256(h, _mm256_set1_epi16(0x7fff));
    if (_mm256_movemask_epi8(_mm256_cmpgt_epi16(absh, _mm256_set1_epi16(0x7c00)))) break;
    _mm512_storeu_ps(out + i, _mm512_cvtph_ps(h));
  }
  return i;
}

__attribute__((target("avx512f"))) size_t floatToHalfBitsVector(const float* in, uint16_t* out, size_t n) {
  size_t i = 0;
  for (; i + kHalfBlock <= n; i += kHalfBlock) {
    const __m512 v = _mm512_loadu_ps(in + i);
    if (_mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q)) break;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  return i;
}

// out[i] = roundToHalf(in[i]) (in == out allowed).
void roundToHalfBlock(const float* in, float* out, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (vnniAvailable()) i += roundToHalfVector(in + i, out + i, n - i);
    const size_t end = std::min(n, i + kHalfBlock);  // a block with a NaN, or the tail
    for (; i < end; ++i) out[i] = roundToHalf(in[i]);
  }
}
}  // namespace

void loadHalfValues(const TensorView& t, std::vector<float>* out, bool round) {
  const size_t n = t.numElements();
  out->resize(n);
  float* y = out->data();
  if (t.dtype == DType::kFloat16) {
    const auto* h = static_cast<const uint16_t*>(t.data);
    size_t i = 0;
    while (i < n) {
      if (vnniAvailable()) i += halfBitsToFloatVector(h + i, y + i, n - i);
      const size_t end = std::min(n, i + kHalfBlock);
      for (; i < end; ++i) y[i] = sdk::quant::halfBitsToFloat(h[i]);
    }
  } else {
    const auto* f = static_cast<const float*>(t.data);
    if (round) roundToHalfBlock(f, y, n);
    else if (n) std::memcpy(y, f, n * sizeof(float));
  }
}

namespace {
constexpr float kHalfMax = 65504.f;
// v rounded to half, a finite v that overflows half saturated to +-65504 when `saturate`.
float halfOf(float v, bool saturate) {
  const float h = roundToHalf(v);
  return saturate && std::isinf(h) && std::isfinite(v) ? std::copysign(kHalfMax, v) : h;
}
}  // namespace

void storeHalfValues(const TensorView& t, const float* values, size_t n, bool round, bool saturate) {
  if (t.dtype == DType::kFloat16) {
    auto* h = static_cast<uint16_t*>(t.data);
    size_t i = 0;
    while (i < n) {
      if (vnniAvailable() && !saturate) i += floatToHalfBitsVector(values + i, h + i, n - i);
      const size_t end = std::min(n, i + kHalfBlock);
      for (; i < end; ++i) h[i] = sdk::quant::floatToHalfBits(halfOf(values[i], saturate));
    }
  } else {
    auto* f = static_cast<float*>(t.data);
    if (!round) {
      if (n) std::memcpy(f, values, n * sizeof(float));
    }
    else if (!saturate) roundToHalfBlock(values, f, n);
    else
      for (size_t i = 0; i < n; ++i) f[i] = halfOf(values[i], saturate);
  }
}

namespace {
sdk::WeightFormCache<float>& floatForms() {
  // Destroyed with the library; forms still held by kernels stay valid (the
  // cache holds them weakly).
  static sdk::WeightFormCache<float> cache;
  return cache;
}
}  // namespace

Status Fp16Kernel::prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  const char* op = op_.c_str();
  const size_t nf = std::min(floatInputCount(inputs.size()), inputs.size());
  for (size_t i = 0; i < nf; ++i)
    if (inputs[i].dtype != DType::kUndefined || inputs[i].data)
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, ("in[" + std::to_string(i) + "]").c_str(), inputs[i], kFloatTypes));
  for (size_t o = 0; o < outputs.size(); ++o)
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, ("out[" + std::to_string(o) + "]").c_str(), outputs[o], kFloatTypes));
  QNN_SDK_RETURN_IF_ERROR(shapePrepare(inputs, outputs));
  staticValues_.assign(nf, nullptr);
  dynamicValues_.assign(nf, {});
  isStatic_.assign(nf, false);
  for (size_t i = 0; i < nf; ++i)
    if (inputs[i].data) {
      isStatic_[i] = true;
      // Weights converted (and rounded to half) once, for every kernel using them.
      const TensorView& w = inputs[i];
      staticValues_[i] = floatForms().get(w.data, w.numElements() * sdk::dtypeSize(w.dtype),
                                          std::string(sdk::dtypeName(w.dtype)) + (roundToHalf_ ? ":half" : ":float"),
                                          [&] {
                                            std::vector<float> values;
                                            loadHalfValues(w, &values, roundToHalf_);
                                            return values;
                                          });
    }
  outValues_.assign(outputs.size(), {});
  for (size_t o = 0; o < outputs.size(); ++o) outValues_[o].resize(outputs[o].numElements());
  return Status::ok();
}

Status Fp16Kernel::execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  std::vector<const std::vector<float>*> in(staticValues_.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (isStatic_[i]) {
      in[i] = staticValues_[i].get();
    } else {
      if (inputs[i].data) loadHalfValues(inputs[i], &dynamicValues_[i], roundToHalf_);
      else dynamicValues_[i].clear();
      in[i] = &dynamicValues_[i];
    }
  }
  try {
    QNN_SDK_RETURN_IF_ERROR(compute(in, outValues_, inputs));
  } catch (const std::bad_alloc&) {
    return {sdk::StatusCode::kOutOfMemory, op_ + ": out of memory"};
  }
  for (size_t o = 0; o < outputs.size(); ++o)
    storeHalfValues(outputs[o], outValues_[o].data(), outValues_[o].size(), roundToHalf_, saturate_);
  return Status::ok();
}

}  // namespace qnn::htp
