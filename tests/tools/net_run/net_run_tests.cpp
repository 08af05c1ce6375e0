// End-to-end tests of qnn-net-run, qnn-context-binary-generator and
// qnn-throughput-net-run on libQnnCpu.so with the hand-written test models.
// Expected values come from plain loops here, never from the backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/tools/net_run/tool_runner.h"

using namespace nettest;

namespace {

const std::string kNetRun = NET_RUN;
const std::string kCbg = CONTEXT_BINARY_GENERATOR;
const std::string kTnr = THROUGHPUT_NET_RUN;
const std::string kCpu = CPU_BACKEND;
const std::string kTwoIo = MODEL_TWO_IO;
const std::string kQuant = MODEL_QUANT;
const std::string kNotAModel = NOT_A_MODEL;

struct Pair {
  std::vector<float> x, y;
};

std::vector<float> refRelu(const Pair& p) {
  std::vector<float> r(p.x.size());
  for (size_t i = 0; i < r.size(); ++i) r[i] = std::max(0.0f, p.x[i] + p.y[i]);
  return r;
}
std::vector<float> refDiff(const Pair& p) {
  std::vector<float> r(p.x.size());
  for (size_t i = 0; i < r.size(); ++i) r[i] = p.x[i] * p.y[i] - p.y[i];
  return r;
}
std::vector<float> refSum(const Pair& p) {
  std::vector<float> r(p.x.size());
  for (size_t i = 0; i < r.size(); ++i) r[i] = p.x[i] + p.y[i];
  return r;
}

void expectNear(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << what << " [" << i << "]";
}

class NetRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = makeTempDir();
    out = dir + "/out";
    for (int k = 0; k < 3; ++k) {
      Pair p;
      for (int i = 0; i < 6; ++i) {
        p.x.push_back(0.5f * (i - 2) + k);
        p.y.push_back(-1.25f + 0.75f * i - 0.5f * k);
      }
      pairs.push_back(p);
      writeFloats(dir + "/x" + std::to_string(k) + ".raw", p.x);
      writeFloats(dir + "/y" + std::to_string(k) + ".raw", p.y);
    }
    std::string list = "#out/relu:0 diff\n";
    for (int k = 0; k < 3; ++k)
      list += "x:=" + dir + "/x" + std::to_string(k) + ".raw y:=" + dir + "/y" + std::to_string(k) + ".raw\n";
    writeText(dir + "/list.txt", list);
    // Quant model inputs: float values and the single-input (plain path) list.
    writeFloats(dir + "/q.raw", {-1.0f, 0.0f, 0.26f, 2.0f});
    writeText(dir + "/qlist.txt", dir + "/q.raw\n");
  }
  std::string base() const { return kNetRun + " --backend " + kCpu + " --output_dir " + out + " "; }
  std::string twoIo() const { return base() + "--model " + kTwoIo + " --input_list " + dir + "/list.txt "; }
  void checkTwoIoResult(const std::string& resultDir, const Pair& p) {
    expectNear(readFloats(resultDir + "/out_relu_0.raw"), refRelu(p), resultDir + " relu");
    expectNear(readFloats(resultDir + "/diff.raw"), refDiff(p), resultDir + " diff");
  }
  // A failing run: non-zero exit, exactly one error line, no output written.
  void expectFailure(const std::string& cmd, const std::string& mentions) {
    RunResult r = runTool(cmd);
    EXPECT_NE(r.exitCode, 0) << cmd;
    EXPECT_EQ(r.errorLines(), 1) << r.err;
    EXPECT_NE(r.err.find(mentions), std::string::npos) << "stderr: " << r.err;
    EXPECT_FALSE(exists(out + "/Result_0")) << "outputs written by a failing run";
  }
  std::string dir, out;
  std::vector<Pair> pairs;
};

TEST_F(NetRun, ThreeInputsMatchReference) {
  RunResult r = runTool(twoIo());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (int k = 0; k < 3; ++k) checkTwoIoResult(out + "/Result_" + std::to_string(k), pairs[k]);
  EXPECT_FALSE(exists(out + "/Result_3"));
  EXPECT_FALSE(exists(out + "/qnn-profiling-data_0.log"));
}

TEST_F(NetRun, ContextBinaryThenRetrieveContext) {
  RunResult g = runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file model --output_dir " + dir + "/bin");
  ASSERT_EQ(g.exitCode, 0) << g.err;
  ASSERT_TRUE(exists(dir + "/bin/model.bin"));
  RunResult r = runTool(base() + "--retrieve_context " + dir + "/bin/model.bin --input_list " + dir + "/list.txt");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (int k = 0; k < 3; ++k) checkTwoIoResult(out + "/Result_" + std::to_string(k), pairs[k]);
}

