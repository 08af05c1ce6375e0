// libQnnCpu.so folds a Gelu that alone reads a FullyConnected or MatMul output into the product
// (a transformer's FFN up projection). Seen from the API nothing may change: outputs equal the
// unfused graph's bit for bit (the op debug callback runs every node on its own) and the math
// (references in double); the paths of the products (row blocks and column tiles, rows paired for
// 24 columns, a right-hand side read in place, threads); a product the client also reads, and a
// Gelu followed by a Relu, stay right; profiling lists both nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/api/cpu_context_fixture.h"
#include "tests/api/cpu_fusion_checks.h"

namespace qnn::test {
namespace {

double gelu(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

// x [m, k] -> FullyConnected (W [n, k], b [n]) or MatMul (x times B [k, n], B static or a second
// input) -> mid -> Gelu -> y [m, n] (then Relu -> z when withRelu). keepMid: mid is APP_READ.
struct Case {
  const char* op;
  uint32_t m, k, n;
  bool dynamicB = false, keepMid = false, withRelu = false;
};

class GeluFusion : public CpuContextTest {
 protected:
  void build(const Case& c) {
    c_ = c;
    xv = randomValues(c.m * c.k, 1 + c.n);
    wv = randomValues(c.k * c.n, 2 + c.n);
    bv = randomValues(c.n, 3 + c.n);
    for (float& v : xv) v *= 2.f;  // sums over k of several units: Gelu's curved part and both tails
    ASSERT_EQ(api().graphCreate(ctx, (std::string("gelu_") + c.op + std::to_string(c.n)).c_str(), nullptr, &graph),
              QNN_SUCCESS);
    const bool fc = std::string(c.op) == "FullyConnected";
    x = std::make_unique<TensorSpec>("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32,
                                     std::vector<uint32_t>{c.m, c.k});
    w = c.dynamicB ? std::make_unique<TensorSpec>("w", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32,
                                                  std::vector<uint32_t>{c.k, c.n})
                   : std::make_unique<TensorSpec>("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32,
                                                  fc ? std::vector<uint32_t>{c.n, c.k} : std::vector<uint32_t>{c.k, c.n},
                                                  wv.data(), uint32_t(wv.size() * 4));
    b = std::make_unique<TensorSpec>("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{c.n},
                                     bv.data(), uint32_t(bv.size() * 4));
    mid = std::make_unique<TensorSpec>("mid", c.keepMid ? QNN_TENSOR_TYPE_APP_READ : QNN_TENSOR_TYPE_NATIVE,
                                       QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{c.m, c.n});
    y = std::make_unique<TensorSpec>("y", c.withRelu ? QNN_TENSOR_TYPE_NATIVE : QNN_TENSOR_TYPE_APP_READ,
                                     QNN_DATATYPE_FLOAT_32, std::vector<uint32_t>{c.m, c.n});
    z = std::make_unique<TensorSpec>("z", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32,
                                     std::vector<uint32_t>{c.m, c.n});
    for (TensorSpec* t : {x.get(), w.get(), b.get(), mid.get(), y.get()}) add(graph, *t);
    if (c.withRelu) add(graph, *z);
    std::vector<Qnn_Tensor_t> ins{x->tensor, w->tensor};
    if (fc) ins.push_back(b->tensor);
    node(graph, "product", c.op, {}, ins, {mid->tensor});
    node(graph, "gelu", "Gelu", {}, {mid->tensor}, {y->tensor});
    if (c.withRelu) node(graph, "relu", "Relu", {}, {y->tensor}, {z->tensor});
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }
  // The graph's final output (and mid when the client reads it).
  std::vector<float> run(std::vector<float>* midOut = nullptr, Qnn_ProfileHandle_t profile = nullptr) {
    std::vector<float> out(size_t(c_.m) * c_.n, -99.f);
    std::vector<Qnn_Tensor_t> ins{x->tensor};
    ins[0].v1.clientBuf = {xv.data(), uint32_t(xv.size() * 4)};
    if (c_.dynamicB) {
      ins.push_back(w->tensor);
      ins[1].v1.clientBuf = {wv.data(), uint32_t(wv.size() * 4)};
    }
    std::vector<Qnn_Tensor_t> outs{(c_.withRelu ? z : y)->tensor};
    outs[0].v1.clientBuf = {out.data(), uint32_t(out.size() * 4)};
    if (midOut) {
      midOut->assign(out.size(), -99.f);
      outs.push_back(mid->tensor);
      outs[1].v1.clientBuf = {midOut->data(), uint32_t(out.size() * 4)};
    }
    EXPECT_EQ(api().graphExecute(graph, ins.data(), uint32_t(ins.size()), outs.data(), uint32_t(outs.size()), profile,
                                 nullptr),
              QNN_SUCCESS);
    return out;
  }
  // The product in double (FullyConnected's W is [n, k], MatMul's B [k, n]), its bias for the former;
  // and per element the sum of its terms' magnitudes (what float rounding scales with).
  std::vector<double> product(std::vector<double>* magnitude) const {
    const bool fc = std::string(c_.op) == "FullyConnected";
    std::vector<double> p(size_t(c_.m) * c_.n);
    magnitude->assign(p.size(), 0.0);
    for (uint32_t i = 0; i < c_.m; ++i)
      for (uint32_t j = 0; j < c_.n; ++j) {
        double acc = fc ? bv[j] : 0.0, abs = std::fabs(acc);
        for (uint32_t k = 0; k < c_.k; ++k) {
          const double term = double(xv[i * c_.k + k]) * (fc ? wv[j * c_.k + k] : wv[k * c_.n + j]);
          acc += term, abs += std::fabs(term);
        }
        p[i * c_.n + j] = acc, (*magnitude)[i * c_.n + j] = abs;
      }
    return p;
  }
  // Runs the case: against the double reference, then bit for bit against the unfused graph.
  void check() {
    std::vector<float> midOut;
    const std::vector<float> fused = run(c_.keepMid ? &midOut : nullptr);
    std::vector<double> magnitude;
    const std::vector<double> p = product(&magnitude);
    for (size_t i = 0; i < p.size(); ++i) {
      // Float sums (Strassen's included) within 1e-6 of the terms' magnitudes; Gelu's slope is at most 1.13.
      const double tol = 1.2e-6 * magnitude[i] + 1e-6 * (1 + std::fabs(p[i]));
      const double want = c_.withRelu ? std::max(0.0, gelu(p[i])) : gelu(p[i]);
      ASSERT_NEAR(fused[i], want, tol) << c_.op << " n " << c_.n << " [" << i << "]";
      if (c_.keepMid) {
        ASSERT_NEAR(midOut[i], p[i], tol) << "mid [" << i << "]";
      }
    }
    std::vector<SeenOp> seen;
    recordEveryOp(api(), graph, &seen);
    std::vector<float> midUnfused;
    const std::vector<float> unfused = run(c_.keepMid ? &midUnfused : nullptr);
    ASSERT_EQ(seen.size(), c_.withRelu ? 3u : 2u);
    EXPECT_EQ(seen[1].name, "gelu");
    for (size_t i = 0; i < fused.size(); ++i) ASSERT_EQ(fused[i], unfused[i]) << c_.op << " n " << c_.n << " [" << i << "]";
  }

  Case c_;
  Qnn_GraphHandle_t graph = nullptr;
  std::vector<float> xv, wv, bv;
  std::unique_ptr<TensorSpec> x, w, b, mid, y, z;
};

// The FFN's shape (fewer rows): two row blocks, column tiles of panel pairs, a ragged last panel.
TEST_F(GeluFusion, FullyConnectedGivesTheGeluOpsValues) {
  build({"FullyConnected", 100, 64, 200});
  Qnn_ProfileHandle_t profile = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile), QNN_SUCCESS);
  run(nullptr, profile);
  const std::vector<std::string> events = profiledNodes(api(), profile);
  for (std::string name : {"product (FullyConnected)", "gelu (Gelu)"})
    EXPECT_NE(std::find(events.begin(), events.end(), name), events.end()) << name;
  EXPECT_EQ(api().profileFree(profile), QNN_SUCCESS);
  check();
}

TEST_F(GeluFusion, TwentyFourColumnsInPairedRows) {
  build({"FullyConnected", 33, 40, 24});
  check();
}

TEST_F(GeluFusion, MatMulWithAStaticRightHandSide) {
  build({"MatMul", 70, 48, 64});
  check();
}

TEST_F(GeluFusion, MatMulReadingItsRightHandSideInPlace) {
  build({"MatMul", 50, 32, 48, true});
  check();
}

// 512 x 512 x 512 takes one level of Strassen (gemm::useStrassen), which leaves the Gelu to a pass
// after the product (as the AMX products do: ctest api_tests_gelu_amx runs this suite with them).
TEST_F(GeluFusion, FullyConnectedOnStrassensPath) {
  build({"FullyConnected", 512, 512, 512});
  check();
}

TEST_F(GeluFusion, AProductTheClientAlsoReadsIsNotFolded) {
  build({"FullyConnected", 20, 16, 32, false, true});
  check();
}

TEST_F(GeluFusion, AGeluFollowedByARelu) {
  build({"FullyConnected", 20, 16, 32, false, false, true});
  check();
}

}  // namespace
}  // namespace qnn::test
