#include "runtime/profile.h"

#include <chrono>
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
                                             const std::string& identifier, uint64_t beganMicros, bool publish) {
  std::lock_guard<std::mutex> own(mutex_);
  if (parent == kDroppedEvent || (maxEvents_ && owned_.size() >= maxEvents_)) return kDroppedEvent;
  auto& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  QnnProfile_EventId_t id = t.next++;
  ProfileEvent ev;
  ev.type = type;
  ev.unit = unit;
  ev.value = value;
  using namespace std::chrono;
  uint64_t now = static_cast<uint64_t>(duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count());
  ev.timestampMicros = beganMicros                                                ? beganMicros
                        : unit == QNN_PROFILE_EVENTUNIT_MICROSEC && value <= now ? now - value
                                                                                 : now;
  ev.identifier = identifier;
  t.events.emplace(id, std::move(ev));
  owned_.push_back(id);
  if (parent) {
    auto it = t.events.find(parent);
    if (it != t.events.end()) it->second.subEvents.push_back(id);
  } else if (publish) {
    topLevel_.push_back(id);
  }
  return id;
}

void ProfileObject::publish(QnnProfile_EventId_t topLevel) {
  if (topLevel == kDroppedEvent) return;
  std::lock_guard<std::mutex> own(mutex_);
  topLevel_.push_back(topLevel);
}

void ProfileObject::publish(const std::vector<QnnProfile_EventId_t>& topLevel) {
  std::lock_guard<std::mutex> own(mutex_);
  for (QnnProfile_EventId_t id : topLevel)
    if (id != kDroppedEvent) topLevel_.push_back(id);
}

void ProfileObject::setMaxEvents(uint64_t max) {
  std::lock_guard<std::mutex> own(mutex_);
  maxEvents_ = max;
}

void ProfileObject::topLevelEvents(const QnnProfile_EventId_t** ids, uint32_t* count) {
  std::lock_guard<std::mutex> own(mutex_);
  std::vector<QnnProfile_EventId_t>& mine = snapshots_[std::this_thread::get_id()];
  mine.assign(topLevel_.begin() + static_cast<std::ptrdiff_t>(reported_), topLevel_.end());
  reported_ = topLevel_.size();
  *ids = mine.data();
  *count = static_cast<uint32_t>(mine.size());
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

bool getProfileExtendedEvent(QnnProfile_EventId_t id, QnnProfile_ExtendedEventData_t* data) {
  auto& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.events.find(id);
  if (it == t.events.end()) return false;
  QnnProfile_ExtendedEventData_t d = QNN_PROFILE_EXTENDED_EVENT_DATA_INIT;
  d.version = QNN_PROFILE_DATA_VERSION_1;
  d.v1.type = it->second.type;
  d.v1.unit = it->second.unit;
  d.v1.value.dataType = QNN_DATATYPE_UINT_64;
  d.v1.value.uint64Value = it->second.value;
  d.v1.timestamp = it->second.timestampMicros;
  d.v1.identifier = it->second.identifier.c_str();
  *data = d;
  return true;
}

}  // namespace qnn::sdk
