// The vendor's LoRA v2 flow with our tools and libraries: the "lora" model
// library (y = x*W + (x*A)*B, A and B UPDATEABLE_STATIC), then
//   qnn-context-binary-generator --adapter_weight_config adapters.yaml
// writes the base binary, the base weights as a section (default adapter) and
// one section per use case. Loaded on each backend, the base binary runs with
// the base weights; applying a section switches adapters between executes, each
// output equal to x*(W + A*B) with that adapter's merged weights; switching is
// timed against re-loading the binary (printed, not asserted). Bad configs and
// adapters are refused with a message naming what is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"
#include "tests/tools/net_run/tool_runner.h"

namespace {

using namespace nettest;
using qnn::test::LoadedBackend;

// make_lora_data.py's formula.
std::vector<float> values(int count, int seed) {
  std::vector<float> v(count);
  for (int i = 0; i < count; ++i) v[i] = float(((i * 29 + seed * 7) % 19) - 9) / 16.f;
  return v;
}

// y = x * (W + A*B), computed from the merged weights.
std::vector<float> reference(const std::vector<float>& x, const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> w = values(16, 1), y(4, 0.f);
  for (int i = 0; i < 4; ++i)
    for (int o = 0; o < 4; ++o) {
      float merged = w[i * 4 + o];
      for (int r = 0; r < 2; ++r) merged += a[i * 2 + r] * b[r * 4 + o];
      y[o] += x[i] * merged;
    }
  return y;
}

std::string tool() { return std::string(QNN_TEST_BIN_DIR) + "/qnn-context-binary-generator"; }

class LoraAdapters : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = makeTempDir();
    result_ = runTool(tool() + " --backend " + QNN_TEST_CPU_BACKEND_PATH + " --model " + LORA_MODEL_LIB +
                      " --binary_file base --output_dir " + dir_ + "/cpu --adapter_weight_config " + LORA_DATA_DIR +
                      "/adapters.yaml");
    htpResult_ = runTool(tool() + " --backend " + QNN_TEST_HTP_BACKEND_PATH + " --model " + LORA_MODEL_LIB +
                         " --binary_file base --output_dir " + dir_ + "/htp --adapter_weight_config " +
                         LORA_DATA_DIR + "/adapters.yaml");
  }
  static std::string dir_;
  static RunResult result_, htpResult_;
};
std::string LoraAdapters::dir_;
RunResult LoraAdapters::result_, LoraAdapters::htpResult_;

TEST_F(LoraAdapters, GeneratorWritesTheBaseBinaryAndASectionPerUseCase) {
  ASSERT_EQ(result_.exitCode, 0) << result_.out << result_.err;
  ASSERT_EQ(htpResult_.exitCode, 0) << htpResult_.out << htpResult_.err;
  for (const char* backend : {"cpu", "htp"})
    for (const char* file : {"base.bin", "base_default_adapter.bin", "base_one.bin", "base_two.bin"})
      EXPECT_TRUE(exists(dir_ + "/" + backend + "/" + file)) << backend << "/" << file;
  EXPECT_NE(result_.out.find("Saved adapter binary section: " + dir_ + "/cpu/base_one.bin"), std::string::npos)
      << result_.out;
}

// y (1x4) of graph g (tensors x and y) for x.
std::vector<float> runGraph(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<float> x) {
  std::vector<float> y(4, -99.f);
  qnn::test::TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4}, x.data(), 16);
  qnn::test::TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4}, y.data(), 16);
  in.tensor.v1.id = out.tensor.v1.id = 0xffffffffu;  // by name
  EXPECT_EQ(api.graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
  return y;
}

