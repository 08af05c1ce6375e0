// Profile, device and signal entries. Without pass-through a profile has no
// events and the platform info is empty: nothing ran, nothing was measured.
#include "saver/saver_api.h"
#include "saver/saver_forward.h"

namespace qnn::saver {

using trace::Value;

namespace {

Value eventList(const QnnProfile_EventId_t* events, uint32_t n) {
  Value v = Value::list();
  for (uint32_t k = 0; events && k < n; ++k) v.push(Value::uint(events[k]));
  return v;
}

}  // namespace

Qnn_ErrorHandle_t profileCreate(Qnn_BackendHandle_t backend, QnnProfile_Level_t level, Qnn_ProfileHandle_t* profile) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* rb = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &rb)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    a.add("level", Value::uint(uint32_t(level)));
    if (!profile) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    void* real = nullptr;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->profileCreate, rb, level, &real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "profile", Kind::Profile, real, profile, backend);
    return rc;
  });
}

Qnn_ErrorHandle_t profileGetEvents(Qnn_ProfileHandle_t profile, const QnnProfile_EventId_t** events, uint32_t* num) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "profile", profile, Kind::Profile, false, &real)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!events || !num) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) rc = forward(pass()->profileGetEvents, real, events, num);
    else *events = nullptr, *num = 0;
    if (rc == QNN_SUCCESS) a.add("events", eventList(*events, *num));
    return rc;
  });
}

Qnn_ErrorHandle_t profileGetSubEvents(QnnProfile_EventId_t event, const QnnProfile_EventId_t** subEvents,
                                      uint32_t* num) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("eventId", Value::uint(event));
    if (!subEvents || !num) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    // Event ids are the backend's own numbers, passed through unmapped.
    Qnn_ErrorHandle_t rc = QNN_SUCCESS;
    if (pass()) rc = forward(pass()->profileGetSubEvents, event, subEvents, num);
    else *subEvents = nullptr, *num = 0;
    if (rc == QNN_SUCCESS) a.add("subEvents", eventList(*subEvents, *num));
    return rc;
  });
}

Qnn_ErrorHandle_t profileGetEventData(QnnProfile_EventId_t event, QnnProfile_EventData_t* data) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("eventId", Value::uint(event));
    if (!data) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    if (!pass()) return QNN_PROFILE_ERROR_INVALID_HANDLE;  // no events exist when only recording
    Qnn_ErrorHandle_t rc = forward(pass()->profileGetEventData, event, data);
    if (rc == QNN_SUCCESS) {
      a.add("type", Value::uint(data->type));
      a.add("value", Value::uint(data->value));
      a.add("unit", Value::uint(uint32_t(data->unit)));
      a.add("identifier", Value::str(data->identifier));
    }
    return rc;
  });
}

Qnn_ErrorHandle_t profileFree(Qnn_ProfileHandle_t profile) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "profile", profile, Kind::Profile, false, &real)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->profileFree, real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) forget(profile);
    return rc;
  });
}

Qnn_ErrorHandle_t deviceGetPlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t** info) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* rl = nullptr;
    if (!useHandle(a, "logger", logger, Kind::Log, true, &rl)) return QNN_LOG_ERROR_INVALID_HANDLE;
    if (!info) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    static const QnnDevice_PlatformInfo_t empty = QNN_DEVICE_PLATFORM_INFO_INIT;
    if (!pass()) {
      *info = &empty;
      return QNN_SUCCESS;
    }
    return forward(pass()->deviceGetPlatformInfo, rl, info);
  });
}

Qnn_ErrorHandle_t deviceFreePlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t* info) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* rl = nullptr;
    if (!useHandle(a, "logger", logger, Kind::Log, true, &rl)) return QNN_LOG_ERROR_INVALID_HANDLE;
    if (!info) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    return pass() ? forward(pass()->deviceFreePlatformInfo, rl, info) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t deviceCreate(Qnn_LogHandle_t logger, const QnnDevice_Config_t** config, Qnn_DeviceHandle_t* device) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* rl = nullptr;
    if (!useHandle(a, "logger", logger, Kind::Log, true, &rl)) return QNN_LOG_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    if (!device) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    void* real = nullptr;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->deviceCreate, rl, config, &real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "device", Kind::Device, real, device);
    return rc;
  });
}

Qnn_ErrorHandle_t deviceSetConfig(Qnn_DeviceHandle_t device, const QnnDevice_Config_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "device", device, Kind::Device, false, &real)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    return pass() ? forward(pass()->deviceSetConfig, real, config) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t deviceGetInfo(Qnn_DeviceHandle_t device, const QnnDevice_PlatformInfo_t** info) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "device", device, Kind::Device, false, &real)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    if (!info) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    static const QnnDevice_PlatformInfo_t empty = QNN_DEVICE_PLATFORM_INFO_INIT;
    if (!pass()) {
      *info = &empty;
      return QNN_SUCCESS;
    }
    return forward(pass()->deviceGetInfo, real, info);
  });
}

Qnn_ErrorHandle_t deviceFree(Qnn_DeviceHandle_t device) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "device", device, Kind::Device, false, &real)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->deviceFree, real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) forget(device);
    return rc;
  });
}

Qnn_ErrorHandle_t signalCreate(Qnn_BackendHandle_t backend, const QnnSignal_Config_t** config,
                               Qnn_SignalHandle_t* signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* rb = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &rb)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    if (!signal) return QNN_SIGNAL_ERROR_INVALID_ARGUMENT;
    void* real = nullptr;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->signalCreate, rb, config, &real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) created(a, "signal", Kind::Signal, real, signal, backend);
    return rc;
  });
}

Qnn_ErrorHandle_t signalSetConfig(Qnn_SignalHandle_t signal, const QnnSignal_Config_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "signal", signal, Kind::Signal, false, &real)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(config));
    return pass() ? forward(pass()->signalSetConfig, real, config) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t signalTrigger(Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "signal", signal, Kind::Signal, false, &real)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    return pass() ? forward(pass()->signalTrigger, real) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t signalFree(Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "signal", signal, Kind::Signal, false, &real)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    Qnn_ErrorHandle_t rc = pass() ? forward(pass()->signalFree, real) : QNN_SUCCESS;
    if (rc == QNN_SUCCESS) forget(signal);
    return rc;
  });
}

}  // namespace qnn::saver
