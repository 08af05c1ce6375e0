// Context and memory entries. Without pass-through, context binaries are a
// Saver placeholder: getBinary hands out a few marker bytes and
// createFromBinary accepts any buffer (its bytes are recorded).
#include <cstring>

#include "saver/saver_api.h"
#include "saver/saver_forward.h"
#include "saver/saver_notify.h"

namespace qnn::saver {

using trace::Value;

namespace {
constexpr char kPlaceholderBinary[] = "QNN-SAVER-PLACEHOLDER-BINARY";
}

Qnn_ErrorHandle_t contextCreate(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                const QnnContext_Config_t** config, Qnn_ContextHandle_t* context) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rb = nullptr, *rd = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &rb)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "device", device, Kind::Device, true, &rd)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    if (!context) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    void* real = nullptr;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->contextCreate, rb, rd, config, &real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "context", Kind::Context, real, context, backend);
    return rc;
  });
}

Qnn_ErrorHandle_t contextSetConfig(Qnn_ContextHandle_t context, const QnnContext_Config_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    return pass() ? forward(pass()->contextSetConfig, real, config) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t contextGetBinarySize(Qnn_ContextHandle_t context, Qnn_ContextBinarySize_t* size) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!size) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) rc = forward(pass()->contextGetBinarySize, real, size);
    else *size = sizeof kPlaceholderBinary;
    if (rc == QNN_SUCCESS) a.add("binaryBufferSize", Value::uint(*size));
    return rc;
  });
}

Qnn_ErrorHandle_t contextGetBinary(Qnn_ContextHandle_t context, void* buffer, Qnn_ContextBinarySize_t bufferSize,
                                   Qnn_ContextBinarySize_t* written) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    a.add("binaryBufferSize", Value::uint(bufferSize));
    if (!buffer || !written) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) {
      rc = forward(pass()->contextGetBinary, real, buffer, bufferSize, written);
    } else {
      if (bufferSize < sizeof kPlaceholderBinary) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
      std::memcpy(buffer, kPlaceholderBinary, sizeof kPlaceholderBinary);
      *written = sizeof kPlaceholderBinary;
    }
    if (rc == QNN_SUCCESS) {
      a.add("writtenBufferSize", Value::uint(*written));
      a.add("binary", SaverState::get().blob(buffer, *written));
    }
    return rc;
  });
}

Qnn_ErrorHandle_t contextCreateFromBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                          const QnnContext_Config_t** config, const void* buffer,
                                          Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                          Qnn_ProfileHandle_t profile) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rb = nullptr, *rd = nullptr, *rp = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &rb)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "device", device, Kind::Device, true, &rd)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    if (!buffer || !size || !context) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("binary", SaverState::get().blob(buffer, size));
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    void* real = nullptr;
    Qnn_ErrorHandle_t rc =
        pass() ? forward(pass()->contextCreateFromBinary, rb, rd, config, buffer, size, &real, rp) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "context", Kind::Context, real, context, backend);
    return rc;
  });
}

Qnn_ErrorHandle_t contextCreateFromBinaryWithSignal(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                    const QnnContext_Config_t** config, const void* buffer,
                                                    Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                                    Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rb = nullptr, *rd = nullptr, *rp = nullptr, *rs = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &rb)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "device", device, Kind::Device, true, &rd)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    if (!buffer || !size || !context) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("binary", SaverState::get().blob(buffer, size));
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    void* real = nullptr;
    Qnn_ErrorHandle_t rc =
        pass() ? forward(pass()->contextCreateFromBinaryWithSignal, rb, rd, config, buffer, size, &real, rp, rs)
               : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "context", Kind::Context, real, context, backend);
    return rc;
  });
}

// The callback's functions are the client's: forwarded as they are (the
// backend calls them on the client's data); the trace keeps the binary and the
// callback's type.
Qnn_ErrorHandle_t contextCreateFromBinaryWithCallback(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                      const QnnContext_Config_t** config,
                                                      const Qnn_ContextBinaryCallback_t* callback, const void* buffer,
                                                      Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                                      Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rb = nullptr, *rd = nullptr, *rp = nullptr, *rs = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &rb)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "device", device, Kind::Device, true, &rd)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    if (!buffer || !size || !context || !callback) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("callbackType", Value::uint(uint32_t(callback->type)));
    a.add("binary", SaverState::get().blob(buffer, size));
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    void* real = nullptr;
    Qnn_ErrorHandle_t rc =
        pass() ? forward(pass()->contextCreateFromBinaryWithCallback, rb, rd, config, callback, buffer, size, &real, rp, rs)
               : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "context", Kind::Context, real, context, backend);
    return rc;
  });
}

