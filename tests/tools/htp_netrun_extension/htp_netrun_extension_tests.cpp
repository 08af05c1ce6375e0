// The HTP backend extension through the tools. The float model "two_io"
// (relu(x + y), x * y - y) runs on libQnnHtp.so in fp16 mode, selected only by
// --config_file backend_extensions, and is compared with libQnnCpu.so (float32).
//
// Tolerance: in fp16 mode every input and every op result is rounded to half
// (relative step <= 2^-11 ~ 4.9e-4). An output passes through at most three
// roundings of values no larger than the largest intermediate (|x*y| <= 4x the
// largest output here), so its error is below ~6e-3 of the largest output
// magnitude; the check uses 1e-2 of the largest CPU output value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "tests/tools/net_run/tool_runner.h"

using namespace nettest;

namespace {

const std::string kNetRun = NET_RUN;
const std::string kCbg = CONTEXT_BINARY_GENERATOR;
const std::string kTnr = THROUGHPUT_NET_RUN;
const std::string kCpu = CPU_BACKEND;
const std::string kHtp = HTP_BACKEND;
const std::string kExtension = HTP_EXTENSION;
const std::string kVendorStyle = VENDOR_STYLE_EXTENSION;
const std::string kTwoIo = MODEL_TWO_IO;
const char* const kOutputs[] = {"out_relu_0.raw", "diff.raw"};

class HtpExtension : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = makeTempDir();
    // Values with no exact half representation, so fp16 mode shows in the results.
    writeFloats(dir + "/x.raw", {0.1f, 1.0f / 3.0f, -2.7f, 3.14159f, 0.7f, -0.05f});
    writeFloats(dir + "/y.raw", {0.2f, 2.0f / 3.0f, 1.3f, -1.1f, 0.123f, 5.5f});
    writeText(dir + "/list.txt", "x:=" + dir + "/x.raw y:=" + dir + "/y.raw\n");
  }
  // The extension config, and the --config_file naming the extension library.
  std::string config(const std::string& extensionJson, const std::string& library = "libQnnHtpNetRunExtensions.so") {
    writeText(dir + "/ext.json", extensionJson);
    nlohmann::json cfg = {{"backend_extensions", {{"shared_library_path", library}, {"config_file_path", dir + "/ext.json"}}}};
    writeText(dir + "/cfg.json", cfg.dump());
    return " --config_file " + dir + "/cfg.json";
  }
  std::string netRun(const std::string& backend, const std::string& out) const {
    return kNetRun + " --backend " + backend + " --model " + kTwoIo + " --input_list " + dir + "/list.txt --output_dir " +
           dir + "/" + out;
  }
  void expectCloseToCpu(const std::string& htpOut) {
    RunResult cpu = runTool(netRun(kCpu, "cpu"));
    ASSERT_EQ(cpu.exitCode, 0) << cpu.err;
    bool anyRounded = false;
    for (const char* name : kOutputs) {
      auto want = readFloats(dir + "/cpu/Result_0/" + name);
      auto got = readFloats(dir + "/" + htpOut + "/Result_0/" + name);
      ASSERT_EQ(got.size(), want.size()) << name;
      float largest = 0;
      for (float v : want) largest = std::max(largest, std::fabs(v));
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_LE(std::fabs(got[i] - want[i]), 1e-2f * largest) << name << " [" << i << "]";
        anyRounded = anyRounded || got[i] != want[i];
      }
    }
    EXPECT_TRUE(anyRounded) << "HTP results equal float32 exactly: fp16 mode was not used";
  }
  void expectEqualToCpu(const std::string& htpOut) {
    RunResult cpu = runTool(netRun(kCpu, "cpu"));
    ASSERT_EQ(cpu.exitCode, 0) << cpu.err;
    for (const char* name : kOutputs)
      EXPECT_EQ(readFloats(dir + "/" + htpOut + "/Result_0/" + name), readFloats(dir + "/cpu/Result_0/" + name)) << name;
  }
  void expectFailure(const std::string& cmd, const std::string& mentions) {
    RunResult r = runTool(cmd);
    EXPECT_NE(r.exitCode, 0) << cmd;
    EXPECT_NE(r.err.find(mentions), std::string::npos) << "stderr: " << r.err;
    EXPECT_EQ(r.err.find("Sanitizer"), std::string::npos) << "stderr: " << r.err;
  }
  std::string dir;
};

