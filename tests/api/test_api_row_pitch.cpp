// libQnnCpu.so lays a tensor between two FullyConnected nodes with rows 4 KiB apart (a
// transformer's FFN: 1024 x n wide) out with a padded row pitch, written so by its producer and read
// so by its reader (engine/pad_row_pitch.cpp). Seen from the API nothing may change: outputs equal
// the unfused graph's bit for bit (the op debug callback runs every node on its own, densely) and a
// double reference; with a folded Gelu, tensors of rank 3 (keep_dims), a chain whose middle product
// reads and writes padded rows, a producer that adds a residual (its rows stay dense), a middle
// tensor the client reads (not padded), a reader whose rows are not the tensor's (not padded), and
// weights updated after finalize (the plan rebuilt).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "tests/api/cpu_context_fixture.h"
#include "tests/api/cpu_fusion_checks.h"

namespace qnn::test {
namespace {

// x [m, widths[0]] -> FullyConnected -> [m, widths[1]] -> ... -> y [m, widths.back()]. After the
// first product: a Gelu (gelu) or an Add of a second input r (residual). rank3: every tensor
// [1, m, w] (keep_dims). midRead: the first product's output (after its Gelu or Add) is APP_READ
// too. updatable: the first weights are UPDATEABLE_STATIC.
struct Case {
  uint32_t m;
  std::vector<uint32_t> widths;
  bool gelu = false, residual = false, rank3 = false, midRead = false, updatable = false;
};

class RowPitch : public CpuContextTest {
 protected:
  void build(const Case& c) {
    c_ = c;
    const size_t layers = c.widths.size() - 1;
    xv = randomValues(size_t(c.m) * c.widths[0], 1);
    rv = randomValues(size_t(c.m) * c.widths[1], 2);
    wv.resize(layers), bv.resize(layers);
    for (size_t l = 0; l < layers; ++l) {
      wv[l] = randomValues(size_t(c.widths[l + 1]) * c.widths[l], 10 + unsigned(l));
      for (float& v : wv[l]) v *= 2.f / std::sqrt(float(c.widths[l]));  // sums of order 1 at every layer
      bv[l] = randomValues(c.widths[l + 1], 20 + unsigned(l));
    }
    ASSERT_EQ(api().graphCreate(ctx, "row_pitch", nullptr, &graph), QNN_SUCCESS);
    auto dims = [&](uint32_t w) { return c.rank3 ? std::vector<uint32_t>{1, c.m, w} : std::vector<uint32_t>{c.m, w}; };
    auto tensor = [&](std::string name, Qnn_TensorType_t type, std::vector<uint32_t> d, std::vector<float>* data) {
      specs.push_back(std::make_unique<TensorSpec>(name, type, QNN_DATATYPE_FLOAT_32, d, data ? data->data() : nullptr,
                                                   data ? uint32_t(data->size() * 4) : 0));
      add(graph, *specs.back());
      return specs.back().get();
    };
    x = tensor("x", QNN_TENSOR_TYPE_APP_WRITE, dims(c.widths[0]), nullptr);
    if (c.residual) r = tensor("r", QNN_TENSOR_TYPE_APP_WRITE, dims(c.widths[1]), nullptr);
    TensorSpec* in = x;
    for (size_t l = 0; l < layers; ++l) {
      const std::string n = std::to_string(l);
      const bool last = l + 1 == layers;
      const Qnn_TensorType_t wType = l == 0 && c.updatable ? QNN_TENSOR_TYPE_UPDATEABLE_STATIC : QNN_TENSOR_TYPE_STATIC;
      TensorSpec* w = tensor("w" + n, wType, {c.widths[l + 1], c.widths[l]}, &wv[l]);
      if (l == 0) w0 = w;
      TensorSpec* b = tensor("b" + n, QNN_TENSOR_TYPE_STATIC, {c.widths[l + 1]}, &bv[l]);
      const bool then = l == 0 && (c.gelu || c.residual);
      const Qnn_TensorType_t outType = last ? QNN_TENSOR_TYPE_APP_READ
                                       : l == 0 && c.midRead && !then ? QNN_TENSOR_TYPE_APP_READ
                                                                      : QNN_TENSOR_TYPE_NATIVE;
      TensorSpec* out = tensor("fc" + n, outType, dims(c.widths[l + 1]), nullptr);
      std::vector<Qnn_Param_t> params;
      if (c.rank3) params.push_back(boolParam("keep_dims", true));
      node(graph, ("fc" + n).c_str(), "FullyConnected", params, {in->tensor, w->tensor, b->tensor}, {out->tensor});
      if (then) {
        TensorSpec* after = tensor("after" + n, c.midRead ? QNN_TENSOR_TYPE_APP_READ : QNN_TENSOR_TYPE_NATIVE,
                                   dims(c.widths[1]), nullptr);
        if (c.gelu) node(graph, "gelu", "Gelu", {}, {out->tensor}, {after->tensor});
        else node(graph, "add", "ElementWiseAdd", {}, {out->tensor, r->tensor}, {after->tensor});
        out = after;
      }
      if (l == 0) mid = out;
      in = out;
    }
    y = in;
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }

