// Weight sharing in context binaries: several graphs of one context with the
// same weights (prefill/decode graphs of an LLM, models converted twice) are
// stored once. A context of two such graphs takes about the room of one, and
// both graphs execute from it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

constexpr uint32_t kIn = 256, kOut = 256;
using Mat = std::vector<float>;

class WeightSharing : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    uint32_t s = 7;
    for (auto& v : weights) v = float((s = s * 1103515245u + 12345u) >> 20) / 4096.f - 0.5f;  // incompressible
  }
  void TearDown() override { EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS); }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  // y = x * W for graphs `names`, all with the same W, in one context; its binary.
  std::vector<uint8_t> binaryOf(std::vector<std::string> names) {
    Qnn_ContextHandle_t ctx = nullptr;
    EXPECT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    for (const std::string& name : names) {
      Qnn_GraphHandle_t g = nullptr;
      EXPECT_EQ(api().graphCreate(ctx, name.c_str(), nullptr, &g), QNN_SUCCESS);
      TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kIn});
      TensorSpec w("W", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kIn, kOut}, weights.data(),
                   uint32_t(weights.size() * 4));
      TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kOut});
      for (TensorSpec* t : {&x, &w, &y}) EXPECT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
      Qnn_Tensor_t in[] = {x.tensor, w.tensor};
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      op.v1 = {"mm", "qti.aisw", "MatMul", 0, nullptr, 2, in, 1, &y.tensor};
      EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
      EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    }
    std::vector<uint8_t> bin = contextBinary(api(), ctx);
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    return bin;
  }

  std::vector<float> run(Qnn_ContextHandle_t ctx, const char* name, const std::vector<float>& x) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphRetrieve(ctx, name, &g), QNN_SUCCESS);
    std::vector<float> y(kOut, -1.f);
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kIn}, const_cast<float*>(x.data()),
                  kIn * 4);
    TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kOut}, y.data(), kOut * 4);
    in.tensor.v1.id = out.tensor.v1.id = 0xffffffffu;  // by name
    EXPECT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
    return y;
  }

  LoadedBackend lib{GetParam() ? htpBackendPath() : cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  std::vector<float> weights = std::vector<float>(kIn * kOut);
};

TEST_P(WeightSharing, TwoGraphsWithTheSameWeightsTakeTheRoomOfOne) {
  std::vector<uint8_t> one = binaryOf({"prefill"});
  std::vector<uint8_t> two = binaryOf({"prefill", "decode"});
  const double weightBytes = double(weights.size() * 4);
  std::printf("binary of one graph: %zu bytes, of two graphs sharing weights: %zu bytes (weights %.0f bytes)\n",
              one.size(), two.size(), weightBytes);
  EXPECT_LT(double(two.size()), 0.6 * 2.0 * double(one.size())) << "the weights were stored twice";
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, two.data(), two.size(), &ctx, nullptr),
            QNN_SUCCESS);
  std::vector<float> x(kIn);
  for (uint32_t i = 0; i < kIn; ++i) x[i] = std::sin(float(i));
  std::vector<float> want(kOut, 0.f);
  for (uint32_t o = 0; o < kOut; ++o)
    for (uint32_t i = 0; i < kIn; ++i) want[o] += x[i] * weights[i * kOut + o];
  for (const char* name : {"prefill", "decode"}) {
    std::vector<float> got = run(ctx, name, x);
    for (uint32_t o = 0; o < kOut; ++o) ASSERT_NEAR(got[o], want[o], 1e-3f) << name << " " << o;
  }
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// Resident memory (/proc/self/statm) of this process, in bytes.
size_t residentBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  unsigned long size = 0, resident = 0;
  if (f) {
    if (std::fscanf(f, "%lu %lu", &size, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * size_t(sysconf(_SC_PAGESIZE));
}

// Loaded, the graphs and their prepared forms hold one buffer of weights they
// share (SharedBytes), and the kernels one transformed form of them (the CPU's
// packed GEMM operand, the HTP's float copy; WeightFormCache): two graphs
// multiplying by the same 32 MB weight take two forms of it (+64 MB), not one
// per graph and form (before: +160 MB on the CPU).
TEST_P(WeightSharing, OneCopyOfSharedWeightsIsResident) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer keeps freed memory resident (quarantine): resident sizes say nothing here";
#endif
  constexpr uint32_t kK = 2048, kN = 4096;  // 32 MB of float32 weights, small activations
  Mat big(size_t(kK) * kN);
  for (size_t i = 0; i < big.size(); ++i) big[i] = float((uint32_t(i) * 2654435761u) >> 8) * 1e-9f;
  std::vector<uint8_t> binary;
  {
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    for (const char* name : {"first", "second"}) {
      Qnn_GraphHandle_t g = nullptr;
      ASSERT_EQ(api().graphCreate(ctx, name, nullptr, &g), QNN_SUCCESS);
      TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kK});
      TensorSpec w("W", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kK, kN}, big.data(), uint32_t(big.size() * 4));
      TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kN});
      for (TensorSpec* t : {&x, &w, &y}) ASSERT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
      Qnn_Tensor_t in[] = {x.tensor, w.tensor};
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      op.v1 = {"mm", "qti.aisw", "MatMul", 0, nullptr, 2, in, 1, &y.tensor};
      ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
      ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    }
    binary = contextBinary(api(), ctx);
    ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
  Mat().swap(big);
  const size_t before = residentBytes();
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), binary.size(), &ctx, nullptr),
            QNN_SUCCESS);
  const size_t grown = residentBytes() - before;
  const double weightBytes = double(kK) * kN * 4;
  std::printf("resident after loading two graphs sharing 32 MB of weights: +%.1f MB\n", grown / 1048576.0);
  EXPECT_LT(double(grown), 2.5 * weightBytes) << "the weights (or their packed form) are resident once per graph";
  // Both graphs compute with them.
  std::vector<float> x(kK, 0.f), y(kN, -1.f);
  x[3] = 1.f;
  for (const char* name : {"first", "second"}) {
    Qnn_GraphHandle_t g = nullptr;
    ASSERT_EQ(api().graphRetrieve(ctx, name, &g), QNN_SUCCESS);
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kK}, x.data(), kK * 4);
    TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kN}, y.data(), kN * 4);
    in.tensor.v1.id = out.tensor.v1.id = 0xffffffffu;
    ASSERT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
    for (uint32_t o = 0; o < kN; o += 511)
      ASSERT_NEAR(y[o], float((uint32_t(3 * kN + o) * 2654435761u) >> 8) * 1e-9f, 1e-6f) << name << " " << o;
  }
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Backends, WeightSharing, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Htp" : "Cpu"; });

}  // namespace
}  // namespace qnn::test
