// libQnnCpu.so folds a Relu / ReluMinMax that alone reads a Conv2d,
// DepthWiseConv2d, FullyConnected or MatMul output into that producer. Seen from
// the API nothing may change: outputs equal the unfused math (references in
// double below), a shared intermediate keeps its own value, the op debug
// callback still sees every node's own output, profiling still lists both nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "tests/api/cpu_context_fixture.h"
#include "tests/api/cpu_fusion_checks.h"

namespace qnn::test {
namespace {

class ActivationFusion : public CpuContextTest {
 protected:
  void execute(Qnn_GraphHandle_t g, std::vector<Qnn_Tensor_t> ins, std::vector<Qnn_Tensor_t> outs,
               Qnn_ProfileHandle_t profile = nullptr) {
    ASSERT_EQ(api().graphExecute(g, ins.data(), uint32_t(ins.size()), outs.data(), uint32_t(outs.size()), profile,
                                 nullptr),
              QNN_SUCCESS);
  }

};

void expectNear(const std::vector<float>& got, const std::vector<double>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << what << " [" << i << "]";
}

// x [2, 5] -> FullyConnected (W [3, 5], b [3]) -> mid -> ReluMinMax(-0.25, 0.5) -> y [2, 3].
TEST_F(ActivationFusion, FullyConnectedReluMinMaxAndTheDebugCallbackSeesThePreActivationOutput) {
  std::vector<float> x = randomValues(10, 1), w = randomValues(15, 2), b = randomValues(3, 3), y(6, 9.f);
  std::vector<double> mid(6), want(6);
  for (int r = 0; r < 2; ++r)
    for (int u = 0; u < 3; ++u) {
      double acc = b[u];
      for (int k = 0; k < 5; ++k) acc += double(x[r * 5 + k]) * w[u * 5 + k];
      mid[r * 3 + u] = acc;
      want[r * 3 + u] = std::min(std::max(acc, -0.25), 0.5);
    }

  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphCreate(ctx, "fc_clamp", nullptr, &g), QNN_SUCCESS);
  TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {2, 5});
  TensorSpec weights("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {3, 5}, w.data(), 60);
  TensorSpec bias("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {3}, b.data(), 12);
  TensorSpec m("mid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2, 3});
  TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {2, 3});
  for (TensorSpec* t : {&in, &weights, &bias, &m, &out}) add(g, *t);
  node(g, "fc", "FullyConnected", {}, {in.tensor, weights.tensor, bias.tensor}, {m.tensor});
  node(g, "clamp", "ReluMinMax", {f32Param("min_value", -0.25f), f32Param("max_value", 0.5f)}, {m.tensor},
       {out.tensor});
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  in.tensor.v1.clientBuf = {x.data(), 40};
  out.tensor.v1.clientBuf = {y.data(), 24};

  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  execute(g, {in.tensor}, {out.tensor}, profile);
  expectNear(y, want, "fused");
  // Detailed profiling still has one event per node.
  const std::vector<std::string> nodeEvents = profiledNodes(api(), profile);
  for (std::string name : {"fc (FullyConnected)", "clamp (ReluMinMax)"})
    EXPECT_NE(std::find(nodeEvents.begin(), nodeEvents.end(), name), nodeEvents.end()) << name;
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);

  // An op debug callback set after finalize sees the FullyConnected's own output.
  std::vector<SeenOp> seen;
  recordEveryOp(api(), g, &seen);
  std::fill(y.begin(), y.end(), 9.f);
  execute(g, {in.tensor}, {out.tensor});
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].name, "fc");
  expectNear(seen[0].values, mid, "the FullyConnected's own output");
  expectNear(seen[1].values, want, "the ReluMinMax output");
  expectNear(y, want, "unfused");
}

