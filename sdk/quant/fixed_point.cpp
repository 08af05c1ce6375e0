#include "quant/fixed_point.h"

#include <cmath>

namespace qnn::sdk::quant {

bool decomposeMultiplier(double real, FixedPointMultiplier* out) {
  *out = FixedPointMultiplier{};
  if (!std::isfinite(real) || real < 0) return false;
  if (real < std::ldexp(1.0, -62)) return true;  // rounds to 0 for every int32 accumulator anyway
  int exponent = 0;
  const double frac = std::frexp(real, &exponent);  // real = frac * 2^exponent, frac in [0.5, 1)
  int64_t mantissa = std::llround(std::ldexp(frac, 31));
  if (mantissa == (int64_t(1) << 31)) {
    mantissa >>= 1;
    ++exponent;
  }
  if (exponent > 31) return false;
  out->mantissa = int32_t(mantissa);
  out->exponent = exponent;
  return true;
}

int64_t applyMultiplierWide(int64_t acc, FixedPointMultiplier m) {
  const int shift = 31 - m.exponent;
  __extension__ typedef __int128 Wide;
  const Wide p = Wide(acc) * m.mantissa;  // |p| < 2^94
  if (shift > 100) return 0;
  if (shift <= 0) {
    const Wide r = p * (Wide(1) << -shift);
    return r > INT64_MAX ? INT64_MAX : (r < INT64_MIN ? INT64_MIN : int64_t(r));
  }
  const Wide half = Wide(1) << (shift - 1);
  const Wide r = p >= 0 ? (p + half) >> shift : -((-p + half) >> shift);
  return r > INT64_MAX ? INT64_MAX : (r < INT64_MIN ? INT64_MIN : int64_t(r));
}

QuantRange quantRange(DType t, uint32_t bitwidth) {
  QuantRange r;
  switch (t) {
    case DType::kUFixed8: case DType::kUInt8: case DType::kBool8: r = {0, 255}; break;
    case DType::kSFixed8: case DType::kInt8: r = {-128, 127}; break;
    case DType::kUFixed16: case DType::kUInt16: r = {0, 65535}; break;
    case DType::kSFixed16: case DType::kInt16: r = {-32768, 32767}; break;
    case DType::kUFixed32: case DType::kUInt32: r = {0, 4294967295LL}; break;
    case DType::kSFixed32: case DType::kInt32: r = {INT32_MIN, INT32_MAX}; break;
    default: r = {INT64_MIN, INT64_MAX}; break;
  }
  const size_t width = dtypeSize(t) * 8;
  if (bitwidth > 0 && bitwidth < width && width <= 32) {
    if (r.lo < 0) r = {-(int64_t(1) << (bitwidth - 1)), (int64_t(1) << (bitwidth - 1)) - 1};
    else r = {0, (int64_t(1) << bitwidth) - 1};
  }
  return r;
}

int64_t quantizeValue(double real, float scale, int32_t offset, QuantRange range) {
  const bool wide = double(range.hi) - double(range.lo) > 65535.0;  // more than 16 bits
  // Wide outputs keep the exact double; beyond float's range (or NaN) the double
  // quotient decides the saturation (or real 0).
  double v = !wide && std::fabs(real) <= double(FLT_MAX) ? float32QuotientStep(float(real), scale, false)
                                                          : std::nearbyint(real / double(scale));
  if (std::isnan(v)) v = 0;
  const double lo = double(range.lo) + offset, hi = double(range.hi) + offset;  // clamp before converting
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return saturate(int64_t(v) - offset, range);
}

int64_t roundedDivide(int64_t num, int64_t den) {
  __extension__ typedef __int128 Wide;
  const Wide n = num, d = den;
  const Wide r = n >= 0 ? (2 * n + d) / (2 * d) : -((-2 * n + d) / (2 * d));
  return int64_t(r);
}

}  // namespace qnn::sdk::quant
