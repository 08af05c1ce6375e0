#include "tools/common/data_convert.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "tools/common/tensor_spec.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

template <typename T>
T saturate(double v) {
  if (std::isnan(v)) return T(0);
  const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<T>::max());
  if (v <= lo) return std::numeric_limits<T>::lowest();
  if (v >= hi) return std::numeric_limits<T>::max();
  return static_cast<T>(std::nearbyint(v));
}

template <typename T>
void storeAll(const float* in, size_t n, uint8_t* out, bool quant, float scale, int32_t offset) {
  for (size_t i = 0; i < n; ++i) {
    double v = quant ? std::nearbyint(static_cast<double>(in[i]) / scale) - offset : in[i];
    T q = saturate<T>(v);
    std::memcpy(out + i * sizeof(T), &q, sizeof(T));
  }
}

template <typename T>
void loadAll(const uint8_t* in, size_t n, float* out, bool quant, float scale, int32_t offset) {
  for (size_t i = 0; i < n; ++i) {
    T q;
    std::memcpy(&q, in + i * sizeof(T), sizeof(T));
    out[i] = quant ? static_cast<float>(scale * (static_cast<double>(q) + offset)) : static_cast<float>(q);
  }
}

bool isFixedPoint(Qnn_DataType_t t) {
  switch (t) {
    case QNN_DATATYPE_SFIXED_POINT_8: case QNN_DATATYPE_SFIXED_POINT_16: case QNN_DATATYPE_SFIXED_POINT_32:
    case QNN_DATATYPE_UFIXED_POINT_8: case QNN_DATATYPE_UFIXED_POINT_16: case QNN_DATATYPE_UFIXED_POINT_32:
      return true;
    default:
      return false;
  }
}

void checkConvertible(const TensorSpec& spec) {
  if (spec.perAxisQuantized)
    throw ToolError("tensor '" + spec.name + "' uses a per-axis encoding; float conversion is not supported, use native files");
  if (isFixedPoint(spec.dataType) && !spec.quantized)
    throw ToolError("fixed-point tensor '" + spec.name + "' has no scale/offset; use native files");
  if (dataTypeSize(spec.dataType) == 0)
    throw ToolError("tensor '" + spec.name + "' has unsupported data type " + dataTypeName(spec.dataType));
}

}  // namespace

size_t dataTypeSize(Qnn_DataType_t type) {
  switch (type) {
    case QNN_DATATYPE_INT_8: case QNN_DATATYPE_UINT_8: case QNN_DATATYPE_SFIXED_POINT_8:
    case QNN_DATATYPE_UFIXED_POINT_8: case QNN_DATATYPE_BOOL_8:
      return 1;
    case QNN_DATATYPE_INT_16: case QNN_DATATYPE_UINT_16: case QNN_DATATYPE_FLOAT_16:
    case QNN_DATATYPE_SFIXED_POINT_16: case QNN_DATATYPE_UFIXED_POINT_16:
      return 2;
    case QNN_DATATYPE_INT_32: case QNN_DATATYPE_UINT_32: case QNN_DATATYPE_FLOAT_32:
    case QNN_DATATYPE_SFIXED_POINT_32: case QNN_DATATYPE_UFIXED_POINT_32:
      return 4;
    case QNN_DATATYPE_INT_64: case QNN_DATATYPE_UINT_64:
      return 8;
    default:
      return 0;
  }
}

std::string dataTypeName(Qnn_DataType_t type) {
  switch (type) {
    case QNN_DATATYPE_INT_8: return "int8";
    case QNN_DATATYPE_INT_16: return "int16";
    case QNN_DATATYPE_INT_32: return "int32";
    case QNN_DATATYPE_INT_64: return "int64";
    case QNN_DATATYPE_UINT_8: return "uint8";
    case QNN_DATATYPE_UINT_16: return "uint16";
    case QNN_DATATYPE_UINT_32: return "uint32";
    case QNN_DATATYPE_UINT_64: return "uint64";
    case QNN_DATATYPE_FLOAT_16: return "float16";
    case QNN_DATATYPE_FLOAT_32: return "float32";
    case QNN_DATATYPE_SFIXED_POINT_8: return "sfixed8";
    case QNN_DATATYPE_SFIXED_POINT_16: return "sfixed16";
    case QNN_DATATYPE_SFIXED_POINT_32: return "sfixed32";
    case QNN_DATATYPE_UFIXED_POINT_8: return "ufixed8";
    case QNN_DATATYPE_UFIXED_POINT_16: return "ufixed16";
    case QNN_DATATYPE_UFIXED_POINT_32: return "ufixed32";
    case QNN_DATATYPE_BOOL_8: return "bool8";
    default: return "0x" + [&] { char b[16]; std::snprintf(b, sizeof b, "%x", static_cast<unsigned>(type)); return std::string(b); }();
  }
}

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
  if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (absx < 0x38800000u) {                                               // subnormal or zero
    float a;
    std::memcpy(&a, &absx, 4);
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f)));
  }
  // Normal: round mantissa to nearest even.
  uint32_t mant = absx + 0xfffu + ((absx >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((mant - 0x38000000u) >> 13));
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  float out;
  if (exp == 0) {
    out = std::ldexp(static_cast<float>(mant), -24);
    if (sign) out = -out;
    return out;
  }
  uint32_t bits = exp == 31 ? (sign | 0x7f800000u | (mant << 13)) : (sign | ((exp + 112) << 23) | (mant << 13));
  std::memcpy(&out, &bits, 4);
  return out;
}