// x [1, 4, 4, 2] -> Conv2d 3x3 pad 1 (2 -> 3 channels) -> mid -> Relu -> y, and mid is a graph
// output too (APP_READ), so it must keep the pre-activation values; DepthWiseConv2d 3x3 -> Relu,
// MatMul -> Relu and ElementWiseAdd -> Relu fold.
TEST_F(ActivationFusion, ConvolutionsAndMatMulWithRelu) {
  constexpr int H = 4, W = 4, C = 2, O = 3;
  std::vector<float> x = randomValues(H * W * C, 4), cw = randomValues(9 * C * O, 5), cb = randomValues(O, 6);
  std::vector<float> dw = randomValues(9 * C, 7), db = randomValues(C, 8), a = randomValues(6, 9), bm = randomValues(6, 10);
  std::vector<double> convWant(H * W * O), reluWant(H * W * O), dwWant(H * W * C), mmWant(4), addWant(6);
  for (int i = 0; i < 6; ++i) addWant[i] = std::max(double(a[i]) + double(a[i]), 0.0);
  for (int oh = 0; oh < H; ++oh)
    for (int ow = 0; ow < W; ++ow) {
      for (int o = 0; o < O; ++o) {
        double acc = cb[o];
        for (int kh = 0; kh < 3; ++kh)
          for (int kw = 0; kw < 3; ++kw) {
            const int ih = oh + kh - 1, iw = ow + kw - 1;
            if (ih < 0 || iw < 0 || ih >= H || iw >= W) continue;
            for (int c = 0; c < C; ++c) acc += double(x[(ih * W + iw) * C + c]) * cw[((kh * 3 + kw) * C + c) * O + o];
          }
        convWant[(oh * W + ow) * O + o] = acc;
        reluWant[(oh * W + ow) * O + o] = std::max(acc, 0.0);
      }
      for (int c = 0; c < C; ++c) {
        double acc = db[c];
        for (int kh = 0; kh < 3; ++kh)
          for (int kw = 0; kw < 3; ++kw) {
            const int ih = oh + kh - 1, iw = ow + kw - 1;
            if (ih < 0 || iw < 0 || ih >= H || iw >= W) continue;
            acc += double(x[(ih * W + iw) * C + c]) * dw[(kh * 3 + kw) * C + c];
          }
        dwWant[(oh * W + ow) * C + c] = std::max(acc, 0.0);
      }
    }
  for (int i = 0; i < 2; ++i)  // [2, 3] x [3, 2]
    for (int j = 0; j < 2; ++j) {
      double acc = 0;
      for (int k = 0; k < 3; ++k) acc += double(a[i * 3 + k]) * bm[k * 2 + j];
      mmWant[i * 2 + j] = std::max(acc, 0.0);
    }

  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphCreate(ctx, "convs", nullptr, &g), QNN_SUCCESS);
  uint32_t strideData[] = {1, 1}, padData[] = {1, 1, 1, 1};
  TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
  TensorSpec pad("pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
  TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, H, W, C});
  TensorSpec convW("cw", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {3, 3, C, O}, cw.data(), uint32_t(cw.size() * 4));
  TensorSpec convB("cb", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {O}, cb.data(), O * 4);
  TensorSpec convOut("conv", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, H, W, O});
  TensorSpec reluOut("relu", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, H, W, O});
  TensorSpec dwW("dw", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {3, 3, 1, C}, dw.data(), uint32_t(dw.size() * 4));
  TensorSpec dwB("db", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {C}, db.data(), C * 4);
  TensorSpec dwMid("dwmid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, H, W, C});
  TensorSpec dwOut("dwrelu", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, H, W, C});
  TensorSpec ma("a", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {2, 3});
  TensorSpec mb("bm", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {3, 2});
  TensorSpec mmMid("mmmid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2, 2});
  TensorSpec mmOut("mmrelu", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {2, 2});
  TensorSpec addMid("addmid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2, 3});
  TensorSpec addOut("addrelu", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {2, 3});
  for (TensorSpec* t : {&in, &convW, &convB, &convOut, &reluOut, &dwW, &dwB, &dwMid, &dwOut, &ma, &mb, &mmMid, &mmOut,
                        &addMid, &addOut})
    add(g, *t);
  node(g, "conv", "Conv2d", {tensorParam("stride", stride), tensorParam("pad_amount", pad)},
       {in.tensor, convW.tensor, convB.tensor}, {convOut.tensor});
  node(g, "relu", "Relu", {}, {convOut.tensor}, {reluOut.tensor});
  node(g, "dwconv", "DepthWiseConv2d", {tensorParam("stride", stride), tensorParam("pad_amount", pad)},
       {in.tensor, dwW.tensor, dwB.tensor}, {dwMid.tensor});
  node(g, "dwrelu", "Relu", {}, {dwMid.tensor}, {dwOut.tensor});
  node(g, "mm", "MatMul", {}, {ma.tensor, mb.tensor}, {mmMid.tensor});
  node(g, "mmrelu", "Relu", {}, {mmMid.tensor}, {mmOut.tensor});
  node(g, "add", "ElementWiseAdd", {}, {ma.tensor, ma.tensor}, {addMid.tensor});
  node(g, "addrelu", "Relu", {}, {addMid.tensor}, {addOut.tensor});
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);

  std::vector<float> conv(H * W * O), relu(H * W * O), dwr(H * W * C), mm(4), sum(6);
  in.tensor.v1.clientBuf = {x.data(), uint32_t(x.size() * 4)};
  ma.tensor.v1.clientBuf = {a.data(), 24};
  mb.tensor.v1.clientBuf = {bm.data(), 24};
  convOut.tensor.v1.clientBuf = {conv.data(), uint32_t(conv.size() * 4)};
  reluOut.tensor.v1.clientBuf = {relu.data(), uint32_t(relu.size() * 4)};
  dwOut.tensor.v1.clientBuf = {dwr.data(), uint32_t(dwr.size() * 4)};
  mmOut.tensor.v1.clientBuf = {mm.data(), 16};
  addOut.tensor.v1.clientBuf = {sum.data(), 24};
  execute(g, {in.tensor, ma.tensor, mb.tensor},
          {convOut.tensor, reluOut.tensor, dwOut.tensor, mmOut.tensor, addOut.tensor});
  expectNear(conv, convWant, "Conv2d output, also read by the Relu");
  expectNear(relu, reluWant, "Relu of the Conv2d");
  expectNear(dwr, dwWant, "DepthWiseConv2d + Relu");
  expectNear(mm, mmWant, "MatMul + Relu");
  expectNear(sum, addWant, "ElementWiseAdd + Relu");
}