// QnnContext_applyBinarySection of the section file `path` to graph g.
Qnn_ErrorHandle_t applySection(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, Qnn_GraphHandle_t g,
                               const std::string& path) {
  std::vector<uint8_t> bytes = readBytes(path);
  QnnContext_Buffer_t buf;
  std::memset(&buf, 0, sizeof buf);
  buf.version = QNN_CONTEXT_BUFFER_VERSION_1;
  buf.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
  buf.v1.binaryBuf.data = bytes.data();
  buf.v1.binaryBuf.dataSize = bytes.size();
  return api.contextApplyBinarySection(ctx, g, QNN_CONTEXT_SECTION_UPDATABLE, &buf, nullptr, nullptr);
}

void expectNear(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], want[i], 1e-4f) << what << " " << i;
}

void checkSwitching(const std::string& backendPath, const std::string& dir) {
  LoadedBackend lib(backendPath);
  ASSERT_TRUE(lib.ok()) << lib.error();
  const auto& api = lib.api();
  Qnn_BackendHandle_t backend = nullptr;
  ASSERT_EQ(api.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  std::vector<uint8_t> base = readBytes(dir + "/base.bin");
  auto load = [&](Qnn_ContextHandle_t* ctx, Qnn_GraphHandle_t* g) {
    ASSERT_EQ(api.contextCreateFromBinary(backend, nullptr, nullptr, base.data(), base.size(), ctx, nullptr),
              QNN_SUCCESS);
    ASSERT_EQ(api.graphRetrieve(*ctx, "lora", g), QNN_SUCCESS);
  };
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t g = nullptr;
  load(&ctx, &g);
  std::vector<float> x{1.f, -2.f, 0.5f, 3.f};
  auto run = [&]() { return runGraph(api, g, x); };
  auto apply = [&](const std::string& file) { return applySection(api, ctx, g, dir + "/" + file); };
  const auto baseY = reference(x, values(8, 2), values(8, 3));
  const auto oneY = reference(x, values(8, 4), values(8, 5));
  const auto twoY = reference(x, values(8, 6), values(8, 3));  // adapter two leaves lora_B at the base
  expectNear(run(), baseY, "base");
  ASSERT_EQ(apply("base_one.bin"), QNN_SUCCESS);
  expectNear(run(), oneY, "adapter one");
  ASSERT_EQ(apply("base_two.bin"), QNN_SUCCESS);
  expectNear(run(), twoY, "adapter two");
  ASSERT_EQ(apply("base_default_adapter.bin"), QNN_SUCCESS);
  expectNear(run(), baseY, "default adapter");

  // Switching costs an apply, not a reload.
  constexpr int kRounds = 20;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kRounds; ++i) ASSERT_EQ(apply(i % 2 ? "base_two.bin" : "base_one.bin"), QNN_SUCCESS);
  auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < kRounds; ++i) {
    ASSERT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
    load(&ctx, &g);
  }
  auto t2 = std::chrono::steady_clock::now();
  std::printf("%s: switch adapters %.1f us, reload the base binary %.1f us (mean of %d)\n", backendPath.c_str(),
              std::chrono::duration<double, std::micro>(t1 - t0).count() / kRounds,
              std::chrono::duration<double, std::micro>(t2 - t1).count() / kRounds, kRounds);
  EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
}

TEST_F(LoraAdapters, SectionsSwitchTheLoadedBaseBinaryOnCpu) {
  ASSERT_EQ(result_.exitCode, 0) << result_.err;
  checkSwitching(QNN_TEST_CPU_BACKEND_PATH, dir_ + "/cpu");
}

TEST_F(LoraAdapters, SectionsSwitchTheLoadedBaseBinaryOnHtp) {
  ASSERT_EQ(htpResult_.exitCode, 0) << htpResult_.err;
  checkSwitching(QNN_TEST_HTP_BACKEND_PATH, dir_ + "/htp");
}

