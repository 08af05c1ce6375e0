#include "tests/conformance/compare.h"

#include <cmath>
#include <sstream>
#include <vector>

#include "cpu/kernels/kernel_util.h"

namespace qnn::conformance {

namespace {
template <typename T>
std::string compareExact(const CaseTensor& e, const void* actual) {
  const T* want = e.as<T>();
  const T* got = static_cast<const T*>(actual);
  for (size_t i = 0; i < e.numElements(); ++i)
    if (want[i] != got[i]) {
      std::ostringstream os;
      os << "element " << i << ": got " << +got[i] << ", want " << +want[i];
      return os.str();
    }
  return "";
}

// A fixed-point tensor's stored values as reals, (q + offset) * scale.
template <typename T>
std::vector<float> realValues(const void* data, size_t n, const QuantInfo& q) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float((double(static_cast<const T*>(data)[i]) + q.offset) * q.scale);
  return v;
}

std::vector<float> fixedPointAsReal(const CaseTensor& t, const void* data) {
  const size_t n = t.numElements();
  switch (t.dtype) {
    case DType::kUFixed8: return realValues<uint8_t>(data, n, t.quant);
    case DType::kSFixed8: return realValues<int8_t>(data, n, t.quant);
    case DType::kUFixed16: return realValues<uint16_t>(data, n, t.quant);
    case DType::kSFixed16: return realValues<int16_t>(data, n, t.quant);
    default: return {};
  }
}

std::string compareFloats(const float* want, const float* got, size_t n, double atol, double rtol) {
  double maxErr = 0;
  size_t worst = 0;
  bool bad = false;
  for (size_t i = 0; i < n; ++i) {
    double w = want[i], g = got[i];
    if (std::isnan(w) && std::isnan(g)) continue;
    if (std::isinf(w) && g == w) continue;
    double err = std::fabs(g - w);
    if (!(err <= atol + rtol * std::fabs(w))) {
      if (!bad || err > maxErr) worst = i;
      bad = true;
    }
    if (err > maxErr || std::isnan(err)) maxErr = err;
  }
  if (!bad) return "";
  std::ostringstream os;
  os << "element " << worst << ": got " << got[worst] << ", want " << want[worst] << " (max abs error " << maxErr
     << ", atol " << atol << ", rtol " << rtol << ")";
  return os.str();
}

}  // namespace

std::string compareOutput(const CaseTensor& expected, const void* actual, size_t actualBytes, double atol,
                          double rtol, bool asReal) {
  if (actualBytes != expected.bytes.size())
    return "output size " + std::to_string(actualBytes) + " bytes, want " + std::to_string(expected.bytes.size());
  if (asReal && sdk::dtypeIsFixedPoint(expected.dtype) && expected.quant.kind == QuantInfo::Kind::kScaleOffset) {
    const std::vector<float> want = fixedPointAsReal(expected, expected.bytes.data()),
                             got = fixedPointAsReal(expected, actual);
    if (want.size() == expected.numElements()) return compareFloats(want.data(), got.data(), want.size(), atol, rtol);
  }
  switch (expected.dtype) {
    case DType::kFloat32:
      return compareFloats(expected.as<float>(), static_cast<const float*>(actual), expected.numElements(), atol, rtol);
    case DType::kInt8: case DType::kSFixed8: return compareExact<int8_t>(expected, actual);
    case DType::kUInt8: case DType::kUFixed8: case DType::kBool8: return compareExact<uint8_t>(expected, actual);
    case DType::kInt16: case DType::kSFixed16: return compareExact<int16_t>(expected, actual);
    case DType::kUInt16: case DType::kUFixed16: case DType::kFloat16: return compareExact<uint16_t>(expected, actual);
    case DType::kInt32: case DType::kSFixed32: return compareExact<int32_t>(expected, actual);
    case DType::kUInt32: case DType::kUFixed32: return compareExact<uint32_t>(expected, actual);
    case DType::kInt64: return compareExact<int64_t>(expected, actual);
    case DType::kUInt64: return compareExact<uint64_t>(expected, actual);
    default: return std::string("cannot compare dtype ") + sdk::dtypeName(expected.dtype);
  }
}

}  // namespace qnn::conformance
