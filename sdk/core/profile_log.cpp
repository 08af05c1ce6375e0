#include "core/profile_log.h"

#include <nlohmann/json.hpp>

#include "QnnProfile.h"

namespace qnn::sdk {
namespace {

nlohmann::json toJson(const ProfileLogEvent& e) {
  nlohmann::json j = {{"phase", e.phase}, {"type", e.type}, {"unit", e.unit}, {"value", e.value},
                      {"identifier", e.identifier}};
  if (!e.graph.empty()) j["graph"] = e.graph;
  if (e.inference >= 0) j["inference"] = e.inference;
  if (e.hasStart) j["startUs"] = e.startUs;
  if (!e.subEvents.empty()) {
    j["subEvents"] = nlohmann::json::array();
    for (const auto& s : e.subEvents) j["subEvents"].push_back(toJson(s));
  }
  return j;
}

}  // namespace

std::string profileUnitName(uint32_t unit) {
  switch (unit) {
    case QNN_PROFILE_EVENTUNIT_MICROSEC: return "us";
    case QNN_PROFILE_EVENTUNIT_BYTES: return "bytes";
    case QNN_PROFILE_EVENTUNIT_CYCLES: return "cycles";
    case QNN_PROFILE_EVENTUNIT_COUNT: return "count";
    default: return "backend";
  }
}

std::string profileLogText(const ProfileLogHeader& header, const std::vector<ProfileLogEvent>& events) {
  nlohmann::json doc = {{"format", "openqnn-profile"}, {"version", 1}, {"tool", header.tool},
                        {"backend", header.backend}, {"backendBuildId", header.backendBuildId},
                        {"profilingLevel", header.profilingLevel}, {"events", nlohmann::json::array()}};
  for (const auto& e : events) doc["events"].push_back(toJson(e));
  // Identifiers come from backends and clients: replace invalid UTF-8 rather than throw.
  return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace qnn::sdk