  // y (and the first product's output when the client reads it).
  std::vector<float> run(std::vector<float>* midOut = nullptr) {
    std::vector<float> out(size_t(c_.m) * c_.widths.back(), -99.f);
    std::vector<Qnn_Tensor_t> ins{x->tensor};
    ins[0].v1.clientBuf = {xv.data(), uint32_t(xv.size() * 4)};
    if (r) {
      ins.push_back(r->tensor);
      ins[1].v1.clientBuf = {rv.data(), uint32_t(rv.size() * 4)};
    }
    std::vector<Qnn_Tensor_t> outs{y->tensor};
    outs[0].v1.clientBuf = {out.data(), uint32_t(out.size() * 4)};
    if (midOut) {
      midOut->assign(size_t(c_.m) * c_.widths[1], -99.f);
      outs.push_back(mid->tensor);
      outs[1].v1.clientBuf = {midOut->data(), uint32_t(midOut->size() * 4)};
    }
    EXPECT_EQ(api().graphExecute(graph, ins.data(), uint32_t(ins.size()), outs.data(), uint32_t(outs.size()),
                                 nullptr, nullptr),
              QNN_SUCCESS);
    return out;
  }

  // The graph in double: each layer from the one before, the first layer's output returned in *first.
  std::vector<double> reference(std::vector<double>* first) const {
    std::vector<double> a(xv.begin(), xv.end());
    for (size_t l = 0; l + 1 < c_.widths.size(); ++l) {
      const uint32_t k = c_.widths[l], n = c_.widths[l + 1];
      std::vector<double> next(size_t(c_.m) * n);
      for (uint32_t i = 0; i < c_.m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
          double acc = bv[l][j];
          for (uint32_t p = 0; p < k; ++p) acc += a[size_t(i) * k + p] * wv[l][size_t(j) * k + p];
          if (l == 0 && c_.gelu) acc = 0.5 * acc * (1 + std::erf(acc / std::sqrt(2.0)));
          if (l == 0 && c_.residual) acc += rv[size_t(i) * n + j];
          next[size_t(i) * n + j] = acc;
        }
      a = std::move(next);
      if (l == 0) *first = a;
    }
    return a;
  }

  // The outputs against the double reference.
  void checkValues(const std::vector<float>& out, const std::vector<float>* midOut) const {
    std::vector<double> first;
    const std::vector<double> want = reference(&first);
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_NEAR(out[i], want[i], 1e-4 * (1 + std::fabs(want[i]))) << "y [" << i << "]";
    if (!midOut) return;
    for (size_t i = 0; i < first.size(); ++i)
      ASSERT_NEAR((*midOut)[i], first[i], 1e-4 * (1 + std::fabs(first[i]))) << "mid [" << i << "]";
  }

  // Fused against the reference, then bit for bit against the unfused graph.
  void check() {
    std::vector<float> midOut;
    const std::vector<float> fused = run(c_.midRead ? &midOut : nullptr);
    checkValues(fused, c_.midRead ? &midOut : nullptr);
    checkUnfused(fused);
  }
  void checkUnfused(const std::vector<float>& fused) {
    std::vector<SeenOp> seen;
    recordEveryOp(api(), graph, &seen);
    std::vector<float> midOut;
    const std::vector<float> unfused = run(c_.midRead ? &midOut : nullptr);
    EXPECT_FALSE(seen.empty());
    for (size_t i = 0; i < fused.size(); ++i) ASSERT_EQ(fused[i], unfused[i]) << "[" << i << "]";
  }

