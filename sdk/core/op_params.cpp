#include "core/op_params.h"

#include <cstring>

namespace qnn::sdk {
namespace {

// Reads element i of a buffer of the given dtype as double / int64.
template <typename R>
R elementAs(DType t, const uint8_t* p, size_t i) {
  switch (t) {
    case DType::kInt8: case DType::kSFixed8: return static_cast<R>(reinterpret_cast<const int8_t*>(p)[i]);
    case DType::kInt16: case DType::kSFixed16: return static_cast<R>(reinterpret_cast<const int16_t*>(p)[i]);
    case DType::kInt32: case DType::kSFixed32: return static_cast<R>(reinterpret_cast<const int32_t*>(p)[i]);
    case DType::kInt64: return static_cast<R>(reinterpret_cast<const int64_t*>(p)[i]);
    case DType::kUInt8: case DType::kUFixed8: case DType::kBool8: return static_cast<R>(p[i]);
    case DType::kUInt16: case DType::kUFixed16: return static_cast<R>(reinterpret_cast<const uint16_t*>(p)[i]);
    case DType::kUInt32: case DType::kUFixed32: return static_cast<R>(reinterpret_cast<const uint32_t*>(p)[i]);
    case DType::kUInt64: return static_cast<R>(reinterpret_cast<const uint64_t*>(p)[i]);
    case DType::kFloat32: return static_cast<R>(reinterpret_cast<const float*>(p)[i]);
    default: return R{};
  }
}

}  // namespace

size_t ParamValue::numElements() const {
  if (!isTensor) return 1;
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

double ParamValue::scalarAsDouble() const {
  if (isTensor) return data.empty() ? 0.0 : elementAs<double>(dtype, data.data(), 0);
  uint8_t raw[8];
  std::memcpy(raw, &scalar, 8);
  return elementAs<double>(dtype, raw, 0);
}

std::vector<int64_t> ParamValue::tensorAsInt64() const {
  if (!isTensor) return {static_cast<int64_t>(scalarAsDouble())};
  size_t n = numElements();
  size_t esz = dtypeSize(dtype);
  std::vector<int64_t> out;
  if (esz == 0 || data.size() < n * esz) return out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(elementAs<int64_t>(dtype, data.data(), i));
  return out;
}

std::vector<double> ParamValue::tensorAsDouble() const {
  if (!isTensor) return {scalarAsDouble()};
  size_t n = numElements();
  size_t esz = dtypeSize(dtype);
  std::vector<double> out;
  if (esz == 0 || data.size() < n * esz) return out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(elementAs<double>(dtype, data.data(), i));
  return out;
}

uint32_t OpParams::u32(const std::string& name, uint32_t def) const {
  const ParamValue* p = find(name);
  return p ? static_cast<uint32_t>(static_cast<int64_t>(p->scalarAsDouble())) : def;
}
int32_t OpParams::i32(const std::string& name, int32_t def) const {
  const ParamValue* p = find(name);
  return p ? static_cast<int32_t>(p->scalarAsDouble()) : def;
}
float OpParams::f32(const std::string& name, float def) const {
  const ParamValue* p = find(name);
  return p ? static_cast<float>(p->scalarAsDouble()) : def;
}
bool OpParams::b(const std::string& name, bool def) const {
  const ParamValue* p = find(name);
  return p ? p->scalarAsDouble() != 0.0 : def;
}
std::vector<int64_t> OpParams::ints(const std::string& name, std::vector<int64_t> def) const {
  const ParamValue* p = find(name);
  return p ? p->tensorAsInt64() : def;
}
std::vector<double> OpParams::floats(const std::string& name, std::vector<double> def) const {
  const ParamValue* p = find(name);
  return p ? p->tensorAsDouble() : def;
}
std::vector<uint32_t> OpParams::dims(const std::string& name) const {
  const ParamValue* p = find(name);
  return p && p->isTensor ? p->dims : std::vector<uint32_t>{};
}

ParamValue scalarU32(uint32_t v) {
  ParamValue p;
  p.dtype = DType::kUInt32;
  p.scalar.u32 = v;
  return p;
}
ParamValue scalarI32(int32_t v) {
  ParamValue p;
  p.dtype = DType::kInt32;
  p.scalar.i32 = v;
  return p;
}
ParamValue scalarF32(float v) {
  ParamValue p;
  p.dtype = DType::kFloat32;
  p.scalar.f32 = v;
  return p;
}
ParamValue scalarBool(bool v) {
  ParamValue p;
  p.dtype = DType::kBool8;
  p.scalar.b8 = v ? 1 : 0;
  return p;
}

template <typename T>
static ParamValue tensorOf(DType t, std::vector<uint32_t> dims, const std::vector<T>& values) {
  ParamValue p;
  p.isTensor = true;
  p.dtype = t;
  p.dims = std::move(dims);
  p.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(p.data.data(), values.data(), p.data.size());
  return p;
}
ParamValue tensorU32(std::vector<uint32_t> dims, const std::vector<uint32_t>& values) {
  return tensorOf(DType::kUInt32, std::move(dims), values);
}
ParamValue tensorI32(std::vector<uint32_t> dims, const std::vector<int32_t>& values) {
  return tensorOf(DType::kInt32, std::move(dims), values);
}
ParamValue tensorF32(std::vector<uint32_t> dims, const std::vector<float>& values) {
  return tensorOf(DType::kFloat32, std::move(dims), values);
}

}  // namespace qnn::sdk
