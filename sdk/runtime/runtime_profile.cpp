// QnnProfile entry points.
#include "runtime/runtime.h"

#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

Qnn_ErrorHandle_t Runtime::profileCreate(Qnn_BackendHandle_t backend, QnnProfile_Level_t level,
                                         Qnn_ProfileHandle_t* profile) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!handles().get<BackendObject>(backend, HandleKind::kBackend)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!profile) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    if (level != QNN_PROFILE_LEVEL_BASIC && level != QNN_PROFILE_LEVEL_DETAILED) return QNN_PROFILE_ERROR_UNSUPPORTED;
    *profile = handles().add(std::make_shared<ProfileObject>(level));
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetEvents(Qnn_ProfileHandle_t profile, const QnnProfile_EventId_t** events,
                                            uint32_t* numEvents) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto p = handles().get<ProfileObject>(profile, HandleKind::kProfile);
    if (!p) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!events || !numEvents) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    const auto& top = p->topLevelEvents();
    *events = top.data();
    *numEvents = static_cast<uint32_t>(top.size());
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetSubEvents(QnnProfile_EventId_t event, const QnnProfile_EventId_t** subEvents,
                                               uint32_t* numSubEvents) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!subEvents || !numSubEvents) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    const std::vector<QnnProfile_EventId_t>* subs = nullptr;
    if (!getProfileEvent(event, nullptr, &subs)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    *subEvents = subs->data();
    *numSubEvents = static_cast<uint32_t>(subs->size());
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetEventData(QnnProfile_EventId_t event, QnnProfile_EventData_t* data) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!data) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    return getProfileEvent(event, data, nullptr) ? QNN_SUCCESS : QNN_PROFILE_ERROR_INVALID_HANDLE;
  });
}

Qnn_ErrorHandle_t Runtime::profileFree(Qnn_ProfileHandle_t profile) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    return handles().remove(profile, HandleKind::kProfile) ? QNN_SUCCESS : QNN_PROFILE_ERROR_INVALID_HANDLE;
  });
}

}  // namespace qnn::sdk