  Case c_;
  Qnn_GraphHandle_t graph = nullptr;
  std::vector<float> xv, rv;
  std::vector<std::vector<float>> wv, bv;
  std::vector<std::unique_ptr<TensorSpec>> specs;
  TensorSpec *x = nullptr, *r = nullptr, *w0 = nullptr, *mid = nullptr, *y = nullptr;
};

// A transformer's FFN (fewer rows): the up projection with its Gelu folded writes padded rows.
TEST_F(RowPitch, FfnWithItsGelu) {
  build({100, {64, 1024, 48}, true});
  check();
}

TEST_F(RowPitch, RankThreeTensors) {
  build({37, {32, 2048, 40}, false, false, true});
  check();
}

// Both tensors 1024 wide: the middle product reads padded rows and writes padded rows.
TEST_F(RowPitch, AChainOfThreeProducts) {
  build({29, {16, 1024, 1024, 24}});
  check();
}

// 512 rows: both products take one level of Strassen (gemm::useStrassen), with the padded pitch.
TEST_F(RowPitch, OnStrassensPath) {
  build({512, {512, 1024, 512}, true});
  check();
}

// A producer adding a residual keeps dense rows (the residual is laid out as its output).
TEST_F(RowPitch, AProducerAddingAResidual) {
  build({20, {16, 1024, 32}, false, true});
  check();
}

TEST_F(RowPitch, AMiddleTensorTheClientReads) {
  build({20, {16, 1024, 32}, true, false, false, true});
  check();
}

// A column count that is not a multiple of 1024 stays as it was.
TEST_F(RowPitch, OtherWidths) {
  build({20, {16, 1000, 32}});
  check();
}

// The reader's weights 1024 wide under a 2048-wide tensor: it reads each row as two rows of its
// depth, which a pitch of the tensor's rows would not give; the tensor stays dense.
TEST_F(RowPitch, AReaderWhoseRowsAreNotTheTensorsRows) {
  const uint32_t m = 12, k = 16, wide = 2048, depth = 1024, n = 8;
  xv = randomValues(m * k, 1);
  std::vector<float> w0 = randomValues(wide * k, 2), b0 = randomValues(wide, 3);
  std::vector<float> w1 = randomValues(n * depth, 4), b1 = randomValues(n, 5);
  for (float& v : w1) v /= 32.f;
  ASSERT_EQ(api().graphCreate(ctx, "row_pitch_depth", nullptr, &graph), QNN_SUCCESS);
  TensorSpec xs("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {m, k});
  TensorSpec w0s("w0", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {wide, k}, w0.data(), uint32_t(w0.size() * 4));
  TensorSpec b0s("b0", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {wide}, b0.data(), uint32_t(b0.size() * 4));
  TensorSpec mids("mid", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {m, wide});
  TensorSpec w1s("w1", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {n, depth}, w1.data(), uint32_t(w1.size() * 4));
  TensorSpec b1s("b1", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {n}, b1.data(), uint32_t(b1.size() * 4));
  TensorSpec ys("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {2 * m, n});
  for (TensorSpec* t : {&xs, &w0s, &b0s, &mids, &w1s, &b1s, &ys}) add(graph, *t);
  node(graph, "fc0", "FullyConnected", {}, {xs.tensor, w0s.tensor, b0s.tensor}, {mids.tensor});
  node(graph, "fc1", "FullyConnected", {}, {mids.tensor, w1s.tensor, b1s.tensor}, {ys.tensor});
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  std::vector<float> y(2 * m * n, -99.f);
  Qnn_Tensor_t in = xs.tensor, out = ys.tensor;
  in.v1.clientBuf = {xv.data(), uint32_t(xv.size() * 4)};
  out.v1.clientBuf = {y.data(), uint32_t(y.size() * 4)};
  ASSERT_EQ(api().graphExecute(graph, &in, 1, &out, 1, nullptr, nullptr), QNN_SUCCESS);
  for (uint32_t i = 0; i < m; ++i) {
    std::vector<double> mid(wide);
    for (uint32_t c = 0; c < wide; ++c) {
      mid[c] = b0[c];
      for (uint32_t p = 0; p < k; ++p) mid[c] += double(xv[i * k + p]) * w0[c * k + p];
    }
    for (uint32_t h = 0; h < 2; ++h)
      for (uint32_t j = 0; j < n; ++j) {
        double want = b1[j];
        for (uint32_t p = 0; p < depth; ++p) want += mid[h * depth + p] * w1[j * depth + p];
        ASSERT_NEAR(y[(2 * i + h) * n + j], want, 1e-4 * (1 + std::fabs(want)))
            << "y [" << 2 * i + h << ", " << j << "]";
      }
  }
}

// New weights for the padded product (taking effect at the next finalize): the plan is rebuilt, padded
// again, and right.
TEST_F(RowPitch, WeightsUpdatedAfterFinalize) {
  build({30, {24, 1024, 16}, false, false, false, false, true});
  {
    SCOPED_TRACE("before the update");
    checkValues(run(), nullptr);
  }
  wv[0] = randomValues(wv[0].size(), 99);
  for (float& v : wv[0]) v *= 0.5f;
  std::vector<uint32_t> d = w0->dims;
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.id = w0->tensor.v1.id;
  t.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
  t.v1.dataType = QNN_DATATYPE_FLOAT_32;
  t.v1.rank = uint32_t(d.size());
  t.v1.dimensions = d.data();
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  t.v1.clientBuf = {wv[0].data(), uint32_t(wv[0].size() * 4)};
  const Qnn_Tensor_t* list[] = {&t};
  ASSERT_EQ(api().tensorUpdateGraphTensors(graph, list, 1), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);  // where updates take effect
  const std::vector<float> fused = run();
  checkValues(fused, nullptr);
  checkUnfused(fused);
}

}  // namespace
}  // namespace qnn::test