TEST_F(LoraAdapters, BadConfigsAndAdaptersAreRefusedWithTheReason) {
  auto generate = [&](const std::string& yaml) {
    writeText(dir_ + "/bad.yaml", yaml);
    return runTool(tool() + " --backend " + QNN_TEST_CPU_BACKEND_PATH + " --model " + LORA_MODEL_LIB +
                   " --binary_file bad --output_dir " + dir_ + "/bad --adapter_weight_config " + dir_ + "/bad.yaml");
  };
  const std::string data = LORA_DATA_DIR;
  struct Case {
    std::string yaml, message;
  } cases[] = {
      {"use_case: [", "adapter weight config"},
      {"other: 1\n", "'use_case' must be a list"},
      {"use_case:\n  - name: x\n", "has no weights file"},
      {"use_case:\n  - name: x\n    weights: " + data + "/adapter_one.safetensors\n    color: red\n", "unknown key 'color'"},
      {"use_case:\n  - name: x\n    weights: /nonexistent.safetensors\n", "cannot open safetensors file"},
      {"use_case:\n  - name: x\n    graph: nope\n    weights: " + data + "/adapter_one.safetensors\n",
       "no graph named 'nope'"},
      {"use_case:\n  - name: x\n    weights: " + data + "/model.bin\n", "safetensors file"},
      {"use_case:\n  - name: x\n    weights: " + data + "/adapter_one.safetensors\n    encodings: /nonexistent.json\n",
       "cannot open the adapter encodings file"},
      // An encoding for a float tensor (lora_A of this model is FLOAT_32).
      {"use_case:\n  - name: x\n    graph: lora\n    weights: " + data + "/adapter_one.safetensors\n    encodings: " +
           dir_ + "/enc_float.json\n",
       "not fixed-point"},
  };
  writeText(dir_ + "/enc_float.json",
            "{\"activation_encodings\": {}, \"param_encodings\": {\"lora_A\": [{\"bitwidth\": 8, \"min\": -1, "
            "\"max\": 1}]}}");
  for (const Case& c : cases) {
    RunResult r = generate(c.yaml);
    EXPECT_NE(r.exitCode, 0) << c.yaml;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.yaml << "\n" << r.err;
  }
  // An adapter naming a tensor the graph does not have as UPDATEABLE (W is STATIC).
  std::string header = "{\"W\":{\"dtype\":\"F32\",\"shape\":[4,4],\"data_offsets\":[0,64]}}";
  std::string file(8, '\0');
  file[0] = static_cast<char>(header.size());
  file += header + std::string(64, '\0');
  writeText(dir_ + "/static.safetensors", file);
  RunResult r = generate("use_case:\n  - name: x\n    weights: " + dir_ + "/static.safetensors\n");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("tensor 'W'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is not an UPDATEABLE tensor"), std::string::npos) << r.err;
}

// An 8-bit UPDATEABLE_STATIC tensor and an adapter with its own AIMET encodings
// file: the section carries the adapter's values quantized with its encoding and
// the encoding itself, so the tensor dequantizes to the adapter's values on the
// new scale/offset, not the base's. On the CPU backend: the model multiplies
// float activations by 8-bit weights, which the HTP (simulator, as the HTP
// itself) refuses without a Quantize; the tool flow does not depend on the backend.

// What the generator makes of tf (asymmetric) min/max: scale (max-min)/255 as
// float32, offset rint(min/scale); values quantized, clamped, dequantized.
std::vector<float> requantized(const std::vector<float>& v, double mn, double mx) {
  const double range = std::max(mx, 0.0) - std::min(mn, 0.0);
  const float scale = float(range / 255.0);
  const double offset = std::rint(std::min(mn, 0.0) / (range / 255.0));
  std::vector<float> out;
  for (float x : v) {
    double q = std::min(255.0, std::max(0.0, std::nearbyint(double(x) / scale) - offset));
    out.push_back(float((q + offset) * scale));
  }
  return out;
}