TEST_F(NetRun, RetrieveContextWithValidateBinary) {
  ASSERT_EQ(runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file m.bin --output_dir " + dir).exitCode, 0);
  RunResult r = runTool(base() + "--retrieve_context " + dir + "/m.bin --validate_binary --input_list " + dir + "/list.txt");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_2", pairs[2]);
}

TEST_F(NetRun, ContextBinaryGeneratorProfilingLog) {
  RunResult g = runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file m --profiling_level basic --output_dir " + dir + "/bin");
  ASSERT_EQ(g.exitCode, 0) << g.err;
  auto log = nlohmann::json::parse(readText(dir + "/bin/qnn-profiling-data_0.log"));
  EXPECT_EQ(log["tool"], "qnn-context-binary-generator");
  bool finalize = false;
  for (const auto& e : log["events"]) finalize = finalize || (e["phase"] == "finalize" && e["type"] == 300);
  EXPECT_TRUE(finalize);
}

TEST_F(NetRun, DetailedProfilingHasOneNodeEventPerOpPerInference) {
  RunResult r = runTool(twoIo() + "--profiling_level detailed");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto log = nlohmann::json::parse(readText(out + "/qnn-profiling-data_0.log"));
  EXPECT_EQ(log["format"], "openqnn-profile");
  EXPECT_EQ(log["version"], 1);
  EXPECT_EQ(log["tool"], "qnn-net-run");
  EXPECT_EQ(log["profilingLevel"], "detailed");
  // The tool's own wall time of each execute call bounds its node events; the
  // backend's execute value leaves out the entry point's own work, which under
  // sanitizers on a loaded machine can exceed a millisecond.
  std::map<int, uint64_t> clientElapsed;
  for (const auto& e : log["events"])
    if (e["identifier"] == "client: execute") clientElapsed[e["inference"].get<int>()] = e["value"].get<uint64_t>();
  std::vector<int> inferences;
  for (const auto& e : log["events"]) {
    if (e["phase"] != "execute") continue;
    EXPECT_EQ(e["type"], 400);
    EXPECT_EQ(e["graph"], "two_io");
    ASSERT_TRUE(e.contains("startUs"));
    inferences.push_back(e["inference"].get<int>());
    int nodes = 0;
    uint64_t previous = 0;
    for (const auto& s : e["subEvents"]) {
      if (s["type"] != 404) continue;
      ++nodes;
      // Each node's start from the backend's extended event data, in order,
      // within its execute event.
      ASSERT_TRUE(s.contains("startUs")) << s.dump();
      const uint64_t start = s["startUs"].get<uint64_t>();
      EXPECT_GE(start, previous);
      EXPECT_GE(start + 1, e["startUs"].get<uint64_t>());
      ASSERT_TRUE(clientElapsed.count(e["inference"].get<int>()));
      EXPECT_LE(start, e["startUs"].get<uint64_t>() + clientElapsed[e["inference"].get<int>()] + 1);
      previous = start;
    }
    EXPECT_EQ(nodes, 4);
  }
  EXPECT_EQ(inferences, (std::vector<int>{0, 1, 2}));
}

TEST_F(NetRun, ClientProfilingHasOnlyClientEvents) {
  RunResult r = runTool(twoIo() + "--profiling_level client");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto log = nlohmann::json::parse(readText(out + "/qnn-profiling-data_0.log"));
  int executes = 0;
  for (const auto& e : log["events"]) {
    EXPECT_EQ(e["phase"], "client");
    executes += e["identifier"] == "client: execute";
  }
  EXPECT_EQ(executes, 3);
}

TEST_F(NetRun, DebugWritesIntermediates) {
  RunResult r = runTool(twoIo() + "--debug");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (int k = 0; k < 3; ++k) {
    const std::string d = out + "/Result_" + std::to_string(k);
    checkTwoIoResult(d, pairs[k]);
    expectNear(readFloats(d + "/sum.raw"), refSum(pairs[k]), "sum");
    std::vector<float> prod(6);
    for (int i = 0; i < 6; ++i) prod[i] = pairs[k].x[i] * pairs[k].y[i];
    expectNear(readFloats(d + "/prod.raw"), prod, "prod");
  }
}

TEST_F(NetRun, SetOutputTensorsAddsOneIntermediate) {
  RunResult r = runTool(twoIo() + "--set_output_tensors two_io:sum");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_0", pairs[0]);
  expectNear(readFloats(out + "/Result_0/sum.raw"), refSum(pairs[0]), "sum");
  EXPECT_FALSE(exists(out + "/Result_0/prod.raw"));
}

// q = round(x / 0.05) + 100 saturated to [0,255]; relu in real space; q_out same encoding.
std::vector<uint8_t> refQuantRelu(const std::vector<float>& x) {
  std::vector<uint8_t> q;
  for (float v : x) {
    double qi = std::nearbyint(v / 0.05) + 100;
    qi = std::min(255.0, std::max(0.0, qi));
    double real = 0.05 * (qi - 100);
    double outq = std::nearbyint(std::max(0.0, real) / 0.05) + 100;
    q.push_back(static_cast<uint8_t>(std::min(255.0, std::max(0.0, outq))));
  }
  return q;
}

TEST_F(NetRun, QuantizedModelFloatAndNativeOutputs) {
  const std::vector<float> x = {-1.0f, 0.0f, 0.26f, 2.0f};
  auto want = refQuantRelu(x);
  RunResult r = runTool(base() + "--model " + kQuant + " --model_prefix Quant --input_list " + dir + "/qlist.txt");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::vector<float> wantF;
  for (uint8_t q : want) wantF.push_back(0.05f * (static_cast<int>(q) - 100));
  expectNear(readFloats(out + "/Result_0/q_out.raw"), wantF, "dequantized");
  r = runTool(base() + "--model " + kQuant + " --input_list " + dir + "/qlist.txt --use_native_output_files");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(readBytes(out + "/Result_0/q_out.raw"), want);
}

TEST_F(NetRun, NativeInputFiles) {
  writeBytes(dir + "/qn.raw", {0, 90, 105, 200});
  writeText(dir + "/qnlist.txt", "q_in:=" + dir + "/qn.raw\n");
  RunResult r = runTool(base() + "--model " + kQuant + " --input_list " + dir +
                        "/qnlist.txt --use_native_input_files --use_native_output_files");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(readBytes(out + "/Result_0/q_out.raw"), (std::vector<uint8_t>{100, 100, 105, 200}));
}

TEST_F(NetRun, NativeInputTensorNames) {
  RunResult r = runTool(twoIo() + "--native_input_tensor_names x");
  ASSERT_EQ(r.exitCode, 0) << r.err;  // float32 native = the same bytes
  checkTwoIoResult(out + "/Result_1", pairs[1]);
}

TEST_F(NetRun, MultiGraphWithSkip) {
  RunResult r = runTool(base() + "--model " + kTwoIo + "," + kQuant + " --input_list " + dir + "/list.txt,__");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_0/two_io", pairs[0]);
  EXPECT_FALSE(exists(out + "/Result_0/quant"));
  r = runTool(base() + "--model " + kTwoIo + "," + kQuant + " --input_list __," + dir + "/qlist.txt");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(exists(out + "/Result_0/quant/q_out.raw"));
}

TEST_F(NetRun, NumInferencesLoopsAndKeepNumOutputs) {
  RunResult r = runTool(twoIo() + "--num_inferences 5");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_4", pairs[1]);  // inference 4 uses line 1
  r = runTool(base() + "--model " + kTwoIo + " --input_list " + dir + "/list.txt --num_inferences 5 --keep_num_outputs 2 --output_dir " + dir + "/keep");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(exists(dir + "/keep/Result_1"));
  EXPECT_FALSE(exists(dir + "/keep/Result_2"));
}

TEST_F(NetRun, DurationRunsAtLeastOnce) {
  RunResult r = runTool(twoIo() + "--duration 0.2");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_0", pairs[0]);
}

TEST_F(NetRun, BatchMultiplierConcatenatesOutputs) {
  Pair big;
  for (int k = 0; k < 2; ++k) {
    big.x.insert(big.x.end(), pairs[k].x.begin(), pairs[k].x.end());
    big.y.insert(big.y.end(), pairs[k].y.begin(), pairs[k].y.end());
  }
  writeFloats(dir + "/bx.raw", big.x);
  writeFloats(dir + "/by.raw", big.y);
  writeText(dir + "/blist.txt", "x:=" + dir + "/bx.raw y:=" + dir + "/by.raw\n");
  RunResult r = runTool(base() + "--model " + kTwoIo + " --input_list " + dir + "/blist.txt --batch_multiplier 2");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_0", big);
}

TEST_F(NetRun, InputCacheLimitsAndTimeoutAndSynchronous) {
  RunResult r = runTool(twoIo() + "--max_input_cache_tensor_sets 1 --num_inferences 4 --timeout 60000000 --synchronous");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_3", pairs[0]);
  r = runTool(twoIo() + "--max_input_cache_size_mb 0");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_2", pairs[2]);
}

TEST_F(NetRun, ConfigFilePriorities) {
  writeText(dir + "/cfg.json", R"({"context_configs": {"context_priority": "high"},
    "graph_configs": [{"graph_name": "two_io", "graph_priority": "low"}]})");
  RunResult r = runTool(twoIo() + "--config_file " + dir + "/cfg.json --log_level warn");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  checkTwoIoResult(out + "/Result_0", pairs[0]);
}