Qnn_ErrorHandle_t contextValidateBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                        const QnnContext_Config_t** config, const void* buffer,
                                        Qnn_ContextBinarySize_t size) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rb = nullptr, *rd = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &rb)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "device", device, Kind::Device, true, &rd)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    if (!buffer || !size) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("binary", SaverState::get().blob(buffer, size));
    return pass() ? forward(pass()->contextValidateBinary, rb, rd, config, buffer, size) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t contextFree(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *real = nullptr, *rp = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!pass()) asyncNotifier().drain();  // its graphs' executions are finished first, as on a backend
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->contextFree, real, rp) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) forget(context);
    return rc;
  });
}

Qnn_ErrorHandle_t memRegister(Qnn_ContextHandle_t context, const Qnn_MemDescriptor_t* descriptors, uint32_t num,
                              Qnn_MemHandle_t* memHandles) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!descriptors || !memHandles || !num) return QNN_MEM_ERROR_INVALID_ARGUMENT;
    Value list = Value::list();
    for (uint32_t k = 0; k < num; ++k) {
      const Qnn_MemDescriptor_t& d = descriptors[k];
      Value v = Value::record();
      Value dims = Value::list();
      for (uint32_t i = 0; d.memShape.dimSize && i < d.memShape.numDim; ++i) dims.push(Value::uint(d.memShape.dimSize[i]));
      v.add("dims", std::move(dims));
      v.add("dataType", Value::uint(uint32_t(d.dataType)));
      v.add("memType", Value::uint(uint32_t(d.memType)));
      if (d.memType == QNN_MEM_TYPE_ION) v.add("fd", Value::sint(d.ionInfo.fd));
      if (d.memType == QNN_MEM_TYPE_DMA_BUF) v.add("fd", Value::sint(d.dmaBufInfo.fd));
      list.push(std::move(v));
    }
    a.add("memDescriptors", std::move(list));
    std::vector<Qnn_MemHandle_t> reals(num, nullptr);
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->memRegister, real, descriptors, num, reals.data()) : QNN_SUCCESS;
    if (rc != QNN_SUCCESS) return rc;
    Value out = Value::list();
    for (uint32_t k = 0; k < num; ++k) {
      memHandles[k] = handles().add(Kind::Mem, reals[k], context);
      SaverState::get().memViews().add(memHandles[k], descriptors[k]);
      out.push(handleValue(memHandles[k]));
    }
    a.add("memHandles", std::move(out));
    return rc;
  });
}

Qnn_ErrorHandle_t memDeRegister(const Qnn_MemHandle_t* memHandles, uint32_t num) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    if (!memHandles || !num) return QNN_MEM_ERROR_INVALID_ARGUMENT;
    Value list = Value::list();
    std::vector<Qnn_MemHandle_t> reals(num, nullptr);
    for (uint32_t k = 0; k < num; ++k) {
      list.push(handleValue(memHandles[k]));
      if (!handles().find(memHandles[k], Kind::Mem, &reals[k])) {
        a.add("memHandles", std::move(list));
        return QNN_MEM_ERROR_INVALID_HANDLE;
      }
    }
    a.add("memHandles", std::move(list));
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->memDeRegister, reals.data(), num) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS)
      for (uint32_t k = 0; k < num; ++k) {
        forget(memHandles[k]);
      }
    return rc;
  });
}

// QnnContext_addToDlc: the DLC handle is libQnnSystem's (not one the Saver
// hands out), recorded by value.
Qnn_ErrorHandle_t contextAddToDlc(Qnn_ContextHandle_t context, QnnSystemDlc_Handle_t dlc) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    a.add("dlcHandle", Value::uint(uint64_t(reinterpret_cast<uintptr_t>(dlc))));
    if (!dlc) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    return pass() ? forward(pass()->contextAddToDlc, real, dlc) : QNN_SUCCESS;
  });
}

}  // namespace qnn::saver
