// qnn-throughput-net-run: runs several models on one or more backends from
// concurrent threads and reports inferences per second per thread and in total
// (stdout, and --output as JSON).
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tools/common/arg_parser.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"
#include "tools/qnn-throughput-net-run/throughput_config.h"
#include "tools/qnn-throughput-net-run/throughput_runner.h"

namespace {

nlohmann::json toJson(const qnn::tools::throughput::ThroughputReport& r) {
  auto ips = [](double n, double s) { return s > 0 ? n / s : 0.0; };
  nlohmann::json doc = {{"threads", nlohmann::json::array()}};
  for (const auto& t : r.threads)
    doc["threads"].push_back({{"threadName", t.threadName}, {"backend", t.backend}, {"model", t.model},
                              {"graphs", t.graphs}, {"inferences", t.inferences}, {"seconds", t.seconds},
                              {"inferencesPerSecond", ips(static_cast<double>(t.inferences), t.seconds)}});
  doc["total"] = {{"inferences", r.totalInferences}, {"seconds", r.totalSeconds},
                  {"inferencesPerSecond", ips(static_cast<double>(r.totalInferences), r.totalSeconds)}};
  return doc;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace qnn::tools;
  return runToolMain("qnn-throughput-net-run", [&]() {
    ArgParser parser("qnn-throughput-net-run",
                     "Runs models from several threads and reports inferences per second.",
                     {{"config", true, "FILE", "JSON with backends, models, contexts and testCase"},
                      {"output", true, "FILE", "write the results as JSON"},
                      {"quiet", false, "", "no progress line on a terminal"},
                      {"version", false, "", "print the SDK version"},
                      {"help", false, "", "show this help"}});
    parser.parse(argc, argv);
    if (parser.answeredHelpOrVersion(qnn::tools::ArgParser::VersionText::Sdk)) return 0;
    if (!parser.has("config")) throw UsageError("--config is required");
    auto config = throughput::readThroughputConfig(parser.value("config"));
    auto report = throughput::runThroughput(config, parser.has("quiet"));
    auto doc = toJson(report);
    for (const auto& t : doc["threads"])
      std::printf("thread %s: %llu inferences in %.3f s = %.1f inferences/s\n", t["threadName"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(t["inferences"].get<uint64_t>()), t["seconds"].get<double>(),
                  t["inferencesPerSecond"].get<double>());
    std::printf("total: %llu inferences in %.3f s = %.1f inferences/s\n",
                static_cast<unsigned long long>(report.totalInferences), report.totalSeconds,
                doc["total"]["inferencesPerSecond"].get<double>());
    if (parser.has("output")) {
      std::ofstream out(parser.value("output"));
      out << doc.dump(2) << "\n";
      if (!out) throw ToolError("cannot write '" + parser.value("output") + "'");
    }
    return 0;
  });
}
