#include "compare.h"

#include <cmath>
#include <sstream>

#include "kernels/kernel_util.h"

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
}  // namespace

std::string compareOutput(const CaseTensor& expected, const void* actual, size_t actualBytes, double atol,
                          double rtol) {
  if (actualBytes != expected.bytes.size())
    return "output size " + std::to_string(actualBytes) + " bytes, want " + std::to_string(expected.bytes.size());
  switch (expected.dtype) {
    case DType::kFloat32: {
      const float* want = expected.as<float>();
      const float* got = static_cast<const float*>(actual);
      double maxErr = 0;
      size_t worst = 0;
      bool bad = false;
      for (size_t i = 0; i < expected.numElements(); ++i) {
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
      os << "element " << worst << ": got " << got[worst] << ", want " << want[worst] << " (max abs error "
         << maxErr << ", atol " << atol << ", rtol " << rtol << ")";
      return os.str();
    }
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
