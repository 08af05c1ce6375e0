// End to end through dlopen and the public headers only: build conv -> relu ->
// add, execute, round-trip the context through a binary, execute again with
// identical results, and see a corrupted binary refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

constexpr uint32_t kH = 5, kW = 6, kCin = 3, kCout = 4, kK = 3;

// Independent reference: NHWC conv (HWIO filter, pad 1, stride 1) + relu + add.
std::vector<float> reference(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b,
                             const std::vector<float>& y) {
  std::vector<float> out(kH * kW * kCout);
  for (uint32_t oh = 0; oh < kH; ++oh)
    for (uint32_t ow = 0; ow < kW; ++ow)
      for (uint32_t co = 0; co < kCout; ++co) {
        double acc = b[co];
        for (uint32_t kh = 0; kh < kK; ++kh)
          for (uint32_t kw = 0; kw < kK; ++kw) {
            int ih = int(oh) + int(kh) - 1, iw = int(ow) + int(kw) - 1;
            if (ih < 0 || iw < 0 || ih >= int(kH) || iw >= int(kW)) continue;
            for (uint32_t ci = 0; ci < kCin; ++ci)
              acc += double(x[(ih * kW + iw) * kCin + ci]) * w[((kh * kK + kw) * kCin + ci) * kCout + co];
          }
        size_t o = (oh * kW + ow) * kCout + co;
        out[o] = float(std::max(acc, 0.0)) + y[o];
      }
  return out;
}

class E2E : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  }
  void TearDown() override {
    if (backend) {
      EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
    }
  }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  // Builds the graph in a new context; returns the graph handle.
  Qnn_GraphHandle_t build(Qnn_ContextHandle_t* ctx) {
    EXPECT_EQ(api().contextCreate(backend, nullptr, nullptr, ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphCreate(*ctx, "conv_relu_add", nullptr, &g), QNN_SUCCESS);
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCin});
    TensorSpec w("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kK, kK, kCin, kCout}, weights.data(),
                 uint32_t(weights.size() * 4));
    TensorSpec b("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kCout}, bias.data(), uint32_t(bias.size() * 4));
    TensorSpec conv("conv", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
    TensorSpec relu("relu", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
    TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
    for (TensorSpec* t : {&x, &w, &b, &conv, &relu, &y, &out})
      EXPECT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS) << t->name;
    xId = x.tensor.v1.id;
    yId = y.tensor.v1.id;
    outId = out.tensor.v1.id;

    uint32_t strideData[] = {1, 1}, padData[] = {1, 1, 1, 1};
    TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
    TensorSpec pad("pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
    Qnn_Param_t convParams[] = {tensorParam("stride", stride), tensorParam("pad_amount", pad)};
    Qnn_Tensor_t convIn[] = {x.tensor, w.tensor, b.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"conv0", "qti.aisw", "Conv2d", 2, convParams, 3, convIn, 1, &conv.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
    op.v1 = {"relu0", "qti.aisw", "Relu", 0, nullptr, 1, &conv.tensor, 1, &relu.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
    Qnn_Tensor_t addIn[] = {relu.tensor, y.tensor};
    op.v1 = {"add0", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &out.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
    EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    return g;
  }

  std::vector<float> run(Qnn_GraphHandle_t g) {
    std::vector<float> result(kH * kW * kCout, -1.f);
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCin}, input.data(),
                 uint32_t(input.size() * 4));
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout}, addend.data(),
                 uint32_t(addend.size() * 4));
    TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout}, result.data(),
                   uint32_t(result.size() * 4));
    x.tensor.v1.id = xId;
    y.tensor.v1.id = yId;
    out.tensor.v1.id = outId;
    Qnn_Tensor_t ins[] = {x.tensor, y.tensor};
    EXPECT_EQ(api().graphExecute(g, ins, 2, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
    return result;
  }

  LoadedBackend lib{cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  uint32_t xId = 0, yId = 0, outId = 0;
  std::vector<float> weights, bias, input, addend;

  void makeData() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    weights.resize(kK * kK * kCin * kCout);
    bias.resize(kCout);
    input.resize(kH * kW * kCin);
    addend.resize(kH * kW * kCout);
    for (auto* v : {&weights, &bias, &input, &addend})
      for (auto& e : *v) e = u(rng);
  }
};

TEST_F(E2E, ConvReluAddMatchesReferenceAndSurvivesBinaryRoundTrip) {
  makeData();
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t g = build(&ctx);
  std::vector<float> first = run(g);
  std::vector<float> want = reference(input, weights, bias, addend);
  // 27-term float32 dot products of values in [-1,1]: error well under 1e-5.
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(first[i], want[i], 1e-5) << i;

  Qnn_ContextBinarySize_t size = 0, written = 0;
  ASSERT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
  std::vector<uint8_t> binary(size);
  ASSERT_EQ(api().contextGetBinary(ctx, binary.data(), size, &written), QNN_SUCCESS);
  ASSERT_EQ(written, size);
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);

  Qnn_ContextHandle_t ctx2 = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), written, &ctx2, nullptr),
            QNN_SUCCESS);
  Qnn_GraphHandle_t g2 = nullptr;
  ASSERT_EQ(api().graphRetrieve(ctx2, "conv_relu_add", &g2), QNN_SUCCESS);
  std::vector<float> second = run(g2);
  ASSERT_EQ(0, std::memcmp(first.data(), second.data(), first.size() * 4)) << "results differ after round trip";

  // A corrupted byte in the middle and a truncated buffer are both refused.
  std::vector<uint8_t> corrupted = binary;
  corrupted[corrupted.size() / 2] ^= 0x5a;
  Qnn_ContextHandle_t bad = nullptr;
  EXPECT_NE(api().contextCreateFromBinary(backend, nullptr, nullptr, corrupted.data(), corrupted.size(), &bad, nullptr),
            QNN_SUCCESS);
  EXPECT_EQ(bad, nullptr);
  EXPECT_NE(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), binary.size() / 3, &bad, nullptr),
            QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx2, nullptr), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