std::vector<uint8_t> floatToNative(const float* in, size_t n, const TensorSpec& spec) {
  checkConvertible(spec);
  std::vector<uint8_t> out(n * dataTypeSize(spec.dataType));
  const bool q = spec.quantized && isFixedPoint(spec.dataType);
  const float s = spec.scale;
  const int32_t o = spec.offset;
  if (q && !(s > 0.0f)) throw ToolError("tensor '" + spec.name + "' has a non-positive scale");
  switch (spec.dataType) {
    case QNN_DATATYPE_FLOAT_32: std::memcpy(out.data(), in, n * 4); break;
    case QNN_DATATYPE_FLOAT_16:
      for (size_t i = 0; i < n; ++i) {
        uint16_t h = floatToHalf(in[i]);
        std::memcpy(out.data() + 2 * i, &h, 2);
      }
      break;
    case QNN_DATATYPE_BOOL_8:
      for (size_t i = 0; i < n; ++i) out[i] = in[i] != 0.0f ? 1 : 0;
      break;
    case QNN_DATATYPE_INT_8: case QNN_DATATYPE_SFIXED_POINT_8: storeAll<int8_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_UINT_8: case QNN_DATATYPE_UFIXED_POINT_8: storeAll<uint8_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_INT_16: case QNN_DATATYPE_SFIXED_POINT_16: storeAll<int16_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_UINT_16: case QNN_DATATYPE_UFIXED_POINT_16: storeAll<uint16_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_INT_32: case QNN_DATATYPE_SFIXED_POINT_32: storeAll<int32_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_UINT_32: case QNN_DATATYPE_UFIXED_POINT_32: storeAll<uint32_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_INT_64: storeAll<int64_t>(in, n, out.data(), false, s, o); break;
    case QNN_DATATYPE_UINT_64: storeAll<uint64_t>(in, n, out.data(), false, s, o); break;
    default: break;
  }
  return out;
}

std::vector<float> nativeToFloat(const void* data, size_t n, const TensorSpec& spec) {
  checkConvertible(spec);
  std::vector<float> out(n);
  const auto* in = static_cast<const uint8_t*>(data);
  const bool q = spec.quantized && isFixedPoint(spec.dataType);
  const float s = spec.scale;
  const int32_t o = spec.offset;
  switch (spec.dataType) {
    case QNN_DATATYPE_FLOAT_32: std::memcpy(out.data(), in, n * 4); break;
    case QNN_DATATYPE_FLOAT_16:
      for (size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, in + 2 * i, 2);
        out[i] = halfToFloat(h);
      }
      break;
    case QNN_DATATYPE_BOOL_8:
      for (size_t i = 0; i < n; ++i) out[i] = in[i] ? 1.0f : 0.0f;
      break;
    case QNN_DATATYPE_INT_8: case QNN_DATATYPE_SFIXED_POINT_8: loadAll<int8_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_UINT_8: case QNN_DATATYPE_UFIXED_POINT_8: loadAll<uint8_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_INT_16: case QNN_DATATYPE_SFIXED_POINT_16: loadAll<int16_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_UINT_16: case QNN_DATATYPE_UFIXED_POINT_16: loadAll<uint16_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_INT_32: case QNN_DATATYPE_SFIXED_POINT_32: loadAll<int32_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_UINT_32: case QNN_DATATYPE_UFIXED_POINT_32: loadAll<uint32_t>(in, n, out.data(), q, s, o); break;
    case QNN_DATATYPE_INT_64: loadAll<int64_t>(in, n, out.data(), false, s, o); break;
    case QNN_DATATYPE_UINT_64: loadAll<uint64_t>(in, n, out.data(), false, s, o); break;
    default: break;
  }
  return out;
}

}  // namespace qnn::tools
