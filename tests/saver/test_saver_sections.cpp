// Updateable tensors and binary sections through the Saver: saver_section_client
// (the vendor's LoRA flow) recorded with pass-through to libQnnCpu.so gives the
// outputs of a direct run; the trace holds the updates (with their data), the
// sections written and applied, and the section update; qnn-trace-replay
// --compare and the generated saver_output.c replay every one of those calls
// with the same outputs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/saver/saver_test_util.h"
#include "trace/trace_reader.h"

namespace fs = std::filesystem;
using qnn::trace::Trace;
using qnn::trace::Value;
using namespace qnn::saver_test;

namespace {

class SaverSections : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("qnn_saver_sections_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string client = std::string(QNN_TEST_SAVER_SECTION_CLIENT) + " ";
    direct_ = run(client + QNN_TEST_CPU_BACKEND_PATH + " direct.bin", dir_);
    pass_ = run(std::string("QNN_SAVER_BACKEND=") + QNN_TEST_CPU_BACKEND_PATH + " " + client + QNN_TEST_SAVER_PATH +
                    " pass.bin pass",
                dir_);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static fs::path dir_;
  static Outcome direct_, pass_;
};

fs::path SaverSections::dir_;
Outcome SaverSections::direct_, SaverSections::pass_;

size_t count(const Trace& t, const char* name) {
  size_t n = 0;
  for (const auto& c : t.calls) n += std::string(qnn::trace::callName(c.callId)) == name && c.result == 0;
  return n;
}

TEST_F(SaverSections, RecordedWithTheOutputsOfADirectRun) {
  ASSERT_EQ(direct_.exitCode, 0) << direct_.err;
  ASSERT_EQ(pass_.exitCode, 0) << pass_.err;
  std::string direct = readText(dir_ / "direct.bin");
  ASSERT_EQ(direct.size(), 6u * 4 * 4);
  EXPECT_EQ(direct.substr(32, 16), direct.substr(48, 16));  // the environment's run repeats the last one
  // The two contexts the list loaded run the base weights, as the first execute.
  EXPECT_EQ(direct.substr(64, 16), direct.substr(0, 16));
  EXPECT_EQ(direct.substr(80, 16), direct.substr(0, 16));
  EXPECT_EQ(readText(dir_ / "pass.bin"), direct);
  // The three executes differ: each adapter changed the weights.
  EXPECT_NE(direct.substr(0, 16), direct.substr(16, 16));
  EXPECT_NE(direct.substr(16, 16), direct.substr(32, 16));
  Trace t;
  ASSERT_TRUE(qnn::trace::readTrace((dir_ / "pass" / "saver_output.qnntrace").string(), t)) << t.error;
  for (const char* call : {"QnnTensor_updateGraphTensors", "QnnContext_getBinarySectionSize",
                           "QnnContext_getBinarySection", "QnnContext_getBinarySectionUpdate",
                           "QnnContext_freeBinarySectionUpdate", "QnnContext_finalize",
                           "QnnContext_createFromBinaryWithCallback", "QnnContext_createFromBinaryListAsync"})
    EXPECT_EQ(count(t, call), 1u) << call;
  for (const auto& c : t.calls) {
    if (std::string(qnn::trace::callName(c.callId)) != "QnnContext_createFromBinaryListAsync") continue;
    const Value* entries = c.args.field("contextParams");
    ASSERT_NE(entries, nullptr);
    ASSERT_EQ(entries->items.size(), 2u);
    for (const Value& e : entries->items) {
      EXPECT_NE(e.field("binary"), nullptr);
      EXPECT_NE(e.field("context"), nullptr);
      ASSERT_NE(e.field("graphs"), nullptr);
      ASSERT_EQ(e.field("graphs")->items.size(), 1u);
      EXPECT_EQ(e.field("graphs")->items[0].field("graphName")->s, "lora");
    }
    EXPECT_EQ(entries->items[0].field("callbackType"), nullptr);
    EXPECT_NE(entries->items[1].field("callbackType"), nullptr);
  }
  EXPECT_EQ(count(t, "QnnContext_applyBinarySection"), 2u);
  EXPECT_GE(count(t, "QnnContext_getIncrementalBinary"), 2u);  // the pieces and the empty answer after them
  EXPECT_GE(count(t, "QnnContext_releaseIncrementalBinary"), 1u);
  for (const auto& c : t.calls) {
    if (std::string(qnn::trace::callName(c.callId)) != "QnnTensor_updateGraphTensors") continue;
    const Value* tensors = c.args.field("tensors");
    ASSERT_NE(tensors, nullptr);
    ASSERT_EQ(tensors->items.size(), 2u);
    const Value* data = tensors->items[0].field("data");
    ASSERT_NE(data, nullptr);
    ASSERT_NE(t.blob(*data), nullptr);
    EXPECT_EQ(t.blob(*data)->size(), 32u);  // A: 4x2 floats
  }
}

TEST_F(SaverSections, TraceReplayReplaysEverySectionCall) {
  ASSERT_EQ(pass_.exitCode, 0) << pass_.err;
  Outcome r = run(std::string(QNN_TEST_TRACE_REPLAY) + " --backend " + QNN_TEST_CPU_BACKEND_PATH +
                      " --compare --trace pass/saver_output.qnntrace",
                  dir_);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("compared 6 outputs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no divergence"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Section"), std::string::npos) << "a section call was skipped: " << r.out;
  EXPECT_EQ(r.out.find("update"), std::string::npos) << "an update call was skipped: " << r.out;
}

TEST_F(SaverSections, GeneratedProgramReplaysLikeTheDirectRun) {
  ASSERT_EQ(pass_.exitCode, 0) << pass_.err;
  fs::path d = dir_ / "pass";
  Outcome cc = run(std::string(QNN_TEST_C_COMPILER) + " -std=c11 -Wall -Wextra -Werror " + QNN_TEST_C_FLAGS + " -I'" +
                       QNN_TEST_INCLUDE_DIR + "' -DSAVER_OUTPUT_NO_LINKED_BACKEND saver_output.c -o replay -ldl",
                   d);
  ASSERT_EQ(cc.exitCode, 0) << cc.err;
  std::string source = readText(d / "saver_output.c");
  for (const char* call : {"API(tensorUpdateGraphTensors, ", "API(contextGetBinarySection, ",
                           "API(contextApplyBinarySection, ", "API(contextGetBinarySectionUpdate, ",
                           "API(contextFreeBinarySectionUpdate, ", "API(contextFinalize, ",
                           "API(contextGetIncrementalBinary, ", "API(contextReleaseIncrementalBinary, ",
                           "API(graphPrepareExecutionEnvironment, ", "API(graphReleaseExecutionEnvironment, ",
                           "API(contextCreateFromBinaryWithCallback, ", "API(contextCreateFromBinaryListAsync, "})
    EXPECT_NE(source.find(call), std::string::npos) << call;
  Outcome r = run(std::string("./replay --backend ") + QNN_TEST_CPU_BACKEND_PATH, d);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::string outputs = readText(d / "replay_output" / "execute_0_output_0_y.raw") +
                        readText(d / "replay_output" / "execute_1_output_0_y.raw") +
                        readText(d / "replay_output" / "execute_2_output_0_y.raw") +
                        readText(d / "replay_output" / "execute_3_output_0_y.raw") +
                        readText(d / "replay_output" / "execute_4_output_0_y.raw") +
                        readText(d / "replay_output" / "execute_5_output_0_y.raw");
  EXPECT_EQ(outputs, readText(dir_ / "direct.bin"));
}

TEST_F(SaverSections, RecordedArgumentsAreTheListedOnes) {
  Trace t;
  ASSERT_TRUE(qnn::trace::readTrace((dir_ / "pass" / "saver_output.qnntrace").string(), t)) << t.error;
  EXPECT_GT(expectArgsAsListed(t), 30u);
}

}  // namespace
