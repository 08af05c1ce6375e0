// The Saver's vendor-compatible output: saver_client records conv -> relu -> add
// (three executes, a context-binary round trip, a fourth execute) through
// libQnnSaver.so; the saver_output.c it leaves is compiled with the system C
// compiler against include/QNN, run on libQnnCpu.so (dlopened, or linked at
// build time), and its replay_output/ files must equal a direct run's outputs
// byte for byte. A failing call prints its source line and error code.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "QnnGraph.h"
#include "tests/saver/saver_test_util.h"

namespace fs = std::filesystem;
using namespace qnn::saver_test;

namespace {

constexpr size_t kOutputBytes = 5 * 6 * 4 * 4;  // one execute's float output (1x5x6x4)

std::string compile(const std::string& extra) {  // run in the test's directory
  return std::string(QNN_TEST_C_COMPILER) + " -std=c11 -Wall -Wextra -Werror " + QNN_TEST_C_FLAGS + " -I'" +
         QNN_TEST_INCLUDE_DIR + "' saver_output.c -o saver_output " + extra + " -ldl";
}

// replay_output/execute_<E>_output_0_out.raw for E = 0..n-1, concatenated.
std::vector<uint8_t> replayedOutputs(const fs::path& dir, unsigned n) {
  std::vector<uint8_t> all;
  for (unsigned e = 0; e < n; ++e) {
    fs::path p = dir / "replay_output" / ("execute_" + std::to_string(e) + "_output_0_out.raw");
    EXPECT_TRUE(fs::exists(p)) << p;
    std::vector<uint8_t> b = readBytes(p);
    EXPECT_EQ(b.size(), kOutputBytes) << p;
    all.insert(all.end(), b.begin(), b.end());
  }
  return all;
}

class SaverOutputC : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("qnn_saver_c_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string client = std::string(QNN_TEST_SAVER_CLIENT) + " ";
    recordOnly_ = run("env -u QNN_SAVER_BACKEND " + client + QNN_TEST_SAVER_PATH + " rec.bin '" + (dir_ / "rec").string() + "'", dir_);
    passThrough_ = run(std::string("QNN_SAVER_BACKEND=") + QNN_TEST_CPU_BACKEND_PATH + " " + client +
                           QNN_TEST_SAVER_PATH + " pass.bin '" + (dir_ / "pass").string() + "'",
                       dir_);
    direct_ = run(client + QNN_TEST_CPU_BACKEND_PATH + " direct.bin", dir_);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static std::vector<uint8_t> direct() { return readBytes(dir_ / "direct.bin"); }

  static fs::path dir_;
  static Outcome recordOnly_, passThrough_, direct_;
};

fs::path SaverOutputC::dir_;
Outcome SaverOutputC::recordOnly_, SaverOutputC::passThrough_, SaverOutputC::direct_;

TEST_F(SaverOutputC, RecordOnlyProgramCompilesAndReplaysLikeDirectRun) {
  ASSERT_EQ(recordOnly_.exitCode, 0) << recordOnly_.err;
  ASSERT_EQ(direct_.exitCode, 0) << direct_.err;
  fs::path d = dir_ / "rec";
  ASSERT_TRUE(fs::exists(d / "saver_output.c"));
  ASSERT_TRUE(fs::exists(d / "params.bin"));
  // params.bin holds the static data once: weights (108 floats), bias, stride,
  // pad, and the inputs of the three distinct executes.
  EXPECT_GE(fs::file_size(d / "params.bin"), (108 + 4) * 4u + 8 + 16 + 3 * (90 + 120) * 4u);
  Outcome cc = run(compile("-DSAVER_OUTPUT_NO_LINKED_BACKEND"), d);
  ASSERT_EQ(cc.exitCode, 0) << cc.err;
  Outcome replay = run(std::string("./saver_output --backend ") + QNN_TEST_CPU_BACKEND_PATH, d);
  ASSERT_EQ(replay.exitCode, 0) << replay.err;
  EXPECT_EQ(replayedOutputs(d, 4), direct());
  EXPECT_FALSE(fs::exists(d / "replay_output" / "execute_4_output_0_out.raw"));
}

TEST_F(SaverOutputC, PassThroughProgramLinkedWithCpuBackendReplaysLikeDirectRun) {
  ASSERT_EQ(passThrough_.exitCode, 0) << passThrough_.err;
  fs::path d = dir_ / "pass";
  fs::path cpu = fs::path(QNN_TEST_CPU_BACKEND_PATH);
  // Linked at build time: no --backend needed.
  Outcome cc = run(compile("-L'" + cpu.parent_path().string() + "' -lQnnCpu -Wl,-rpath,'" + cpu.parent_path().string() + "'"), d);
  ASSERT_EQ(cc.exitCode, 0) << cc.err;
  Outcome replay = run("./saver_output --logging error", d);
  ASSERT_EQ(replay.exitCode, 0) << replay.err;
  EXPECT_EQ(replayedOutputs(d, 4), direct());
  // The generated code names each call and refers to data by offset.
  std::string source = readText(d / "saver_output.c");
  EXPECT_NE(source.find("/* #15 QnnGraph_execute */"), std::string::npos);
  EXPECT_NE(source.find("CHECK(API(graphRetrieve, context_"), std::string::npos);
  EXPECT_NE(source.find("tensorData(&in[0], P("), std::string::npos);
}

TEST_F(SaverOutputC, FailingCallPrintsItsLineAndErrorCode) {
  ASSERT_EQ(recordOnly_.exitCode, 0) << recordOnly_.err;
  fs::path d = dir_ / "failing";
  fs::create_directories(d);
  fs::copy_file(dir_ / "rec" / "saver_output.c", d / "saver_output.c");
  fs::copy_file(dir_ / "rec" / "params.bin", d / "params.bin");
  // Zero the conv's stride in params.bin: the CPU backend rejects that node.
  std::string source = readText(d / "saver_output.c");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(source, m, std::regex("\"stride\";[^]*?P\\((\\d+)\\), 8u\\)")));
  size_t offset = std::stoul(m[1]);
  std::vector<uint8_t> params = readBytes(d / "params.bin");
  ASSERT_LE(offset + 8, params.size());
  ASSERT_EQ(params[offset], 1);  // stride {1, 1} as uint32
  std::fill(params.begin() + long(offset), params.begin() + long(offset) + 8, 0);
  std::ofstream(d / "params.bin", std::ios::binary).write(reinterpret_cast<const char*>(params.data()), long(params.size()));

