// Builders shared by the fixed-point case files (fixed_point_case.h).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "tests/conformance/fixed_point_case.h"

namespace qnn::conformance {

namespace {
void storeValues(CaseTensor& t, const Ints& values) {
  const size_t size = sdk::dtypeSize(t.dtype);
  t.bytes.assign(values.size() * size, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t v = values[i];
    switch (size) {
      case 1: { const uint8_t b = uint8_t(v); std::memcpy(&t.bytes[i], &b, 1); break; }
      case 2: { const uint16_t b = uint16_t(v); std::memcpy(&t.bytes[i * 2], &b, 2); break; }
      default: { const uint32_t b = uint32_t(v); std::memcpy(&t.bytes[i * 4], &b, 4); break; }
    }
  }
}
}  // namespace

CaseTensor qTensor(DType dtype, std::vector<uint32_t> dims, const Ints& values, Enc enc, bool isStatic) {
  CaseTensor t;
  t.dtype = dtype;
  t.dims = std::move(dims);
  t.isStatic = isStatic;
  storeValues(t, values);
  if (sdk::dtypeIsFixedPoint(dtype)) {
    t.quant.kind = QuantInfo::Kind::kScaleOffset;
    t.quant.scale = enc.scale;
    t.quant.offset = enc.offset;
  }
  return t;
}

CaseTensor qTensorAxis(DType dtype, std::vector<uint32_t> dims, const Ints& values, const std::vector<Enc>& enc,
                       int32_t axis, bool isStatic) {
  CaseTensor t = qTensor(dtype, std::move(dims), values, Enc{}, isStatic);
  t.quant = QuantInfo{};
  t.quant.kind = QuantInfo::Kind::kAxisScaleOffset;
  t.quant.axis = axis;
  for (const Enc& e : enc) {
    t.quant.scales.push_back(e.scale);
    t.quant.offsets.push_back(e.offset);
  }
  return t;
}

Ints randomInts(CaseRng& rng, size_t n, int64_t lo, int64_t hi) {
  Ints v(n);
  const uint64_t span = uint64_t(hi - lo) + 1;
  for (auto& x : v) x = lo + int64_t(((uint64_t(rng.next()) << 21) ^ rng.next()) % span);
  return v;
}

Ints randomInts(CaseRng& rng, size_t n, DType dtype) {
  return randomInts(rng, n, fxref::typeMin(dtype), fxref::typeMax(dtype));
}

Enc encodingCovering(double lo, double hi, DType dtype, bool pow2) {
  const double qlo = double(fxref::typeMin(dtype)), qhi = double(fxref::typeMax(dtype));
  const double span = std::max(hi - lo, 1e-6) * 0.9;
  Enc e;
  e.scale = float(span / (qhi - qlo));
  if (qlo < 0) e.scale = float(std::max(std::max(std::fabs(lo), std::fabs(hi)), 1e-6) * 0.95 / qhi);
  if (pow2) e.scale = float(std::exp2(std::ceil(std::log2(double(e.scale))) - 1));
  if (qlo < 0) return e;  // signed types: symmetric, as usual for them
  // real lo + 5% of the span maps to qlo: offset = round((lo + 0.05 span) / scale) - qlo.
  e.offset = int32_t(std::lround((lo + 0.05 * span / 0.9) / e.scale - qlo));
  return e;
}

const std::vector<QuantConfig>& weightedConfigs() {
  static const std::vector<QuantConfig> configs = {
      {"u8_w8s", DType::kUFixed8, DType::kSFixed8, false, 0},
      {"u8_w8s_perchannel", DType::kUFixed8, DType::kSFixed8, true, 0},
      {"u8_w8u_asym", DType::kUFixed8, DType::kUFixed8, false, -100},
      {"s8_w8s_perchannel", DType::kSFixed8, DType::kSFixed8, true, 0},
      {"u16_w8s", DType::kUFixed16, DType::kSFixed8, false, 0},
      {"u16_w8s_perchannel", DType::kUFixed16, DType::kSFixed8, true, 0},
      {"u16_w16s_perchannel", DType::kUFixed16, DType::kSFixed16, true, 0},
      {"u8_w8s_pow2", DType::kUFixed8, DType::kSFixed8, false, 0, true},
      {"u16_w8s_perchannel_pow2", DType::kUFixed16, DType::kSFixed8, true, 0, true},
  };
  return configs;
}

const std::vector<DType>& activationTypes() {
  static const std::vector<DType> types = {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16};
  return types;
}

std::string typeTag(DType t) {
  switch (t) {
    case DType::kUFixed8: return "u8";
    case DType::kSFixed8: return "s8";
    case DType::kUFixed16: return "u16";
    case DType::kSFixed16: return "s16";
    case DType::kSFixed32: return "s32";
    case DType::kInt32: return "i32";
    default: return "t";
  }
}

}  // namespace qnn::conformance
