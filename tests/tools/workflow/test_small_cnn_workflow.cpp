// The vendor workflow end to end on our tools: a converter-style model.cpp
// (tests/tools/model_lib/small_cnn) -> qnn-model-lib-generator (ctest fixture)
// -> qnn-net-run over an input list of three inputs on libQnnCpu.so, outputs
// checked against an independent reference; the same through
// qnn-context-binary-generator + --retrieve_context; qnn-context-binary-utility's
// JSON; qnn-net-run --profiling_level detailed -> qnn-profile-viewer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

#include "tests/tools/model_lib/small_cnn/reference.h"
#include "tests/tools/net_run/tool_runner.h"

namespace {

using namespace nettest;

const std::string kBin = QNN_TEST_BIN_DIR;
const std::string kBackend = QNN_TEST_CPU_BACKEND_PATH;
const std::string kModel = SMALL_CNN_MODEL_LIB;

struct InputSet {
  std::vector<float> input, residual;
};

// Three different inputs: the documented ones, scaled and shifted.
std::vector<InputSet> makeInputs() {
  std::vector<InputSet> sets;
  for (int k = 0; k < 3; ++k) {
    InputSet s{small_cnn_ref::input(), small_cnn_ref::residual()};
    for (auto& v : s.input) v = v * float(1 + k) - 0.125f * float(k);
    for (auto& v : s.residual) v = v * float(k % 2 ? -1 : 1) + 0.25f * float(k);
    sets.push_back(std::move(s));
  }
  return sets;
}

class Workflow : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(exists(kModel)) << "model library not built by the generator fixture: " << kModel;
    dir = makeTempDir();
    std::ostringstream list;
    for (size_t i = 0; i < sets.size(); ++i) {
      std::string in = dir + "/input_" + std::to_string(i) + ".raw";
      std::string res = dir + "/residual_" + std::to_string(i) + ".raw";
      writeFloats(in, sets[i].input);
      writeFloats(res, sets[i].residual);
      list << "input:=" << in << " residual:=" << res << "\n";
    }
    inputList = dir + "/input_list.txt";
    writeText(inputList, list.str());
  }

  void expectOutputsMatchReference(const std::string& outDir) {
    for (size_t i = 0; i < sets.size(); ++i) {
      auto want = small_cnn_ref::compute(sets[i].input, sets[i].residual);
      std::string result = outDir + "/Result_" + std::to_string(i);
      auto logits = readFloats(result + "/logits.raw");
      auto probs = readFloats(result + "/probs.raw");
      ASSERT_EQ(logits.size(), want.logits.size()) << result;
      ASSERT_EQ(probs.size(), want.probs.size()) << result;
      // float32 accumulation over at most 64 terms of magnitude < 4: 1e-4 absolute
      // plus 1e-4 relative bounds it with a wide margin; softmax outputs are < 1.
      for (size_t j = 0; j < logits.size(); ++j)
        EXPECT_NEAR(logits[j], want.logits[j], 1e-4 + 1e-4 * std::abs(want.logits[j])) << result << " logits " << j;
      for (size_t j = 0; j < probs.size(); ++j) EXPECT_NEAR(probs[j], want.probs[j], 2e-5) << result << " probs " << j;
    }
  }

  std::vector<InputSet> sets = makeInputs();
  std::string dir, inputList;
};

TEST_F(Workflow, NetRunAndRetrieveContextMatchReference) {
  RunResult run = runTool(kBin + "/qnn-net-run --model " + kModel + " --backend " + kBackend + " --input_list " +
                          inputList + " --output_dir " + dir + "/out_model");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  expectOutputsMatchReference(dir + "/out_model");

  RunResult gen = runTool(kBin + "/qnn-context-binary-generator --model " + kModel + " --backend " + kBackend +
                          " --binary_file small_cnn --output_dir " + dir + "/bin");
  ASSERT_EQ(gen.exitCode, 0) << gen.err;
  ASSERT_TRUE(exists(dir + "/bin/small_cnn.bin"));
  RunResult retrieve = runTool(kBin + "/qnn-net-run --retrieve_context " + dir + "/bin/small_cnn.bin --backend " +
                               kBackend + " --input_list " + inputList + " --output_dir " + dir + "/out_binary");
  ASSERT_EQ(retrieve.exitCode, 0) << retrieve.err;
  expectOutputsMatchReference(dir + "/out_binary");
  for (int i = 0; i < 3; ++i)
    for (const char* t : {"logits", "probs"}) {
      std::string rel = "/Result_" + std::to_string(i) + "/" + t + ".raw";
      EXPECT_EQ(readBytes(dir + "/out_model" + rel), readBytes(dir + "/out_binary" + rel)) << rel;
    }
}

