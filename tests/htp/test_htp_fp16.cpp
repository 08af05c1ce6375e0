// fp16 mode through the C API of libQnnHtp.so: a float conv -> relu -> add graph
// in a graph with QNN_PRECISION_FLOAT16 (FLOAT_32 graph IO, a FLOAT_16 internal
// tensor) against a float64 reference, and the same graph after a round trip
// through a context binary (the prepared graph reloaded, identical bytes).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "tests/htp/htp_test_util.h"

namespace qnn::test {
namespace {

constexpr uint32_t kH = 6, kW = 7, kCin = 4, kCout = 5, kK = 3;

class HtpFp16Test : public HtpTest {
 protected:
  void makeData() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    weights.resize(kK * kK * kCin * kCout);
    bias.resize(kCout);
    input.resize(kH * kW * kCin);
    addend.resize(kH * kW * kCout);
    for (auto* v : {&weights, &bias, &input, &addend})
      for (auto& e : *v) e = u(rng);
  }

  // Independent float64 reference: NHWC conv (HWIO, pad 1) + relu + add.
  std::vector<double> reference() const {
    std::vector<double> out(kH * kW * kCout);
    for (uint32_t oh = 0; oh < kH; ++oh)
      for (uint32_t ow = 0; ow < kW; ++ow)
        for (uint32_t co = 0; co < kCout; ++co) {
          double acc = bias[co];
          for (uint32_t kh = 0; kh < kK; ++kh)
            for (uint32_t kw = 0; kw < kK; ++kw) {
              int ih = int(oh + kh) - 1, iw = int(ow + kw) - 1;
              if (ih < 0 || iw < 0 || ih >= int(kH) || iw >= int(kW)) continue;
              for (uint32_t ci = 0; ci < kCin; ++ci)
                acc += double(input[(size_t(ih) * kW + size_t(iw)) * kCin + ci]) *
                       weights[((kh * kK + kw) * kCin + ci) * kCout + co];
            }
          const size_t o = (size_t(oh) * kW + ow) * kCout + co;
          out[o] = std::max(acc, 0.0) + addend[o];
        }
    return out;
  }

  Qnn_GraphHandle_t build(Qnn_ContextHandle_t ctx) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(makeGraph(ctx, "fp16_conv_relu_add", {precisionConfig(QNN_PRECISION_FLOAT16)}, &g), QNN_SUCCESS);
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCin});
    TensorSpec w("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kK, kK, kCin, kCout}, weights.data(),
                 uint32_t(weights.size() * 4));
    TensorSpec b("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kCout}, bias.data(), uint32_t(bias.size() * 4));
    TensorSpec conv("conv", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
    TensorSpec relu("relu", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_16, {1, kH, kW, kCout});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
    TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
    for (TensorSpec* t : {&x, &w, &b, &conv, &relu, &y, &out})
      EXPECT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
    xId = x.tensor.v1.id, yId = y.tensor.v1.id, outId = out.tensor.v1.id;
    uint32_t strideData[] = {1, 1}, padData[] = {1, 1, 1, 1};
    TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
    TensorSpec pad("pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
    Qnn_Param_t convParams[] = {tensorParam("stride", stride), tensorParam("pad_amount", pad)};
    Qnn_Tensor_t convIn[] = {x.tensor, w.tensor, b.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"conv0", "qti.aisw", "Conv2d", 2, convParams, 3, convIn, 1, &conv.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    op.v1 = {"relu0", "qti.aisw", "Relu", 0, nullptr, 1, &conv.tensor, 1, &relu.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    Qnn_Tensor_t addIn[] = {relu.tensor, y.tensor};
    op.v1 = {"add0", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &out.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
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
    x.tensor.v1.id = xId, y.tensor.v1.id = yId, out.tensor.v1.id = outId;
    Qnn_Tensor_t ins[] = {x.tensor, y.tensor};
    EXPECT_EQ(api().graphExecute(g, ins, 2, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
    return result;
  }

  uint32_t xId = 0, yId = 0, outId = 0;
  std::vector<float> weights, bias, input, addend;
};

TEST_F(HtpFp16Test, ConvReluAddWithinFp16ErrorAndSurvivesBinaryRoundTrip) {
  makeData();
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = build(ctx);
  std::vector<float> got = run(g);
  std::vector<double> want = reference();
  // Inputs, weights, the conv, relu and add outputs are each rounded to half
  // (relative 2^-11 each); 36-term sums of |terms| <= 1 keep the conv's
  // accumulated rounding below ~1e-3 of the largest magnitude: 1e-2 relative
  // (floor 1) bounds it with margin, while a float32 path would pass with 1e-6
  // and a result without fp16 rounding is caught below.
  double maxRel = 0;
  bool anyNotFloat32Exact = false;
  for (size_t i = 0; i < want.size(); ++i) {
    const double err = std::fabs(got[i] - want[i]) / std::max(1.0, std::fabs(want[i]));
    maxRel = std::max(maxRel, err);
    ASSERT_LE(err, 1e-2) << "element " << i << ": " << got[i] << " vs " << want[i];
    // Every output is an fp16 value (10 fraction bits).
    int e;
    const double frac = std::frexp(double(got[i]), &e);
    ASSERT_EQ(std::ldexp(frac, 11), std::nearbyint(std::ldexp(frac, 11))) << "not an fp16 value: " << got[i];
    anyNotFloat32Exact = anyNotFloat32Exact || std::fabs(got[i] - want[i]) > 1e-5;
  }
  EXPECT_TRUE(anyNotFloat32Exact) << "results look like float32, not fp16";
  RecordProperty("max_relative_error", std::to_string(maxRel));
  std::printf("fp16 conv->relu->add: max relative error %.3g\n", maxRel);

  Qnn_ContextBinarySize_t size = 0, written = 0;
  ASSERT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
  std::vector<uint8_t> binary(size);
  ASSERT_EQ(api().contextGetBinary(ctx, binary.data(), size, &written), QNN_SUCCESS);
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  Qnn_ContextHandle_t ctx2 = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), written, &ctx2, nullptr),
            QNN_SUCCESS)
      << LogCapture::take();
  Qnn_GraphHandle_t g2 = nullptr;
  ASSERT_EQ(api().graphRetrieve(ctx2, "fp16_conv_relu_add", &g2), QNN_SUCCESS);
  std::vector<float> again = run(g2);
  EXPECT_EQ(0, std::memcmp(got.data(), again.data(), got.size() * 4)) << "results differ after the round trip";
  EXPECT_EQ(api().contextFree(ctx2, nullptr), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
