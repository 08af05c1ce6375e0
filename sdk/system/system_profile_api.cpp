// QnnSystemProfile_* of libQnnSystem.so: a serialization target is a file that
// qnn-profile-viewer reads — the profiling log of docs/profiling-log-format.md, written by
// the same writer as the run tools (profile_log/profile_log.h). Every QnnSystemProfile_ProfileData_t
// (one method call's header and its events) becomes top-level events of that log: the
// header's method gives the phase, its graph name the graph, its start time (microseconds,
// taken relative to the target's first message) the start; sub-events nest as given. The
// file is rewritten whole (temporary file, then rename) after every serializeEventData
// call, so it is complete and readable at any time; a message cap
// (QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_CONFIG_MAX_NUM_MESSAGES, 0 = none) refuses
// messages past it rather than dropping them silently.
#include <cstdio>
#include <fstream>
#include <mutex>
#include <vector>

#include "System/QnnSystemProfile.h"
#include "profile_log/profile_log.h"
#include "system/system_guard.h"

namespace qnn::system {
namespace {

constexpr ComponentErrors kProfileErrors{QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT,
                                         QNN_SYSTEM_PROFILE_ERROR_INVALID_HANDLE,
                                         QNN_SYSTEM_PROFILE_ERROR_INVALID_ARGUMENT,
                                         QNN_SYSTEM_PROFILE_ERROR_UNSUPPORTED_FEATURE, QNN_COMMON_ERROR_GENERAL};
constexpr int kMaxDepth = 16;  // sub-event nesting accepted from the client

std::string phaseOf(QnnSystemProfile_MethodType_t m) {
  switch (m) {
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_EXECUTE:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_EXECUTE_ASYNC:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_APP_EXECUTE_IPS: return "execute";
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_FINALIZE:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_CONTEXT_FINALIZE:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_FINALIZE_TENSOR_UPDATES: return "finalize";
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_CREATE_FROM_BINARY:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_APP_CONTEXT_CREATE:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_APP_COMPOSE_GRAPHS:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_APP_BACKEND_LIB_LOAD:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_APPLY_BINARY_SECTION:
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_UPDATE_BINARY_SECTION: return "init";
    case QNN_SYSTEM_PROFILE_METHOD_TYPE_BACKEND_DEINIT: return "deinit";
    default: return "client";
  }
}

sdk::Status convertEvent(const QnnSystemProfile_ProfileEventV1_t& in, int depth, sdk::ProfileLogEvent* out) {
  if (depth > kMaxDepth) return sdk::invalidArgument("sub-events nest deeper than " + std::to_string(kMaxDepth));
  if (in.type == QNN_SYSTEM_PROFILE_EVENT_DATA) {
    out->type = in.eventData.type;
    out->unit = sdk::profileUnitName(in.eventData.unit);
    out->value = in.eventData.value;
    out->identifier = in.eventData.identifier ? in.eventData.identifier : "";
  } else if (in.type == QNN_SYSTEM_PROFILE_EXTENDED_EVENT_DATA) {
    const QnnProfile_ExtendedEventData_t& x = in.extendedEventData;
    if (x.version != QNN_PROFILE_DATA_VERSION_1)
      return sdk::invalidArgument("extended event data version " + std::to_string(int(x.version)) + " is not 1");
    out->type = x.v1.type;
    out->unit = sdk::profileUnitName(x.v1.unit);
    out->identifier = x.v1.identifier ? x.v1.identifier : "";
    const Qnn_Scalar_t& v = x.v1.value;
    switch (v.dataType) {  // the value as an unsigned count, as the log holds it
      case QNN_DATATYPE_UINT_64: out->value = v.uint64Value; break;
      case QNN_DATATYPE_INT_64: out->value = uint64_t(v.int64Value < 0 ? 0 : v.int64Value); break;
      case QNN_DATATYPE_UINT_32: out->value = v.uint32Value; break;
      case QNN_DATATYPE_INT_32: out->value = uint64_t(v.int32Value < 0 ? 0 : v.int32Value); break;
      case QNN_DATATYPE_FLOAT_32: out->value = v.floatValue > 0 ? uint64_t(v.floatValue) : 0; break;
      case QNN_DATATYPE_FLOAT_64: out->value = v.doubleValue > 0 ? uint64_t(v.doubleValue) : 0; break;
      default: out->value = 0; break;
    }
  } else {
    return sdk::invalidArgument("event data type " + std::to_string(int(in.type)) + " is not EVENT_DATA or "
                                "EXTENDED_EVENT_DATA");
  }
  if (in.numSubEvents > 0 && !in.profileSubEventData)
    return sdk::invalidArgument("an event lists " + std::to_string(in.numSubEvents) + " sub-events but no array");
  for (uint32_t i = 0; i < in.numSubEvents; ++i) {
    sdk::ProfileLogEvent sub;
    QNN_SDK_RETURN_IF_ERROR(convertEvent(in.profileSubEventData[i], depth + 1, &sub));
    sub.phase = out->phase;
    out->subEvents.push_back(std::move(sub));
  }
  return sdk::Status::ok();
}

class ProfileTargetObject : public sdk::HandleObject {
 public:
  ProfileTargetObject(std::string path, sdk::ProfileLogHeader header, uint32_t maxMessages)
      : path_(std::move(path)), header_(std::move(header)), maxMessages_(maxMessages) {}
  sdk::HandleKind kind() const override { return sdk::HandleKind::kSystemProfileTarget; }

