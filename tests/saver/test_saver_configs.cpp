// Configs, custom configs, profiles, signals, logs and registered memory
// through the Saver: saver_config_client records them (pass-through to
// libQnnCpu.so, and record-only with the HTP backend id); the trace holds the
// config contents and custom payload bytes, mem-handle tensor data is
// recorded, and both qnn-trace-replay --compare and the generated C program
// (named by QNN_SAVER_CONFIG_OPTION_FILE_CONFIG) replay every call, including
// an asynchronous execute.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "CPU/QnnCpuGraph.h"
#include "HTP/QnnHtpGraph.h"
#include "QnnInterface.h"
#include "tests/saver/saver_test_util.h"
#include "trace/trace_reader.h"

namespace fs = std::filesystem;
using qnn::trace::Trace;
using qnn::trace::Value;
using namespace qnn::saver_test;

namespace {

const qnn::trace::CallRecord* find(const Trace& t, const char* name, size_t nth = 0) {
  for (const auto& c : t.calls)
    if (std::string(qnn::trace::callName(c.callId)) == name && nth-- == 0) return &c;
  return nullptr;
}

class SaverConfigs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("qnn_saver_cfg_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string client = std::string(QNN_TEST_SAVER_CONFIG_CLIENT) + " ";
    pass_ = run(std::string("QNN_SAVER_BACKEND=") + QNN_TEST_CPU_BACKEND_PATH + " " + client + QNN_TEST_SAVER_PATH +
                    " pass.bin pass cpu",
                dir_);
    htp_ = run("env -u QNN_SAVER_BACKEND " + client + QNN_TEST_SAVER_PATH + " htp.bin htp htp", dir_);
    direct_ = run(client + QNN_TEST_CPU_BACKEND_PATH + " direct.bin unused", dir_);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static fs::path dir_;
  static Outcome pass_, htp_, direct_;
};

fs::path SaverConfigs::dir_;
Outcome SaverConfigs::pass_, SaverConfigs::htp_, SaverConfigs::direct_;

TEST_F(SaverConfigs, ConfigContentsAndMemoryAreRecorded) {
  ASSERT_EQ(pass_.exitCode, 0) << pass_.err;
  ASSERT_EQ(direct_.exitCode, 0) << direct_.err;
  EXPECT_EQ(readText(dir_ / "pass.bin"), readText(dir_ / "direct.bin"));
  Trace t;
  ASSERT_TRUE(qnn::trace::readTrace((dir_ / "pass" / "saver_output.qnntrace").string(), t)) << t.error;

  const Value& backendCfg = at(find(t, "QnnBackend_create")->args, "config").items.at(0);
  EXPECT_EQ(at(at(backendCfg, "errorReporting"), "storageLimit").u, 64u);
  EXPECT_EQ(at(at(find(t, "QnnSignal_create")->args, "config").items.at(0), "timeoutUs").u, 5000000u);
  const Value& contextCfg = at(find(t, "QnnContext_create")->args, "config");
  EXPECT_EQ(at(contextCfg.items.at(0), "priority").u, uint64_t(QNN_PRIORITY_HIGH));
  EXPECT_EQ(at(contextCfg.items.at(1), "memoryLimitHint").u, 256u);
  const Value& order = at(contextCfg.items.at(2), "graphRetentionOrder");
  ASSERT_EQ(order.items.size(), 2u);
  EXPECT_EQ(order.items[1].s, "spare");

  const auto* graph = find(t, "QnnGraph_create");
  const Value& graphCfg = at(graph->args, "config");
  ASSERT_EQ(graphCfg.items.size(), 4u);
  EXPECT_EQ(at(graphCfg.items[3], "numProfilingExecutions").u, 100u);
  // The CPU custom config holds a callback pointer: its bytes are kept for
  // inspection under a name replay does not use.
  EXPECT_EQ(at(graphCfg.items[0], "customType").s, "QnnCpuGraph_CustomConfig_t");
  const std::vector<uint8_t>* cpuCustom = t.blob(at(graphCfg.items[0], "customWithPointers"));
  ASSERT_NE(cpuCustom, nullptr);
  ASSERT_EQ(cpuCustom->size(), sizeof(QnnCpuGraph_CustomConfig_t));
  QnnCpuGraph_CustomConfig_t recorded;
  std::memcpy(&recorded, cpuCustom->data(), sizeof recorded);
  EXPECT_EQ(recorded.option, QNN_CPU_GRAPH_CONFIG_OPTION_OP_DEBUG_CALLBACK);
  EXPECT_EQ(at(graphCfg.items[1], "priority").u, uint64_t(QNN_PRIORITY_LOW));
  EXPECT_EQ(at(graphCfg.items[2], "profile").u, at(find(t, "QnnProfile_create")->args, "profile").u);

  // Configs and queries added after API 2.7.
  EXPECT_EQ(at(at(find(t, "QnnProfile_setConfig")->args, "config").items.at(0), "numMaxEvents").u, 1000u);
  EXPECT_EQ(at(at(find(t, "QnnGlobalConfig_Set")->args, "config").items.at(0), "socModel").u,
            uint64_t(QNN_SOC_MODEL_SM8550));
  const auto* property = find(t, "QnnContext_getProperty");
  ASSERT_NE(property, nullptr);
  EXPECT_EQ(at(property->args, "options").items.at(0).u, uint64_t(QNN_CONTEXT_PROPERTY_OPTION_CUSTOM));
  EXPECT_EQ(property->result, uint64_t(QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE));
  const auto* extended = find(t, "QnnProfile_getExtendedEventData");
  ASSERT_NE(extended, nullptr);
  EXPECT_EQ(at(extended->args, "type").u, uint64_t(QNN_PROFILE_EVENTTYPE_FINALIZE));
  EXPECT_GT(at(extended->args, "timestamp").u, 0u);

  // Mem-handle tensors: the registered buffer's bytes at execute, in and out.
  const auto* exec = find(t, "QnnGraph_execute", 1);
  ASSERT_NE(exec, nullptr);
  const Value& in = at(exec->args, "inputs").items.at(0);
  EXPECT_EQ(at(in, "memType").u, uint64_t(QNN_TENSORMEMTYPE_MEMHANDLE));
  const std::vector<uint8_t>* inData = t.blob(at(in, "data"));
  ASSERT_NE(inData, nullptr);
  std::vector<float> expected(8);
  for (int k = 0; k < 8; ++k) expected[k] = float(k) * -1.5f;
  EXPECT_EQ(std::memcmp(inData->data(), expected.data(), 32), 0);
  const std::vector<uint8_t>* outData = t.blob(at(at(exec->args, "outputs").items.at(0), "data"));
  ASSERT_NE(outData, nullptr);
  EXPECT_EQ(std::string(outData->begin(), outData->end()), readText(dir_ / "direct.bin").substr(32, 32));
}

TEST_F(SaverConfigs, HtpCustomConfigPayloadIsRecordedAndGenerated) {
  ASSERT_EQ(htp_.exitCode, 0) << htp_.err;
  Trace t;
  ASSERT_TRUE(qnn::trace::readTrace((dir_ / "htp" / "saver_output.qnntrace").string(), t)) << t.error;
  const Value& custom = at(find(t, "QnnGraph_create")->args, "config").items.at(0);
  EXPECT_EQ(at(custom, "customType").s, "QnnHtpGraph_CustomConfig_t");
  const std::vector<uint8_t>* bytes = t.blob(at(custom, "custom"));
  ASSERT_NE(bytes, nullptr);
  QnnHtpGraph_CustomConfig_t expected;
  std::memset(&expected, 0, sizeof expected);
  expected.option = QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE;
  expected.vtcmSizeInMB = 4;
  ASSERT_EQ(bytes->size(), sizeof expected);
  EXPECT_EQ(std::memcmp(bytes->data(), &expected, sizeof expected), 0);
  // A device option only API 2.39 defines (APP_UID) is recorded in that version's 24-byte layout.
  const Value& device = at(find(t, "QnnDevice_create")->args, "config").items.at(0);
  EXPECT_EQ(at(device, "customType").s, "QnnHtpDevice_CustomConfig_t");
  const std::vector<uint8_t>* deviceBytes = t.blob(at(device, "custom"));
  ASSERT_NE(deviceBytes, nullptr);
  ASSERT_EQ(deviceBytes->size(), 24u);
  uint32_t uid = 0;
  std::memcpy(&uid, deviceBytes->data() + 8, sizeof uid);
  EXPECT_EQ(uid, 10123u);
  // The generated program hands the payload from its data file to the backend.
  std::string source = readText(dir_ / "htp" / "replay.c");
  EXPECT_NE(source.find(".customConfig = P("), std::string::npos);
  Outcome cc = run(std::string(QNN_TEST_C_COMPILER) + " -std=c11 -Wall -Wextra -Werror " + QNN_TEST_C_FLAGS + " -I'" +
                       QNN_TEST_INCLUDE_DIR + "' -DSAVER_OUTPUT_NO_LINKED_BACKEND replay.c -o replay -ldl",
                   dir_ / "htp");
  EXPECT_EQ(cc.exitCode, 0) << cc.err;
}

// Recorded on the HTP, replayed on the CPU: the HTP's custom graph config is not
// handed to the CPU (which would read it as a QnnCpuGraph_CustomConfig_t).
TEST_F(SaverConfigs, TraceReplayLeavesOutAnotherBackendsCustomConfigs) {
  ASSERT_EQ(htp_.exitCode, 0) << htp_.err;
  Outcome r = run(std::string(QNN_TEST_TRACE_REPLAY) + " --backend " + QNN_TEST_CPU_BACKEND_PATH +
                      " --trace htp/saver_output.qnntrace",
                  dir_);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("replayed 27 calls"), std::string::npos) << r.out;  // with the HTP device create and free
  EXPECT_NE(r.err.find("warning: QnnHtpGraph_CustomConfig_t configs were recorded for another backend"),
            std::string::npos)
      << r.err;
}

