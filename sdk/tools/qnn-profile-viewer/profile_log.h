// ProfileLog: a profiling log (docs/profiling-log-format.md) read into plain
// structs, checked once here so the summary and the trace writer can trust it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qnn::tools {

struct ProfileLogEvent {
  std::string phase;       // "init", "finalize", "execute", "deinit", "client", or a newer one
  uint32_t type = 0;       // QnnProfile_EventType_t (404 = NODE)
  std::string unit = "us"; // "us", "bytes", "cycles", "count", "backend"
  uint64_t value = 0;
  std::string identifier;
  std::string graph;                  // empty if the event names no graph
  std::optional<uint64_t> inference;  // execute events
  std::optional<uint64_t> startUs;    // set by the tool on top-level events; rarely on sub-events
  std::vector<ProfileLogEvent> subEvents;

  bool isTime() const { return unit == "us"; }
  // The event of the QNN call itself (INIT 100, FINALIZE 300, EXECUTE 400, DEINIT 500) or one a
  // tool measured (0). A backend may list further measurements of the call as top-level events
  // beside it (the HTP's RPC and accelerator times): those are not counted as calls.
  bool isCallEvent() const { return type == 0 || type == 100 || type == 300 || type == 400 || type == 500; }
  bool isNode() const { return type == 404; }
};

struct ProfileLog {
  int version = 0;
  std::string tool, backend, backendBuildId, profilingLevel;
  std::vector<ProfileLogEvent> events;  // top-level events, in log order
};

// The newest log version this reader understands.
constexpr int kProfileLogVersion = 1;

// Parses a log document. Throws ToolError (naming the problem and, for a bad
// event, its index) if the text is not JSON, the format tag is not
// "openqnn-profile", the version is newer than kProfileLogVersion, or an event
// is malformed. Keys it does not know are ignored, as the format requires.
ProfileLog parseProfileLog(const std::string& text);

}  // namespace qnn::tools
