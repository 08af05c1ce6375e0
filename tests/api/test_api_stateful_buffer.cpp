// Buffer through the public API: the window lives in the finalized graph, so
// consecutive graphExecute calls see it slide, a reset input restarts it, and
// a second graph keeps a window of its own. Windows worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "tests/api/cpu_context_fixture.h"

namespace qnn::test {
namespace {

class StatefulBuffer : public CpuContextTest {
 protected:
  struct Graph {
    Qnn_GraphHandle_t handle = nullptr;
    uint32_t xId = 0, resetId = 0, yId = 0;
  };

  // x [1, 2] (one frame of two values along dim 0) and a BOOL_8 reset ->
  // Buffer(buffer_size 3, buffer_dim 0, stride 1, mode) -> y [3, 2].
  Graph build(const char* name, uint32_t mode) {
    Graph g;
    EXPECT_EQ(api().graphCreate(ctx, name, nullptr, &g.handle), QNN_SUCCESS);
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 2});
    TensorSpec reset("reset", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_BOOL_8, {1});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {3, 2});
    for (TensorSpec* t : {&x, &reset, &y}) EXPECT_EQ(api().tensorCreateGraphTensor(g.handle, &t->tensor), QNN_SUCCESS);
    g.xId = x.tensor.v1.id;
    g.resetId = reset.tensor.v1.id;
    g.yId = y.tensor.v1.id;
    Qnn_Param_t params[] = {u32Param("buffer_size", 3), u32Param("buffer_dim", 0), u32Param("stride", 1),
                            u32Param("mode", mode)};
    Qnn_Tensor_t ins[] = {x.tensor, reset.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"buffer0", "qti.aisw", "Buffer", 4, params, 2, ins, 1, &y.tensor};
    EXPECT_EQ(api().graphAddNode(g.handle, op), QNN_SUCCESS);
    EXPECT_EQ(api().graphFinalize(g.handle, nullptr, nullptr), QNN_SUCCESS);
    return g;
  }

  std::vector<float> run(const Graph& g, std::vector<float> frame, bool resetNow = false) {
    std::vector<float> out(6, -1.f);
    uint8_t reset = resetNow ? 1 : 0;
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 2}, frame.data(), 8);
    TensorSpec r("reset", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_BOOL_8, {1}, &reset, 1);
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {3, 2}, out.data(), 24);
    x.tensor.v1.id = g.xId;
    r.tensor.v1.id = g.resetId;
    y.tensor.v1.id = g.yId;
    Qnn_Tensor_t ins[] = {x.tensor, r.tensor};
    EXPECT_EQ(api().graphExecute(g.handle, ins, 2, &y.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
    return out;
  }

};

using V = std::vector<float>;

TEST_F(StatefulBuffer, WindowSlidesAcrossExecutesAndResets) {
  Graph right = build("right", 2), left = build("left", 1);
  EXPECT_EQ(run(right, {1, 2}), (V{0, 0, 0, 0, 1, 2}));
  EXPECT_EQ(run(right, {3, 4}), (V{0, 0, 1, 2, 3, 4}));
  EXPECT_EQ(run(left, {9, 9}), (V{9, 9, 0, 0, 0, 0}));  // its own window
  EXPECT_EQ(run(right, {5, 6}), (V{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(run(right, {7, 8}), (V{3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(run(right, {1, 1}, /*resetNow=*/true), (V{0, 0, 0, 0, 1, 1}));
  EXPECT_EQ(run(left, {8, 8}), (V{9, 9, 8, 8, 0, 0}));
}

TEST_F(StatefulBuffer, InconsistentStrideIsRefusedAtFinalizeOrAddNode) {
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphCreate(ctx, "bad", nullptr, &g), QNN_SUCCESS);
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {2, 2});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {4, 2});
  ASSERT_EQ(api().tensorCreateGraphTensor(g, &x.tensor), QNN_SUCCESS);
  ASSERT_EQ(api().tensorCreateGraphTensor(g, &y.tensor), QNN_SUCCESS);
  Qnn_Param_t params[] = {u32Param("buffer_size", 4), u32Param("buffer_dim", 0), u32Param("stride", 3)};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"buffer0", "qti.aisw", "Buffer", 3, params, 1, &x.tensor, 1, &y.tensor};
  const Qnn_ErrorHandle_t added = api().graphAddNode(g, op);
  const Qnn_ErrorHandle_t finalized = added == QNN_SUCCESS ? api().graphFinalize(g, nullptr, nullptr) : added;
  EXPECT_NE(finalized, QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