const std::string kFp16 = R"({"graphs": [{"vtcm_mb": 8, "fp16_relaxed_precision": 1, "graph_names": ["two_io"]}]})";

TEST_F(HtpExtension, FloatModelInFp16MatchesCpu) {
  RunResult r = runTool(netRun(kHtp, "htp") + config(kFp16));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  expectCloseToCpu("htp");
}

// Without fp16_relaxed_precision the HTP computes floats in fp32 (API 2.32's
// default precision): for this model's element-wise ops, the CPU's results exactly.
TEST_F(HtpExtension, FloatModelWithoutExtensionRunsInFp32) {
  RunResult r = runTool(netRun(kHtp, "htp"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectEqualToCpu("htp");
}

TEST_F(HtpExtension, Fp16OffRunsInFp32) {
  RunResult r = runTool(netRun(kHtp, "htp") +
                        config(R"({"graphs": [{"fp16_relaxed_precision": 0, "graph_names": ["two_io"]}]})"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectEqualToCpu("htp");
}

TEST_F(HtpExtension, LibraryByPathAllKeys) {
  RunResult r = runTool(netRun(kHtp, "htp") +
                        config(R"({"graphs": {"graph_names": ["two_io"], "fp16_relaxed_precision": true, "O": 3,
                                   "hvx_threads": 2, "dlbc": 0, "vtcm_mb": 0},
                                   "devices": [{"soc_model": 57, "dsp_arch": "v75", "pd_session": "unsigned"}]})",
                               kExtension));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectCloseToCpu("htp");
}

TEST_F(HtpExtension, DeviceConfigsReachTheDevice) {
  // SoC 30 (SM8350) is Hexagon V68, which has no fp16 unit: the device and the graph's precision
  // config say so in warnings, and the float model runs in fp32, as with the vendor's x86 library.
  RunResult r = runTool(netRun(kHtp, "htp") + " --log_level warn" +
                        config(R"({"graphs": [{"fp16_relaxed_precision": 1, "graph_names": ["two_io"]}],
                                   "devices": [{"soc_id": 30}]})"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("HTP V68 has no fp16 unit"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("precision FLOAT16 on HTP V68, which has no fp16 unit"), std::string::npos) << r.err;
  expectEqualToCpu("htp");
}

TEST_F(HtpExtension, BadDeviceConfigFailsAtDeviceCreate) {
  expectFailure(netRun(kHtp, "htp") + config(R"({"devices": [{"soc_model": 9999}]})"),
                "QnnDevice_create with the backend extension's device configs failed");
}

TEST_F(HtpExtension, BadMalformedJson) {
  expectFailure(netRun(kHtp, "htp") + config("{\"graphs\": [}"), "malformed backend extension config '" + dir + "/ext.json'");
}

TEST_F(HtpExtension, BadValueType) {
  expectFailure(netRun(kHtp, "htp") + config(R"({"graphs": [{"vtcm_mb": "8", "graph_names": ["two_io"]}]})"),
                "'" + dir + "/ext.json': graphs[0].vtcm_mb must be a number, got \"8\"");
}

TEST_F(HtpExtension, BadOptimizationLevel) {
  expectFailure(netRun(kHtp, "htp") + config(R"({"graphs": [{"O": 5, "graph_names": ["two_io"]}]})"),
                "graphs[0].O must be an integer from 0 to 3, got 5");
}

TEST_F(HtpExtension, BadArch) {
  expectFailure(netRun(kHtp, "htp") + config(R"({"devices": {"dsp_arch": "v99"}})"),
                "devices[0].dsp_arch must be v68, v69, v73, v75, v79 or v81");
}

TEST_F(HtpExtension, BadGraphNames) {
  expectFailure(netRun(kHtp, "htp") + config(R"({"graphs": [{"graph_names": "two_io"}, {"graph_names": ["two_io"]}]})"),
                "graphs[1].graph_names names graph 'two_io', which graphs[0] configures already");
  expectFailure(netRun(kHtp, "htp") + config(R"({"graphs": [{"graph_names": [3]}]})"),
                "graphs[0].graph_names must hold non-empty strings, got 3");
}

TEST_F(HtpExtension, BadConfigFileMissing) {
  nlohmann::json cfg = {{"backend_extensions",
                         {{"shared_library_path", kExtension}, {"config_file_path", dir + "/none.json"}}}};
  writeText(dir + "/cfg.json", cfg.dump());
  expectFailure(netRun(kHtp, "htp") + " --config_file " + dir + "/cfg.json",
                "backend extension config not found: " + dir + "/none.json");
}

TEST_F(HtpExtension, UnmatchedGraphNameWarnsAndRuns) {
  RunResult r = runTool(netRun(kHtp, "htp") + config(R"({"graphs": [
      {"fp16_relaxed_precision": 1, "graph_names": ["two_io"]},
      {"fp16_relaxed_precision": 1, "graph_names": ["qnn_model"], "rpc_control_latency": 100, "frobnicate": 1},
      {"vtcm_mb": 2}], "context": [{"weight_sharing_enabled": true, "max_spill_fill_buffer_for_group": 0}]})"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.errorLines(), 0) << r.err;
  for (const char* w : {"names graph 'qnn_model', which no model has", "graphs[1].rpc_control_latency is not applied",
                        "graphs[1].frobnicate is not a key OpenQNN knows", "graphs[2] names no graph",
                        "context[0].max_spill_fill_buffer_for_group is not applied"})
    EXPECT_NE(r.err.find(w), std::string::npos) << w << "\nstderr: " << r.err;
  expectCloseToCpu("htp");
}

