#include "profile_log/profile_log.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "QnnProfile.h"

namespace qnn::sdk {
namespace {

using Json = nlohmann::json;

// ---- writer ----

Json toJson(const ProfileLogEvent& e) {
  Json j = {{"phase", e.phase}, {"type", e.type}, {"unit", e.unit}, {"value", e.value}, {"identifier", e.identifier}};
  if (!e.graph.empty()) j["graph"] = e.graph;
  if (e.inference) j["inference"] = *e.inference;
  if (e.startUs) j["startUs"] = *e.startUs;
  if (!e.subEvents.empty()) {
    j["subEvents"] = Json::array();
    for (const auto& s : e.subEvents) j["subEvents"].push_back(toJson(s));
  }
  return j;
}

// ---- reader ----

// A malformed log; readProfileLog turns it into its Status.
struct LogError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string optionalString(const Json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return "";
  if (!it->is_string()) throw LogError(where + ": '" + key + "' must be a string");
  return it->get<std::string>();
}

std::optional<uint64_t> optionalCount(const Json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (it->is_number_unsigned()) return it->get<uint64_t>();
  // A writer may store a whole number as a float (e.g. 12.0).
  if (it->is_number_float() && it->get<double>() >= 0 && it->get<double>() < 1.8e19 &&
      it->get<double>() == static_cast<double>(static_cast<uint64_t>(it->get<double>())))
    return static_cast<uint64_t>(it->get<double>());
  throw LogError(where + ": '" + key + "' must be a non-negative integer");
}

ProfileLogEvent parseEvent(const Json& j, const std::string& where, int depth) {
  // The format nests one level (node sub-events); a deep nest means a broken or
  // hostile file, and would otherwise recurse without bound.
  if (depth > 16) throw LogError(where + ": sub-events nested too deeply");
  if (!j.is_object()) throw LogError(where + " is not a JSON object");
  ProfileLogEvent e;
  e.phase = optionalString(j, "phase", where);
  e.type = static_cast<uint32_t>(optionalCount(j, "type", where).value_or(0));
  e.unit = optionalString(j, "unit", where);
  if (e.unit.empty()) e.unit = "us";
  auto value = optionalCount(j, "value", where);
  if (!value) throw LogError(where + ": 'value' is missing");
  e.value = *value;
  e.identifier = optionalString(j, "identifier", where);
  e.graph = optionalString(j, "graph", where);
  e.inference = optionalCount(j, "inference", where);
  e.startUs = optionalCount(j, "startUs", where);
  if (auto it = j.find("subEvents"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) throw LogError(where + ": 'subEvents' must be an array");
    for (size_t i = 0; i < it->size(); ++i)
      e.subEvents.push_back(parseEvent((*it)[i], where + " sub-event " + std::to_string(i), depth + 1));
  }
  return e;
}

ProfileLog parseLog(const std::string& text) {
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) throw LogError("not a profiling log: the file is not valid JSON");
  if (!doc.is_object()) throw LogError("not a profiling log: the document is not a JSON object");
  auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || *format != "openqnn-profile")
    throw LogError("not a profiling log: 'format' is not \"openqnn-profile\"");
  auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || version->get<int64_t>() < 1)
    throw LogError("profiling log has no valid 'version'");
  if (version->get<int64_t>() > kProfileLogVersion)
    throw LogError("profiling log version " + std::to_string(version->get<int64_t>()) +
                   " is newer than this viewer supports (" + std::to_string(kProfileLogVersion) + ")");
  ProfileLog log;
  log.version = static_cast<int>(version->get<int64_t>());
  log.tool = optionalString(doc, "tool", "profiling log");
  log.backend = optionalString(doc, "backend", "profiling log");
  log.backendBuildId = optionalString(doc, "backendBuildId", "profiling log");
  log.profilingLevel = optionalString(doc, "profilingLevel", "profiling log");
  auto events = doc.find("events");
  if (events == doc.end() || !events->is_array()) throw LogError("profiling log has no 'events' array");
  for (size_t i = 0; i < events->size(); ++i) log.events.push_back(parseEvent((*events)[i], "event " + std::to_string(i), 0));
  return log;
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
  Json doc = {{"format", "openqnn-profile"}, {"version", kProfileLogVersion}, {"tool", header.tool},
              {"backend", header.backend}, {"backendBuildId", header.backendBuildId},
              {"profilingLevel", header.profilingLevel}, {"events", Json::array()}};
  for (const auto& e : events) doc["events"].push_back(toJson(e));
  // Identifiers come from backends and clients: replace invalid UTF-8 rather than throw.
  return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

Status readProfileLog(const std::string& text, ProfileLog* out) {
  try {
    *out = parseLog(text);
  } catch (const LogError& e) {
    return invalidArgument(e.what());
  }
  return Status::ok();
}

}  // namespace qnn::sdk