// An RGB stem: Conv2d 7x7 stride 2 (3 -> 32 channels, the small-channel kernel) -> Relu -> PoolMax2d 3x3
// stride 2 pad 1, batch 2, odd sizes. The pool folds into the convolution (which pools the rows it
// computes, band by band): the output equals bit for bit the same graph with the Relu's output as a
// graph output (which keeps the three nodes apart), and a double reference; profiling lists all three.
TEST_F(ActivationFusion, StemConvolutionWithMaxPool) {
  constexpr int N = 2, H = 37, W = 30, C = 3, O = 32, K = 7;
  constexpr int CH = (H + 6 - K) / 2 + 1, CW = (W + 6 - K) / 2 + 1;   // 19 x 15
  constexpr int PH = (CH + 2 - 3) / 2 + 1, PW = (CW + 2 - 3) / 2 + 1; // 10 x 8
  std::vector<float> x = randomValues(N * H * W * C, 21), w = randomValues(K * K * C * O, 22), b = randomValues(O, 23);
  std::vector<double> conv(size_t(N) * CH * CW * O), want(size_t(N) * PH * PW * O);
  for (int n = 0; n < N; ++n)
    for (int oh = 0; oh < CH; ++oh)
      for (int ow = 0; ow < CW; ++ow)
        for (int o = 0; o < O; ++o) {
          double acc = b[o];
          for (int kh = 0; kh < K; ++kh)
            for (int kw = 0; kw < K; ++kw) {
              const int ih = oh * 2 + kh - 3, iw = ow * 2 + kw - 3;
              if (ih < 0 || iw < 0 || ih >= H || iw >= W) continue;
              for (int c = 0; c < C; ++c)
                acc += double(x[((n * H + ih) * W + iw) * C + c]) * w[((kh * K + kw) * C + c) * O + o];
            }
          conv[((size_t(n) * CH + oh) * CW + ow) * O + o] = std::max(acc, 0.0);
        }
  for (int n = 0; n < N; ++n)
    for (int ph = 0; ph < PH; ++ph)
      for (int pw = 0; pw < PW; ++pw)
        for (int o = 0; o < O; ++o) {
          double m = -1e300;
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
              const int ch = ph * 2 - 1 + i, cw = pw * 2 - 1 + j;
              if (ch >= 0 && cw >= 0 && ch < CH && cw < CW) m = std::max(m, conv[((size_t(n) * CH + ch) * CW + cw) * O + o]);
            }
          want[((size_t(n) * PH + ph) * PW + pw) * O + o] = m;
        }

  auto run = [&](Qnn_TensorType_t midKind, const char* name, Qnn_ProfileHandle_t profile) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphCreate(ctx, name, nullptr, &g), QNN_SUCCESS);
    uint32_t strideData[] = {2, 2}, padData[] = {3, 3, 3, 3}, poolSize[] = {3, 3}, poolStride[] = {2, 2},
             poolPad[] = {1, 1, 1, 1};
    TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
    TensorSpec pad("pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
    TensorSpec psize("psize", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, poolSize, 8);
    TensorSpec pstride("pstride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, poolStride, 8);
    TensorSpec ppad("ppad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, poolPad, 16);
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {N, H, W, C});
    TensorSpec weights("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {K, K, C, O}, w.data(), uint32_t(w.size() * 4));
    TensorSpec bias("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {O}, b.data(), O * 4);
    TensorSpec convOut("conv", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {N, CH, CW, O});
    TensorSpec reluOut("relu", midKind, QNN_DATATYPE_FLOAT_32, {N, CH, CW, O});
    TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {N, PH, PW, O});
    for (TensorSpec* t : {&in, &weights, &bias, &convOut, &reluOut, &out}) add(g, *t);
    node(g, "conv", "Conv2d", {tensorParam("stride", stride), tensorParam("pad_amount", pad)},
         {in.tensor, weights.tensor, bias.tensor}, {convOut.tensor});
    node(g, "relu", "Relu", {}, {convOut.tensor}, {reluOut.tensor});
    node(g, "pool", "PoolMax2d",
         {tensorParam("filter_size", psize), tensorParam("stride", pstride), tensorParam("pad_amount", ppad)},
         {reluOut.tensor}, {out.tensor});
    EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
    std::vector<float> y(want.size(), 9.f), mid(conv.size());
    in.tensor.v1.clientBuf = {x.data(), uint32_t(x.size() * 4)};
    out.tensor.v1.clientBuf = {y.data(), uint32_t(y.size() * 4)};
    reluOut.tensor.v1.clientBuf = {mid.data(), uint32_t(mid.size() * 4)};
    std::vector<Qnn_Tensor_t> outs = {out.tensor};
    if (midKind == QNN_TENSOR_TYPE_APP_READ) outs.push_back(reluOut.tensor);
    execute(g, {in.tensor}, outs, profile);
    return y;
  };
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  const std::vector<float> fused = run(QNN_TENSOR_TYPE_NATIVE, "stem_fused", profile);
  const std::vector<std::string> nodeEvents = profiledNodes(api(), profile);
  for (std::string name : {"conv (Conv2d)", "relu (Relu)", "pool (PoolMax2d)"})
    EXPECT_NE(std::find(nodeEvents.begin(), nodeEvents.end(), name), nodeEvents.end()) << name;
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
  expectNear(fused, want, "Conv2d + Relu + PoolMax2d");
  EXPECT_EQ(fused, run(QNN_TENSOR_TYPE_APP_READ, "stem_apart", nullptr)) << "the folded pool computes other bits";
}

}  // namespace
}  // namespace qnn::test
