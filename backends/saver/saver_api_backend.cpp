// Property, backend, log and error entries.
#include "QnnProperty.h"
#include "Saver/QnnSaver.h"
#include "Saver/QnnSaverCommon.h"
#include "saver/saver_api.h"
#include "saver/saver_forward.h"
#include "saver/saver_notify.h"
#include "QnnSdkBuildId.h"

namespace qnn::saver {

using trace::Value;

Qnn_ErrorHandle_t propertyHasCapability(QnnProperty_Key_t key) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("key", Value::uint(uint32_t(key)));
    // Recording alone answers as the vendor's Saver: QnnSaver.h lists QnnProperty_hasCapability
    // among the calls answering QNN_SAVER_ERROR_DUMMY_RETVALUE, and the SDK 2.13 library does
    // so for every key. Answering SUPPORTED sent the vendor's qnn-net-run 2.13 into its
    // asynchronous mode, which frees its graphs while its loader threads still read them.
    return pass() ? forward(pass()->propertyHasCapability, key) : Qnn_ErrorHandle_t(QNN_SAVER_ERROR_DUMMY_RETVALUE);
  });
}

Qnn_ErrorHandle_t backendCreate(Qnn_LogHandle_t logger, const QnnBackend_Config_t** config,
                                Qnn_BackendHandle_t* backend) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* realLog = nullptr;
    if (!useHandle(a, "logger", logger, Kind::Log, true, &realLog)) return QNN_LOG_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    if (!backend) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    void* real = nullptr;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->backendCreate, realLog, config, &real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "backend", Kind::Backend, real, backend);
    return rc;
  });
}

Qnn_ErrorHandle_t backendSetConfig(Qnn_BackendHandle_t backend, const QnnBackend_Config_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &real)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    return pass() ? forward(pass()->backendSetConfig, real, config) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t backendGetApiVersion(Qnn_ApiVersion_t* version) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    if (!version) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) {
      rc = forward(pass()->backendGetApiVersion, version);
    } else {
      *version = Qnn_ApiVersion_t QNN_SAVER_API_VERSION_INIT;
    }
    if (rc == QNN_SUCCESS) {
      Value v = Value::list();
      for (uint32_t x : {version->coreApiVersion.major, version->coreApiVersion.minor, version->coreApiVersion.patch,
                         version->backendApiVersion.major, version->backendApiVersion.minor,
                         version->backendApiVersion.patch})
        v.push(Value::uint(x));
      a.add("version", std::move(v));
    }
    return rc;
  });
}

Qnn_ErrorHandle_t backendGetBuildId(const char** id) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    if (!id) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) rc = forward(pass()->backendGetBuildId, id);
    else *id = QNN_SDK_BUILD_ID;
    if (rc == QNN_SUCCESS) a.add("id", Value::str(*id));
    return rc;
  });
}

Qnn_ErrorHandle_t backendRegisterOpPackage(Qnn_BackendHandle_t backend, const char* path, const char* provider,
                                           const char* target) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &real)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    a.add("packagePath", Value::str(path));
    a.add("interfaceProvider", Value::str(provider));
    a.add("target", Value::str(target));
    return pass() ? forward(pass()->backendRegisterOpPackage, real, path, provider, target) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t backendGetSupportedOperations(Qnn_BackendHandle_t backend, uint32_t* num,
                                                const QnnBackend_OperationName_t** ops) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &real)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!num || !ops) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) {
      rc = forward(pass()->backendGetSupportedOperations, real, num, ops);
    } else {
      *num = 0;  // recording only: no op is executed, none is claimed
      *ops = nullptr;
    }
    if (rc == QNN_SUCCESS) a.add("numOperations", Value::uint(*num));
    return rc;
  });
}

Qnn_ErrorHandle_t backendValidateOpConfig(Qnn_BackendHandle_t backend, Qnn_OpConfig_t op) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &real)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    a.add("opConfig", opConfigValue(op));
    return pass() ? forward(pass()->backendValidateOpConfig, real, op) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t backendFree(Qnn_BackendHandle_t backend) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &real)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!pass()) asyncNotifier().drain();
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->backendFree, real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) forget(backend);
    return rc;
  });
}

Qnn_ErrorHandle_t logCreate(QnnLog_Callback_t callback, QnnLog_Level_t level, Qnn_LogHandle_t* logger) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("hasCallback", Value::uint(callback != nullptr));
    a.add("maxLogLevel", Value::uint(uint32_t(level)));
    if (!logger) return QNN_LOG_ERROR_INVALID_ARGUMENT;
    void* real = nullptr;
    // The client's callback goes to the real backend unchanged: its messages are the real ones.
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->logCreate, callback, level, &real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "logger", Kind::Log, real, logger);
    return rc;
  });
}

Qnn_ErrorHandle_t logSetLogLevel(Qnn_LogHandle_t logger, QnnLog_Level_t level) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "logger", logger, Kind::Log, false, &real)) return QNN_LOG_ERROR_INVALID_HANDLE;
    a.add("maxLogLevel", Value::uint(uint32_t(level)));
    return pass() ? forward(pass()->logSetLogLevel, real, level) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t logFree(Qnn_LogHandle_t logger) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "logger", logger, Kind::Log, false, &real)) return QNN_LOG_ERROR_INVALID_HANDLE;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->logFree, real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) forget(logger);
    return rc;
  });
}

Qnn_ErrorHandle_t errorGetMessage(Qnn_ErrorHandle_t error, const char** message) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("errorHandle", Value::uint(error));
    if (!message) return QNN_COMMON_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) rc = forward(pass()->errorGetMessage, error, message);
    else *message = error == QNN_SUCCESS ? "success" : "error recorded by the QNN Saver";
    if (rc == QNN_SUCCESS) a.add("message", Value::str(*message));
    return rc;
  });
}

Qnn_ErrorHandle_t errorGetVerboseMessage(Qnn_ErrorHandle_t error, const char** message) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("errorHandle", Value::uint(error));
    if (!message) return QNN_COMMON_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) rc = forward(pass()->errorGetVerboseMessage, error, message);
    else *message = error == QNN_SUCCESS ? "success" : "error recorded by the QNN Saver";
    if (rc == QNN_SUCCESS) a.add("message", Value::str(*message));
    return rc;
  });
}

Qnn_ErrorHandle_t errorFreeVerboseMessage(const char* message) {
  return recorded([&](Value&) -> Qnn_ErrorHandle_t {
    if (!message) return QNN_COMMON_ERROR_INVALID_ARGUMENT;
    return pass() ? forward(pass()->errorFreeVerboseMessage, message) : QNN_SUCCESS;
  });
}

// QnnBackend_registerOpPackageFromBinary: the package's bytes as a blob, so a
// replay registers the same package.
Qnn_ErrorHandle_t backendRegisterOpPackageFromBinary(Qnn_BackendHandle_t backend, const void* buffer, uint64_t size,
                                                     const char* provider, const char* target) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &real)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (buffer && size) a.add("package", SaverState::get().blob(buffer, size));
    a.add("interfaceProvider", Value::str(provider));
    a.add("target", Value::str(target));
    if (!buffer || !size) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    return pass() ? forward(pass()->backendRegisterOpPackageFromBinary, real, buffer, size, provider, target)
                  : QNN_SUCCESS;
  });
}

}  // namespace qnn::saver