TEST_F(NetRun, HelpAndVersion) {
  RunResult r = runTool(kNetRun + " --help");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("--retrieve_context"), std::string::npos);
  r = runTool(kNetRun + " --version");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("QNN SDK v"), std::string::npos);
}

// ---- Bad input: one error line, non-zero exit, no outputs. ----

TEST_F(NetRun, BadUnknownFlag) { expectFailure(twoIo() + "--no_such_flag", "see qnn-net-run --help"); }
TEST_F(NetRun, BadFlagMissingValue) { expectFailure(twoIo() + "--num_inferences", "needs a value"); }
TEST_F(NetRun, BadMissingBackendFlag) { expectFailure(kNetRun + " --model " + kTwoIo + " --input_list " + dir + "/list.txt", "--backend is required"); }
TEST_F(NetRun, BadMissingBackendFile) { expectFailure(kNetRun + " --backend /nonexistent.so --model " + kTwoIo + " --input_list " + dir + "/list.txt", "backend library not found"); }
TEST_F(NetRun, BadMissingModelFile) { expectFailure(base() + "--model /nonexistent.so --input_list " + dir + "/list.txt", "model library not found"); }
TEST_F(NetRun, BadNotAModelLibrary) { expectFailure(base() + "--model " + kNotAModel + " --input_list " + dir + "/list.txt", "QnnModel_composeGraphs"); }
TEST_F(NetRun, BadModelPrefix) { expectFailure(twoIo() + "--model_prefix Nope", "Nope_composeGraphs"); }
TEST_F(NetRun, BadMissingInputList) { expectFailure(base() + "--model " + kTwoIo + " --input_list " + dir + "/none.txt", "input list not found"); }
TEST_F(NetRun, BadEmptyInputListForAGraphWithInputs) {
  // Blank and comment lines only: right for a graph without inputs, an error for this one.
  writeText(dir + "/empty.txt", "\n#out/relu:0\n\n");
  expectFailure(base() + "--model " + kTwoIo + " --input_list " + dir + "/empty.txt", "input list has no inputs");
}
TEST_F(NetRun, BadMissingInputFile) {
  writeText(dir + "/bad.txt", "x:=" + dir + "/x0.raw y:=" + dir + "/missing.raw\n");
  expectFailure(base() + "--model " + kTwoIo + " --input_list " + dir + "/bad.txt", "input file not found");
}
TEST_F(NetRun, BadWrongInputFileSize) {
  writeFloats(dir + "/short.raw", {1.0f, 2.0f});
  writeText(dir + "/bad.txt", "x:=" + dir + "/x0.raw y:=" + dir + "/y0.raw\nx:=" + dir + "/short.raw y:=" + dir + "/y0.raw\n");
  expectFailure(base() + "--model " + kTwoIo + " --input_list " + dir + "/bad.txt", "needs 24");
}
TEST_F(NetRun, BadUnknownTensorName) {
  writeText(dir + "/bad.txt", "x:=" + dir + "/x0.raw z:=" + dir + "/y0.raw\n");
  expectFailure(base() + "--model " + kTwoIo + " --input_list " + dir + "/bad.txt", "no input tensor 'z'");
}
TEST_F(NetRun, BadWrongInputCount) {
  writeText(dir + "/bad.txt", dir + "/x0.raw\n");
  expectFailure(base() + "--model " + kTwoIo + " --input_list " + dir + "/bad.txt", "1 file(s) for the 2 input(s)");
}
TEST_F(NetRun, BadModelAndRetrieveContext) { expectFailure(twoIo() + "--retrieve_context " + dir + "/x0.raw", "mutually exclusive"); }
TEST_F(NetRun, BadNoModel) { expectFailure(base() + "--input_list " + dir + "/list.txt", "--model or --retrieve_context is required"); }
TEST_F(NetRun, BadProfilingLevel) { expectFailure(twoIo() + "--profiling_level backend", "--profiling_level must be one of"); }
TEST_F(NetRun, BadLogLevel) { expectFailure(twoIo() + "--log_level loud", "--log_level"); }
TEST_F(NetRun, BadNumInferences) { expectFailure(twoIo() + "--num_inferences abc", "--num_inferences expects an integer"); }
TEST_F(NetRun, BadNumInferencesAndDuration) { expectFailure(twoIo() + "--num_inferences 2 --duration 1", "mutually exclusive"); }
TEST_F(NetRun, BadNativeFlagsTogether) { expectFailure(twoIo() + "--use_native_input_files --native_input_tensor_names x", "mutually exclusive"); }
TEST_F(NetRun, BadCacheFlagsTogether) { expectFailure(twoIo() + "--max_input_cache_tensor_sets 1 --max_input_cache_size_mb 1", "mutually exclusive"); }
TEST_F(NetRun, BadNativeInputTensorName) { expectFailure(twoIo() + "--native_input_tensor_names nope", "no graph has an input named 'nope'"); }
TEST_F(NetRun, BadOpPackagesNotSupported) { expectFailure(twoIo() + "--op_packages " + kNotAModel + ":Provider:CPU", "registering op package"); }
TEST_F(NetRun, BadOpPackagesSyntax) { expectFailure(twoIo() + "--op_packages justapath", "--op_packages entry"); }
TEST_F(NetRun, BadOpPackagesTarget) { expectFailure(twoIo() + "--op_packages a.so:P:GPU", "target must be CPU or HTP"); }
TEST_F(NetRun, BadConfigFileMissing) { expectFailure(twoIo() + "--config_file " + dir + "/none.json", "config file not found"); }
TEST_F(NetRun, BadConfigFileMalformed) {
  writeText(dir + "/cfg.json", "{not json");
  expectFailure(twoIo() + "--config_file " + dir + "/cfg.json", "malformed config file");
}
TEST_F(NetRun, BadConfigPriority) {
  writeText(dir + "/cfg.json", R"({"context_configs": {"context_priority": "urgent"}})");
  expectFailure(twoIo() + "--config_file " + dir + "/cfg.json", "context_priority must be");
}
TEST_F(NetRun, BadConfigUnknownEnabledGraph) {
  writeText(dir + "/cfg.json", R"({"context_configs": {"enable_graphs": ["nope"]}})");
  expectFailure(twoIo() + "--config_file " + dir + "/cfg.json", "enable_graphs");
}
TEST_F(NetRun, BadBackendExtensionLibraryMissing) {
  writeText(dir + "/cfg.json", R"({"backend_extensions": {"shared_library_path": "/nonexistent/libExt.so"}})");
  expectFailure(twoIo() + "--config_file " + dir + "/cfg.json", "cannot load backend extension library");
}
TEST_F(NetRun, BadBackendExtensionWithoutEntryPoints) {
  writeText(dir + "/cfg.json", "{\"backend_extensions\": {\"shared_library_path\": \"" + kNotAModel + "\"}}");
  expectFailure(twoIo() + "--config_file " + dir + "/cfg.json", "does not export createBackendInterface");
}
TEST_F(NetRun, BadInputListCountForGraphs) {
  expectFailure(base() + "--model " + kTwoIo + "," + kQuant + " --input_list " + dir + "/list.txt", "one list per graph");
}
TEST_F(NetRun, BadAllGraphsSkipped) { expectFailure(base() + "--model " + kTwoIo + " --input_list __", "nothing to run"); }
TEST_F(NetRun, BadDebugWithRetrieveContext) { expectFailure(base() + "--retrieve_context " + dir + "/x0.raw --debug --input_list " + dir + "/list.txt", "mutually exclusive"); }
TEST_F(NetRun, BadSetOutputTensorsUnknownTensor) { expectFailure(twoIo() + "--set_output_tensors two_io:nope", "has no tensor 'nope'"); }
TEST_F(NetRun, BadSetOutputTensorsUnknownGraph) { expectFailure(twoIo() + "--set_output_tensors other:sum", "no graph named 'other'"); }
TEST_F(NetRun, BadRetrieveContextMissingFile) { expectFailure(base() + "--retrieve_context " + dir + "/none.bin --input_list " + dir + "/list.txt", "context binary not found"); }
TEST_F(NetRun, BadRetrieveContextWithoutTensorInfo) {
  ASSERT_EQ(runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file m --output_dir " + dir).exitCode, 0);
  // No libQnnSystem.so next to the backend or on the library path, and the tensor record removed.
  std::remove((dir + "/m.bin.json").c_str());
  expectFailure(base() + "--retrieve_context " + dir + "/m.bin --input_list " + dir + "/list.txt", "cannot read the graphs");
}
TEST_F(NetRun, BadCorruptBinary) {
  ASSERT_EQ(runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file m --output_dir " + dir).exitCode, 0);
  auto bytes = readBytes(dir + "/m.bin");
  for (size_t i = bytes.size() / 2; i < bytes.size(); ++i) bytes[i] ^= 0x5a;
  writeBytes(dir + "/m.bin", bytes);
  expectFailure(base() + "--retrieve_context " + dir + "/m.bin --input_list " + dir + "/list.txt", "QnnContext_createFromBinary");
}

// ---- qnn-context-binary-generator errors ----
TEST_F(NetRun, BadGeneratorMissingBinaryFile) {
  RunResult r = runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --output_dir " + out);
  EXPECT_NE(r.exitCode, 0);
  EXPECT_EQ(r.errorLines(), 1) << r.err;
  EXPECT_FALSE(exists(out));
}
TEST_F(NetRun, BadGeneratorUnknownFlag) {
  RunResult r = runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file m --bogus");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_EQ(r.errorLines(), 1) << r.err;
  EXPECT_NE(r.err.find("see qnn-context-binary-generator --help"), std::string::npos);
}

// ---- nothing lost: a tool killed mid-write leaves no truncated file under the final name ----
TEST_F(NetRun, KilledMidWriteLeavesNoTruncatedBinary) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "LD_PRELOAD shims do not mix with AddressSanitizer's runtime";
#endif
  const std::string gen = kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --output_dir " + dir + " ";
  ASSERT_EQ(runTool(gen + "--binary_file good").exitCode, 0);
  const auto good = readBytes(dir + "/good.bin");
  ASSERT_GT(good.size(), 64u);
  for (const std::string killOn : {"write:16", "fsync"}) {
    SCOPED_TRACE(killOn);
    // A first run killed while writing: no file under the final name.
    RunResult killed = runTool("LD_PRELOAD=" + std::string(KILL_MID_WRITE) + " QNN_TEST_KILL_ON=" + killOn + " " + gen +
                               "--binary_file victim");
    EXPECT_NE(killed.exitCode, 0);
    EXPECT_FALSE(std::filesystem::exists(dir + "/victim.bin"));
    // Over an existing file: the old one stays whole.
    writeBytes(dir + "/victim.bin", good);
    runTool("LD_PRELOAD=" + std::string(KILL_MID_WRITE) + " QNN_TEST_KILL_ON=" + killOn + " " + gen +
            "--binary_file victim");
    EXPECT_EQ(readBytes(dir + "/victim.bin"), good);
    std::filesystem::remove(dir + "/victim.bin");
  }
  // Without the shim the same command writes the binary; no temporary file is left behind.
  ASSERT_EQ(runTool(gen + "--binary_file victim").exitCode, 0);
  EXPECT_EQ(readBytes(dir + "/victim.bin").size(), good.size());
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().find("victim.bin.tmp.") == 0) std::filesystem::remove(e.path());
}

