// The profiling log of docs/profiling-log-format.md ("openqnn-profile"), one module for both sides:
// the writer the run tools and libQnnSystem.so's profile serialization targets use, and the reader
// qnn-profile-viewer uses, over one event struct.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace qnn::sdk {

struct ProfileLogEvent {
  std::string phase;  // init | finalize | execute | deinit | client, or a newer one; "" on sub-events
  uint32_t type = 0;  // QnnProfile_EventType_t (0 for client events, 404 = NODE)
  std::string unit;   // profileUnitName(); the reader gives "us" when the log names none
  uint64_t value = 0;
  std::string identifier;
  std::string graph;                  // empty: none
  std::optional<uint64_t> inference;  // execute events
  std::optional<uint64_t> startUs;    // microseconds since the writer's origin; always on top-level events
  std::vector<ProfileLogEvent> subEvents;

  bool isTime() const { return unit == "us"; }
  // The event of the QNN call itself (INIT 100, FINALIZE 300, EXECUTE 400, DEINIT 500) or one a
  // tool measured (0). A backend may list further measurements of the call as top-level events
  // beside it (the HTP's RPC and accelerator times): those are not counted as calls.
  bool isCallEvent() const { return type == 0 || type == 100 || type == 300 || type == 400 || type == 500; }
  bool isNode() const { return type == 404; }
};

struct ProfileLogHeader {
  std::string tool, backend, backendBuildId, profilingLevel;
};

// The version this module writes and the newest it reads.
constexpr int kProfileLogVersion = 1;

struct ProfileLog : ProfileLogHeader {
  int version = kProfileLogVersion;
  std::vector<ProfileLogEvent> events;  // top-level events, in log order
};

// "us", "bytes", "cycles", "count" or "backend" for a QnnProfile_EventUnit_t.
std::string profileUnitName(uint32_t unit);

// Writer: the whole document as text (JSON, one event per array element, a trailing newline).
std::string profileLogText(const ProfileLogHeader& header, const std::vector<ProfileLogEvent>& events);

// Reader: parses a log document into *out. An invalid-argument Status (naming the problem and, for
// a bad event, its index) if the text is not JSON, the format tag is not "openqnn-profile", the
// version is newer than kProfileLogVersion, or an event is malformed. Keys it does not know are
// ignored, as the format requires.
Status readProfileLog(const std::string& text, ProfileLog* out);

}  // namespace qnn::sdk
