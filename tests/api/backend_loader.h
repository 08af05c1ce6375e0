// Test helper: loads a backend library with dlopen and picks its provider, the
// way client applications do. Uses only the public headers.
#pragma once

#include <dlfcn.h>

#include <string>
#include <utility>
#include <vector>

#include "CPU/QnnCpuCommon.h"
#include "QnnInterface.h"

namespace qnn::test {

class LoadedBackend {
 public:
  explicit LoadedBackend(const std::string& path) {
    lib_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib_) {
      error_ = dlerror();
      return;
    }
    using GetProviders = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
    auto get = reinterpret_cast<GetProviders>(dlsym(lib_, "QnnInterface_getProviders"));
    if (!get) {
      error_ = "QnnInterface_getProviders not exported";
      return;
    }
    const QnnInterface_t** providers = nullptr;
    uint32_t n = 0;
    if (get(&providers, &n) != QNN_SUCCESS || n == 0) {
      error_ = "no providers";
      return;
    }
    for (uint32_t i = 0; i < n; ++i) {
      const Qnn_Version_t& v = providers[i]->apiVersion.coreApiVersion;
      if (v.major == QNN_API_VERSION_MAJOR && v.minor >= QNN_API_VERSION_MINOR) {
        provider_ = providers[i];
        break;
      }
    }
    if (!provider_) error_ = "no provider with a compatible API version";
  }
  ~LoadedBackend() {
    if (lib_) dlclose(lib_);
  }
  LoadedBackend(const LoadedBackend&) = delete;
  LoadedBackend& operator=(const LoadedBackend&) = delete;

  // API 2.39's table (include/QNN is 2.32): 2.32's 71 members, then the four 2.39 appends.
  struct Table2_39 {
    QNN_INTERFACE_VER_TYPE v2_32;
    QnnContext_AddToDlcFn_t contextAddToDlc;
    QnnGraph_ValidateFn_t graphValidate;
    QnnGraph_FreeValidationResultFn_t graphFreeValidationResult;
    QnnBackend_RegisterOpPackageFromBinaryFn_t backendRegisterOpPackageFromBinary;
  };
  struct Interface2_39 {
    uint32_t backendId;
    const char* providerName;
    Qnn_ApiVersion_t apiVersion;
    Table2_39 table;
  };
  // The library's 2.39 provider, asked for by name (OpenQnn_getProvidersForClientApi(2, 39),
  // whatever QNN_OPENQNN_PROVIDER_API says); null when it has none.
  const Interface2_39* provider2_39() const {
    using ForApi = Qnn_ErrorHandle_t (*)(uint32_t, uint32_t, const void***, uint32_t*);
    auto forApi = lib_ ? reinterpret_cast<ForApi>(dlsym(lib_, "OpenQnn_getProvidersForClientApi")) : nullptr;
    const void** list = nullptr;
    uint32_t n = 0;
    if (!forApi || forApi(QNN_API_VERSION_MAJOR, 39, &list, &n) != QNN_SUCCESS || n == 0) return nullptr;
    return static_cast<const Interface2_39*>(list[0]);
  }
  const Table2_39& api2_39() const { return provider2_39()->table; }

  bool ok() const { return provider_ != nullptr; }
  const std::string& error() const { return error_; }
  const QnnInterface_t& provider() const { return *provider_; }
  const QNN_INTERFACE_VER_TYPE& api() const { return provider_->QNN_INTERFACE_VER_NAME; }

 private:
  void* lib_ = nullptr;
  const QnnInterface_t* provider_ = nullptr;
  std::string error_;
};

// Paths of the backends under test, set by CMake.
inline std::string cpuBackendPath() { return QNN_TEST_CPU_BACKEND_PATH; }
#ifdef QNN_TEST_HTP_BACKEND_PATH
inline std::string htpBackendPath() { return QNN_TEST_HTP_BACKEND_PATH; }
#endif

// Builds Qnn_Tensor_t values whose name and dims storage live in the object.
struct TensorSpec {
  std::string name;
  std::vector<uint32_t> dims;
  Qnn_Tensor_t tensor = QNN_TENSOR_INIT;

  TensorSpec(std::string n, Qnn_TensorType_t type, Qnn_DataType_t dtype, std::vector<uint32_t> d,
             void* data = nullptr, uint32_t dataSize = 0)
      : name(std::move(n)), dims(std::move(d)) {
    tensor.version = QNN_TENSOR_VERSION_1;
    tensor.v1.name = name.c_str();
    tensor.v1.type = type;
    tensor.v1.dataType = dtype;
    tensor.v1.dataFormat = QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER;
    tensor.v1.rank = static_cast<uint32_t>(dims.size());
    tensor.v1.dimensions = dims.data();
    tensor.v1.memType = QNN_TENSORMEMTYPE_RAW;
    tensor.v1.clientBuf.data = data;
    tensor.v1.clientBuf.dataSize = dataSize;
  }
  // Copies must re-point name/dims at their own storage.
  TensorSpec(const TensorSpec& o) : name(o.name), dims(o.dims), tensor(o.tensor) {
    tensor.v1.name = name.c_str();
    tensor.v1.dimensions = dims.data();
  }
};

// Op params for Qnn_OpConfig_t. A tensor param borrows `spec`'s tensor (and its storage).
inline Qnn_Param_t tensorParam(const char* name, const TensorSpec& spec) {
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_TENSOR;
  p.name = name;
  p.tensorParam = spec.tensor;
  return p;
}
inline Qnn_Param_t u32Param(const char* name, uint32_t v) {
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_SCALAR;
  p.name = name;
  p.scalarParam.dataType = QNN_DATATYPE_UINT_32;
  p.scalarParam.uint32Value = v;
  return p;
}
inline Qnn_Param_t boolParam(const char* name, bool v) {
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_SCALAR;
  p.name = name;
  p.scalarParam.dataType = QNN_DATATYPE_BOOL_8;
  p.scalarParam.bool8Value = v;
  return p;
}
inline Qnn_Param_t f32Param(const char* name, float v) {
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_SCALAR;
  p.name = name;
  p.scalarParam.dataType = QNN_DATATYPE_FLOAT_32;
  p.scalarParam.floatValue = v;
  return p;
}

// The context's binary (QnnContext_getBinarySize + getBinary); empty when
// either call fails.
inline std::vector<uint8_t> contextBinary(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx) {
  Qnn_ContextBinarySize_t size = 0, written = 0;
  if (api.contextGetBinarySize(ctx, &size) != QNN_SUCCESS) return {};
  std::vector<uint8_t> bin(size);
  if (api.contextGetBinary(ctx, bin.data(), size, &written) != QNN_SUCCESS) return {};
  bin.resize(written);
  return bin;
}

}  // namespace qnn::test
