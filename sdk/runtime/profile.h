// Profiling: the events a profile handle collects. Event ids are global (the API
// looks events up by id alone), so they live in one locked table; an event dies
// with its profile.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "QnnProfile.h"
#include "core/handle_registry.h"

namespace qnn::sdk {

struct ProfileEvent {
  QnnProfile_EventType_t type = 0;
  QnnProfile_EventUnit_t unit = QNN_PROFILE_EVENTUNIT_MICROSEC;
  uint64_t value = 0;
  std::string identifier;
  std::vector<QnnProfile_EventId_t> subEvents;
};

class ProfileObject : public HandleObject {
 public:
  explicit ProfileObject(QnnProfile_Level_t level) : level_(level) {}
  ~ProfileObject() override;
  HandleKind kind() const override { return HandleKind::kProfile; }
  QnnProfile_Level_t level() const { return level_; }
  bool detailed() const { return level_ == QNN_PROFILE_LEVEL_DETAILED; }

  // Adds a top-level event (parent 0) or a sub-event; returns its id.
  QnnProfile_EventId_t addEvent(QnnProfile_EventId_t parent, QnnProfile_EventType_t type,
                                QnnProfile_EventUnit_t unit, uint64_t value, const std::string& identifier);
  // The ids of the top-level events; the pointer stays valid until the next
  // addEvent or the profile is freed.
  const std::vector<QnnProfile_EventId_t>& topLevelEvents();

 private:
  QnnProfile_Level_t level_;
  std::mutex mutex_;
  std::vector<QnnProfile_EventId_t> topLevel_;
  std::vector<QnnProfile_EventId_t> owned_;
};

// Looks up an event by id (any profile). False if unknown or freed.
bool getProfileEvent(QnnProfile_EventId_t id, QnnProfile_EventData_t* data,
                     const std::vector<QnnProfile_EventId_t>** subEvents);

}  // namespace qnn::sdk
