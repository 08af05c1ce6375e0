// libQnnCpu.so folds the Transposes around attention's products into the MatMuls: Q and V (and K
// when MatMul's transpose_in1 transposes it) are read in place from the projections' [B, S, H, D]
// layout and P x V is written in place into it (fold_transpose_matmul.cpp). Seen from the API
// nothing may change: outputs equal the unfused graph's bit for bit (the op debug callback runs
// every node on its own) and a double reference; heads parallel across products or one product at
// a time; K's split to [B, H, D, S], a Transpose the client also reads, and a merge the product
// cannot write stay Transposes; profiling lists every node.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/api/cpu_context_fixture.h"
#include "tests/api/cpu_fusion_checks.h"

namespace qnn::test {
namespace {

// q, k, v [B, S, H, D] -> per head softmax(Q K^T) V -> y [B, S, H, D].
struct Case {
  uint32_t b, s, h, d;
  bool kByParam = false;     // K split like Q and V, transposed by MatMul's transpose_in1
  bool clientReadsQ = false;  // Q's Transpose output is APP_READ too
  bool outputAsHeads = false;  // the result's Transpose gives [B, S, D, H] (columns not contiguous)
};

class TransposeMatMulFusion : public CpuContextTest {
 protected:
  void build(const Case& c) {
    c_ = c;
    const size_t n = size_t(c.b) * c.s * c.h * c.d;
    qv = randomValues(n, 11), kv = randomValues(n, 12), vv = randomValues(n, 13);
    ASSERT_EQ(api().graphCreate(ctx, "attention", nullptr, &graph), QNN_SUCCESS);
    const auto f32 = QNN_DATATYPE_FLOAT_32;
    const std::vector<uint32_t> bshd{c.b, c.s, c.h, c.d}, bhsd{c.b, c.h, c.s, c.d};
    specs.emplace_back("q_in", QNN_TENSOR_TYPE_APP_WRITE, f32, bshd);
    specs.emplace_back("k_in", QNN_TENSOR_TYPE_APP_WRITE, f32, bshd);
    specs.emplace_back("v_in", QNN_TENSOR_TYPE_APP_WRITE, f32, bshd);
    specs.emplace_back("q", c.clientReadsQ ? QNN_TENSOR_TYPE_APP_READ : QNN_TENSOR_TYPE_NATIVE, f32, bhsd);
    specs.emplace_back("k", QNN_TENSOR_TYPE_NATIVE, f32,
                       c.kByParam ? bhsd : std::vector<uint32_t>{c.b, c.h, c.d, c.s});
    specs.emplace_back("v", QNN_TENSOR_TYPE_NATIVE, f32, bhsd);
    specs.emplace_back("scores", QNN_TENSOR_TYPE_NATIVE, f32, std::vector<uint32_t>{c.b, c.h, c.s, c.s});
    specs.emplace_back("p", QNN_TENSOR_TYPE_NATIVE, f32, std::vector<uint32_t>{c.b, c.h, c.s, c.s});
    specs.emplace_back("o", QNN_TENSOR_TYPE_NATIVE, f32, bhsd);
    specs.emplace_back("y", QNN_TENSOR_TYPE_APP_READ, f32,
                       c.outputAsHeads ? std::vector<uint32_t>{c.b, c.s, c.d, c.h} : bshd);
    for (TensorSpec& t : specs) add(graph, t);
    static const uint32_t split[] = {0, 2, 1, 3}, splitT[] = {0, 2, 3, 1}, heads[] = {0, 2, 3, 1};
    auto perm = [&](const char* name, const uint32_t* p) {
      perms.emplace_back(name, QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, std::vector<uint32_t>{4},
                         const_cast<uint32_t*>(p), 16);
      return tensorParam("perm", perms.back());
    };
    perms.reserve(4);
    node(graph, "q_split", "Transpose", {perm("q_perm", split)}, {at("q_in")}, {at("q")});
    node(graph, "k_split", "Transpose", {perm("k_perm", c.kByParam ? split : splitT)}, {at("k_in")}, {at("k")});
    node(graph, "v_split", "Transpose", {perm("v_perm", split)}, {at("v_in")}, {at("v")});
    std::vector<Qnn_Param_t> scoreParams;
    if (c.kByParam) scoreParams.push_back(boolParam("transpose_in1", true));
    node(graph, "qk", "MatMul", scoreParams, {at("q"), at("k")}, {at("scores")});
    node(graph, "softmax", "Softmax", {}, {at("scores")}, {at("p")});
    node(graph, "pv", "MatMul", {}, {at("p"), at("v")}, {at("o")});
    node(graph, "merge", "Transpose", {perm("o_perm", c.outputAsHeads ? heads : split)}, {at("o")}, {at("y")});
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }
  Qnn_Tensor_t at(const std::string& name) {
    for (TensorSpec& t : specs)
      if (t.name == name) return t.tensor;
    ADD_FAILURE() << name;
    return {};
  }
  std::vector<float> run(Qnn_ProfileHandle_t profile = nullptr, std::vector<float>* qOut = nullptr) {
    std::vector<float> y(qv.size(), -99.f);
    std::vector<Qnn_Tensor_t> ins{at("q_in"), at("k_in"), at("v_in")};
    ins[0].v1.clientBuf = {qv.data(), uint32_t(qv.size() * 4)};
    ins[1].v1.clientBuf = {kv.data(), uint32_t(kv.size() * 4)};
    ins[2].v1.clientBuf = {vv.data(), uint32_t(vv.size() * 4)};
    std::vector<Qnn_Tensor_t> outs{at("y")};
    outs[0].v1.clientBuf = {y.data(), uint32_t(y.size() * 4)};
    if (qOut) {
      qOut->assign(qv.size(), -99.f);
      outs.push_back(at("q"));
      outs[1].v1.clientBuf = {qOut->data(), uint32_t(qOut->size() * 4)};
    }
    EXPECT_EQ(api().graphExecute(graph, ins.data(), 3, outs.data(), uint32_t(outs.size()), profile, nullptr),
              QNN_SUCCESS);
    return y;
  }
  // y in double, at y's own index.
  std::vector<double> reference() const {
    const Case& c = c_;
    auto in = [&](const std::vector<float>& t, uint32_t b, uint32_t s, uint32_t h, uint32_t d) {
      return double(t[((size_t(b) * c.s + s) * c.h + h) * c.d + d]);
    };
    std::vector<double> y(qv.size());
    for (uint32_t b = 0; b < c.b; ++b)
      for (uint32_t h = 0; h < c.h; ++h)
        for (uint32_t i = 0; i < c.s; ++i) {
          std::vector<double> p(c.s);
          double max = -1e300, sum = 0;
          for (uint32_t j = 0; j < c.s; ++j) {
            for (uint32_t d = 0; d < c.d; ++d) p[j] += in(qv, b, i, h, d) * in(kv, b, j, h, d);
            max = std::max(max, p[j]);
          }
          for (double& e : p) sum += (e = std::exp(e - max));
          for (uint32_t d = 0; d < c.d; ++d) {
            double acc = 0;
            for (uint32_t j = 0; j < c.s; ++j) acc += p[j] / sum * in(vv, b, j, h, d);
            const size_t at = c.outputAsHeads ? ((size_t(b) * c.s + i) * c.d + d) * c.h + h
                                              : ((size_t(b) * c.s + i) * c.h + h) * c.d + d;
            y[at] = acc;
          }
        }
    return y;
  }
  void check() {
    std::vector<float> qOut;
    const std::vector<float> fused = run(nullptr, c_.clientReadsQ ? &qOut : nullptr);
    const std::vector<double> want = reference();
    for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(fused[i], want[i], 2e-5) << "y[" << i << "]";
    if (c_.clientReadsQ) {
      for (uint32_t b = 0; b < c_.b; ++b)
        for (uint32_t s = 0; s < c_.s; ++s)
          for (uint32_t h = 0; h < c_.h; ++h)
            for (uint32_t d = 0; d < c_.d; ++d)
              ASSERT_EQ(qOut[((size_t(b) * c_.h + h) * c_.s + s) * c_.d + d],
                        qv[((size_t(b) * c_.s + s) * c_.h + h) * c_.d + d]);
    }
    std::vector<SeenOp> seen;
    recordEveryOp(api(), graph, &seen);
    std::vector<float> qUnfused;
    const std::vector<float> unfused = run(nullptr, c_.clientReadsQ ? &qUnfused : nullptr);
    ASSERT_EQ(seen.size(), 7u);
    for (size_t i = 0; i < fused.size(); ++i) ASSERT_EQ(fused[i], unfused[i]) << "y[" << i << "]";
  }

