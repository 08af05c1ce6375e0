// QnnDevice entry points: platform info, infrastructure, device handles.
#include "runtime/runtime.h"

#include <map>
#include <mutex>
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {
// A backend without a device description (the CPU) answers platform-info queries
// as the vendor's CPU backend does: not supported. Clients written for the HTP
// read deviceInfoExtension unchecked, so a device without one would crash them;
// they all handle this error (docs/compatibility.md).
Qnn_ErrorHandle_t noPlatformInfo(const char* api) {
  logMessage(anyLogger().get(), QNN_LOG_LEVEL_INFO,
             std::string(api) + ": this backend describes no hardware devices (QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE)");
  return QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE;
}

// Validates device configs; the backend's custom configs go into `settings`.
Status applyDeviceConfig(BackendHooks* hooks, const QnnDevice_Config_t** config, BackendSettings* settings,
                         ConfigWarnings* warnings) {
  if (!config) return Status::ok();
  for (size_t i = 0; config[i]; ++i) {
    if (config[i]->option == QNN_DEVICE_CONFIG_OPTION_CUSTOM) {
      if (hooks && config[i]->customConfig)
        QNN_SDK_RETURN_IF_ERROR(hooks->applyDeviceCustomConfig(config[i]->customConfig, settings, warnings));
    } else if (config[i]->option == QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO) {
      if (!config[i]->hardwareInfo) return invalidArgument("QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO with null hardwareInfo");
      if (hooks) QNN_SDK_RETURN_IF_ERROR(hooks->applyDevicePlatformInfo(*config[i]->hardwareInfo, settings, warnings));
    } else {
      return invalidArgument("unknown device config option " + std::to_string(config[i]->option));
    }
  }
  return Status::ok();
}

// Platform infos handed out by QnnDevice_getPlatformInfo until the client frees them.
std::mutex gPlatformInfoMutex;
std::map<const QnnDevice_PlatformInfo_t*, std::unique_ptr<PlatformInfoStorage>> gPlatformInfos;
}  // namespace

Qnn_ErrorHandle_t Runtime::deviceGetPlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t** info) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (logger && !handles().get<Logger>(logger, HandleKind::kLog)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    if (!info) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    std::unique_ptr<PlatformInfoStorage> storage = desc_.hooks ? desc_.hooks->platformInfo(globalSettings()) : nullptr;
    if (!storage) return noPlatformInfo("QnnDevice_getPlatformInfo");
    std::lock_guard<std::mutex> lock(gPlatformInfoMutex);
    const QnnDevice_PlatformInfo_t* p = storage->info();
    gPlatformInfos[p] = std::move(storage);
    *info = p;
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceFreePlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t* info) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (logger && !handles().get<Logger>(logger, HandleKind::kLog)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    std::lock_guard<std::mutex> lock(gPlatformInfoMutex);
    return gPlatformInfos.erase(info) ? QNN_SUCCESS : QNN_DEVICE_ERROR_INVALID_ARGUMENT;
  });
}

Qnn_ErrorHandle_t Runtime::deviceGetInfrastructure(const QnnDevice_Infrastructure_t* infra) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!infra) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    if (!desc_.hooks) {
      logMessage(anyLogger().get(), QNN_LOG_LEVEL_ERROR, "QnnDevice_getInfrastructure: this backend has none");
      return QNN_COMMON_ERROR_NOT_SUPPORTED;
    }
    Status st = desc_.hooks->getInfrastructure(infra);
    if (!st.isOk()) return fail(anyLogger().get(), ApiGroup::kDevice, "QnnDevice_getInfrastructure", st);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceCreate(Qnn_LogHandle_t logger, const QnnDevice_Config_t** config,
                                        Qnn_DeviceHandle_t* device) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!device) return refuse(nullptr, "QnnDevice_create", "device (the handle out) is null", QNN_DEVICE_ERROR_INVALID_ARGUMENT);
    auto d = std::make_shared<DeviceObject>();
    if (logger && !(d->logger = handles().get<Logger>(logger, HandleKind::kLog)))
      return refuse(nullptr, "QnnDevice_create", "logger is not a live log handle of this library",
                    QNN_DEVICE_ERROR_INVALID_HANDLE);
    d->settings = globalSettings();
    ConfigWarnings warnings;
    Status st = applyDeviceConfig(desc_.hooks.get(), config, &d->settings, &warnings);
    const Logger* log = d->logger ? d->logger.get() : anyLogger().get();
    if (!st.isOk()) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnDevice_create: " + st.message());
      return QNN_DEVICE_ERROR_INVALID_CONFIG;
    }
    logConfigWarnings(log, "QnnDevice_create", warnings);
    *device = handles().add(d);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceSetConfig(Qnn_DeviceHandle_t device, const QnnDevice_Config_t** config) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto d = handles().get<DeviceObject>(device, HandleKind::kDevice);
    if (!d) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    std::lock_guard<std::mutex> lock(d->mutex);
    BackendSettings updated = d->settings;
    ConfigWarnings warnings;
    Status st = applyDeviceConfig(desc_.hooks.get(), config, &updated, &warnings);
    const Logger* log = d->logger ? d->logger.get() : anyLogger().get();
    if (!st.isOk()) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnDevice_setConfig: " + st.message());
      return QNN_DEVICE_ERROR_INVALID_CONFIG;
    }
    logConfigWarnings(log, "QnnDevice_setConfig", warnings);
    d->settings = std::move(updated);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceGetInfo(Qnn_DeviceHandle_t device, const QnnDevice_PlatformInfo_t** info) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto d = handles().get<DeviceObject>(device, HandleKind::kDevice);
    if (!d) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    if (!info) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(d->mutex);
    if (d->infos.empty() || d->infoSettings != d->settings) {
      std::unique_ptr<PlatformInfoStorage> storage = desc_.hooks ? desc_.hooks->platformInfo(d->settings) : nullptr;
      if (!storage) return noPlatformInfo("QnnDevice_getInfo");
      d->infos.push_back(std::move(storage));
      d->infoSettings = d->settings;
    }
    *info = d->infos.back()->info();
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceFree(Qnn_DeviceHandle_t device) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    return handles().remove(device, HandleKind::kDevice) ? QNN_SUCCESS : QNN_DEVICE_ERROR_INVALID_HANDLE;
  });
}

}  // namespace qnn::sdk
