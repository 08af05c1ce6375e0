// The profiling log document of docs/profiling-log-format.md ("openqnn-profile" version 1):
// what the run tools write and qnn-profile-viewer reads, and what libQnnSystem.so's profile
// serialization targets write. One writer for all of them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace qnn::sdk {

struct ProfileLogEvent {
  std::string phase;  // init | finalize | execute | deinit | client
  uint32_t type = 0;  // QnnProfile_EventType_t (0 for client events)
  std::string unit;   // profileUnitName()
  uint64_t value = 0;
  std::string identifier;
  std::string graph;        // empty: none
  int64_t inference = -1;   // < 0: none
  bool hasStart = false;    // startUs present
  uint64_t startUs = 0;     // microseconds since the writer's origin
  std::vector<ProfileLogEvent> subEvents;
};

struct ProfileLogHeader {
  std::string tool, backend, backendBuildId, profilingLevel;
};

// "us", "bytes", "cycles", "count" or "backend" for a QnnProfile_EventUnit_t.
std::string profileUnitName(uint32_t unit);
// The whole document as text (JSON, one event per array element, a trailing newline).
std::string profileLogText(const ProfileLogHeader& header, const std::vector<ProfileLogEvent>& events);

}  // namespace qnn::sdk
