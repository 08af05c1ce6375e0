// QnnDevice_getInfrastructure through the Saver (saver_perf_client votes the way
// ONNX Runtime's QNN EP does): passing through to the HTP simulator, the client
// gets a working perf infrastructure whose calls are recorded with their
// arguments and real results and replayed by qnn-trace-replay; passing through
// to the CPU (no infrastructure) the backend's refusal reaches the client;
// only recording, the Saver answers the vendor's QNN_SAVER_ERROR_DUMMY_RETVALUE
// and leaves its output untouched (it used to answer success with null, and the EP
// crashed dereferencing it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "HTP/QnnHtpPerfInfrastructure.h"
#include "QnnDevice.h"
#include "QnnSdkBuildId.h"
#include "Saver/QnnSaver.h"
#include "tests/saver/saver_test_util.h"
#include "trace/trace_reader.h"

namespace fs = std::filesystem;
using qnn::trace::Trace;
using qnn::trace::Value;
using namespace qnn::saver_test;

namespace {

std::vector<const qnn::trace::CallRecord*> calls(const Trace& t, const std::string& name) {
  std::vector<const qnn::trace::CallRecord*> found;
  for (const auto& c : t.calls)
    if (qnn::trace::callName(c.callId) == name) found.push_back(&c);
  return found;
}

class SaverPerf : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("qnn_saver_perf_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string client = std::string(QNN_TEST_SAVER_PERF_CLIENT) + " " + QNN_TEST_SAVER_PATH;
    htp_ = run(std::string("QNN_SAVER_BACKEND=") + QNN_TEST_HTP_BACKEND_PATH + " " + client + " htp", dir_);
    cpu_ = run(std::string("QNN_SAVER_BACKEND=") + QNN_TEST_CPU_BACKEND_PATH + " " + client + " cpu", dir_);
    record_ = run("env -u QNN_SAVER_BACKEND " + client + " record", dir_);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static Trace traceOf(const char* name) {
    Trace t;
    EXPECT_TRUE(qnn::trace::readTrace((dir_ / name / "saver_output.qnntrace").string(), t)) << t.error;
    return t;
  }

  static fs::path dir_;
  static Outcome htp_, cpu_, record_;
};

fs::path SaverPerf::dir_;
Outcome SaverPerf::htp_, SaverPerf::cpu_, SaverPerf::record_;

TEST_F(SaverPerf, HtpPerfInfrastructureIsForwardedAndRecorded) {
  ASSERT_EQ(htp_.exitCode, 0) << htp_.out << htp_.err;
  // The backend's answers reach the client: a fresh id, accepted votes, and
  // the refusal of a vote on the destroyed id.
  const std::string refused = std::to_string(QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  EXPECT_EQ(htp_.out,
            std::string(QNN_SDK_BUILD_ID) + "\ninfrastructure 0\ncreatePowerConfigId 0 id 1\nsetPowerConfig 0\nsetMemoryConfig 0\n"
            "destroyPowerConfigId 0\nsetPowerConfig " + refused + "\n");

  Trace t = traceOf("htp");
  auto infra = calls(t, "QnnDevice_getInfrastructure");
  ASSERT_EQ(infra.size(), 1u);
  EXPECT_EQ(infra[0]->result, 0u);
  EXPECT_EQ(at(infra[0]->args, "recorded").u, 1u);

  auto create = calls(t, "QnnHtpPerfInfrastructure_createPowerConfigId");
  ASSERT_EQ(create.size(), 1u);
  EXPECT_EQ(at(create[0]->args, "deviceId").u, 0u);
  EXPECT_EQ(at(create[0]->args, "powerConfigId").u, 1u);

  auto set = calls(t, "QnnHtpPerfInfrastructure_setPowerConfig");
  ASSERT_EQ(set.size(), 2u);
  EXPECT_EQ(set[0]->result, 0u);
  const Value& votes = at(set[0]->args, "config");
  ASSERT_EQ(votes.items.size(), 3u);
  const Value& dcvs = at(votes.items[0], "dcvsV3");
  EXPECT_EQ(at(dcvs, "contextId").u, 1u);
  EXPECT_EQ(at(dcvs, "powerMode").u, uint64_t(QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_PERFORMANCE_MODE));
  EXPECT_EQ(at(dcvs, "sleepLatency").u, 40u);
  EXPECT_EQ(at(dcvs, "coreVoltageCornerTarget").u, uint64_t(DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER));
  EXPECT_EQ(at(votes.items[1], "rpcControlLatency").u, 100u);
  EXPECT_EQ(at(votes.items[2], "rpcPollingTime").u, 9999u);
  EXPECT_EQ(set[1]->result, uint64_t(QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT));

  auto memory = calls(t, "QnnHtpPerfInfrastructure_setMemoryConfig");
  ASSERT_EQ(memory.size(), 1u);
  EXPECT_EQ(at(at(memory[0]->args, "config").items.at(0), "memGrowSize").u, 4096u);
  auto destroy = calls(t, "QnnHtpPerfInfrastructure_destroyPowerConfigId");
  ASSERT_EQ(destroy.size(), 1u);
  EXPECT_EQ(at(destroy[0]->args, "powerConfigId").u, 1u);

  Outcome dump = run(std::string(QNN_TEST_TRACE_DUMP) + " --trace htp/saver_output.qnntrace", dir_);
  ASSERT_EQ(dump.exitCode, 0) << dump.err;
  EXPECT_NE(dump.out.find("QnnHtpPerfInfrastructure_setMemoryConfig("), std::string::npos) << dump.out;
}

TEST_F(SaverPerf, TraceReplayVotesOnTheHtpAndSkipsOnTheCpu) {
  ASSERT_EQ(htp_.exitCode, 0) << htp_.err;
  Outcome htp = run(std::string(QNN_TEST_TRACE_REPLAY) + " --backend " + QNN_TEST_HTP_BACKEND_PATH +
                        " --trace htp/saver_output.qnntrace",
                    dir_);
  ASSERT_EQ(htp.exitCode, 0) << htp.out << htp.err;
  // getInfrastructure, create, set, setMemory, destroy; the refused vote is not replayed.
  EXPECT_NE(htp.out.find("replayed 5 calls, skipped 3 (QnnSaver_initialize, QnnBackend_getBuildId, "
                         "QnnHtpPerfInfrastructure_setPowerConfig)"),
            std::string::npos)
      << htp.out;
  Outcome cpu = run(std::string(QNN_TEST_TRACE_REPLAY) + " --backend " + QNN_TEST_CPU_BACKEND_PATH +
                        " --trace htp/saver_output.qnntrace",
                    dir_);
  ASSERT_EQ(cpu.exitCode, 0) << cpu.out << cpu.err;
  EXPECT_NE(cpu.out.find("replayed 0 calls, skipped 8"), std::string::npos) << cpu.out;
}

// The perf calls of a trace as qnn-trace-dump prints them, without their
// sequence numbers, those that succeeded only.
std::vector<std::string> perfCalls(const fs::path& trace, const fs::path& dir) {
  Outcome dump = run(std::string(QNN_TEST_TRACE_DUMP) + " --trace '" + trace.string() + "'", dir);
  EXPECT_EQ(dump.exitCode, 0) << dump.err;
  std::vector<std::string> calls;
  std::istringstream lines(dump.out);
  for (std::string l; std::getline(lines, l);)
    if (l.find("QnnHtpPerfInfrastructure_") != std::string::npos && l.size() > 5 &&
        l.compare(l.size() - 5, 5, " -> 0") == 0)
      calls.push_back(l.substr(l.find(' ') + 1));
  return calls;
}

// saver_output.c makes the perf calls on the infrastructure its own
// QnnDevice_getInfrastructure got, with the power config id the backend gives
// this run: replayed through the Saver onto the HTP again, the same votes arrive.
TEST_F(SaverPerf, GeneratedProgramVotesLikeTheRecording) {
  ASSERT_EQ(htp_.exitCode, 0) << htp_.err;
  fs::path d = dir_ / "htp";
  Outcome cc = run(std::string(QNN_TEST_C_COMPILER) + " -std=c11 -Wall -Wextra -Werror " + QNN_TEST_C_FLAGS + " -I'" +
                       QNN_TEST_INCLUDE_DIR + "' -DSAVER_OUTPUT_NO_LINKED_BACKEND saver_output.c -o saver_output -ldl",
                   d);
  ASSERT_EQ(cc.exitCode, 0) << cc.err;
  fs::create_directories(d / "again");
  Outcome replay = run(std::string("QNN_SAVER_BACKEND=") + QNN_TEST_HTP_BACKEND_PATH + " ../saver_output --params ../params.bin --backend " +
                           QNN_TEST_SAVER_PATH,
                       d / "again");
  ASSERT_EQ(replay.exitCode, 0) << replay.out << replay.err;
  std::vector<std::string> recorded = perfCalls(d / "saver_output.qnntrace", d);
  ASSERT_EQ(recorded.size(), 4u);  // create, set, setMemory, destroy (the refused vote is not replayed)
  EXPECT_EQ(perfCalls(d / "again" / "saver_output" / "saver_output.qnntrace", d), recorded);
  // On a backend without the infrastructure the perf calls are skipped.
  Outcome cpu = run(std::string("./saver_output --backend ") + QNN_TEST_CPU_BACKEND_PATH, d);
  EXPECT_NE(cpu.err.find("1 call(s) failed"), std::string::npos) << cpu.err;  // getInfrastructure itself
}

// A refusal reaches the client as `code` with no infrastructure, and is recorded.
void expectRefused(const Outcome& run, const Trace& t, Qnn_ErrorHandle_t code) {
  ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
  // The Saver's own build id (record only) and the backend's (pass-through) are the one SDK build id.
  EXPECT_EQ(run.out, std::string(QNN_SDK_BUILD_ID) + "\ninfrastructure " + std::to_string(code) + "\n");
  auto infra = calls(t, "QnnDevice_getInfrastructure");
  ASSERT_EQ(infra.size(), 1u);
  EXPECT_EQ(infra[0]->result, uint64_t(code));
}

TEST_F(SaverPerf, BackendWithoutInfrastructureRefusesThroughTheSaver) {
  expectRefused(cpu_, traceOf("cpu"), QNN_COMMON_ERROR_NOT_SUPPORTED);
}

TEST_F(SaverPerf, RecordOnlyAnswersTheVendorsDummyValueWithoutInfrastructure) {
  expectRefused(record_, traceOf("record"), QNN_SAVER_ERROR_DUMMY_RETVALUE);
}

TEST_F(SaverPerf, RecordedArgumentsAreTheListedOnes) {
  for (const char* run : {"htp", "cpu", "record"}) EXPECT_GT(expectArgsAsListed(traceOf(run)), 1u) << run;
}

}  // namespace
