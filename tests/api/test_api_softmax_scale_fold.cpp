// libQnnCpu.so folds an ElementWiseMultiply by a static scalar that alone feeds a Softmax or
// LogSoftmax into the softmax's beta (attention's scores scaled by 1/sqrt(d)). Seen from the API
// nothing may change: outputs equal the unfused math (references in double), either operand order
// and a negative scale, the softmax's own beta, a product another node also reads, a new value of
// an updatable scale or of updatable scores, the op debug callback seeing the product, profiling
// listing both nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/api/cpu_context_fixture.h"
#include "tests/api/cpu_fusion_checks.h"

namespace qnn::test {
namespace {

constexpr uint32_t kRows = 12, kLen = 40;

// softmax (or log-softmax) over rows of kLen of beta * scale * x, in double.
std::vector<double> reference(const std::vector<float>& x, double scale, double beta, bool isLog) {
  std::vector<double> y(x.size());
  for (uint32_t r = 0; r < kRows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (uint32_t i = 0; i < kLen; ++i) mx = std::max(mx, beta * scale * x[r * kLen + i]);
    for (uint32_t i = 0; i < kLen; ++i) sum += std::exp(beta * scale * x[r * kLen + i] - mx);
    for (uint32_t i = 0; i < kLen; ++i) {
      const double a = beta * scale * x[r * kLen + i] - mx;
      y[r * kLen + i] = isLog ? a - std::log(sum) : std::exp(a) / sum;
    }
  }
  return y;
}

void expectClose(const std::vector<float>& got, const std::vector<double>& want, double tol, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << what << " [" << i << "]";
}

class SoftmaxScaleFold : public CpuContextTest {
 protected:
  // x [1, 2, 6, 40] -> ElementWiseMultiply with the scalar c (first operand if scaleFirst) ->
  // scores (native, or APP_READ when keepScores) -> Softmax / LogSoftmax (beta) -> y.
  void build(float scale, bool scaleFirst, bool isLog, float beta, bool keepScores) {
    scaleValue = scale;
    ASSERT_EQ(api().graphCreate(ctx, "scaled_softmax", nullptr, &graph), QNN_SUCCESS);
    const std::vector<uint32_t> dims{1, 2, 6, kLen};
    x = std::make_unique<TensorSpec>("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, dims);
    c = std::make_unique<TensorSpec>("c", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32,
                                     std::vector<uint32_t>{1}, &scaleValue, 4);
    scores = std::make_unique<TensorSpec>("scores", keepScores ? QNN_TENSOR_TYPE_APP_READ : QNN_TENSOR_TYPE_NATIVE,
                                          QNN_DATATYPE_FLOAT_32, dims);
    y = std::make_unique<TensorSpec>("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, dims);
    for (TensorSpec* t : {x.get(), c.get(), scores.get(), y.get()}) add(graph, *t);
    node(graph, "scale", "ElementWiseMultiply", {},
         scaleFirst ? std::vector<Qnn_Tensor_t>{c->tensor, x->tensor} : std::vector<Qnn_Tensor_t>{x->tensor, c->tensor},
         {scores->tensor});
    std::vector<Qnn_Param_t> params{u32Param("axis", 3)};
    if (beta != 1.f) params.push_back(f32Param("beta", beta));
    node(graph, "softmax", isLog ? "LogSoftmax" : "Softmax", params, {scores->tensor}, {y->tensor});
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }
  // Runs the graph on `in`; the scores too when the graph outputs them.
  std::vector<float> run(std::vector<float>& in, std::vector<float>* scoresOut = nullptr,
                         Qnn_ProfileHandle_t profile = nullptr) {
    std::vector<float> out(in.size(), -99.f);
    Qnn_Tensor_t ins[] = {x->tensor};
    ins[0].v1.clientBuf = {in.data(), uint32_t(in.size() * 4)};
    std::vector<Qnn_Tensor_t> outs{y->tensor};
    outs[0].v1.clientBuf = {out.data(), uint32_t(out.size() * 4)};
    if (scoresOut) {
      scoresOut->assign(in.size(), -99.f);
      outs.push_back(scores->tensor);
      outs[1].v1.clientBuf = {scoresOut->data(), uint32_t(in.size() * 4)};
    }
    EXPECT_EQ(api().graphExecute(graph, ins, 1, outs.data(), uint32_t(outs.size()), profile, nullptr), QNN_SUCCESS);
    return out;
  }
  void updateScale(float value) {
    Qnn_Tensor_t t = c->tensor;
    t.v1.clientBuf = {&value, 4};
    const Qnn_Tensor_t* updates[] = {&t};
    ASSERT_EQ(api().tensorUpdateGraphTensors(graph, updates, 1), QNN_SUCCESS);
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }

  Qnn_GraphHandle_t graph = nullptr;
  float scaleValue = 0.f;
  std::unique_ptr<TensorSpec> x, c, scores, y;
};

TEST_F(SoftmaxScaleFold, ScaledScoresGiveTheUnfusedSoftmax) {
  std::vector<float> in = randomValues(kRows * kLen, 31);
  for (float& v : in) v *= 20.f;
  build(0.125f, false, false, 1.f, false);
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  expectClose(run(in, nullptr, profile), reference(in, 0.125, 1, false), 1e-6, "scale 0.125");
  const std::vector<std::string> events = profiledNodes(api(), profile);
  for (std::string name : {"scale (ElementWiseMultiply)", "softmax (Softmax)"})
    EXPECT_NE(std::find(events.begin(), events.end(), name), events.end()) << name;
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);

  updateScale(-0.5f);  // an updatable scale: the folded beta follows it
  expectClose(run(in), reference(in, -0.5, 1, false), 1e-6, "after the update to -0.5");
  expectClose(run(in), reference(in, -0.5, 1, false), 1e-6, "a second execute after the update");

  // The op debug callback sees the product itself.
  std::vector<SeenOp> seen;
  recordEveryOp(api(), graph, &seen);
  expectClose(run(in), reference(in, -0.5, 1, false), 1e-6, "unfused");
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].name, "scale");
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(seen[0].values[i], in[i] * -0.5f) << i;
}

TEST_F(SoftmaxScaleFold, LogSoftmaxWithBetaAndTheScaleFirst) {
  std::vector<float> in = randomValues(kRows * kLen, 32);
  for (float& v : in) v *= 8.f;
  build(-0.3f, true, true, 2.f, false);
  expectClose(run(in), reference(in, -0.3f, 2, true), 1e-5, "log-softmax of -0.3 x, beta 2");
}

TEST_F(SoftmaxScaleFold, ScoresTheClientAlsoReadsStayWritten) {
  std::vector<float> in = randomValues(kRows * kLen, 33), scoresOut;
  build(0.25f, false, false, 1.f, true);
  expectClose(run(in, &scoresOut), reference(in, 0.25, 1, false), 1e-6, "softmax");
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(scoresOut[i], in[i] * 0.25f) << i;
}

// The scaled scores come from an updatable tensor: an update to it (not to the scale) gives the
// softmax of the new scores. The folded softmax reads that tensor in place of the product, so
// rebuilding its kernel alone would read the product nobody writes any more; the plan is rebuilt.
TEST_F(SoftmaxScaleFold, UpdatedScoresInputTakesEffect) {
  const std::vector<uint32_t> dims{1, 2, 6, kLen};
  std::vector<float> first = randomValues(kRows * kLen, 34), second = randomValues(kRows * kLen, 35);
  float scale = 0.5f;
  ASSERT_EQ(api().graphCreate(ctx, "updated_scores", nullptr, &graph), QNN_SUCCESS);
  TensorSpec in("x", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, dims, first.data(),
                uint32_t(first.size() * 4));
  TensorSpec s("c", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{1}, &scale, 4);
  TensorSpec mid("scores", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, dims);
  TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, dims);
  for (TensorSpec* t : {&in, &s, &mid, &out}) add(graph, *t);
  node(graph, "scale", "ElementWiseMultiply", {}, {in.tensor, s.tensor}, {mid.tensor});
  node(graph, "softmax", "Softmax", {u32Param("axis", 3)}, {mid.tensor}, {out.tensor});
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  auto runOnce = [&] {
    std::vector<float> y(kRows * kLen, -99.f);
    Qnn_Tensor_t outs[] = {out.tensor};
    outs[0].v1.clientBuf = {y.data(), uint32_t(y.size() * 4)};
    EXPECT_EQ(api().graphExecute(graph, nullptr, 0, outs, 1, nullptr, nullptr), QNN_SUCCESS);
    return y;
  };
  expectClose(runOnce(), reference(first, 0.5, 1, false), 1e-6, "first scores");
  Qnn_Tensor_t t = in.tensor;
  t.v1.clientBuf = {second.data(), uint32_t(second.size() * 4)};
  const Qnn_Tensor_t* updates[] = {&t};
  ASSERT_EQ(api().tensorUpdateGraphTensors(graph, updates, 1), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  expectClose(runOnce(), reference(second, 0.5, 1, false), 1e-6, "after the update");
}

}  // namespace
}  // namespace qnn::test
