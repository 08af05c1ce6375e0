// QnnProfile entry points.
#include "runtime/runtime.h"

#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

Qnn_ErrorHandle_t Runtime::profileCreate(Qnn_BackendHandle_t backend, QnnProfile_Level_t level,
                                         Qnn_ProfileHandle_t* profile) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return refuse(nullptr, "QnnProfile_create", "backend is not a live backend handle", QNN_PROFILE_ERROR_INVALID_HANDLE);
    if (!profile) return refuse(loggerOf(b), "QnnProfile_create", "profile (the handle out) is null", QNN_PROFILE_ERROR_INVALID_ARGUMENT);
    if (level != QNN_PROFILE_LEVEL_BASIC && level != QNN_PROFILE_LEVEL_DETAILED)
      return refuse(loggerOf(b), "QnnProfile_create",
                    "level " + std::to_string(level) + " is not supported (BASIC 1 and DETAILED 2 are)",
                    QNN_PROFILE_ERROR_UNSUPPORTED);
    *profile = handles().add(std::make_shared<ProfileObject>(level));
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetEvents(Qnn_ProfileHandle_t profile, const QnnProfile_EventId_t** events,
                                            uint32_t* numEvents) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto p = handles().get<ProfileObject>(profile, HandleKind::kProfile);
    if (!p) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!events || !numEvents) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    p->topLevelEvents(events, numEvents);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetSubEvents(QnnProfile_EventId_t event, const QnnProfile_EventId_t** subEvents,
                                               uint32_t* numSubEvents) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!subEvents || !numSubEvents) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    const std::vector<QnnProfile_EventId_t>* subs = nullptr;
    if (!getProfileEvent(event, nullptr, &subs)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    *subEvents = subs->data();
    *numSubEvents = static_cast<uint32_t>(subs->size());
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetEventData(QnnProfile_EventId_t event, QnnProfile_EventData_t* data) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!data) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    return getProfileEvent(event, data, nullptr) ? QNN_SUCCESS : QNN_PROFILE_ERROR_INVALID_HANDLE;
  });
}

// Options are checked whole before any takes effect; the last of one option wins.
Qnn_ErrorHandle_t Runtime::profileSetConfig(Qnn_ProfileHandle_t profile, const QnnProfile_Config_t** config) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto p = handles().get<ProfileObject>(profile, HandleKind::kProfile);
    if (!p) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!config) return QNN_SUCCESS;
    const Logger* log = anyLogger().get();
    bool setMax = false, setTrace = false, trace = false;
    uint64_t maxEvents = 0;
    for (size_t i = 0; config[i]; ++i) {
      const QnnProfile_Config_t& c = *config[i];
      switch (c.option) {
        case QNN_PROFILE_CONFIG_OPTION_MAX_EVENTS:
          if (c.numMaxEvents == 0) {
            logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnProfile_setConfig: MAX_EVENTS must be at least 1");
            return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
          }
          setMax = true;
          maxEvents = c.numMaxEvents;
          break;
        case QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE:
          if (c.enableOptrace > 1)
            return refuse(log, "QnnProfile_setConfig",
                          "ENABLE_OPTRACE must be 0 or 1, got " + std::to_string(c.enableOptrace),
                          QNN_PROFILE_ERROR_INVALID_ARGUMENT);
          if (c.enableOptrace && !desc_.opTrace) {
            logMessage(log, QNN_LOG_LEVEL_ERROR,
                       std::string("QnnProfile_setConfig: the ") + desc_.providerName + " backend records no op trace");
            return QNN_PROFILE_ERROR_UNSUPPORTED;
          }
          setTrace = true;
          trace = c.enableOptrace != 0;
          break;
        case QNN_PROFILE_CONFIG_OPTION_CUSTOM:
          logMessage(log, QNN_LOG_LEVEL_ERROR,
                     std::string("QnnProfile_setConfig: the ") + desc_.providerName +
                         " backend defines no custom profile config");
          return QNN_PROFILE_ERROR_UNSUPPORTED;
        default:
          logMessage(log, QNN_LOG_LEVEL_ERROR,
                     "QnnProfile_setConfig: unknown option " + std::to_string(static_cast<uint32_t>(c.option)));
          return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
      }
    }
    if (p->users.load() > 0)
      return refuse(log, "QnnProfile_setConfig", "the profile is in use by an execute", QNN_PROFILE_ERROR_HANDLE_IN_USE);
    if (setMax) p->setMaxEvents(maxEvents);
    if (setTrace) p->opTrace = trace;
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetExtendedEventData(QnnProfile_EventId_t event,
                                                       QnnProfile_ExtendedEventData_t* data) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!data) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    return getProfileExtendedEvent(event, data) ? QNN_SUCCESS : QNN_PROFILE_ERROR_INVALID_HANDLE;
  });
}

Qnn_ErrorHandle_t Runtime::profileFree(Qnn_ProfileHandle_t profile) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    // "cannot be freed when it is bound to another API component or in use by an API call" (QnnProfile.h)
    if (auto p = handles().get<ProfileObject>(profile, HandleKind::kProfile); p && (p->boundGraph.load() || p->users > 0)) {
      logMessage(anyLogger().get(), QNN_LOG_LEVEL_ERROR,
                 "QnnProfile_free: the profile is bound to a graph or in use by a call");
      return QNN_PROFILE_ERROR_HANDLE_IN_USE;
    }
    return handles().remove(profile, HandleKind::kProfile) ? QNN_SUCCESS : QNN_PROFILE_ERROR_INVALID_HANDLE;
  });
}

}  // namespace qnn::sdk