TEST_F(SaverConfigs, TraceReplayReplaysEveryCallWithoutDivergence) {
  ASSERT_EQ(pass_.exitCode, 0) << pass_.err;
  Outcome r = run(std::string(QNN_TEST_TRACE_REPLAY) + " --backend " + QNN_TEST_CPU_BACKEND_PATH +
                      " --compare --trace pass/saver_output.qnntrace",
                  dir_);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("replayed 25 calls, skipped 5 (QnnSaver_initialize, QnnContext_getProperty, QnnProfile_getExtendedEventData, QnnGraph_finalize, QnnProfile_getEvents), compared 2 outputs"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("no divergence"), std::string::npos);
}

TEST_F(SaverConfigs, GeneratedProgramNamedByFileConfigReplaysLikeDirectRun) {
  ASSERT_EQ(pass_.exitCode, 0) << pass_.err;
  fs::path d = dir_ / "pass";
  ASSERT_TRUE(fs::exists(d / "replay.c"));
  ASSERT_TRUE(fs::exists(d / "replay_params.bin"));
  EXPECT_FALSE(fs::exists(d / "saver_output.c"));
  Outcome cc = run(std::string(QNN_TEST_C_COMPILER) + " -std=c11 -Wall -Wextra -Werror " + QNN_TEST_C_FLAGS + " -I'" +
                       QNN_TEST_INCLUDE_DIR + "' -DSAVER_OUTPUT_NO_LINKED_BACKEND replay.c -o replay -ldl",
                   d);
  ASSERT_EQ(cc.exitCode, 0) << cc.err;
  std::string source = readText(d / "replay.c");
  EXPECT_NE(source.find("API(profileSetConfig, "), std::string::npos);
  EXPECT_NE(source.find("API(globalConfigSet, "), std::string::npos);
  Outcome r = run(std::string("./replay -l verbose --backend ") + QNN_TEST_CPU_BACKEND_PATH, d);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // Execute 2 is the graphExecuteAsync, awaited before the next call.
  std::string outputs = readText(d / "replay_output" / "execute_0_output_0_out.raw") +
                        readText(d / "replay_output" / "execute_1_output_0_out.raw") +
                        readText(d / "replay_output" / "execute_2_output_0_out.raw");
  EXPECT_EQ(outputs, readText(dir_ / "direct.bin"));
  // The recorded log callback replays as one that prints: --logging raises the
  // recorded level (WARN) and shows the backend's messages.
  EXPECT_NE(r.err.find("[INFO] CPU_QTI_AISW backend created"), std::string::npos) << r.err;
}

TEST_F(SaverConfigs, RecordedArgumentsAreTheListedOnes) {
  for (const char* run : {"pass", "htp"}) {
    Trace t;
    ASSERT_TRUE(qnn::trace::readTrace((dir_ / run / "saver_output.qnntrace").string(), t)) << t.error;
    EXPECT_GT(expectArgsAsListed(t), 20u) << run;
  }
}

}  // namespace
