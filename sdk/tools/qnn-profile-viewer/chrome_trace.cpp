#include "tools/qnn-profile-viewer/chrome_trace.h"

namespace qnn::tools {
namespace {

using Json = nlohmann::ordered_json;

// One process for the run; phases on separate rows (threads) so init, execute
// and client events do not stack on each other in the viewer.
constexpr int kPid = 1;

int threadOf(const std::string& phase) {
  if (phase == "init") return 1;
  if (phase == "finalize") return 2;
  if (phase == "execute") return 3;
  if (phase == "deinit") return 4;
  return 5;  // client and newer phases
}

// Appends e and its sub-events starting at ts; returns e's duration.
uint64_t appendEvent(const sdk::ProfileLogEvent& e, const std::string& phase, const std::string& graph, uint64_t ts,
                     Json* out) {
  const uint64_t dur = e.isTime() ? e.value : 0;
  Json args;
  args["phase"] = phase;
  args["type"] = e.type;
  if (!graph.empty()) args["graph"] = graph;
  if (e.inference) args["inference"] = *e.inference;
  args["value"] = e.value;
  args["unit"] = e.unit;
  Json ev;
  ev["name"] = e.identifier.empty() ? phase : e.identifier;
  ev["cat"] = phase;
  ev["ph"] = "X";
  ev["ts"] = ts;
  ev["dur"] = dur;
  ev["pid"] = kPid;
  ev["tid"] = threadOf(phase);
  ev["args"] = std::move(args);
  out->push_back(std::move(ev));
  uint64_t cursor = ts;
  for (const auto& sub : e.subEvents) {
    const uint64_t start = sub.startUs.value_or(cursor);
    cursor = start + appendEvent(sub, phase, graph, start, out);
  }
  return dur;
}

}  // namespace

nlohmann::ordered_json chromeTrace(const sdk::ProfileLog& log) {
  Json events = Json::array();
  // A top-level event without startUs (not written by conforming tools) follows
  // the previous one.
  uint64_t cursor = 0;
  for (const auto& e : log.events) {
    const uint64_t start = e.startUs.value_or(cursor);
    cursor = start + appendEvent(e, e.phase, e.graph, start, &events);
  }
  Json doc;
  doc["traceEvents"] = std::move(events);
  doc["displayTimeUnit"] = "ms";
  return doc;
}

}  // namespace qnn::tools
