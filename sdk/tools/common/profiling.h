// Profiling for the run tools: a backend profile handle at the requested level,
// collection of the backend's events after each API call (tagged with the phase,
// graph, inference and the tool's clock), client events the tool measures itself,
// and the log writer of docs/profiling-log-format.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "profile_log/profile_log.h"

namespace qnn::tools {

class QnnBackend;

enum class ProfilingLevel { kOff, kBasic, kDetailed, kClient, kBackend };

// Throws UsageError unless value is one of allowed (e.g. {"basic","detailed","client"}).
ProfilingLevel parseProfilingLevel(const std::string& value, const std::vector<std::string>& allowed);
std::string profilingLevelName(ProfilingLevel level);

class ProfileCollector {
 public:
  ProfileCollector(std::string tool, ProfilingLevel level);
  ~ProfileCollector();
  ProfileCollector(const ProfileCollector&) = delete;
  ProfileCollector& operator=(const ProfileCollector&) = delete;

  // Creates the backend profile handle for basic/detailed/backend. Throws ToolError.
  void attach(const QnnBackend& backend);
  bool enabled() const { return level_ != ProfilingLevel::kOff; }
  // The handle to pass to QNN calls; null when only client events are recorded.
  Qnn_ProfileHandle_t handle() const { return handle_; }
  uint64_t nowUs() const;

  // Records the backend events produced since the last call. inference < 0 = none.
  void collect(const std::string& phase, const std::string& graph, int64_t inference, uint64_t startUs);
  void addClientEvent(const std::string& identifier, const std::string& graph, int64_t inference, uint64_t startUs,
                      uint64_t valueUs);
  // Writes <outputDir>/qnn-profiling-data_0.log. Throws ToolError.
  void write(const std::string& outputDir, const std::string& backendPath, const std::string& buildId) const;

 private:
  // An event and its sub-events as the backend reports them; a sub-event's startUs is its start on
  // the tool's clock, from the backend's extended event data (QnnProfile_getExtendedEventData)
  // when it gives one on this process's steady clock.
  sdk::ProfileLogEvent readEvent(QnnProfile_EventId_t id, int depth) const;
  std::string tool_;
  ProfilingLevel level_;
  const QNN_INTERFACE_VER_TYPE* api_ = nullptr;
  Qnn_ProfileHandle_t handle_ = nullptr;
  std::set<QnnProfile_EventId_t> seen_;  // top-level events taken already
  std::chrono::steady_clock::time_point start_;
  std::vector<sdk::ProfileLogEvent> events_;
};

}  // namespace qnn::tools