// The vendor's "context" object: weight_sharing_enabled becomes the HTP context custom config
// QNN_HTP_CONTEXT_CONFIG_OPTION_WEIGHT_SHARING_ENABLED at QnnContext_create of the generator, which a
// backend without HTP context configs refuses (so it is passed); the HTP takes it, and the two graphs of
// one model library still run right from the binary.
TEST_F(HtpExtension, ContextWeightSharing) {
  const std::string ext = R"({"graphs": [{"graph_names": ["two_io"], "fp16_relaxed_precision": 1}],
      "context": {"weight_sharing_enabled": true}})";
  RunResult g = runTool(kCbg + " --backend " + kHtp + " --model " + kTwoIo + " --binary_file m --output_dir " + dir +
                        "/bin" + config(ext));
  ASSERT_EQ(g.exitCode, 0) << g.err;
  EXPECT_EQ(g.err.find("not applied"), std::string::npos) << g.err;
  RunResult cpu = runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file c --output_dir " + dir +
                          "/bin" + config(R"({"context": {"weight_sharing_enabled": true}})"));
  EXPECT_NE(cpu.exitCode, 0) << "the CPU backend took an HTP context config";
  RunResult r = runTool(kNetRun + " --backend " + kHtp + " --retrieve_context " + dir + "/bin/m.bin --input_list " +
                        dir + "/list.txt --output_dir " + dir + "/htp");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectCloseToCpu("htp");
  expectFailure(netRun(kHtp, "htp") + config(R"({"context": {"weight_sharing_enabled": 2}})"),
                "context.weight_sharing_enabled must be an integer from 0 to 1, got 2");
}

