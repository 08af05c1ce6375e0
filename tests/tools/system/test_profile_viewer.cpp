// qnn-profile-viewer run as a process on the hand-written logs in fixtures/
// (3 inferences of one graph; the detailed log has 3 node sub-events each):
// phase and inference statistics, one line per op, a Chrome trace that parses
// as JSON with one "X" event per op per inference, and bad input refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <map>

#include "tests/tools/system/context_binary_fixture.h"
#include "tests/tools/system/tool_runner.h"
#include "QnnSdkBuildId.h"

namespace qnn::test {
namespace {

const std::string kFixtures = QNN_TEST_FIXTURE_DIR;

class ProfileViewer : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(dir.path().empty()); }
  ToolResult run(const std::vector<std::string>& args) { return runTool(QNN_TEST_VIEWER_PATH, args, dir.path()); }
  void expectRefused(const std::vector<std::string>& args, const std::string& needle,
                     const std::string& output = "") {
    ToolResult r = run(args);
    EXPECT_NE(r.exitCode, 0) << r.out;
    EXPECT_EQ(countLines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    if (!output.empty()) {
      EXPECT_FALSE(fileExists(output)) << output;
    }
  }
  void writeText(const std::string& name, const std::string& text) {
    std::ofstream(dir.file(name)) << text;
  }
  TempDir dir;
};

TEST_F(ProfileViewer, BasicLogSummary) {
  ToolResult r = run({"--input_log", kFixtures + "/profile_basic.log"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // phase  count  total  avg  min  max
  EXPECT_EQ(countLinesContaining(r.out, "execute           3            360        120.0          100          140"), 1u)
      << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "init              1           1500"), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "finalize          1            800"), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "deinit            1             40"), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(
                r.out, "3 inferences, average 120.0 us, fastest 100 us, slowest 140 us, 8333.33 inferences/s"),
            1u)
      << r.out;
  // Basic level: no node events, so no per-op lines.
  EXPECT_EQ(r.out.find("per op"), std::string::npos) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "input bytes: 4096 bytes"), 1u) << r.out;
}

// A log in the shape the HTP reports per execute (docs/profiling-log-format.md): its RPC and
// accelerator times as top-level events beside the execute event, a queue-wait sub-event before
// the nodes. Only the execute events are executes; the others are averaged apart; the queue wait
// is no op.
TEST_F(ProfileViewer, BackendEventsBesideTheExecuteAreNotCountedAsExecutes) {
  std::string events;
  const uint64_t exec[] = {300, 500}, rpc[] = {280, 470}, wait[] = {4, 6}, node[] = {200, 400};
  for (int i = 0; i < 2; ++i) {
    const std::string inf = std::to_string(i);
    events += (i ? "," : "") +
              std::string(R"j({"phase": "execute", "type": 8001, "unit": "count", "value": 4, )j") +
              R"j("identifier": "Number of HVX threads used", "inference": )j" + inf + "}," +
              R"j({"phase": "execute", "type": 3001, "unit": "us", "value": )j" + std::to_string(rpc[i]) +
              R"j(, "identifier": "RPC (execute) time", "inference": )j" + inf + "}," +
              R"j({"phase": "execute", "type": 400, "unit": "us", "value": )j" + std::to_string(exec[i]) +
              R"j(, "identifier": "QNN (execute) time", "inference": )j" + inf + R"j(, "subEvents": [)j" +
              R"j({"phase": "execute", "type": 405, "unit": "us", "value": )j" + std::to_string(wait[i]) +
              R"j(, "identifier": "Queue wait (execute) time"},)j" +
              R"j({"phase": "execute", "type": 404, "unit": "us", "value": )j" + std::to_string(node[i]) +
              R"j(, "identifier": "conv0 (Conv2d)"}]})j";
  }
  writeText("htp.log", R"j({"format": "openqnn-profile", "version": 1, "events": [)j" + events + "]}");
  ToolResult r = run({"--input_log", dir.file("htp.log")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(countLinesContaining(r.out, "execute           2            800        400.0          300          500"), 1u)
      << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "2 inferences, average 400.0 us"), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "Conv2d                          300.0    75.0%"), 1u) << r.out;
  EXPECT_EQ(r.out.find("Queue wait"), std::string::npos) << r.out;  // not an op
  EXPECT_EQ(countLinesContaining(r.out, "execute    RPC (execute) time: 375 us (2 events)"), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "execute    Number of HVX threads used: 4 count (2 events)"), 1u) << r.out;
}

TEST_F(ProfileViewer, DetailedLogHasOneLinePerOp) {
  ToolResult r = run({"--input_log", kFixtures + "/profile_detailed.log"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // node, op type, average over the 3 inferences, share of the 360 us execute time.
  const std::map<std::string, std::string> want = {
      {"conv0", "Conv2d"}, {"relu0", "Relu"}, {"add0", "ElementWiseAdd"}};
  EXPECT_EQ(countLinesContaining(r.out, " conv0 "), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, " relu0 "), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, " add0 "), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "Conv2d                           60.0    50.0%"), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "Relu                             20.0    16.7%"), 1u) << r.out;
  EXPECT_EQ(countLinesContaining(r.out, "ElementWiseAdd                   30.0    25.0%"), 1u) << r.out;
}

