// libQnnCpu.so gives a Reshape / Squeeze / ExpandDims between two native tensors no buffer of its
// own: the output names the input's bytes. Seen from the API nothing may change: the shared buffer
// lives until the last reader of either name (a tensor produced in between must not take it),
// chains of reshapes resolve, a reshape into a graph output still copies, the op debug callback
// and detailed profiling still see every node.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tests/api/cpu_context_fixture.h"
#include "tests/api/cpu_fusion_checks.h"

namespace qnn::test {
namespace {

using ReshapeAliasing = CpuContextTest;

// x [2, 6] -> Relu -> a -> Reshape -> b [3, 4] -> Reshape -> c [12]:
//   a = relu(x); b = reshape(a); t = relu(x2) is produced after a's last direct reader, the size
//   of a, so a planner that freed a's buffer at the reshape would hand it to t;
//   sum = b + t (APP_READ); c = reshape(b) (a chain); sq = c * c (APP_READ, read last);
//   copy = reshape(c) into a graph output [2, 6] (APP_READ, must be written).
TEST_F(ReshapeAliasing, SharedBufferLivesUntilTheLastReaderOfEitherName) {
  std::vector<float> x = randomValues(12, 21), x2 = randomValues(12, 22);
  std::vector<float> sum(12, 9.f), sq(12, 9.f), copy(12, 9.f);
  std::vector<float> wantSum(12), wantSq(12), wantCopy(12);
  for (int i = 0; i < 12; ++i) {
    const float a = std::max(x[i], 0.f), t = std::max(x2[i], 0.f);
    wantSum[i] = a + t;
    wantSq[i] = a * a;
    wantCopy[i] = a;
  }

  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphCreate(ctx, "reshapes", nullptr, &g), QNN_SUCCESS);
  TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {2, 6});
  TensorSpec in2("x2", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {3, 4});
  TensorSpec a("a", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2, 6});
  TensorSpec b("b", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {3, 4});
  TensorSpec t("t", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {3, 4});
  TensorSpec c("c", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {12});
  TensorSpec sumOut("sum", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {3, 4});
  TensorSpec sqOut("sq", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {12});
  TensorSpec copyOut("copy", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {2, 6});
  for (TensorSpec* s : {&in, &in2, &a, &b, &t, &c, &sumOut, &sqOut, &copyOut}) add(g, *s);
  node(g, "relu_a", "Relu", {}, {in.tensor}, {a.tensor});
  node(g, "reshape_b", "Reshape", {}, {a.tensor}, {b.tensor});
  node(g, "relu_t", "Relu", {}, {in2.tensor}, {t.tensor});
  node(g, "add", "ElementWiseAdd", {}, {b.tensor, t.tensor}, {sumOut.tensor});
  node(g, "reshape_c", "Reshape", {}, {b.tensor}, {c.tensor});
  node(g, "reshape_copy", "Reshape", {}, {c.tensor}, {copyOut.tensor});
  node(g, "square", "ElementWiseMultiply", {}, {c.tensor, c.tensor}, {sqOut.tensor});
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  in.tensor.v1.clientBuf = {x.data(), 48};
  in2.tensor.v1.clientBuf = {x2.data(), 48};
  sumOut.tensor.v1.clientBuf = {sum.data(), 48};
  sqOut.tensor.v1.clientBuf = {sq.data(), 48};
  copyOut.tensor.v1.clientBuf = {copy.data(), 48};
  std::vector<Qnn_Tensor_t> ins{in.tensor, in2.tensor}, outs{sumOut.tensor, sqOut.tensor, copyOut.tensor};

  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  for (int run = 0; run < 2; ++run) {  // the second run starts from the first run's buffers
    ASSERT_EQ(api().graphExecute(g, ins.data(), 2, outs.data(), 3, run == 0 ? profile : nullptr, nullptr),
              QNN_SUCCESS);
    EXPECT_EQ(sum, wantSum);
    EXPECT_EQ(sq, wantSq);
    EXPECT_EQ(copy, wantCopy);
    std::fill(sum.begin(), sum.end(), 9.f), std::fill(sq.begin(), sq.end(), 9.f);
    std::fill(copy.begin(), copy.end(), 9.f);
  }
  const std::vector<std::string> nodeEvents = profiledNodes(api(), profile);
  for (std::string name : {"reshape_b (Reshape)", "reshape_c (Reshape)", "reshape_copy (Reshape)"})
    EXPECT_NE(std::find(nodeEvents.begin(), nodeEvents.end(), name), nodeEvents.end()) << name;
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);

  // The op debug callback sees each reshape's output: the values of its input.
  std::vector<SeenOp> seen;
  recordEveryOp(api(), g, &seen);
  ASSERT_EQ(api().graphExecute(g, ins.data(), 2, outs.data(), 3, nullptr, nullptr), QNN_SUCCESS);
  ASSERT_EQ(seen.size(), 7u);
  for (const SeenOp& op : seen) {
    if (op.name == "reshape_b" || op.name == "reshape_c" || op.name == "reshape_copy") {
      EXPECT_EQ(op.values, wantCopy) << op.name;
    }
  }
  EXPECT_EQ(sum, wantSum);
  EXPECT_EQ(sq, wantSq);
}

}  // namespace
}  // namespace qnn::test