  Case c_;
  Qnn_GraphHandle_t graph = nullptr;
  std::vector<float> qv, kv, vv;
  std::vector<TensorSpec> specs, perms;
};

// Six heads: the products run in parallel, one per head; K split to [B, H, D, S] by its Transpose.
TEST_F(TransposeMatMulFusion, HeadsSplitAndMergedInPlace) {
  build({2, 24, 3, 16});
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  run(profile);
  const std::vector<std::string> events = profiledNodes(api(), profile);
  for (std::string name : {"q_split (Transpose)", "k_split (Transpose)", "v_split (Transpose)", "qk (MatMul)",
                           "softmax (Softmax)", "pv (MatMul)", "merge (Transpose)"})
    EXPECT_NE(std::find(events.begin(), events.end(), name), events.end()) << name;
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
  check();
}

TEST_F(TransposeMatMulFusion, KTransposedByTheMatMul) {
  build({2, 24, 3, 16, true});
  check();
}

// Two heads: one product at a time, split over the threads; sequence and head sizes off the tiles.
TEST_F(TransposeMatMulFusion, TwoHeadsOfOddSizes) {
  build({1, 37, 2, 20});
  check();
}

TEST_F(TransposeMatMulFusion, ATransposeTheClientAlsoReadsStays) {
  build({1, 16, 4, 8, false, true});
  check();
}

// The merge to [B, S, D, H] leaves the product's columns H apart: not a layout MatMul writes.
TEST_F(TransposeMatMulFusion, AMergeTheProductCannotWriteStays) {
  build({1, 16, 4, 8, false, false, true});
  check();
}

}  // namespace
}  // namespace qnn::test
