#include "tools/common/profiling.h"

#include <fstream>

#include "QnnProfile.h"
#include "tools/common/qnn_backend.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {

ProfilingLevel parseProfilingLevel(const std::string& value, const std::vector<std::string>& allowed) {
  bool ok = false;
  std::string list;
  for (const auto& a : allowed) {
    ok = ok || a == value;
    list += (list.empty() ? "" : ", ") + a;
  }
  if (!ok) throw UsageError("--profiling_level must be one of " + list + ", got '" + value + "'");
  if (value == "basic") return ProfilingLevel::kBasic;
  if (value == "detailed") return ProfilingLevel::kDetailed;
  if (value == "client") return ProfilingLevel::kClient;
  return ProfilingLevel::kBackend;
}

std::string profilingLevelName(ProfilingLevel level) {
  switch (level) {
    case ProfilingLevel::kBasic: return "basic";
    case ProfilingLevel::kDetailed: return "detailed";
    case ProfilingLevel::kClient: return "client";
    case ProfilingLevel::kBackend: return "backend";
    default: return "off";
  }
}

ProfileCollector::ProfileCollector(std::string tool, ProfilingLevel level)
    : tool_(std::move(tool)), level_(level), start_(std::chrono::steady_clock::now()) {}

ProfileCollector::~ProfileCollector() {
  if (handle_ && api_ && api_->profileFree) api_->profileFree(handle_);
}

void ProfileCollector::attach(const QnnBackend& backend) {
  api_ = &backend.api();
  QnnProfile_Level_t qnnLevel = 0;
  if (level_ == ProfilingLevel::kBasic) qnnLevel = QNN_PROFILE_LEVEL_BASIC;
  if (level_ == ProfilingLevel::kDetailed) qnnLevel = QNN_PROFILE_LEVEL_DETAILED;
  if (level_ == ProfilingLevel::kBackend) qnnLevel = QNN_PROFILE_LEVEL_BACKEND;
  if (qnnLevel == 0) return;
  if (!api_->profileCreate) throw ToolError("backend does not implement QnnProfile_create");
  backend.check(api_->profileCreate(backend.backend(), qnnLevel, &handle_),
                "QnnProfile_create (level " + profilingLevelName(level_) + ")");
}

uint64_t ProfileCollector::nowUs() const {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_).count());
}

sdk::ProfileLogEvent ProfileCollector::readEvent(QnnProfile_EventId_t id, int depth) const {
  sdk::ProfileLogEvent e;
  QnnProfile_EventData_t data{};
  if (api_->profileGetEventData(id, &data) == QNN_SUCCESS) {
    e.type = data.type;
    e.unit = sdk::profileUnitName(data.unit);
    e.value = data.value;
    e.identifier = data.identifier ? data.identifier : "";
  }
  // The backend's timestamp of the event, when it is on this process's steady
  // clock (as OpenQNN's backends give it) and falls within the run.
  QnnProfile_ExtendedEventData_t ext{};
  if (api_->profileGetExtendedEventData && api_->profileGetExtendedEventData(id, &ext) == QNN_SUCCESS &&
      ext.version == QNN_PROFILE_DATA_VERSION_1) {
    const uint64_t toolStart = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(start_.time_since_epoch()).count());
    if (ext.v1.timestamp >= toolStart && ext.v1.timestamp - toolStart <= nowUs()) {
      e.startUs = ext.v1.timestamp - toolStart;
    }
  }
  const QnnProfile_EventId_t* subs = nullptr;
  uint32_t n = 0;
  // Depth bound: a malformed backend tree must not recurse forever.
  if (depth < 8 && api_->profileGetSubEvents && api_->profileGetSubEvents(id, &subs, &n) == QNN_SUCCESS && subs)
    for (uint32_t i = 0; i < n; ++i) e.subEvents.push_back(readEvent(subs[i], depth + 1));
  return e;
}

void ProfileCollector::collect(const std::string& phase, const std::string& graph, int64_t inference,
                               uint64_t startUs) {
  if (!handle_ || !api_->profileGetEvents || !api_->profileGetEventData) return;
  const QnnProfile_EventId_t* ids = nullptr;
  uint32_t n = 0;
  if (api_->profileGetEvents(handle_, &ids, &n) != QNN_SUCCESS || !ids) return;
  // Backends report each event once (OpenQNN's and, as far as public clients
  // show, the vendor's); one that lists earlier events again still has them
  // taken once.
  for (uint32_t i = 0; i < n; ++i) {
    if (!seen_.insert(ids[i]).second) continue;
    sdk::ProfileLogEvent e = readEvent(ids[i], 0);
    e.phase = phase;
    e.graph = graph;
    if (inference >= 0) e.inference = inference;
    e.startUs = startUs;  // the tool's clock at the call, over the backend's own timestamp
    events_.push_back(std::move(e));
  }
}

void ProfileCollector::addClientEvent(const std::string& identifier, const std::string& graph, int64_t inference,
                                      uint64_t startUs, uint64_t valueUs) {
  if (!enabled()) return;
  sdk::ProfileLogEvent e;
  e.phase = "client";
  e.unit = "us";
  e.value = valueUs;
  e.identifier = identifier;
  e.graph = graph;
  if (inference >= 0) e.inference = inference;
  e.startUs = startUs;
  events_.push_back(std::move(e));
}

void ProfileCollector::write(const std::string& outputDir, const std::string& backendPath,
                             const std::string& buildId) const {
  if (!enabled()) return;
  makeDirectories(outputDir);
  std::string base = backendPath.substr(backendPath.find_last_of('/') + 1);
  const std::string path = outputDir + "/qnn-profiling-data_0.log";
  std::ofstream out(path);
  out << sdk::profileLogText({tool_, base, buildId, profilingLevelName(level_)}, events_);
  if (!out) throw ToolError("cannot write profiling log '" + path + "'");
}

}  // namespace qnn::tools