// ---- progress: a line on a terminal only ----
TEST_F(NetRun, ProgressOnATerminalOnly) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "util-linux script is not installed";
  // Not a terminal (this test's pipe): no progress line on stderr.
  RunResult plain = runTool(twoIo() + "--num_inferences 20");
  ASSERT_EQ(plain.exitCode, 0) << plain.err;
  EXPECT_EQ(plain.err.find('\r'), std::string::npos) << plain.err;
  // On a pseudo-terminal (script): "qnn-net-run: graph '...': i/N", cleared at the end; none with --quiet.
  auto onTerminal = [&](const std::string& extra) {
    return runTool("script -qec \"" + twoIo() + "--num_inferences 20 " + extra + "\" /dev/null");
  };
  RunResult tty = onTerminal("");
  ASSERT_EQ(tty.exitCode, 0) << tty.out << tty.err;
  EXPECT_NE(tty.out.find("qnn-net-run: graph '"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("/20 ("), std::string::npos) << tty.out;
  RunResult quiet = onTerminal("--quiet");
  ASSERT_EQ(quiet.exitCode, 0) << quiet.out << quiet.err;
  EXPECT_EQ(quiet.out.find("qnn-net-run: graph '"), std::string::npos) << quiet.out;
}

// ---- qnn-throughput-net-run ----
TEST_F(NetRun, ThroughputTwoThreadsTwoGraphs) {
  nlohmann::json cfg = {
      {"backends", {{{"backendName", "cpu"}, {"backendPath", kCpu}}}},
      {"models", {{{"modelName", "a"}, {"modelPath", kTwoIo}, {"inputPath", dir + "/list.txt"}},
                  {{"modelName", "q"}, {"modelPath", kQuant}}}},
      {"contexts", {{{"contextName", "c"}, {"priority", "HIGH"}}}},
      {"testCase",
       {{"iteration", 2},
        {"threads", {{{"threadName", "t0"}, {"backend", "cpu"}, {"context", "c"}, {"model", "a"}, {"loop", 5}},
                     {{"threadName", "t1"}, {"backend", "cpu"}, {"context", "c"}, {"model", "q"}, {"loop", 3},
                      {"useRandomData", true}}}}}}};
  writeText(dir + "/tp.json", cfg.dump());
  RunResult r = runTool(kTnr + " --config " + dir + "/tp.json --output " + dir + "/result.json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("total:"), std::string::npos);
  auto res = nlohmann::json::parse(readText(dir + "/result.json"));
  ASSERT_EQ(res["threads"].size(), 2u);
  EXPECT_EQ(res["threads"][0]["threadName"], "t0");
  EXPECT_EQ(res["threads"][0]["inferences"], 10);
  EXPECT_EQ(res["threads"][1]["inferences"], 6);
  EXPECT_EQ(res["total"]["inferences"], 16);
  EXPECT_GT(res["threads"][0]["inferencesPerSecond"].get<double>(), 0.0);
  EXPECT_GT(res["total"]["inferencesPerSecond"].get<double>(), 0.0);
}

TEST_F(NetRun, ThroughputSecondsLoopAndCachedBinary) {
  ASSERT_EQ(runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file m --output_dir " + dir).exitCode, 0);
  nlohmann::json cfg = {
      {"backends", {{{"backendName", "cpu"}, {"backendPath", kCpu}}}},
      {"models", {{{"modelName", "a"}, {"modelPath", dir + "/m.bin"}, {"loadFromCachedBinary", true}}}},
      {"contexts", {{{"contextName", "c"}}}},
      {"testCase", {{"iteration", 1},
                    {"threads", {{{"threadName", "t"}, {"backend", "cpu"}, {"context", "c"}, {"model", "a"},
                                  {"loopUnit", "seconds"}, {"loop", 1}, {"useRandomData", true}}}}}}};
  writeText(dir + "/tp.json", cfg.dump());
  RunResult r = runTool(kTnr + " --config " + dir + "/tp.json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("thread t:"), std::string::npos);
}

TEST_F(NetRun, BadThroughputMissingTestCase) {
  nlohmann::json cfg = {{"backends", {{{"backendName", "cpu"}, {"backendPath", kCpu}}}},
                        {"models", {{{"modelName", "a"}, {"modelPath", kTwoIo}}}},
                        {"contexts", {{{"contextName", "c"}}}}};
  writeText(dir + "/tp.json", cfg.dump());
  RunResult r = runTool(kTnr + " --config " + dir + "/tp.json");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_EQ(r.errorLines(), 1) << r.err;
  EXPECT_NE(r.err.find("missing required key 'testCase'"), std::string::npos) << r.err;
}

TEST_F(NetRun, BadThroughputUnknownModelReference) {
  nlohmann::json cfg = {
      {"backends", {{{"backendName", "cpu"}, {"backendPath", kCpu}}}},
      {"models", {{{"modelName", "a"}, {"modelPath", kTwoIo}}}},
      {"contexts", {{{"contextName", "c"}}}},
      {"testCase", {{"iteration", 1}, {"threads", {{{"threadName", "t"}, {"backend", "cpu"}, {"context", "c"}, {"model", "zz"}}}}}}};
  writeText(dir + "/tp.json", cfg.dump());
  RunResult r = runTool(kTnr + " --config " + dir + "/tp.json");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_EQ(r.errorLines(), 1) << r.err;
  EXPECT_NE(r.err.find("no model named 'zz'"), std::string::npos) << r.err;
}

}  // namespace

#ifdef SYSTEM_LIBRARY
namespace {
TEST_F(NetRun, RetrieveContextThroughSystemLibrary) {
  ASSERT_EQ(runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file m --output_dir " + dir).exitCode, 0);
  std::remove((dir + "/m.bin.json").c_str());  // the graphs must come from the binary itself
  RunResult r = runTool(base() + "--retrieve_context " + dir + "/m.bin --system_library " + SYSTEM_LIBRARY +
                        " --input_list " + dir + "/list.txt");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (int k = 0; k < 3; ++k) checkTwoIoResult(out + "/Result_" + std::to_string(k), pairs[k]);
}
TEST_F(NetRun, BadSystemLibraryNotASystemLibrary) {
  ASSERT_EQ(runTool(kCbg + " --backend " + kCpu + " --model " + kTwoIo + " --binary_file m --output_dir " + dir).exitCode, 0);
  expectFailure(base() + "--retrieve_context " + dir + "/m.bin --system_library " + kNotAModel + " --input_list " + dir + "/list.txt",
                "not a QNN system library");
}
}  // namespace
#endif

// Model libraries built against the headers of older QNN API versions (versioned_model.cpp):
// the tools measure the by-value table each expects and compose through a table of that layout.
namespace {

std::vector<float> refSoftmaxHalf(const Pair& p) {  // softmax(beta 0.5) of x + y over rows of 3
  std::vector<float> r(p.x.size());
  for (size_t row = 0; row < r.size(); row += 3) {
    double e[3], total = 0;
    for (size_t i = 0; i < 3; ++i) total += e[i] = std::exp(0.5 * (double(p.x[row + i]) + p.y[row + i]));
    for (size_t i = 0; i < 3; ++i) r[row + i] = static_cast<float>(e[i] / total);
  }
  return r;
}
std::vector<float> refProd(const Pair& p) {
  std::vector<float> r(p.x.size());
  for (size_t i = 0; i < r.size(); ++i) r[i] = p.x[i] * p.y[i];
  return r;
}

class VersionedModel : public NetRun {
 protected:
  std::string run(const std::string& model, const std::string& extra = "") {
    return base() + "--model " + model + " --input_list " + dir + "/list.txt --log_level verbose " + extra;
  }
  void checkOutputs(const std::string& resultRoot, bool debug) {
    for (int k = 0; k < 3; ++k) {
      const std::string d = resultRoot + "/Result_" + std::to_string(k);
      expectNear(readFloats(d + "/soft.raw"), refSoftmaxHalf(pairs[k]), d + " soft");
      expectNear(readFloats(d + "/prod.raw"), refProd(pairs[k]), d + " prod");
      if (debug) expectNear(readFloats(d + "/sum.raw"), refSum(pairs[k]), d + " sum");
      else EXPECT_FALSE(exists(d + "/sum.raw")) << "debug output without --debug";
    }
  }
  static void expectIn(const RunResult& r, const std::string& text) {
    EXPECT_NE(r.err.find(text), std::string::npos) << "stderr: " << r.err;
  }
  // A run without --debug: the tool's measurement, the library's own view (its table, debug off,
  // and a line through the log callback at the level it was given) and the outputs.
  void expectMeasuredRun(const std::string& model, const std::string& label, size_t members) {
    RunResult r = runTool(run(model));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string bytes = std::to_string(members * 8);
    expectIn(r, "QNN API " + label + ", " + std::to_string(members) +
                    "-member interface table (its compose function reads `debug` where a " + bytes + "-byte table puts it)");
    expectIn(r, "[qnn info] versioned model " + label + ": " + bytes + "-byte table, debug 0");
    checkOutputs(out, false);
  }
};

TEST_F(VersionedModel, Api2_7LibraryComposesThroughThe2_7Table) { expectMeasuredRun(MODEL_API_2_7, "2.7", 44); }

TEST_F(VersionedModel, Api2_7LibraryWithDebugAndThroughAContextBinary) {
  RunResult r = runTool(run(MODEL_API_2_7, "--debug"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectIn(r, "versioned model 2.7: 352-byte table, debug 1");
  checkOutputs(out, true);
  RunResult g = runTool(kCbg + " --backend " + kCpu + " --model " + MODEL_API_2_7 + " --binary_file v --output_dir " +
                        dir + "/bin");
  ASSERT_EQ(g.exitCode, 0) << g.err;
  RunResult c = runTool(kNetRun + " --backend " + kCpu + " --output_dir " + dir + "/ctx --retrieve_context " + dir +
                        "/bin/v.bin --input_list " + dir + "/list.txt");
  ASSERT_EQ(c.exitCode, 0) << c.err;
  checkOutputs(dir + "/ctx", false);
}

TEST_F(VersionedModel, Api2_18LibraryGetsA62MemberTable) { expectMeasuredRun(MODEL_API_2_18, "2.18", 62); }

TEST_F(VersionedModel, Api2_13LibraryNeedsTheOverride) {
  // 55 members are API 2.13 (120-byte tensors) or 2.14 (144-byte tensors): 2.14 is assumed, loudly.
  RunResult guessed = runTool(run(MODEL_API_2_13));
  expectIn(guessed, "[qnn warn]");
  expectIn(guessed, "55 members: API 2.13 or 2.14; 2.14 assumed, set QNN_OPENQNN_MODEL_API=2.13");
  RunResult r = runTool("QNN_OPENQNN_MODEL_API=2.13 " + run(MODEL_API_2_13));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectIn(r, "QNN API 2.13, 55-member interface table (set by QNN_OPENQNN_MODEL_API=2.13)");
  expectIn(r, "versioned model 2.13: 440-byte table, debug 0");
  checkOutputs(out, false);
}

#ifdef MODEL_API_2_13_BY_VALUE
TEST_F(VersionedModel, Api2_13LibraryPassingTensorsByValueIsRecognized) {
  RunResult r = runTool(run(MODEL_API_2_13_BY_VALUE));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectIn(r, "QNN API 2.13, 55-member interface table (its compose function reads `debug` where a 440-byte "
              "table puts it and passes 120-byte tensors by value)");
  EXPECT_EQ(r.err.find("[qnn warn]"), std::string::npos) << r.err;
  expectIn(r, "versioned model 2.13: 440-byte table, debug 0");
  checkOutputs(out, false);
}
#endif

TEST_F(VersionedModel, CurrentLibraryIsMeasuredToo) {
  RunResult r = runTool(twoIo() + "--log_level verbose");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectIn(r, "QNN API 2.32, 71-member interface table (its compose function reads `debug` where a 568-byte table puts it)");
}

TEST_F(VersionedModel, BadOverride) {
  expectFailure("QNN_OPENQNN_MODEL_API=3.1 " + twoIo(), "QNN_OPENQNN_MODEL_API='3.1' is not of the form 2.<minor>");
  expectFailure("QNN_OPENQNN_MODEL_API=2.8 " + twoIo(), "no model library interface table is known for that version");
}

}  // namespace