TEST(LoraAdapterEncodings, AnAdapterWithItsOwnEncodingRequantizesTheTensor) {
  const std::string backendPath = QNN_TEST_CPU_BACKEND_PATH;
  const std::string dir = makeTempDir();
  RunResult gen = runTool(tool() + " --backend " + backendPath + " --model " + LORA_Q_MODEL_LIB +
                          " --binary_file base --output_dir " + dir + " --adapter_weight_config " + LORA_DATA_DIR +
                          "/adapters_q.yaml");
  ASSERT_EQ(gen.exitCode, 0) << gen.out << gen.err;
  LoadedBackend lib(backendPath);
  ASSERT_TRUE(lib.ok()) << lib.error();
  const auto& api = lib.api();
  Qnn_BackendHandle_t backend = nullptr;
  ASSERT_EQ(api.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  std::vector<uint8_t> base = readBytes(dir + "/base.bin");
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api.contextCreateFromBinary(backend, nullptr, nullptr, base.data(), base.size(), &ctx, nullptr),
            QNN_SUCCESS);
  ASSERT_EQ(api.graphRetrieve(ctx, "lora_q", &g), QNN_SUCCESS);
  std::vector<float> x{1.f, -2.f, 0.5f, 3.f};
  auto run = [&]() { return runGraph(api, g, x); };
  auto times = [&](const std::vector<float>& w) {
    std::vector<float> y(4, 0.f);
    for (int i = 0; i < 4; ++i)
      for (int o = 0; o < 4; ++o) y[o] += x[i] * w[i * 4 + o];
    return y;
  };
  expectNear(run(), times(values(16, 8)), "base (scale 1/16, exact)");
  ASSERT_EQ(applySection(api, ctx, g, dir + "/base_q.bin"), QNN_SUCCESS);
  const std::vector<float> adapter = values(16, 7);
  const std::vector<float> want = times(requantized(adapter, -1.0, 1.5));
  expectNear(run(), want, "adapter q (its encoding: min -1, max 1.5)");
  // The base encoding (1/16 steps) would give the adapter's values exactly: the
  // result differs from that, so the encoding was replaced, not just the bytes.
  const std::vector<float> onBaseScale = times(adapter);
  float differs = 0.f;
  for (int i = 0; i < 4; ++i) differs = std::max(differs, std::fabs(want[i] - onBaseScale[i]));
  EXPECT_GT(differs, 1e-3f);
  EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);

  // Encodings the tensor cannot take are refused with the reason.
  auto refused = [&](const std::string& encodings, const std::string& message) {
    writeText(dir + "/enc.json", encodings);
    writeText(dir + "/bad.yaml", "use_case:\n  - name: bad\n    weights: " + std::string(LORA_DATA_DIR) +
                                     "/adapter_q.safetensors\n    encodings: " + dir + "/enc.json\n");
    RunResult r = runTool(tool() + " --backend " + backendPath + " --model " + LORA_Q_MODEL_LIB +
                          " --binary_file bad --output_dir " + dir + "/bad --adapter_weight_config " + dir + "/bad.yaml");
    EXPECT_NE(r.exitCode, 0) << encodings;
    EXPECT_NE(r.err.find(message), std::string::npos) << encodings << "\n" << r.err;
  };
  refused("{\"param_encodings\": {\"lora_Q\": [{\"bitwidth\": 16, \"min\": -1, \"max\": 1}]}}", "16-bit");
  refused("{\"param_encodings\": {\"lora_Q\": [{\"bitwidth\": 8, \"min\": -1, \"max\": 1}, "
          "{\"bitwidth\": 8, \"min\": -1, \"max\": 1}]}}",
          "per-channel");
  refused("{\"param_encodings\": {\"lora_Q\": [{\"bitwidth\": 8}]}}", "needs 'scale' and 'offset'");
  refused("{\"param_encodings\": {\"other\": [{\"bitwidth\": 8, \"min\": 0, \"max\": 1}]}}",
          "has an encoding for 'other'");
  refused("[1, 2", "not a JSON object");
}


}  // namespace

