#include "tools/qnn-profile-viewer/profile_summary.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <vector>

namespace qnn::tools {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, args);
  va_end(args);
  return out;
}

struct Stats {
  uint64_t count = 0, total = 0, min = 0, max = 0;
  void add(uint64_t v) {
    min = count ? std::min(min, v) : v;
    max = count ? std::max(max, v) : v;
    ++count;
    total += v;
  }
  double avg() const { return count ? static_cast<double>(total) / static_cast<double>(count) : 0.0; }
};

// The node a NODE sub-event names: the CPU backend writes "conv0 (Conv2d)".
void splitNodeIdentifier(const std::string& id, std::string* node, std::string* opType) {
  const size_t open = id.rfind(" (");
  if (open != std::string::npos && id.size() > open + 3 && id.back() == ')') {
    *node = id.substr(0, open);
    *opType = id.substr(open + 2, id.size() - open - 3);
  } else {
    *node = id;
    *opType = "-";
  }
}

std::string phaseTable(const sdk::ProfileLog& log) {
  // Known phases in their order of occurrence in a run, then any newer ones.
  std::vector<std::string> order = {"init", "finalize", "execute", "deinit", "client"};
  std::map<std::string, Stats> stats;
  for (const auto& e : log.events) {
    if (!e.isTime() || !e.isCallEvent()) continue;
    stats[e.phase].add(e.value);
    if (std::find(order.begin(), order.end(), e.phase) == order.end()) order.push_back(e.phase);
  }
  std::string out = format("%-10s %8s %14s %12s %12s %12s\n", "phase", "count", "total (us)", "avg (us)",
                           "min (us)", "max (us)");
  for (size_t i = 0; i < order.size(); ++i) {
    const std::string& phase = order[i];
    auto it = stats.find(phase);
    if (it == stats.end()) {
      // The four API phases are always listed, so a missing one is visible.
      if (i < 4) out += format("%-10s %8d %14s %12s %12s %12s\n", phase.c_str(), 0, "-", "-", "-", "-");
      continue;
    }
    const Stats& s = it->second;
    out += format("%-10s %8llu %14llu %12.1f %12llu %12llu\n", phase.empty() ? "(none)" : phase.c_str(),
                  static_cast<unsigned long long>(s.count), static_cast<unsigned long long>(s.total), s.avg(),
                  static_cast<unsigned long long>(s.min), static_cast<unsigned long long>(s.max));
  }
  return out;
}

// An inference is every execute event with the same "inference" index (e.g. one
// per graph); an event without an index is an inference of its own.
std::string inferenceLine(const sdk::ProfileLog& log) {
  std::map<uint64_t, uint64_t> byIndex;
  std::vector<uint64_t> unindexed;
  for (const auto& e : log.events) {
    if (e.phase != "execute" || !e.isTime() || !e.isCallEvent()) continue;
    if (e.inference) byIndex[*e.inference] += e.value;
    else unindexed.push_back(e.value);
  }
  Stats s;
  for (const auto& [index, us] : byIndex) s.add(us);
  for (uint64_t us : unindexed) s.add(us);
  if (s.count == 0) return "execute: no inferences in the log\n";
  const double perSecond = s.total ? 1e6 * static_cast<double>(s.count) / static_cast<double>(s.total) : 0.0;
  return format("execute: %llu inferences, average %.1f us, fastest %llu us, slowest %llu us, %.2f inferences/s\n",
                static_cast<unsigned long long>(s.count), s.avg(), static_cast<unsigned long long>(s.min),
                static_cast<unsigned long long>(s.max), perSecond);
}

struct OpTotals {
  std::string graph, node, opType;
  uint64_t total = 0;
};

std::string perOpTable(const sdk::ProfileLog& log) {
  // Per graph: execute events, their total time, and the ops in first-seen order.
  std::map<std::string, Stats> executeByGraph;
  std::vector<OpTotals> ops;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (const auto& e : log.events) {
    if (e.phase != "execute" || !e.isTime() || !e.isCallEvent()) continue;
    executeByGraph[e.graph].add(e.value);
    for (const auto& sub : e.subEvents) {
      if (!sub.isTime() || !sub.isNode()) continue;
      auto key = std::make_pair(e.graph, sub.identifier);
      auto [it, inserted] = index.emplace(key, ops.size());
      if (inserted) {
        OpTotals op;
        op.graph = e.graph;
        splitNodeIdentifier(sub.identifier, &op.node, &op.opType);
        ops.push_back(std::move(op));
      }
      ops[it->second].total += sub.value;
    }
  }
  if (ops.empty()) return "";
  std::string out = "\nper op (average over the graph's inferences; share of its execute time):\n";
  out += format("  %-16s %-32s %-24s %12s %8s\n", "graph", "node", "op type", "avg (us)", "share");
  for (const auto& op : ops) {
    const Stats& g = executeByGraph[op.graph];
    const double avg = static_cast<double>(op.total) / static_cast<double>(g.count);
    const double share = g.total ? 100.0 * static_cast<double>(op.total) / static_cast<double>(g.total) : 0.0;
    out += format("  %-16s %-32s %-24s %12.1f %7.1f%%\n", op.graph.empty() ? "-" : op.graph.c_str(), op.node.c_str(),
                  op.opType.c_str(), avg, share);
  }
  return out;
}

// The backend's further top-level events (e.g. the HTP's "RPC (execute) time"), and events in
// other units (bytes, cycles, ...): averaged per phase and identifier, not summed into the calls.
std::string otherEvents(const sdk::ProfileLog& log) {
  std::vector<std::pair<std::string, std::string>> order;  // (phase, identifier) in first-seen order
  std::map<std::pair<std::string, std::string>, std::pair<Stats, std::string>> byKey;
  for (const auto& e : log.events) {
    if (e.isTime() && e.isCallEvent()) continue;
    auto key = std::make_pair(e.phase, e.identifier);
    auto [it, fresh] = byKey.emplace(key, std::make_pair(Stats{}, e.unit));
    if (fresh) order.push_back(key);
    it->second.first.add(e.value);
  }
  if (order.empty()) return "";
  std::string out = "\nbackend events (phase, event: average over its events):\n";
  for (const auto& key : order) {
    const auto& [s, unit] = byKey[key];
    const std::string avg = s.total % s.count ? format("%.1f", s.avg())
                                              : std::to_string(static_cast<unsigned long long>(s.total / s.count));
    out += format("  %-10s %s: %s %s (%llu event%s)\n", key.first.c_str(), key.second.c_str(), avg.c_str(),
                  unit.c_str(), static_cast<unsigned long long>(s.count), s.count == 1 ? "" : "s");
  }
  return out;
}

}  // namespace

std::string formatProfileSummary(const sdk::ProfileLog& log) {
  std::string out = format("log: tool %s, backend %s (%s), profiling level %s\n\n",
                           log.tool.empty() ? "?" : log.tool.c_str(), log.backend.empty() ? "?" : log.backend.c_str(),
                           log.backendBuildId.empty() ? "?" : log.backendBuildId.c_str(),
                           log.profilingLevel.empty() ? "?" : log.profilingLevel.c_str());
  out += phaseTable(log);
  out += "\n" + inferenceLine(log);
  out += perOpTable(log);
  out += otherEvents(log);
  return out;
}

}  // namespace qnn::tools
