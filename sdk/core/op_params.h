// OpParams: the parameters of one node, copied out of the client's Qnn_Param_t
// array when the node is added (the node owns them from then on).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace qnn::sdk {

struct ParamValue {
  bool isTensor = false;  // false: a scalar
  DType dtype = DType::kUndefined;
  // Scalars are kept as raw 8 bytes of the scalar's own type (as in Qnn_Scalar_t).
  union {
    int64_t i64;
    uint64_t u64;
    double f64;
    float f32;
    int32_t i32;
    uint32_t u32;
    uint8_t b8;
  } scalar{};
  std::vector<uint32_t> dims;  // tensor params
  std::vector<uint8_t> data;   // tensor params: dtypeSize(dtype) * numElements bytes

  // Numeric conversions used by kernels; a tensor param converts element-wise.
  double scalarAsDouble() const;
  std::vector<int64_t> tensorAsInt64() const;
  std::vector<double> tensorAsDouble() const;
  size_t numElements() const;
};

class OpParams {
 public:
  void set(const std::string& name, ParamValue v) { params_[name] = std::move(v); }
  bool has(const std::string& name) const { return params_.count(name) != 0; }
  const ParamValue* find(const std::string& name) const {
    auto it = params_.find(name);
    return it == params_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, ParamValue>& all() const { return params_; }

  // Typed getters with the op definition's default when the param is absent.
  uint32_t u32(const std::string& name, uint32_t def) const;
  int32_t i32(const std::string& name, int32_t def) const;
  float f32(const std::string& name, float def) const;
  bool b(const std::string& name, bool def) const;
  std::vector<int64_t> ints(const std::string& name, std::vector<int64_t> def) const;
  std::vector<double> floats(const std::string& name, std::vector<double> def) const;
  // Dims of a tensor param, empty if absent or scalar.
  std::vector<uint32_t> dims(const std::string& name) const;

 private:
  std::map<std::string, ParamValue> params_;
};

}  // namespace qnn::sdk

namespace qnn::sdk {
// Builders, used by tests and by the code that copies client params.
ParamValue scalarU32(uint32_t v);
ParamValue scalarI32(int32_t v);
ParamValue scalarF32(float v);
ParamValue scalarBool(bool v);
ParamValue tensorU32(std::vector<uint32_t> dims, const std::vector<uint32_t>& values);
ParamValue tensorI32(std::vector<uint32_t> dims, const std::vector<int32_t>& values);
ParamValue tensorF32(std::vector<uint32_t> dims, const std::vector<float>& values);
}  // namespace qnn::sdk