  // Converts every message first, so a bad one leaves the target (and its file) as it was.
  sdk::Status serialize(const QnnSystemProfile_ProfileData_t** data, uint32_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (maxMessages_ && messages_ + count > maxMessages_)
      return sdk::invalidArgument("the target takes at most " + std::to_string(maxMessages_) + " messages; it holds " +
                                  std::to_string(messages_) + " and " + std::to_string(count) + " more were given");
    std::vector<sdk::ProfileLogEvent> added;
    bool haveOrigin = haveOrigin_;
    uint64_t origin = origin_;
    for (uint32_t m = 0; m < count; ++m) {
      const QnnSystemProfile_ProfileData_t* d = data[m];
      if (!d || d->version != QNN_SYSTEM_PROFILE_DATA_VERSION_1)
        return sdk::invalidArgument("message " + std::to_string(m) + " is null or not version 1");
      const QnnSystemProfile_ProfileDataV1_t& v = d->v1;
      if (v.numProfilingEvents > 0 && !v.profilingEvents)
        return sdk::invalidArgument("message " + std::to_string(m) + " lists events but no array");
      if (!haveOrigin) origin = v.header.startTime, haveOrigin = true;
      for (uint32_t e = 0; e < v.numProfilingEvents; ++e) {
        sdk::ProfileLogEvent ev;
        ev.phase = phaseOf(v.header.methodType);
        QNN_SDK_RETURN_IF_ERROR(convertEvent(v.profilingEvents[e], 0, &ev));
        ev.graph = v.header.graphName ? v.header.graphName : "";
        ev.startUs = v.header.startTime >= origin ? v.header.startTime - origin : 0;
        added.push_back(std::move(ev));
      }
    }
    std::vector<sdk::ProfileLogEvent> all = events_;
    all.insert(all.end(), added.begin(), added.end());
    QNN_SDK_RETURN_IF_ERROR(writeFile(all));
    events_ = std::move(all);
    messages_ += count;
    haveOrigin_ = haveOrigin, origin_ = origin;
    return sdk::Status::ok();
  }

  sdk::Status flush() {
    std::lock_guard<std::mutex> lock(mutex_);
    return writeFile(events_);
  }

 private:
  sdk::Status writeFile(const std::vector<sdk::ProfileLogEvent>& events) const {
    const std::string tmp = path_ + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << sdk::profileLogText(header_, events);
      out.flush();
      if (!out) {
        std::remove(tmp.c_str());
        return {sdk::StatusCode::kInternal, "cannot write '" + tmp + "'"};
      }
    }
    if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
      std::remove(tmp.c_str());
      return {sdk::StatusCode::kInternal, "cannot replace '" + path_ + "'"};
    }
    return sdk::Status::ok();
  }

  std::mutex mutex_;
  const std::string path_;
  const sdk::ProfileLogHeader header_;
  const uint32_t maxMessages_;
  uint32_t messages_ = 0;
  bool haveOrigin_ = false;
  uint64_t origin_ = 0;
  std::vector<sdk::ProfileLogEvent> events_;
};

