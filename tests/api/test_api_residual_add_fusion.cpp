// libQnnCpu.so folds an ElementWiseAdd that alone reads a FullyConnected's or 1x1 Conv2d's output
// and adds a tensor ready before it (a residual connection) into that product's store. Seen from
// the API nothing may change: outputs equal the unfused math (references in double) and, bit for
// bit, the unfused run the op debug callback forces; the residual on either side of the Add; the
// Add's Relu folded too; a residual produced after the product is not folded (and still right);
// a product with its own activation is not folded; new weights take effect; profiling lists every
// node.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "tests/api/cpu_context_fixture.h"
#include "tests/api/cpu_fusion_checks.h"

namespace qnn::test {
namespace {

constexpr uint32_t kRows = 6, kIn = 20, kUnits = 24;

class ResidualAddFusion : public CpuContextTest {
 protected:
  // x [6, 20] -> FullyConnected (w [24, 20] updatable, b [24]) -> mid, and r [6, 24]:
  //   residualFirst: y = r + mid, else y = mid + r; with relu, y = Relu(that).
  //   residualLate: r is Relu(r0), a node added after the FullyConnected.
  //   fcRelu: the FullyConnected's output goes through a Relu before the Add.
  void build(bool residualFirst, bool relu, bool residualLate, bool fcRelu) {
    ASSERT_EQ(api().graphCreate(ctx, "residual", nullptr, &graph), QNN_SUCCESS);
    x = std::make_unique<TensorSpec>("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32,
                                     std::vector<uint32_t>{kRows, kIn});
    r0 = std::make_unique<TensorSpec>("r0", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32,
                                      std::vector<uint32_t>{kRows, kUnits});
    w = std::make_unique<TensorSpec>("w", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32,
                                     std::vector<uint32_t>{kUnits, kIn}, weights.data(), uint32_t(weights.size() * 4));
    b = std::make_unique<TensorSpec>("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{kUnits},
                                     bias.data(), kUnits * 4);
    const std::vector<uint32_t> dims{kRows, kUnits};
    mid = std::make_unique<TensorSpec>("mid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, dims);
    midRelu = std::make_unique<TensorSpec>("mid_relu", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, dims);
    r = std::make_unique<TensorSpec>("r", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, dims);
    sum = std::make_unique<TensorSpec>("sum", relu ? QNN_TENSOR_TYPE_NATIVE : QNN_TENSOR_TYPE_APP_READ,
                                       QNN_DATATYPE_FLOAT_32, dims);
    y = std::make_unique<TensorSpec>("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, dims);
    for (TensorSpec* t : {x.get(), r0.get(), w.get(), b.get(), mid.get(), r.get(), sum.get()}) add(graph, *t);
    if (fcRelu) add(graph, *midRelu);  // a tensor no node uses fails finalize
    if (relu) add(graph, *y);
    if (!residualLate) node(graph, "residual", "Relu", {}, {r0->tensor}, {r->tensor});
    node(graph, "fc", "FullyConnected", {}, {x->tensor, w->tensor, b->tensor}, {mid->tensor});
    if (fcRelu) node(graph, "fc_relu", "Relu", {}, {mid->tensor}, {midRelu->tensor});
    if (residualLate) node(graph, "residual", "Relu", {}, {r0->tensor}, {r->tensor});
    const Qnn_Tensor_t product = fcRelu ? midRelu->tensor : mid->tensor;
    node(graph, "add", "ElementWiseAdd", {},
         residualFirst ? std::vector<Qnn_Tensor_t>{r->tensor, product} : std::vector<Qnn_Tensor_t>{product, r->tensor},
         {sum->tensor});
    if (relu) node(graph, "add_relu", "Relu", {}, {sum->tensor}, {y->tensor});
    output = relu ? y.get() : sum.get();
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
    withRelu = relu, withFcRelu = fcRelu;
  }
  std::vector<float> run(Qnn_ProfileHandle_t profile = nullptr) {
    std::vector<float> out(kRows * kUnits, -99.f);
    Qnn_Tensor_t ins[] = {x->tensor, r0->tensor};
    ins[0].v1.clientBuf = {input.data(), uint32_t(input.size() * 4)};
    ins[1].v1.clientBuf = {residual.data(), uint32_t(residual.size() * 4)};
    Qnn_Tensor_t outT = output->tensor;
    outT.v1.clientBuf = {out.data(), uint32_t(out.size() * 4)};
    EXPECT_EQ(api().graphExecute(graph, ins, 2, &outT, 1, profile, nullptr), QNN_SUCCESS);
    return out;
  }
  std::vector<double> reference() const {
    std::vector<double> want(kRows * kUnits);
    for (uint32_t i = 0; i < kRows; ++i)
      for (uint32_t u = 0; u < kUnits; ++u) {
        double acc = bias[u];
        for (uint32_t k = 0; k < kIn; ++k) acc += double(input[i * kIn + k]) * weights[u * kIn + k];
        if (withFcRelu) acc = std::max(acc, 0.0);
        acc += std::max(double(residual[i * kUnits + u]), 0.0);
        want[i * kUnits + u] = withRelu ? std::max(acc, 0.0) : acc;
      }
    return want;
  }
  void expectReference(const std::vector<float>& got, const char* what) {
    const std::vector<double> want = reference();
    for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << what << " [" << i << "]";
  }
  // The same graph with every node on its own (the op debug callback turns fusion off) gives the same bits.
  void expectSameAsUnfused(const std::vector<float>& fused) {
    std::vector<SeenOp> seen;
    recordEveryOp(api(), graph, &seen);
    const std::vector<float> unfused = run();
    EXPECT_EQ(std::memcmp(fused.data(), unfused.data(), fused.size() * 4), 0);
  }

  std::vector<float> input = randomValues(kRows * kIn, 41), residual = randomValues(kRows * kUnits, 42);
  std::vector<float> weights = randomValues(kUnits * kIn, 43), bias = randomValues(kUnits, 44);
  Qnn_GraphHandle_t graph = nullptr;
  std::unique_ptr<TensorSpec> x, r0, w, b, mid, midRelu, r, sum, y;
  TensorSpec* output = nullptr;
  bool withRelu = false, withFcRelu = false;
};

TEST_F(ResidualAddFusion, ProductPlusResidual) {
  build(false, false, false, false);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  const std::vector<float> fused = run(profile);
  expectReference(fused, "fc + r");
  const std::vector<std::string> events = profiledNodes(api(), profile);
  for (std::string name : {"fc (FullyConnected)", "add (ElementWiseAdd)", "residual (Relu)"})
    EXPECT_NE(std::find(events.begin(), events.end(), name), events.end()) << name;
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);

  // New weights: the fused step is rebuilt with them.
  weights = randomValues(kUnits * kIn, 45);
  Qnn_Tensor_t t = w->tensor;
  t.v1.clientBuf = {weights.data(), uint32_t(weights.size() * 4)};
  const Qnn_Tensor_t* updates[] = {&t};
  ASSERT_EQ(api().tensorUpdateGraphTensors(graph, updates, 1), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  const std::vector<float> updated = run();
  expectReference(updated, "after the update");
  expectSameAsUnfused(updated);
}

TEST_F(ResidualAddFusion, ResidualFirstThenRelu) {
  build(true, true, false, false);
  const std::vector<float> fused = run();
  expectReference(fused, "relu(r + fc)");
  expectSameAsUnfused(fused);
}

TEST_F(ResidualAddFusion, ResidualMadeAfterTheProductIsNotFolded) {
  build(false, true, true, false);
  const std::vector<float> out = run();
  expectReference(out, "fc, then r, then relu(fc + r)");
  expectSameAsUnfused(out);
}

TEST_F(ResidualAddFusion, ProductWithItsOwnReluIsNotFolded) {
  build(false, false, false, true);
  const std::vector<float> out = run();
  expectReference(out, "relu(fc) + r");
  expectSameAsUnfused(out);
}

// x [1, 5, 7, 16] -> 1x1 Conv2d (16 -> 32, bias) -> mid; y = Relu(r + mid) with r = Relu(r0) made
// first: the product's direct-A tiles add the residual and clamp.
TEST_F(ResidualAddFusion, PointwiseConvolution) {
  constexpr uint32_t H = 5, W = 7, C = 16, O = 32;
  std::vector<float> in = randomValues(H * W * C, 51), res = randomValues(H * W * O, 52);
  std::vector<float> filt = randomValues(C * O, 53), bi = randomValues(O, 54);
  uint32_t one[] = {1, 1}, zero[] = {0, 0, 0, 0};
  ASSERT_EQ(api().graphCreate(ctx, "conv_residual", nullptr, &graph), QNN_SUCCESS);
  TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, one, 8);
  TensorSpec pad("pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, zero, 16);
  TensorSpec xs("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, H, W, C});
  TensorSpec r0s("r0", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, H, W, O});
  TensorSpec ws("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {1, 1, C, O}, filt.data(), C * O * 4);
  TensorSpec bs("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {O}, bi.data(), O * 4);
  TensorSpec rs("r", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, H, W, O});
  TensorSpec ms("mid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, H, W, O});
  TensorSpec ss("sum", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, H, W, O});
  TensorSpec ys("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, H, W, O});
  for (TensorSpec* t : {&xs, &r0s, &ws, &bs, &rs, &ms, &ss, &ys}) add(graph, *t);
  node(graph, "residual", "Relu", {}, {r0s.tensor}, {rs.tensor});
  node(graph, "conv", "Conv2d", {tensorParam("stride", stride), tensorParam("pad_amount", pad)},
       {xs.tensor, ws.tensor, bs.tensor}, {ms.tensor});
  node(graph, "add", "ElementWiseAdd", {}, {rs.tensor, ms.tensor}, {ss.tensor});
  node(graph, "add_relu", "Relu", {}, {ss.tensor}, {ys.tensor});
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  auto runConv = [&] {
    std::vector<float> out(H * W * O, -99.f);
    Qnn_Tensor_t ins[] = {xs.tensor, r0s.tensor};
    ins[0].v1.clientBuf = {in.data(), uint32_t(in.size() * 4)};
    ins[1].v1.clientBuf = {res.data(), uint32_t(res.size() * 4)};
    Qnn_Tensor_t outT = ys.tensor;
    outT.v1.clientBuf = {out.data(), uint32_t(out.size() * 4)};
    EXPECT_EQ(api().graphExecute(graph, ins, 2, &outT, 1, nullptr, nullptr), QNN_SUCCESS);
    return out;
  };
  const std::vector<float> fused = runConv();
  for (uint32_t p = 0; p < H * W; ++p)
    for (uint32_t o = 0; o < O; ++o) {
      double acc = bi[o];
      for (uint32_t c = 0; c < C; ++c) acc += double(in[p * C + c]) * filt[c * O + o];
      const double want = std::max(acc + std::max(double(res[p * O + o]), 0.0), 0.0);
      EXPECT_NEAR(fused[p * O + o], want, 1e-5) << p << " " << o;
    }
  std::vector<SeenOp> seen;
  recordEveryOp(api(), graph, &seen);
  const std::vector<float> unfused = runConv();
  EXPECT_EQ(std::memcmp(fused.data(), unfused.data(), fused.size() * 4), 0);
}

}  // namespace
}  // namespace qnn::test