TEST_F(ProfileViewer, HtmlReportIsOnePageWithEveryOp) {
  const std::string page = dir.file("report.html");
  ToolResult r = run({"--input_log", kFixtures + "/profile_detailed.log", "--html", page});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("HTML report written to"), std::string::npos) << r.out;
  std::ifstream in(page);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // One table row per op, with its average time over the 3 inferences.
  for (const char* row : {">conv0<", ">relu0<", ">add0<"}) EXPECT_NE(html.find(row), std::string::npos) << row;
  EXPECT_NE(html.find("data-v=\"60.000\">60.0</td>"), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"types\""), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"timeline\""), std::string::npos);
  // Self-contained: nothing loaded from elsewhere.
  for (const char* external : {"http://", "https://", "src=", "<link", "@import"})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  // A log without per-op events says so instead of an empty table.
  ASSERT_EQ(run({"--input_log", kFixtures + "/profile_basic.log", "--html", page}).exitCode, 0);
  std::ifstream basic(page);
  const std::string basicHtml((std::istreambuf_iterator<char>(basic)), std::istreambuf_iterator<char>());
  EXPECT_NE(basicHtml.find("id=\"no-ops\""), std::string::npos);
  expectRefused({"--input_log", kFixtures + "/profile_detailed.log", "--html", "/nonexistent/dir/r.html"},
                "/nonexistent/dir");
}

TEST_F(ProfileViewer, ChromeTraceHasOneEventPerOpPerInference) {
  const std::string trace = dir.file("trace.json");
  ToolResult r = run({"--input_log", kFixtures + "/profile_detailed.log", "--output", trace});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(trace);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << "trace is not JSON";
  const auto& events = doc.at("traceEvents");
  ASSERT_TRUE(events.is_array());
  // 2 + 3 execute + deinit + client top-level events, 3 ops x 3 inferences.
  EXPECT_EQ(events.size(), 7u + 9u);
  std::map<std::string, int> perOp;
  std::vector<const nlohmann::json*> executes;
  for (const auto& e : events) {
    EXPECT_EQ(e.at("ph"), "X");
    for (const char* key : {"name", "ts", "dur", "pid", "tid", "args"}) EXPECT_TRUE(e.contains(key)) << key;
    if (e.at("args").at("type") == 404) ++perOp[e.at("name").get<std::string>()];
    if (e.at("args").at("type") == 400) executes.push_back(&e);
  }
  EXPECT_EQ(perOp, (std::map<std::string, int>{{"conv0 (Conv2d)", 3}, {"relu0 (Relu)", 3}, {"add0 (ElementWiseAdd)", 3}}));
  // Sub-events run one after another from their parent's start: the first
  // inference starts at 3000 us with conv0 60, relu0 20, add0 30.
  ASSERT_EQ(executes.size(), 3u);
  EXPECT_EQ(executes[0]->at("ts"), 3000);
  EXPECT_EQ(executes[0]->at("dur"), 120);
  std::map<std::string, uint64_t> firstStart;
  for (const auto& e : events)
    if (e.at("args").at("type") == 404 && !firstStart.count(e.at("name")))
      firstStart[e.at("name")] = e.at("ts").get<uint64_t>();
  EXPECT_EQ(firstStart["conv0 (Conv2d)"], 3000u);
  EXPECT_EQ(firstStart["relu0 (Relu)"], 3060u);
  EXPECT_EQ(firstStart["add0 (ElementWiseAdd)"], 3080u);
}

TEST_F(ProfileViewer, HelpAndVersion) {
  ToolResult help = run({"--help"});
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("--input_log"), std::string::npos);
  ToolResult version = run({"--version"});
  EXPECT_EQ(version.exitCode, 0);
  EXPECT_NE(version.out.find(QNN_SDK_BUILD_ID), std::string::npos);
}

TEST_F(ProfileViewer, BadInputIsRefused) {
  const std::string trace = dir.file("trace.json");
  expectRefused({"--output", trace}, "--input_log", trace);
  expectRefused({"--input_log", dir.file("missing.log"), "--output", trace}, "missing.log", trace);
  writeText("not_json.log", "this is not { json");
  expectRefused({"--input_log", dir.file("not_json.log"), "--output", trace}, "not valid JSON", trace);
  writeText("wrong_format.log", R"({"format": "chrome-trace", "version": 1, "events": []})");
  expectRefused({"--input_log", dir.file("wrong_format.log"), "--output", trace}, "format", trace);
  writeText("newer.log", R"({"format": "openqnn-profile", "version": 2, "events": []})");
  expectRefused({"--input_log", dir.file("newer.log"), "--output", trace}, "newer", trace);
  writeText("bad_event.log", R"({"format": "openqnn-profile", "version": 1, "events": [{"phase": "init", "value": -3}]})");
  expectRefused({"--input_log", dir.file("bad_event.log"), "--output", trace}, "event 0", trace);
  expectRefused({"--input_log", kFixtures + "/profile_basic.log", "--reader", "libCustomReader.so"},
                "custom readers are not supported");
  expectRefused({"--input_log", kFixtures + "/profile_basic.log", "--output", dir.file("no/dir/trace.json")},
                "does not exist", dir.file("no/dir/trace.json"));
}

}  // namespace
}  // namespace qnn::test
