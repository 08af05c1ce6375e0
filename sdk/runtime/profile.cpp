#include "runtime/profile.h"

#include <unordered_map>

namespace qnn::sdk {
namespace {

struct EventTable {
  std::mutex mutex;
  std::unordered_map<QnnProfile_EventId_t, ProfileEvent> events;
  QnnProfile_EventId_t next = 1;
};

EventTable& table() {
  static EventTable t;
  return t;
}

}  // namespace

ProfileObject::~ProfileObject() {
  auto& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (auto id : owned_) t.events.erase(id);
}

QnnProfile_EventId_t ProfileObject::addEvent(QnnProfile_EventId_t parent, QnnProfile_EventType_t type,
                                             QnnProfile_EventUnit_t unit, uint64_t value,
                                             const std::string& identifier) {
  std::lock_guard<std::mutex> own(mutex_);
  auto& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  QnnProfile_EventId_t id = t.next++;
  ProfileEvent ev;
  ev.type = type;
  ev.unit = unit;
  ev.value = value;
  ev.identifier = identifier;
  t.events.emplace(id, std::move(ev));
  owned_.push_back(id);
  if (parent) {
    auto it = t.events.find(parent);
    if (it != t.events.end()) it->second.subEvents.push_back(id);
  } else {
    topLevel_.push_back(id);
  }
  return id;
}

const std::vector<QnnProfile_EventId_t>& ProfileObject::topLevelEvents() {
  std::lock_guard<std::mutex> own(mutex_);
  return topLevel_;
}

bool getProfileEvent(QnnProfile_EventId_t id, QnnProfile_EventData_t* data,
                     const std::vector<QnnProfile_EventId_t>** subEvents) {
  auto& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.events.find(id);
  if (it == t.events.end()) return false;
  if (data) {
    data->type = it->second.type;
    data->unit = it->second.unit;
    data->value = it->second.value;
    data->identifier = it->second.identifier.c_str();
  }
  if (subEvents) *subEvents = &it->second.subEvents;
  return true;
}

}  // namespace qnn::sdk
