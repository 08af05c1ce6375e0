#include "tools/qnn-profile-viewer/html_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

namespace qnn::tools {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// "conv0 (Conv2d)" -> node "conv0", type "Conv2d".
void splitIdentifier(const std::string& id, std::string* node, std::string* type) {
  const size_t open = id.rfind(" (");
  if (open != std::string::npos && id.size() > open + 3 && id.back() == ')') {
    *node = id.substr(0, open);
    *type = id.substr(open + 2, id.size() - open - 3);
  } else {
    *node = id, *type = "-";
  }
}

struct OpStats {
  std::string node, type;
  size_t order = 0;  // first appearance
  uint64_t count = 0, totalUs = 0, minUs = 0, maxUs = 0, cycles = 0, cycleCount = 0;
  double avgUs() const { return count ? double(totalUs) / double(count) : 0.0; }
};

struct Report {
  std::vector<OpStats> ops;
  uint64_t executes = 0, executeUs = 0, fastest = 0, slowest = 0;
  bool hasCycles = false;
  // The first execute event with node sub-events: (name, start, duration) for the timeline.
  struct Slot {
    std::string label;
    double start = 0, duration = 0;
  };
  std::vector<Slot> timeline;
  double timelineSpan = 0;
};

Report analyse(const sdk::ProfileLog& log) {
  Report r;
  std::map<std::string, size_t> index;
  bool timelineDone = false;
  for (const auto& e : log.events) {
    if (e.phase != "execute" || !e.isTime() || !e.isCallEvent()) continue;
    r.fastest = r.executes ? std::min(r.fastest, e.value) : e.value;
    r.slowest = r.executes ? std::max(r.slowest, e.value) : e.value;
    ++r.executes, r.executeUs += e.value;
    double cursor = 0;
    const uint64_t parentStart = e.startUs.value_or(0);
    for (const auto& s : e.subEvents) {
      if (s.type == 405) continue;  // the queue wait, not an op
      std::string node, type;
      splitIdentifier(s.identifier, &node, &type);
      auto [it, fresh] = index.emplace(s.identifier, r.ops.size());
      if (fresh) r.ops.push_back({node, type, r.ops.size()});
      OpStats& op = r.ops[it->second];
      if (s.unit == "cycles") {
        op.cycles += s.value, ++op.cycleCount, r.hasCycles = true;
        continue;
      }
      if (!s.isTime()) continue;
      op.minUs = op.count ? std::min(op.minUs, s.value) : s.value;
      op.maxUs = op.count ? std::max(op.maxUs, s.value) : s.value;
      ++op.count, op.totalUs += s.value;
      if (!timelineDone) {
        const double start = s.startUs && *s.startUs >= parentStart ? double(*s.startUs - parentStart) : cursor;
        r.timeline.push_back({s.identifier, start, double(s.value)});
        cursor = std::max(cursor, start + double(s.value));
      }
    }
    if (!timelineDone && !r.timeline.empty()) {
      timelineDone = true;
      r.timelineSpan = std::max(cursor, double(e.value));
    }
  }
  return r;
}

const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fafafa}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.meta{color:#555}.cards{display:flex;gap:12px;flex-wrap:wrap;margin-top:12px}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 14px}
.card b{display:block;font-size:18px}
table{border-collapse:collapse;background:#fff;width:100%}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;white-space:nowrap}
th{background:#eef;cursor:pointer;user-select:none}th.sorted-asc:after{content:" \25B2"}
th.sorted-desc:after{content:" \25BC"}td.l,th.l{text-align:left}
.bar{background:#6a8fd6;height:10px;display:inline-block;vertical-align:middle}
svg text{font:11px system-ui,sans-serif}
)";

// Sorts the op table by the clicked column (numbers by value, text by name).
const char* kScript = R"(
(function(){
  var table=document.getElementById('ops');if(!table)return;
  var heads=table.tHead.rows[0].cells;
  for(var i=0;i<heads.length;i++){(function(col){
    heads[col].addEventListener('click',function(){
      var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
      var asc=!heads[col].classList.contains('sorted-asc');
      rows.sort(function(a,b){
        var x=a.cells[col].getAttribute('data-v'),y=b.cells[col].getAttribute('data-v');
        var nx=parseFloat(x),ny=parseFloat(y);
        var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:String(x).localeCompare(String(y));
        return asc?c:-c;});
      rows.forEach(function(r){body.appendChild(r);});
      for(var k=0;k<heads.length;k++)heads[k].classList.remove('sorted-asc','sorted-desc');
      heads[col].classList.add(asc?'sorted-asc':'sorted-desc');
    });})(i);}
  document.body.setAttribute('data-ready','1');
})();
)";

std::string cell(const std::string& text, const std::string& sortValue, bool left = false) {
  return std::string("<td") + (left ? " class=\"l\"" : "") + " data-v=\"" + escape(sortValue) + "\">" + text +
         "</td>";
}

}  // namespace

std::string htmlReport(const sdk::ProfileLog& log, const std::string& source) {
  const Report r = analyse(log);
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>QNN profile: " +
                  escape(source) + "</title>\n<style>" + kStyle + "</style></head><body>\n";
  h += "<h1>QNN profile</h1>\n<div class=\"meta\">" + escape(source) + " &middot; " + escape(log.tool) + " &middot; " +
       escape(log.backend) + " (" + escape(log.backendBuildId) + ") &middot; level " + escape(log.profilingLevel) +
       "</div>\n<div class=\"cards\">";
  auto card = [&](const std::string& label, const std::string& value) {
    h += "<div class=\"card\">" + escape(label) + "<b>" + value + "</b></div>";
  };
  std::map<std::string, uint64_t> phaseUs;
  for (const auto& e : log.events)
    if (e.isTime() && e.isCallEvent()) phaseUs[e.phase] += e.value;
  card("executes", std::to_string(r.executes));
  card("avg execute (us)", r.executes ? num(double(r.executeUs) / double(r.executes)) : "-");
  card("fastest / slowest (us)", r.executes ? std::to_string(r.fastest) + " / " + std::to_string(r.slowest) : "-");
  card("inferences / s", r.executeUs ? num(1e6 * double(r.executes) / double(r.executeUs)) : "-");
  for (const char* phase : {"init", "finalize", "deinit"})
    if (phaseUs.count(phase)) card(std::string(phase) + " (us)", std::to_string(phaseUs[phase]));
  h += "</div>\n";

  if (r.ops.empty()) {
    h += "<h2>Ops</h2><p id=\"no-ops\">This log has no per-op events (profile with the detailed level).</p>\n";
  } else {
    std::vector<const OpStats*> byTime;
    double maxAvg = 0;
    for (const auto& op : r.ops) byTime.push_back(&op), maxAvg = std::max(maxAvg, op.avgUs());
    std::stable_sort(byTime.begin(), byTime.end(), [](auto* a, auto* b) { return a->avgUs() > b->avgUs(); });
    double execAvg = r.executes ? double(r.executeUs) / double(r.executes) : 0;
    h += "<h2>Ops (" + std::to_string(r.ops.size()) + "; click a column to sort)</h2>\n<table id=\"ops\"><thead><tr>"
         "<th>#</th><th class=\"l\">node</th><th class=\"l\">op</th><th>runs</th><th>avg (us)</th><th>min (us)</th>"
         "<th>max (us)</th><th>share of execute</th><th class=\"l\">avg time</th>";
    if (r.hasCycles) h += "<th>avg cycles (estimate)</th>";
    h += "</tr></thead><tbody>\n";
    for (const OpStats* op : byTime) {
      const double avg = op->avgUs(), share = execAvg > 0 ? 100.0 * avg / execAvg : 0;
      const int width = maxAvg > 0 ? int(200.0 * avg / maxAvg + 0.5) : 0;
      h += "<tr>" + cell(std::to_string(op->order), std::to_string(op->order)) +
           cell(escape(op->node), op->node, true) + cell(escape(op->type), op->type, true) +
           cell(std::to_string(op->count), std::to_string(op->count)) + cell(num(avg), num(avg, 3)) +
           cell(std::to_string(op->minUs), std::to_string(op->minUs)) +
           cell(std::to_string(op->maxUs), std::to_string(op->maxUs)) + cell(num(share) + " %", num(share, 3)) +
           cell("<span class=\"bar\" style=\"width:" + std::to_string(width) + "px\"></span>", num(avg, 3), true);
      if (r.hasCycles) {
        const double cyc = op->cycleCount ? double(op->cycles) / double(op->cycleCount) : 0;
        h += cell(op->cycleCount ? num(cyc, 0) : "-", num(cyc, 0));
      }
      h += "</tr>\n";
    }
    h += "</tbody></table>\n";

    // Average time per op type, as horizontal bars.
    std::map<std::string, double> byType;
    for (const auto& op : r.ops) byType[op.type] += op.avgUs();
    std::vector<std::pair<std::string, double>> types(byType.begin(), byType.end());
    std::sort(types.begin(), types.end(), [](auto& a, auto& b) { return a.second > b.second; });
    const double maxType = types.empty() ? 0 : types.front().second;
    const int rowH = 18, chartW = 700;
    h += "<h2>Average time per op type (us per execute)</h2>\n<svg id=\"types\" width=\"" + std::to_string(chartW + 260) +
         "\" height=\"" + std::to_string(int(types.size()) * rowH + 4) + "\" role=\"img\">\n";
    for (size_t i = 0; i < types.size(); ++i) {
      const int y = int(i) * rowH, w = maxType > 0 ? int(chartW * types[i].second / maxType) : 0;
      h += "<text x=\"0\" y=\"" + std::to_string(y + 13) + "\">" + escape(types[i].first) + "</text><rect x=\"160\" y=\"" +
           std::to_string(y + 3) + "\" width=\"" + std::to_string(w) + "\" height=\"12\" fill=\"#6a8fd6\"/><text x=\"" +
           std::to_string(166 + w) + "\" y=\"" + std::to_string(y + 13) + "\">" + num(types[i].second) + "</text>\n";
    }
    h += "</svg>\n";

    // Timeline of the first profiled inference.
    if (!r.timeline.empty() && r.timelineSpan > 0) {
      const int width = 900, laneH = 14;
      h += "<h2>Timeline of the first profiled execute (" + num(r.timelineSpan) + " us)</h2>\n<svg id=\"timeline\" width=\"" +
           std::to_string(width + 10) + "\" height=\"" + std::to_string(int(r.timeline.size()) * laneH + 20) +
           "\" role=\"img\">\n";
      for (size_t i = 0; i < r.timeline.size(); ++i) {
        const auto& s = r.timeline[i];
        const double x = width * s.start / r.timelineSpan, w = std::max(1.0, width * s.duration / r.timelineSpan);
        h += "<rect x=\"" + num(x) + "\" y=\"" + std::to_string(int(i) * laneH) + "\" width=\"" + num(w) +
             "\" height=\"" + std::to_string(laneH - 3) + "\" fill=\"#d68a6a\"><title>" + escape(s.label) + ": " +
             num(s.duration) + " us at " + num(s.start) + " us</title></rect>\n";
      }
      h += "</svg>\n";
    }
  }
  h += "<script>" + std::string(kScript) + "</script>\n</body></html>\n";
  return h;
}

}  // namespace qnn::tools