TEST_F(HtpExtension, VendorStyleLibraryRefused) {
  expectFailure(netRun(kHtp, "htp") + config(kFp16, kVendorStyle), "uses the vendor's C++ extension interface");
  expectFailure(kCbg + " --backend " + kHtp + " --model " + kTwoIo + " --binary_file m --output_dir " + dir + "/bin" +
                    config(kFp16, kVendorStyle),
                "uses the vendor's C++ extension interface");
}

TEST_F(HtpExtension, OfflinePrepareThenRetrieveContext) {
  RunResult g = runTool(kCbg + " --backend " + kHtp + " --model " + kTwoIo + " --binary_file m --output_dir " + dir +
                        "/bin" + config(kFp16));
  ASSERT_EQ(g.exitCode, 0) << g.err;
  ASSERT_TRUE(exists(dir + "/bin/m.bin"));
  // Without the config: the fp16 preparation travels in the binary.
  RunResult r = runTool(kNetRun + " --backend " + kHtp + " --retrieve_context " + dir + "/bin/m.bin --input_list " +
                        dir + "/list.txt --output_dir " + dir + "/htp");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectCloseToCpu("htp");
  // With it (as vendor users pass it): a note, same results.
  RunResult again = runTool(kNetRun + " --backend " + kHtp + " --retrieve_context " + dir + "/bin/m.bin --input_list " +
                            dir + "/list.txt --output_dir " + dir + "/htp2" + config(kFp16));
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_NE(again.err.find("not applied again to retrieved graphs"), std::string::npos) << again.err;
  for (const char* name : kOutputs)
    EXPECT_EQ(readFloats(dir + "/htp2/Result_0/" + name), readFloats(dir + "/htp/Result_0/" + name)) << name;
}

nlohmann::json throughputConfig(const std::string& dir, bool withExtension) {
  nlohmann::json backend = {{"backendName", "htp"}, {"backendPath", kHtp}};
  nlohmann::json thread = {{"threadName", "t"}, {"backend", "htp"}, {"context", "c"}, {"model", "m"}, {"loop", 3}};
  if (withExtension) {
    backend["backendExtensions"] = "libQnnHtpNetRunExtensions.so";
    thread["backendConfig"] = dir + "/ext.json";
  }
  return {{"backends", {backend}},
          {"models", {{{"modelName", "m"}, {"modelPath", kTwoIo}, {"inputPath", dir + "/list.txt"}}}},
          {"contexts", {{{"contextName", "c"}}}},
          {"testCase", {{"iteration", 1}, {"threads", {thread}}}}};
}

TEST_F(HtpExtension, ThroughputNetRunFp16) {
  config(kFp16);
  writeText(dir + "/tp.json", throughputConfig(dir, true).dump());
  RunResult r = runTool(kTnr + " --config " + dir + "/tp.json --output " + dir + "/result.json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto res = nlohmann::json::parse(readText(dir + "/result.json"));
  ASSERT_EQ(res["threads"].size(), 1u);
  EXPECT_EQ(res["threads"][0]["inferences"], 3);
  // Without the extension the float model runs in fp32.
  writeText(dir + "/tp.json", throughputConfig(dir, false).dump());
  RunResult fp32 = runTool(kTnr + " --config " + dir + "/tp.json");
  EXPECT_EQ(fp32.exitCode, 0) << fp32.err;
}

TEST_F(HtpExtension, ThroughputBackendConfigNeedsExtension) {
  nlohmann::json cfg = throughputConfig(dir, true);
  cfg["backends"][0].erase("backendExtensions");
  writeText(dir + "/tp.json", cfg.dump());
  expectFailure(kTnr + " --config " + dir + "/tp.json", "backendConfig needs backendExtensions in backend 'htp'");
  cfg = throughputConfig(dir, true);
  cfg["backends"][0]["backendExtensions"] = kVendorStyle;
  config(kFp16);
  writeText(dir + "/tp.json", cfg.dump());
  expectFailure(kTnr + " --config " + dir + "/tp.json", "uses the vendor's C++ extension interface");
}

}  // namespace