Qnn_ErrorHandle_t toProfileError(const char* entry, const sdk::Status& s) {
  return toComponentError(entry, s, kProfileErrors);
}

}  // namespace
}  // namespace qnn::system

using qnn::system::guarded;
using qnn::system::toProfileError;

extern "C" {

// The file is <fileDirectory>/<fileName> (fileDirectory null or empty: fileName as given); it is
// created (empty log) here, so a path that cannot be written fails now, not later.
QNN_API Qnn_ErrorHandle_t QnnSystemProfile_createSerializationTarget(
    QnnSystemProfile_SerializationTarget_t serializationTargetInfo, QnnSystemProfile_SerializationTargetConfig_t* configs,
    uint32_t numConfigs, QnnSystemProfile_SerializationTargetHandle_t* serializationTarget) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    using qnn::sdk::invalidArgument;
    if (!serializationTarget) return toProfileError(entry, invalidArgument("serializationTarget is null"));
    if (numConfigs > 0 && !configs) return toProfileError(entry, invalidArgument("configs is null"));
    if (serializationTargetInfo.type != QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_FILE)
      return toProfileError(entry, invalidArgument("target type " + std::to_string(int(serializationTargetInfo.type)) +
                                                   " is not QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_FILE"));
    const auto& file = serializationTargetInfo.file;
    if (!file.fileName || !*file.fileName) return toProfileError(entry, invalidArgument("the target's fileName is empty"));
    std::string path = file.fileName;
    if (file.fileDirectory && *file.fileDirectory) path = std::string(file.fileDirectory) + "/" + path;
    qnn::sdk::ProfileLogHeader header{"", "", "", "system-profile"};
    uint32_t maxMessages = 0;
    for (uint32_t i = 0; i < numConfigs; ++i) {
      const auto& c = configs[i];
      if (c.type == QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_CONFIG_MAX_NUM_MESSAGES) {
        maxMessages = c.maxNumMessages;
      } else if (c.type == QNN_SYSTEM_PROFILE_SERIALIZATION_TARGET_CONFIG_SERIALIZATION_HEADER) {
        const auto& h = c.serializationHeader;
        header.tool = std::string(h.appName ? h.appName : "") + (h.appVersion ? std::string(" ") + h.appVersion : "");
        header.backendBuildId = h.backendVersion ? h.backendVersion : "";
      } else {
        return toProfileError(entry, invalidArgument("config " + std::to_string(i) + " has unknown type " +
                                                     std::to_string(int(c.type))));
      }
    }
    auto target = std::make_shared<qnn::system::ProfileTargetObject>(path, header, maxMessages);
    const Qnn_ErrorHandle_t err = toProfileError(entry, target->flush());
    if (err != QNN_SUCCESS) return err;
    *serializationTarget = qnn::sdk::handles().add(target);
    return QNN_SUCCESS;
  }, QNN_COMMON_ERROR_GENERAL);
}

QNN_API Qnn_ErrorHandle_t QnnSystemProfile_serializeEventData(
    QnnSystemProfile_SerializationTargetHandle_t serializationTarget, const QnnSystemProfile_ProfileData_t** eventData,
    uint32_t numEvents) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto target = qnn::sdk::handles().get<qnn::system::ProfileTargetObject>(
        serializationTarget, qnn::sdk::HandleKind::kSystemProfileTarget);
    if (!target) return toProfileError(entry, {qnn::sdk::StatusCode::kInvalidHandle, "invalid serialization target"});
    if (numEvents > 0 && !eventData) return toProfileError(entry, qnn::sdk::invalidArgument("eventData is null"));
    return toProfileError(entry, target->serialize(eventData, numEvents));
  }, QNN_COMMON_ERROR_GENERAL);
}

// The file stays, complete (it was written after every serializeEventData call).
QNN_API Qnn_ErrorHandle_t QnnSystemProfile_freeSerializationTarget(
    QnnSystemProfile_SerializationTargetHandle_t serializationTarget) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!qnn::sdk::handles().remove(serializationTarget, qnn::sdk::HandleKind::kSystemProfileTarget))
      return toProfileError(entry, {qnn::sdk::StatusCode::kInvalidHandle, "invalid serialization target"});
    return QNN_SUCCESS;
  }, QNN_COMMON_ERROR_GENERAL);
}

}  // extern "C"