  Outcome cc = run(compile("-DSAVER_OUTPUT_NO_LINKED_BACKEND"), d);
  ASSERT_EQ(cc.exitCode, 0) << cc.err;
  Outcome replay = run(std::string("./saver_output -l error --backend ") + QNN_TEST_CPU_BACKEND_PATH, d);
  EXPECT_EQ(replay.exitCode, 1);
  // The first failure is the conv node, printed with the line of its call.
  ASSERT_TRUE(std::regex_search(replay.err, m, std::regex("saver_output\\.c:(\\d+): API\\(graphAddNode, graph_\\d+, op\\) failed with error (\\d+)")))
      << replay.err;
  EXPECT_EQ(std::stoull(m[2]), uint64_t(QNN_GRAPH_ERROR_INVALID_OP_CONFIG)) << replay.err;
  std::istringstream lines(source);
  std::string text;
  for (unsigned long n = std::stoul(m[1]); n > 0 && std::getline(lines, text);) --n;
  EXPECT_NE(text.find("CHECK(API(graphAddNode"), std::string::npos) << text;
  EXPECT_LT(replay.err.find("saver_output.c:" + std::string(m[1])), replay.err.find("graphFinalize"));
}

TEST_F(SaverOutputC, RefusesBadArgumentsAndMismatchedParams) {
  ASSERT_EQ(recordOnly_.exitCode, 0);
  fs::path d = dir_ / "args";
  fs::create_directories(d);
  fs::copy_file(dir_ / "rec" / "saver_output.c", d / "saver_output.c");
  ASSERT_EQ(run(compile("-DSAVER_OUTPUT_NO_LINKED_BACKEND"), d).exitCode, 0);
  std::string backend = std::string(" --backend ") + QNN_TEST_CPU_BACKEND_PATH;
  Outcome r = run("./saver_output --logging loud" + backend, d);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("unknown log level 'loud'"), std::string::npos) << r.err;
  r = run("./saver_output" + backend, d);  // no params.bin here
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("cannot open params.bin"), std::string::npos) << r.err;
  std::ofstream(d / "params.bin") << "short";
  r = run("./saver_output" + backend, d);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("params.bin has 5 bytes"), std::string::npos) << r.err;
  r = run("./saver_output --backend /nonexistent/libQnnNone.so", d);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("cannot load /nonexistent/libQnnNone.so"), std::string::npos) << r.err;
}

TEST_F(SaverOutputC, KilledProcessTraceConvertsAndReplaysItsPrefix) {
  fs::path d = dir_ / "killed";
  Outcome killed = run(std::string("SAVER_CLIENT_KILL_AFTER=2 env -u QNN_SAVER_BACKEND ") + QNN_TEST_SAVER_CLIENT + " " +
                       QNN_TEST_SAVER_PATH + " killed.bin '" + d.string() + "'",
                   dir_);
  EXPECT_NE(killed.exitCode, 0);
  // Nothing was freed before the kill: the trace is what is left.
  ASSERT_TRUE(fs::exists(d / "saver_output.qnntrace"));
  EXPECT_FALSE(fs::exists(d / "saver_output.c"));
  Outcome convert = run(std::string(QNN_TEST_TRACE_TO_C) + " --trace saver_output.qnntrace -o .", d);
  ASSERT_EQ(convert.exitCode, 0) << convert.err;
  EXPECT_NE(convert.out.find("(17 calls)"), std::string::npos) << convert.out;
  ASSERT_EQ(run(compile("-DSAVER_OUTPUT_NO_LINKED_BACKEND"), d).exitCode, 0);
  Outcome replay = run(std::string("./saver_output --backend ") + QNN_TEST_CPU_BACKEND_PATH, d);
  ASSERT_EQ(replay.exitCode, 0) << replay.err;
  std::vector<uint8_t> all = direct();
  EXPECT_EQ(replayedOutputs(d, 2), std::vector<uint8_t>(all.begin(), all.begin() + 2 * kOutputBytes));
  // Damaged and wrong-version traces are refused with one error line.
  std::ofstream(d / "garbage.qnntrace") << "not a trace";
  Outcome bad = run(std::string(QNN_TEST_TRACE_TO_C) + " --trace garbage.qnntrace -o out", d);
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.err.find("bad magic"), std::string::npos) << bad.err;
  std::vector<uint8_t> bytes = readBytes(d / "saver_output.qnntrace");
  bytes.at(8) = 99;
  std::ofstream(d / "future.qnntrace", std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), long(bytes.size()));
  bad = run(std::string(QNN_TEST_TRACE_TO_C) + " --trace future.qnntrace -o out", d);
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.err.find("unsupported trace version 99"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(d / "out" / "saver_output.c"));
}

}  // namespace