TEST_F(Workflow, BinaryUtilityJsonListsEveryInputAndOutput) {
  ASSERT_EQ(runTool(kBin + "/qnn-context-binary-generator --model " + kModel + " --backend " + kBackend +
                    " --binary_file small_cnn --output_dir " + dir)
                .exitCode,
            0);
  RunResult util = runTool(kBin + "/qnn-context-binary-utility --context_binary " + dir + "/small_cnn.bin --json_file " +
                           dir + "/info.json");
  ASSERT_EQ(util.exitCode, 0) << util.err;
  auto info = nlohmann::json::parse(readText(dir + "/info.json"));
  ASSERT_EQ(info["graphs"].size(), 1u);
  const auto& g = info["graphs"][0];
  EXPECT_EQ(g["name"], "small_cnn");
  auto check = [](const nlohmann::json& list, const std::string& name, std::vector<uint32_t> dims) {
    for (const auto& t : list)
      if (t["name"] == name) {
        EXPECT_EQ(t["dataType"], "QNN_DATATYPE_FLOAT_32") << name;
        EXPECT_EQ(t["dims"].get<std::vector<uint32_t>>(), dims) << name;
        return;
      }
    ADD_FAILURE() << "tensor " << name << " missing";
  };
  ASSERT_EQ(g["inputs"].size(), 2u);
  ASSERT_EQ(g["outputs"].size(), 2u);
  check(g["inputs"], "input", {1, 8, 8, 3});
  check(g["inputs"], "residual", {1, 4, 4, 4});
  check(g["outputs"], "logits", {1, 10});
  check(g["outputs"], "probs", {1, 10});
}

TEST_F(Workflow, DetailedProfileThroughTheViewer) {
  RunResult run = runTool(kBin + "/qnn-net-run --model " + kModel + " --backend " + kBackend + " --input_list " +
                          inputList + " --output_dir " + dir + "/out --profiling_level detailed");
  ASSERT_EQ(run.exitCode, 0) << run.err;
  RunResult view = runTool(kBin + "/qnn-profile-viewer --input_log " + dir + "/out/qnn-profiling-data_0.log --output " +
                           dir + "/trace.json");
  ASSERT_EQ(view.exitCode, 0) << view.err;
  const std::vector<std::pair<std::string, std::string>> ops = {
      {"conv1", "Conv2d"}, {"relu1", "Relu"}, {"pool1", "PoolMax2d"}, {"add1", "ElementWiseAdd"},
      {"flatten", "Reshape"}, {"fc1", "FullyConnected"}, {"softmax", "Softmax"}};
  // One stdout line per op.
  for (const auto& [node, type] : ops) {
    int lines = 0;
    std::istringstream out(view.out);
    for (std::string line; std::getline(out, line);) {
      std::istringstream words(line);
      std::string graph, n, t;
      words >> graph >> n >> t;
      if (graph == "small_cnn" && n == node && t == type) ++lines;
    }
    EXPECT_EQ(lines, 1) << node << "\n" << view.out;
  }
  // The Chrome trace is JSON with one complete event per op per inference.
  auto trace = nlohmann::json::parse(readText(dir + "/trace.json"));
  std::map<std::string, int> perOp;
  for (const auto& e : trace["traceEvents"])
    if (e.value("ph", "") == "X") ++perOp[e.value("name", "")];
  for (const auto& [node, type] : ops) {
    int count = 0;
    for (const auto& [name, n] : perOp)
      if (name.find(node) != std::string::npos && name.find(type) != std::string::npos) count += n;
    EXPECT_EQ(count, 3) << node;
  }
}

}  // namespace
