// libQnnCpu.so runs a 1x1 Conv2d whose output (1 MiB or more) only a
// DepthWiseConv2d reads as one step, in row bands (kernels/pointwise_depthwise.h):
// MobileNet's expansion -> depthwise pairs. Seen from the API nothing may
// change: outputs equal the two convolutions computed one after the other
// (references in double below) with and without folded activations, for
// several bands with a partial last one, stride 2, asymmetric padding, batch
// 2, channel counts off the 16-lane blocks; profiling lists every node; the op
// debug callback sees the 1x1 conv's own output; updated depthwise weights
// take effect.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tests/api/cpu_context_fixture.h"
#include "tests/api/cpu_fusion_checks.h"

namespace qnn::test {
namespace {

struct Block {
  uint32_t batch, h, w, cin, cmid, k, stride;
  uint32_t padTop, padBottom, padLeft, padRight;
  bool pwBias, dwBias;
  bool clampPw, clampDw;  // ReluMinMax(0, 6) after the 1x1 conv, Relu after the depthwise conv

  uint32_t outH() const { return (h + padTop + padBottom - k) / stride + 1; }
  uint32_t outW() const { return (w + padLeft + padRight - k) / stride + 1; }
};

struct Weights {
  std::vector<float> w1, b1, w2, b2;
};

Weights weightsFor(const Block& b, unsigned seed) {
  return {randomValues(size_t(b.cin) * b.cmid, seed), randomValues(b.cmid, seed + 1),
          randomValues(size_t(b.k) * b.k * b.cmid, seed + 2), randomValues(b.cmid, seed + 3)};
}

// The 1x1 conv's output and the depthwise conv's output, in double.
void reference(const Block& b, const std::vector<float>& x, const Weights& wt, std::vector<double>* mid,
               std::vector<double>* out) {
  mid->assign(size_t(b.batch) * b.h * b.w * b.cmid, 0.0);
  for (size_t p = 0; p < size_t(b.batch) * b.h * b.w; ++p)
    for (uint32_t m = 0; m < b.cmid; ++m) {
      double acc = b.pwBias ? wt.b1[m] : 0.0;
      for (uint32_t c = 0; c < b.cin; ++c) acc += double(x[p * b.cin + c]) * wt.w1[size_t(c) * b.cmid + m];
      (*mid)[p * b.cmid + m] = b.clampPw ? std::min(std::max(acc, 0.0), 6.0) : acc;
    }
  const uint32_t oh = b.outH(), ow = b.outW();
  out->assign(size_t(b.batch) * oh * ow * b.cmid, 0.0);
  for (uint32_t n = 0; n < b.batch; ++n)
    for (uint32_t y = 0; y < oh; ++y)
      for (uint32_t xo = 0; xo < ow; ++xo)
        for (uint32_t m = 0; m < b.cmid; ++m) {
          double acc = b.dwBias ? wt.b2[m] : 0.0;
          for (uint32_t kh = 0; kh < b.k; ++kh)
            for (uint32_t kw = 0; kw < b.k; ++kw) {
              const int64_t ih = int64_t(y) * b.stride + kh - b.padTop, iw = int64_t(xo) * b.stride + kw - b.padLeft;
              if (ih < 0 || iw < 0 || ih >= b.h || iw >= b.w) continue;
              acc += (*mid)[((size_t(n) * b.h + ih) * b.w + iw) * b.cmid + m] * wt.w2[(kh * b.k + kw) * b.cmid + m];
            }
          (*out)[((size_t(n) * oh + y) * ow + xo) * b.cmid + m] = b.clampDw ? std::max(acc, 0.0) : acc;
        }
}

void expectClose(const std::vector<float>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-4 + 1e-5 * std::fabs(want[i]) && bad++ < 5)
      ADD_FAILURE() << what << " [" << i << "]: " << got[i] << " vs " << want[i];
  EXPECT_EQ(bad, 0u) << what;
}

class PointwiseDepthwiseFusion : public CpuContextTest {
 protected:
  // Builds x -> Conv2d 1x1 -> [ReluMinMax] -> DepthWiseConv2d -> [Relu] -> y and
  // finalizes it. The 1x1 and depthwise weights are UPDATEABLE_STATIC.
  void build(const Block& b, Weights& wt) {
    block = b;
    ASSERT_EQ(api().graphCreate(ctx, "block", nullptr, &graph), QNN_SUCCESS);
    strideData[0] = strideData[1] = b.stride;
    padData[0] = b.padTop, padData[1] = b.padBottom, padData[2] = b.padLeft, padData[3] = b.padRight;
    specs.clear();
    auto spec = [&](TensorSpec t) -> TensorSpec& {
      specs.push_back(std::make_unique<TensorSpec>(std::move(t)));
      EXPECT_EQ(api().tensorCreateGraphTensor(graph, &specs.back()->tensor), QNN_SUCCESS) << specs.back()->name;
      return *specs.back();
    };
    TensorSpec one1("one_stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, ones, 8);
    TensorSpec zeroPad("zero_pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, zeros, 16);
    TensorSpec dwStride("dw_stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
    TensorSpec dwPad("dw_pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
    TensorSpec& x = spec({"x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {b.batch, b.h, b.w, b.cin}});
    TensorSpec& w1 = spec({"w1", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {1, 1, b.cin, b.cmid},
                           wt.w1.data(), uint32_t(wt.w1.size() * 4)});
    TensorSpec& b1 = spec({"b1", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {b.cmid}, wt.b1.data(), b.cmid * 4});
    TensorSpec& mid = spec({"mid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {b.batch, b.h, b.w, b.cmid}});
    TensorSpec& midAct = spec({"mid6", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {b.batch, b.h, b.w, b.cmid}});
    TensorSpec& w2 = spec({"w2", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {b.k, b.k, 1, b.cmid},
                           wt.w2.data(), uint32_t(wt.w2.size() * 4)});
    TensorSpec& b2 = spec({"b2", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {b.cmid}, wt.b2.data(), b.cmid * 4});
    const std::vector<uint32_t> outDims{b.batch, b.outH(), b.outW(), b.cmid};
    TensorSpec& dwOut = spec({"dw", b.clampDw ? QNN_TENSOR_TYPE_NATIVE : QNN_TENSOR_TYPE_APP_READ,
                              QNN_DATATYPE_FLOAT_32, outDims});
    TensorSpec& y = b.clampDw ? spec({"y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, outDims}) : dwOut;
    w2Id = w2.tensor.v1.id;
    w1Id = w1.tensor.v1.id;

    std::vector<Qnn_Tensor_t> pwIn{x.tensor, w1.tensor};
    if (b.pwBias) pwIn.push_back(b1.tensor);
    node("expand", "Conv2d", {tensorParam("stride", one1), tensorParam("pad_amount", zeroPad)}, pwIn, {mid.tensor});
    TensorSpec& dwInput = b.clampPw ? midAct : mid;
    if (b.clampPw)
      node("expand_relu6", "ReluMinMax", {f32Param("min_value", 0.f), f32Param("max_value", 6.f)}, {mid.tensor},
           {midAct.tensor});
    std::vector<Qnn_Tensor_t> dwIn{dwInput.tensor, w2.tensor};
    if (b.dwBias) dwIn.push_back(b2.tensor);
    node("depthwise", "DepthWiseConv2d", {tensorParam("stride", dwStride), tensorParam("pad_amount", dwPad)}, dwIn,
         {dwOut.tensor});
    if (b.clampDw) node("depthwise_relu", "Relu", {}, {dwOut.tensor}, {y.tensor});
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
    inTensor = x.tensor;
    outTensor = y.tensor;
  }
  // New data for an UPDATEABLE_STATIC float tensor, then the finalize that applies it.
  void updateWeights(uint32_t id, std::vector<uint32_t> dims, std::vector<float>& data) {
    Qnn_Tensor_t t = QNN_TENSOR_INIT;
    t.v1.id = id;
    t.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
    t.v1.dataType = QNN_DATATYPE_FLOAT_32;
    t.v1.rank = uint32_t(dims.size());
    t.v1.dimensions = dims.data();
    t.v1.memType = QNN_TENSORMEMTYPE_RAW;
    t.v1.clientBuf = {data.data(), uint32_t(data.size() * 4)};
    const Qnn_Tensor_t* updates[] = {&t};
    ASSERT_EQ(api().tensorUpdateGraphTensors(graph, updates, 1), QNN_SUCCESS);
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }
  void node(const char* name, const char* type, std::vector<Qnn_Param_t> params, std::vector<Qnn_Tensor_t> ins,
            std::vector<Qnn_Tensor_t> outs) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", type, uint32_t(params.size()), params.data(), uint32_t(ins.size()), ins.data(),
             uint32_t(outs.size()), outs.data()};
    ASSERT_EQ(api().graphAddNode(graph, op), QNN_SUCCESS) << name;
  }
  std::vector<float> run(std::vector<float>& x, Qnn_ProfileHandle_t profile = nullptr) {
    std::vector<float> y(size_t(block.batch) * block.outH() * block.outW() * block.cmid, -99.f);
    Qnn_Tensor_t in = inTensor, out = outTensor;
    in.v1.clientBuf = {x.data(), uint32_t(x.size() * 4)};
    out.v1.clientBuf = {y.data(), uint32_t(y.size() * 4)};
    EXPECT_EQ(api().graphExecute(graph, &in, 1, &out, 1, profile, nullptr), QNN_SUCCESS);
    return y;
  }
  void checkBlock(const Block& b, unsigned seed) {
    Weights wt = weightsFor(b, seed);
    build(b, wt);
    std::vector<float> x = randomValues(size_t(b.batch) * b.h * b.w * b.cin, seed + 10);
    std::vector<double> mid, want;
    reference(b, x, wt, &mid, &want);
    expectClose(run(x), want, "fused block");
    std::vector<float> x2 = randomValues(x.size(), seed + 11);  // a second execute, other data
    reference(b, x2, wt, &mid, &want);
    expectClose(run(x2), want, "second execute");
  }

  Block block{};
  Qnn_GraphHandle_t graph = nullptr;
  uint32_t ones[2] = {1, 1}, zeros[4] = {0, 0, 0, 0}, strideData[2] = {1, 1}, padData[4] = {};
  std::vector<std::unique_ptr<TensorSpec>> specs;
  Qnn_Tensor_t inTensor = QNN_TENSOR_INIT, outTensor = QNN_TENSOR_INIT;
  uint32_t w2Id = 0, w1Id = 0;
};

// 48 x 40 x 144 (1.1 MB) between the two: three bands of 20, 20 and 8 output rows.
TEST_F(PointwiseDepthwiseFusion, MobileNetBlockWithRelu6AndRelu) {
  checkBlock({1, 48, 40, 8, 144, 3, 1, 1, 1, 1, 1, true, true, true, true}, 1);
}

TEST_F(PointwiseDepthwiseFusion, Stride2AsymmetricPaddingBatch2NoBiasOddChannels) {
  checkBlock({2, 33, 30, 5, 136, 3, 2, 0, 1, 1, 0, false, true, false, true}, 20);
}

TEST_F(PointwiseDepthwiseFusion, FiveByFiveNoActivationsNoDepthwiseBias) {
  checkBlock({1, 37, 45, 16, 160, 5, 1, 2, 2, 2, 2, true, false, true, false}, 40);
}

TEST_F(PointwiseDepthwiseFusion, ProfilingListsEveryNodeAndTheDebugCallbackSeesTheExpansion) {
  const Block b{1, 48, 40, 8, 144, 3, 1, 1, 1, 1, 1, true, true, true, true};
  Weights wt = weightsFor(b, 60);
  build(b, wt);
  std::vector<float> x = randomValues(size_t(b.h) * b.w * b.cin, 61);
  std::vector<double> mid, want;
  reference(b, x, wt, &mid, &want);

  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  expectClose(run(x, profile), want, "profiled");
  const std::vector<std::string> nodeEvents = profiledNodes(api(), profile);
  for (std::string name : {"expand (Conv2d)", "expand_relu6 (ReluMinMax)", "depthwise (DepthWiseConv2d)",
                           "depthwise_relu (Relu)"})
    EXPECT_NE(std::find(nodeEvents.begin(), nodeEvents.end(), name), nodeEvents.end()) << name;
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);

  std::vector<SeenOp> seen;
  recordEveryOp(api(), graph, &seen);
  expectClose(run(x), want, "unfused");
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].name, "expand");
  std::vector<double> preActivation(mid.size());
  for (size_t p = 0; p < size_t(b.h) * b.w; ++p)
    for (uint32_t m = 0; m < b.cmid; ++m) {
      double acc = wt.b1[m];
      for (uint32_t c = 0; c < b.cin; ++c) acc += double(x[p * b.cin + c]) * wt.w1[size_t(c) * b.cmid + m];
      preActivation[p * b.cmid + m] = acc;
    }
  expectClose(seen[0].values, preActivation, "the 1x1 conv's own output");
  EXPECT_EQ(seen[2].name, "depthwise");
}

TEST_F(PointwiseDepthwiseFusion, UpdatedDepthwiseWeightsTakeEffect) {
  const Block b{1, 48, 40, 8, 144, 3, 1, 1, 1, 1, 1, true, true, true, true};
  Weights wt = weightsFor(b, 80);
  build(b, wt);
  std::vector<float> x = randomValues(size_t(b.h) * b.w * b.cin, 81);
  std::vector<double> mid, want;
  reference(b, x, wt, &mid, &want);
  expectClose(run(x), want, "before the update");

  wt.w2 = randomValues(wt.w2.size(), 82);
  updateWeights(w2Id, {b.k, b.k, 1, b.cmid}, wt.w2);
  reference(b, x, wt, &mid, &want);
  expectClose(run(x), want, "after the update");
}

// New 1x1 weights rebuild the fused step; its bands must not reuse 1x1 rows a thread kept from the
// step it replaced (the band reuse is keyed by execute, numbered across kernels).
TEST_F(PointwiseDepthwiseFusion, UpdatedExpansionWeightsTakeEffect) {
  const Block b{1, 48, 40, 8, 144, 3, 2, 1, 1, 1, 1, true, true, true, true};
  Weights wt = weightsFor(b, 90);
  build(b, wt);
  std::vector<float> x = randomValues(size_t(b.h) * b.w * b.cin, 91);
  std::vector<double> mid, want;
  reference(b, x, wt, &mid, &want);
  expectClose(run(x), want, "before the update");

  wt.w1 = randomValues(wt.w1.size(), 92);
  updateWeights(w1Id, {1, 1, b.cin, b.cmid}, wt.w1);
  reference(b, x, wt, &mid, &want);
  expectClose(run(x), want, "after the update");
  expectClose(run(x), want, "a second execute after the update");
}

}  // namespace
}  // namespace qnn::test
