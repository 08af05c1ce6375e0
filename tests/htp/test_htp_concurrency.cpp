// Graphs executing at the same time on libQnnHtp.so: the kernels share one
// worker pool and keep per-thread scratch, so concurrent executes of
// different graphs (one pool job at a time, the others run inline) must give
// exactly the bytes of a lone execute.
#include <random>
#include <thread>

#include "tests/htp/htp_test_util.h"

namespace qnn::test {
namespace {

// Large enough that the convolution splits across the pool's threads.
constexpr uint32_t kSide = 32, kChannels = 32;
constexpr size_t kElems = size_t(kSide) * kSide * kChannels;

class HtpConcurrencyTest : public HtpTest {
 protected:
  // conv3x3 -> Add(conv, x) -> Relu, all uint8; `seed` picks the weights.
  struct Graph {
    Qnn_GraphHandle_t handle = nullptr;
    uint32_t xId = 0, outId = 0;
    std::vector<int8_t> w;
    std::vector<int32_t> b;
  };

  void build(Qnn_ContextHandle_t ctx, const char* name, uint32_t seed, Graph* gr) {
    std::mt19937 rng(seed);
    gr->w.resize(9 * size_t(kChannels) * kChannels);
    gr->b.resize(kChannels);
    for (auto& v : gr->w) v = int8_t(int(rng() % 255) - 127);
    for (auto& v : gr->b) v = int32_t(rng() % 2001) - 1000;
    ASSERT_EQ(makeGraph(ctx, name, {}, &gr->handle), QNN_SUCCESS);
    QuantSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, kSide, kSide, kChannels}, 0.02f, -128);
    QuantSpec wt("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_8, {3, 3, kChannels, kChannels}, 0.01f, 0,
                 gr->w.data(), uint32_t(gr->w.size()));
    QuantSpec bias("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_32, {kChannels}, 0.0002f, 0, gr->b.data(),
                   uint32_t(gr->b.size() * 4));
    QuantSpec conv("conv", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_8, {1, kSide, kSide, kChannels}, 0.2f, -128);
    QuantSpec sum("sum", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_8, {1, kSide, kSide, kChannels}, 0.2f, -128);
    QuantSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, kSide, kSide, kChannels}, 0.2f, -128);
    for (TensorSpec* t : {(TensorSpec*)&in, (TensorSpec*)&wt, (TensorSpec*)&bias, (TensorSpec*)&conv, (TensorSpec*)&sum,
                          (TensorSpec*)&out})
      ASSERT_EQ(api().tensorCreateGraphTensor(gr->handle, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
    gr->xId = in.tensor.v1.id;
    gr->outId = out.tensor.v1.id;
    uint32_t strideData[] = {1, 1}, padData[] = {1, 1, 1, 1};
    TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
    TensorSpec pad("pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
    Qnn_Param_t params[] = {tensorParam("stride", stride), tensorParam("pad_amount", pad)};
    Qnn_Tensor_t convIn[] = {in.tensor, wt.tensor, bias.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"conv0", "qti.aisw", "Conv2d", 2, params, 3, convIn, 1, &conv.tensor};
    ASSERT_EQ(api().graphAddNode(gr->handle, op), QNN_SUCCESS) << LogCapture::take();
    Qnn_Tensor_t addIn[] = {conv.tensor, in.tensor};
    op.v1 = {"add0", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &sum.tensor};
    ASSERT_EQ(api().graphAddNode(gr->handle, op), QNN_SUCCESS) << LogCapture::take();
    op.v1 = {"relu0", "qti.aisw", "Relu", 0, nullptr, 1, &sum.tensor, 1, &out.tensor};
    ASSERT_EQ(api().graphAddNode(gr->handle, op), QNN_SUCCESS) << LogCapture::take();
    ASSERT_EQ(api().graphFinalize(gr->handle, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  }

  Qnn_ErrorHandle_t run(const Graph& gr, std::vector<uint8_t>& x, std::vector<uint8_t>* y) {
    y->assign(kElems, 0);
    QuantSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, kSide, kSide, kChannels}, 0.02f, -128,
                 x.data(), uint32_t(x.size()));
    QuantSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, kSide, kSide, kChannels}, 0.2f, -128,
                  y->data(), uint32_t(y->size()));
    in.tensor.v1.id = gr.xId;
    out.tensor.v1.id = gr.outId;
    return api().graphExecute(gr.handle, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr);
  }
};

TEST_F(HtpConcurrencyTest, ConcurrentExecutesMatchALoneExecute) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Graph graphs[2];
  build(ctx, "g0", 5, &graphs[0]);
  build(ctx, "g1", 6, &graphs[1]);
  std::vector<uint8_t> inputs[2];
  std::mt19937 rng(9);
  for (auto& in : inputs) {
    in.resize(kElems);
    for (auto& v : in) v = uint8_t(rng() % 256);
  }
  std::vector<uint8_t> want[2];
  for (int g = 0; g < 2; ++g) ASSERT_EQ(run(graphs[g], inputs[g], &want[g]), QNN_SUCCESS) << LogCapture::take();
  ASSERT_NE(want[0], want[1]);

  // Each graph has one executing thread at a time (two per graph would be
  // serialized by the API anyway); the two graphs overlap.
  constexpr int kIterations = 6;
  int mismatches[2] = {0, 0}, failures[2] = {0, 0};
  std::vector<std::thread> threads;
  for (int g = 0; g < 2; ++g)
    threads.emplace_back([&, g] {
      std::vector<uint8_t> x = inputs[g], got;
      for (int i = 0; i < kIterations; ++i) {
        if (run(graphs[g], x, &got) != QNN_SUCCESS) ++failures[g];
        else if (got != want[g]) ++mismatches[g];
      }
    });
  for (auto& t : threads) t.join();
  for (int g = 0; g < 2; ++g) {
    EXPECT_EQ(failures[g], 0) << "graph " << g;
    EXPECT_EQ(mismatches[g], 0) << "graph " << g;
  }
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
