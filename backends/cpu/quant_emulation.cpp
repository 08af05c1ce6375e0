#include "cpu/quant_emulation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/quant_at.h"

namespace qnn::cpu {
namespace {

using sdk::DType;
using sdk::QuantInfo;

// The encoding's bitwidth when it is narrower than Q, else 0.
template <typename Q>
unsigned narrowBits(const sdk::TensorInfo& t) {
  return t.quant.bitwidth > 0 && t.quant.bitwidth < 8 * sizeof(Q) ? t.quant.bitwidth : 0;
}

template <typename Q>
void dequant(const sdk::TensorInfo& t, const Q* src, float* dst) {
  sdk::QuantAt at(t.quant, t.dims);
  size_t n = t.numElements();
  const unsigned bits = narrowBits<Q>(t);
  auto value = [&](size_t i) {
    return bits ? static_cast<int32_t>(narrowValue(src[i], bits, std::is_signed_v<Q>)) : static_cast<int32_t>(src[i]);
  };
  if (at.uniform()) {
    float s = t.quant.scale;
    int32_t o = t.quant.offset;
    for (size_t i = 0; i < n; ++i) dst[i] = s * (value(i) + o);
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    float s;
    int32_t o;
    at.at(i, &s, &o);
    dst[i] = s * (value(i) + o);
  }
}

template <typename Q>
void quant(const sdk::TensorInfo& t, const float* src, Q* dst) {
  sdk::QuantAt at(t.quant, t.dims);
  size_t n = t.numElements();
  const unsigned bits = narrowBits<Q>(t);
  double lo = std::numeric_limits<Q>::min(), hi = std::numeric_limits<Q>::max();
  if (bits) {
    lo = std::is_signed_v<Q> ? -std::ldexp(1.0, int(bits) - 1) : 0.0;
    hi = std::is_signed_v<Q> ? std::ldexp(1.0, int(bits) - 1) - 1 : std::ldexp(1.0, int(bits)) - 1;
  }
  constexpr bool wide = sizeof(Q) > 2;
  for (size_t i = 0; i < n; ++i) {
    float s;
    int32_t o;
    at.at(i, &s, &o);
    double q = s != 0.f ? quantizedStep(src[i], s, wide) - o : -o;
    // NaN stores 0, as the Cast/Quantize kernels store it (a NaN converted to an integer is undefined).
    dst[i] = std::isnan(q) ? Q(0) : static_cast<Q>(std::clamp(q, lo, hi));
  }
}

}  // namespace

void dequantizeToFloat(const sdk::TensorInfo& t, const void* src, float* dst) {
  switch (t.dtype) {
    case DType::kUFixed8: dequant(t, static_cast<const uint8_t*>(src), dst); break;
    case DType::kSFixed8: dequant(t, static_cast<const int8_t*>(src), dst); break;
    case DType::kUFixed16: dequant(t, static_cast<const uint16_t*>(src), dst); break;
    case DType::kSFixed16: dequant(t, static_cast<const int16_t*>(src), dst); break;
    case DType::kSFixed32: dequant(t, static_cast<const int32_t*>(src), dst); break;
    case DType::kUFixed32: dequant(t, static_cast<const uint32_t*>(src), dst); break;
    default: break;
  }
}

void quantizeFromFloat(const sdk::TensorInfo& t, const float* src, void* dst) {
  switch (t.dtype) {
    case DType::kUFixed8: quant(t, src, static_cast<uint8_t*>(dst)); break;
    case DType::kSFixed8: quant(t, src, static_cast<int8_t*>(dst)); break;
    case DType::kUFixed16: quant(t, src, static_cast<uint16_t*>(dst)); break;
    case DType::kSFixed16: quant(t, src, static_cast<int16_t*>(dst)); break;
    case DType::kSFixed32: quant(t, src, static_cast<int32_t*>(dst)); break;
    case DType::kUFixed32: quant(t, src, static_cast<uint32_t*>(dst)); break;
    default: break;
  }
}

}  // namespace qnn::cpu
