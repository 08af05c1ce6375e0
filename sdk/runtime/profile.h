// Profiling: the events a profile handle collects. Event ids are global (the API
// looks events up by id alone), so they live in one locked table; an event dies
// with its profile.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <map>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "QnnProfile.h"
#include "core/handle_registry.h"

namespace qnn::sdk {

// Identifiers of the events of the QNN calls, named as the vendor's backends
// name theirs (its qnn-profile-viewer prints "Backend (QNN (execute) time)" for
// the execute event); docs/profiling-log-format.md lists every shape.
inline constexpr const char kLoadBinaryEventIdentifier[] = "QNN (load binary) time";
inline constexpr const char kFinalizeEventIdentifier[] = "QNN (finalize) time";
inline constexpr const char kExecuteEventIdentifier[] = "QNN (execute) time";
inline constexpr const char kQueueWaitEventIdentifier[] = "Queue wait (execute) time";
inline constexpr const char kDeinitEventIdentifier[] = "QNN (deinit) time";

struct ProfileEvent {
  QnnProfile_EventType_t type = 0;
  QnnProfile_EventUnit_t unit = QNN_PROFILE_EVENTUNIT_MICROSEC;
  uint64_t value = 0;
  uint64_t timestampMicros = 0;  // steady clock; for a duration, when it began
  std::string identifier;
  std::vector<QnnProfile_EventId_t> subEvents;
};

class ProfileObject : public HandleObject {
 public:
  explicit ProfileObject(QnnProfile_Level_t level) : level_(level) {}
  ~ProfileObject() override;
  HandleKind kind() const override { return HandleKind::kProfile; }
  QnnProfile_Level_t level() const { return level_; }
  // The graph this handle is bound to for continuous profiling (QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE),
  // null when none: a handle may be bound to one graph at a time.
  std::atomic<const void*> boundGraph{nullptr};
  bool detailed() const { return level_ == QNN_PROFILE_LEVEL_DETAILED; }

  // Adds a top-level event (parent 0) or a sub-event; returns its id, or
  // kDroppedEvent once the profile holds its maximum number of events (the
  // sub-events of a dropped event are dropped too).
  static constexpr QnnProfile_EventId_t kDroppedEvent = ~QnnProfile_EventId_t(0);
  // `beganMicros` (steady clock, 0: unknown): when the event began; else a
  // duration is taken to have ended now.
  // A top-level event added with publish = false stays out of the event list
  // until publish(): an event is listed only with its whole subtree, so a
  // client reading events while an execute adds them never sees a sub-event
  // list that is still growing (the lists a reader holds never change).
  QnnProfile_EventId_t addEvent(QnnProfile_EventId_t parent, QnnProfile_EventType_t type,
                                QnnProfile_EventUnit_t unit, uint64_t value, const std::string& identifier,
                                uint64_t beganMicros = 0, bool publish = true);
  void publish(QnnProfile_EventId_t topLevel);
  // Publishes several top-level events at once, in order: a reader sees all of them or none.
  void publish(const std::vector<QnnProfile_EventId_t>& topLevel);
  // The ids of the top-level events published since the previous call on this
  // handle (each event is reported once, as the vendor's backends do: a client
  // reading after finalize and again after execute gets the execute events
  // only). The list is copied for the calling thread: the pointer stays valid
  // until this thread asks again or the profile is freed, whatever other
  // threads add meanwhile. Reported events stay readable (data, sub-events)
  // until the profile is freed.
  void topLevelEvents(const QnnProfile_EventId_t** ids, uint32_t* count);

  // QnnProfile_setConfig: events stored at most (0: no limit), and whether an
  // execute is using the handle (a reconfiguration is refused meanwhile).
  void setMaxEvents(uint64_t max);
  // QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE: per-node trace events at the detailed level.
  std::atomic<bool> opTrace{false};
  bool traceOps() const { return detailed() && opTrace.load(); }
  std::atomic<int> users{0};

 private:
  QnnProfile_Level_t level_;
  uint64_t maxEvents_ = 0;
  std::mutex mutex_;
  std::vector<QnnProfile_EventId_t> topLevel_;
  size_t reported_ = 0;  // topLevel_[0, reported_) went to a client already
  std::vector<QnnProfile_EventId_t> owned_;
  std::map<std::thread::id, std::vector<QnnProfile_EventId_t>> snapshots_;
};

// Looks up an event by id (any profile). False if unknown or freed.
bool getProfileEvent(QnnProfile_EventId_t id, QnnProfile_EventData_t* data,
                     const std::vector<QnnProfile_EventId_t>** subEvents);
// The same event as QnnProfile_getExtendedEventData reports it (version 1; the
// value as a UINT_64 scalar, the timestamp in microseconds). False if unknown.
bool getProfileExtendedEvent(QnnProfile_EventId_t id, QnnProfile_ExtendedEventData_t* data);

}  // namespace qnn::sdk
