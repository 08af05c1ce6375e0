// Rank-5 graphs on the HTP as ONNX Runtime's QNN EP builds them for 3-D
// convolutions, pooling, Pad and ReduceSum on a quantized model: the float graph
// input is quantized on the HTP, the 5-D op runs, the result is dequantized. Each
// output is checked against a reference of the fixed-point rule written here
// (docs/htp-fixed-point.md) and against the real-valued result it approximates.
// Rank 6 stays refused (the EP's ReduceSumS8Opset13_Rank6_Unsupported expects it).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>

#include "tests/htp/htp_test_util.h"

namespace qnn::test {
namespace {

struct Encoding {
  Qnn_DataType_t dtype;
  float scale;
  int32_t offset;  // QNN convention: real = scale * (q + offset)
  int32_t lo() const { return dtype == QNN_DATATYPE_SFIXED_POINT_8 ? -128 : 0; }
  int32_t hi() const {
    return dtype == QNN_DATATYPE_SFIXED_POINT_8 ? 127 : dtype == QNN_DATATYPE_UFIXED_POINT_16 ? 65535 : 255;
  }
};

// quantize(x) = saturate(nearbyint(x / s) - offset), the quotient in float32, ties to even.
int32_t quantizeRef(float x, const Encoding& e) {
  const float quotient = x / e.scale;
  const int64_t q = int64_t(std::nearbyint(quotient)) - e.offset;
  return int32_t(std::clamp<int64_t>(q, e.lo(), e.hi()));
}
float dequantizeRef(int32_t q, const Encoding& e) { return e.scale * float(q + e.offset); }
int32_t requantizeTo(int64_t acc, double multiplier, const Encoding& out) {
  return int32_t(std::clamp<int64_t>(requantizeRef(acc, multiplier) - out.offset, out.lo(), out.hi()));
}

size_t count(const std::vector<uint32_t>& dims) {
  return std::accumulate(dims.begin(), dims.end(), size_t(1), std::multiplies<size_t>());
}

std::vector<float> ramp(size_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * float(i) / float(n > 1 ? n - 1 : 1);
  return v;
}

// One graph: float x -> Quantize -> ops -> Dequantize -> float y.
class Rank5Graph : public HtpTest {
 protected:
  void SetUp() override {
    HtpTest::SetUp();
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    ASSERT_EQ(api().graphCreate(ctx, "rank5", nullptr, &graph), QNN_SUCCESS);
  }
  void TearDown() override {
    if (ctx) {
      EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    }
    HtpTest::TearDown();
  }

  Qnn_Tensor_t add(TensorSpec* t) {
    EXPECT_EQ(api().tensorCreateGraphTensor(graph, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
    return t->tensor;
  }
  Qnn_ErrorHandle_t node(const char* name, const char* type, std::vector<Qnn_Tensor_t> ins, Qnn_Tensor_t out,
                         std::vector<Qnn_Param_t> params = {}) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", type, uint32_t(params.size()), params.data(), uint32_t(ins.size()), ins.data(), 1, &out};
    return api().graphAddNode(graph, op);
  }
  // Finalizes and runs the graph from x (float, xDims) to y (float, yDims).
  std::vector<float> run(const Qnn_Tensor_t& x, const Qnn_Tensor_t& y, std::vector<float> input) {
    EXPECT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
    std::vector<float> out(count(std::vector<uint32_t>(y.v1.dimensions, y.v1.dimensions + y.v1.rank)), -99.f);
    Qnn_Tensor_t in = x, res = y;
    in.v1.clientBuf = {input.data(), uint32_t(input.size() * sizeof(float))};
    res.v1.clientBuf = {out.data(), uint32_t(out.size() * sizeof(float))};
    EXPECT_EQ(api().graphExecute(graph, &in, 1, &res, 1, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
    return out;
  }

  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
};

// ONNX Runtime's Pad5d: float 5-D input quantized on the HTP, padded with a real constant, dequantized.
TEST_F(Rank5Graph, QuantizePadDequantize) {
  const Encoding e{QNN_DATATYPE_UFIXED_POINT_8, 10.f / 255.f, 0};
  const std::vector<uint32_t> inDims{1, 2, 2, 2, 2}, outDims{1, 2, 3, 3, 4};
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, inDims);
  QuantSpec xq("xq", QNN_TENSOR_TYPE_NATIVE, e.dtype, inDims, e.scale, e.offset);
  QuantSpec pq("pq", QNN_TENSOR_TYPE_NATIVE, e.dtype, outDims, e.scale, e.offset);
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, outDims);
  uint32_t padData[] = {0, 0, 0, 0, 1, 0, 0, 1, 1, 1};
  TensorSpec pad("pad_amount", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {5, 2}, padData, sizeof padData);
  const Qnn_Tensor_t tx = add(&x), txq = add(&xq), tpq = add(&pq), ty = add(&y);
  const float padValue = 1.5f;
  ASSERT_EQ(node("q", "Quantize", {tx}, txq), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(node("pad", "Pad", {txq}, tpq,
                 {u32Param("scheme", 0), tensorParam("pad_amount", pad), f32Param("pad_constant_value", padValue)}),
            QNN_SUCCESS)
      << LogCapture::take();
  ASSERT_EQ(node("dq", "Dequantize", {tpq}, ty), QNN_SUCCESS) << LogCapture::take();
  const std::vector<float> input = ramp(count(inDims), 1.f, 10.f);
  const std::vector<float> got = run(tx, ty, input);
  ASSERT_EQ(got.size(), count(outDims));
  size_t i = 0;
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t d = 0; d < 3; ++d)
      for (uint32_t h = 0; h < 3; ++h)
        for (uint32_t w = 0; w < 4; ++w, ++i) {
          const int id = int(d) - 1, ih = int(h), iw = int(w) - 1;  // before-padding 1 on D and W, after 1 on H and W
          const bool inside = id >= 0 && id < 2 && ih < 2 && iw >= 0 && iw < 2;
          const float real = inside ? input[((c * 2 + id) * 2 + ih) * 2 + iw] : padValue;
          const float want = dequantizeRef(quantizeRef(real, e), e);
          EXPECT_EQ(got[i], want) << "at " << i;
          EXPECT_LE(std::fabs(got[i] - real), e.scale / 2 + 1e-6f) << "at " << i;
        }
}

// ONNX Runtime's ReduceSumS8Opset13_Rank5 (all five axes, keep_dims) and
// ReduceSumU8Opset13_Rank5_LastAxis (last axis, dims dropped).
TEST_F(Rank5Graph, QuantizeReduceSumDequantize) {
  struct Case {
    Encoding in, out;
    std::vector<uint32_t> dims;
    std::vector<uint32_t> axes;
    bool keepDims;
    float lo, hi;
  };
  const Case cases[] = {
      {{QNN_DATATYPE_SFIXED_POINT_8, 21.f / 255.f, 0}, {QNN_DATATYPE_SFIXED_POINT_8, 0.5f, 0}, {1, 3, 4, 4, 2},
       {0, 1, 2, 3, 4}, true, -10.f, 10.f},
      {{QNN_DATATYPE_UFIXED_POINT_8, 200.f / 255.f, -128}, {QNN_DATATYPE_UFIXED_POINT_8, 820.f / 255.f, -128},
       {2, 3, 5, 2, 4}, {4}, false, -100.f, 100.f},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.axes.size());
    if (&k != cases) {
      ASSERT_EQ(api().graphCreate(ctx, "rank5_last_axis", nullptr, &graph), QNN_SUCCESS);
    }
    std::vector<uint32_t> outDims;
    for (uint32_t d = 0; d < 5; ++d) {
      const bool reduced = std::find(k.axes.begin(), k.axes.end(), d) != k.axes.end();
      if (!reduced || k.keepDims) outDims.push_back(reduced ? 1 : k.dims[d]);
    }
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, k.dims);
    QuantSpec xq("xq", QNN_TENSOR_TYPE_NATIVE, k.in.dtype, k.dims, k.in.scale, k.in.offset);
    QuantSpec sq("sq", QNN_TENSOR_TYPE_NATIVE, k.out.dtype, outDims, k.out.scale, k.out.offset);
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, outDims);
    std::vector<uint32_t> axesData(k.axes);
    TensorSpec axes("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {uint32_t(axesData.size())}, axesData.data(),
                    uint32_t(axesData.size() * 4));
    const Qnn_Tensor_t tx = add(&x), txq = add(&xq), tsq = add(&sq), ty = add(&y);
    ASSERT_EQ(node("q", "Quantize", {tx}, txq), QNN_SUCCESS) << LogCapture::take();
    ASSERT_EQ(node("sum", "ReduceSum", {txq}, tsq, {tensorParam("axes", axes), boolParam("keep_dims", k.keepDims)}),
              QNN_SUCCESS)
        << LogCapture::take();
    ASSERT_EQ(node("dq", "Dequantize", {tsq}, ty), QNN_SUCCESS) << LogCapture::take();
    const std::vector<float> input = ramp(count(k.dims), k.lo, k.hi);
    const std::vector<float> got = run(tx, ty, input);
    // Reference: group the input's elements by their output position.
    std::vector<int64_t> acc(count(outDims), 0);
    std::vector<double> real(count(outDims), 0.0);
    std::vector<uint32_t> idx(5, 0);
    for (size_t i = 0; i < input.size(); ++i) {
      size_t o = 0;
      for (uint32_t d = 0; d < 5; ++d) {
        const bool reduced = std::find(k.axes.begin(), k.axes.end(), d) != k.axes.end();
        o = reduced ? o : o * k.dims[d] + idx[d];
      }
      const int32_t q = quantizeRef(input[i], k.in);
      acc[o] += q + k.in.offset;
      real[o] += input[i];
      for (int d = 4; d >= 0 && ++idx[d] == k.dims[d]; --d) idx[d] = 0;
    }
    ASSERT_EQ(got.size(), acc.size());
    for (size_t o = 0; o < acc.size(); ++o) {
      const float want = dequantizeRef(requantizeTo(acc[o], double(k.in.scale) / double(k.out.scale), k.out), k.out);
      EXPECT_EQ(got[o], want) << "at " << o;
      // Within half an output step plus the input's rounding (half a step per summed element).
      const double slack = k.out.scale / 2.0 + k.in.scale / 2.0 * double(input.size() / acc.size()) + 1e-5;
      EXPECT_LE(std::fabs(double(got[o]) - real[o]), slack) << "at " << o;
    }
  }
}

// ONNX Runtime's ReduceSumOpset11_5D_FP32_as_FP16: a float 5-D ReduceSum over the last axis in fp16 mode.
TEST_F(Rank5Graph, FloatReduceSumInFp16) {
  ASSERT_EQ(makeGraph(ctx, "rank5_fp16", {precisionConfig(QNN_PRECISION_FLOAT16)}, &graph), QNN_SUCCESS);
  const std::vector<uint32_t> dims{1, 12, 9, 2, 4}, outDims{1, 12, 9, 2};
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, dims);
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, outDims);
  uint32_t axis = 4;
  TensorSpec axes("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {1}, &axis, 4);
  const Qnn_Tensor_t tx = add(&x), ty = add(&y);
  ASSERT_EQ(node("sum", "ReduceSum", {tx}, ty, {tensorParam("axes", axes), boolParam("keep_dims", false)}), QNN_SUCCESS)
      << LogCapture::take();
  std::vector<float> input = ramp(count(dims), -10.f, 10.f);
  std::reverse(input.begin(), input.begin() + input.size() / 2);
  const std::vector<float> got = run(tx, ty, input);
  ASSERT_EQ(got.size(), count(outDims));
  for (size_t o = 0; o < got.size(); ++o) {
    double want = 0, magnitude = 0;
    for (size_t k = 0; k < 4; ++k) want += input[o * 4 + k], magnitude += std::fabs(input[o * 4 + k]);
    // fp16: each input, partial sum and the result rounded to 11 significant bits.
    EXPECT_NEAR(got[o], want, std::ldexp(magnitude + std::fabs(want), -10)) << "at " << o;
  }
}

// ONNX Runtime's AveragePool_3D_u8 after its layout transformation: NCDHW input
// quantized, transposed to NDHWC, PoolAvg3d, transposed back, dequantized.
TEST_F(Rank5Graph, QuantizeTransposePoolAvg3dDequantize) {
  const Encoding e{QNN_DATATYPE_UFIXED_POINT_8, 20.f / 255.f, -128}, eo{QNN_DATATYPE_UFIXED_POINT_8, 0.08f, -128};
  const uint32_t C = 2, D = 4;  // input 1 x C x D x D x D; filter 2, stride 2 -> 2 x 2 x 2
  const std::vector<uint32_t> ncdhw{1, C, D, D, D}, ndhwc{1, D, D, D, C}, outNdhwc{1, 2, 2, 2, C}, outNcdhw{1, C, 2, 2, 2};
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, ncdhw);
  QuantSpec xq("xq", QNN_TENSOR_TYPE_NATIVE, e.dtype, ncdhw, e.scale, e.offset);
  QuantSpec xt("xt", QNN_TENSOR_TYPE_NATIVE, e.dtype, ndhwc, e.scale, e.offset);
  QuantSpec pooled("pooled", QNN_TENSOR_TYPE_NATIVE, eo.dtype, outNdhwc, eo.scale, eo.offset);
  QuantSpec back("back", QNN_TENSOR_TYPE_NATIVE, eo.dtype, outNcdhw, eo.scale, eo.offset);
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, outNcdhw);
  uint32_t toLast[] = {0, 2, 3, 4, 1}, toFirst[] = {0, 4, 1, 2, 3};
  TensorSpec perm1("perm", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {5}, toLast, sizeof toLast);
  TensorSpec perm2("perm", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {5}, toFirst, sizeof toFirst);
  uint32_t two[] = {2, 2, 2}, zeros[] = {0, 0, 0, 0, 0, 0};
  TensorSpec filter("filter_size", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {3}, two, sizeof two);
  TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {3}, two, sizeof two);
  TensorSpec pad("pad_amount", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {3, 2}, zeros, sizeof zeros);
  const Qnn_Tensor_t tx = add(&x), txq = add(&xq), txt = add(&xt), tp = add(&pooled), tb = add(&back), ty = add(&y);
  ASSERT_EQ(node("q", "Quantize", {tx}, txq), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(node("t1", "Transpose", {txq}, txt, {tensorParam("perm", perm1)}), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(node("pool", "PoolAvg3d", {txt}, tp,
                 {tensorParam("filter_size", filter), tensorParam("stride", stride), tensorParam("pad_amount", pad)}),
            QNN_SUCCESS)
      << LogCapture::take();
  ASSERT_EQ(node("t2", "Transpose", {tp}, tb, {tensorParam("perm", perm2)}), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(node("dq", "Dequantize", {tb}, ty), QNN_SUCCESS) << LogCapture::take();
  std::vector<float> input = ramp(count(ncdhw), -10.f, 10.f);
  std::reverse(input.begin() + input.size() / 3, input.end());  // not monotonic along any axis
  const std::vector<float> got = run(tx, ty, input);
  ASSERT_EQ(got.size(), count(outNcdhw));
  auto at = [&](uint32_t c, uint32_t d, uint32_t h, uint32_t w) { return input[((c * D + d) * D + h) * D + w]; };
  size_t i = 0;
  for (uint32_t c = 0; c < C; ++c)
    for (uint32_t od = 0; od < 2; ++od)
      for (uint32_t oh = 0; oh < 2; ++oh)
        for (uint32_t ow = 0; ow < 2; ++ow, ++i) {
          int64_t s = 0;
          double real = 0;
          for (uint32_t k = 0; k < 8; ++k) {
            const float v = at(c, 2 * od + (k >> 2), 2 * oh + ((k >> 1) & 1), 2 * ow + (k & 1));
            s += quantizeRef(v, e) + e.offset;
            real += v / 8.0;
          }
          const float want = dequantizeRef(requantizeTo(s, double(e.scale) / (double(eo.scale) * 8), eo), eo);
          EXPECT_EQ(got[i], want) << "at " << i;
          EXPECT_LE(std::fabs(double(got[i]) - real), eo.scale / 2.0 + e.scale / 2.0 + 1e-5) << "at " << i;
        }
}

// ONNX Runtime's Conv3D_U16S8S32_PerChannel after its layout transformation: NCDHW float input
// quantized to 16 bits, transposed to NDHWC, Conv3d with per-channel 8-bit weights ([kd, kh, kw,
// in, out]) and a 32-bit bias, transposed back, dequantized.
TEST_F(Rank5Graph, QuantizeConv3dPerChannel16BitDequantize) {
  const Encoding ex{QNN_DATATYPE_UFIXED_POINT_16, 20.f / 65535.f, -32768}, ey{QNN_DATATYPE_UFIXED_POINT_16, 0.002f, -32768};
  const uint32_t C = 2, D = 4, K = 2, O = 3, Do = D - K + 1;  // stride 1, no padding
  const float sw[O] = {0.02f, 0.035f, 0.01f};
  const std::vector<uint32_t> ncdhw{1, C, D, D, D}, ndhwc{1, D, D, D, C}, outNdhwc{1, Do, Do, Do, O},
      outNcdhw{1, O, Do, Do, Do};
  std::vector<int8_t> w(K * K * K * C * O);
  for (size_t i = 0; i < w.size(); ++i) w[i] = int8_t(int(i * 37 % 255) - 127);
  std::vector<int32_t> bias{1500, -2200, 700};
  std::vector<float> sb(O);
  for (uint32_t c = 0; c < O; ++c) sb[c] = ex.scale * sw[c];
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, ncdhw);
  QuantSpec xq("xq", QNN_TENSOR_TYPE_NATIVE, ex.dtype, ncdhw, ex.scale, ex.offset);
  QuantSpec xt("xt", QNN_TENSOR_TYPE_NATIVE, ex.dtype, ndhwc, ex.scale, ex.offset);
  QuantSpec wt("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_8, {K, K, K, C, O}, 0, 0, w.data(),
               uint32_t(w.size()));
  wt.perChannel(4, sw, O);
  QuantSpec bt("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_32, {O}, 0, 0, bias.data(), uint32_t(O * 4));
  bt.perChannel(0, sb.data(), O);
  QuantSpec conv("conv", QNN_TENSOR_TYPE_NATIVE, ey.dtype, outNdhwc, ey.scale, ey.offset);
  QuantSpec back("back", QNN_TENSOR_TYPE_NATIVE, ey.dtype, outNcdhw, ey.scale, ey.offset);
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, outNcdhw);
  uint32_t toLast[] = {0, 2, 3, 4, 1}, toFirst[] = {0, 4, 1, 2, 3}, ones[] = {1, 1, 1}, zeros[] = {0, 0, 0, 0, 0, 0};
  TensorSpec perm1("perm", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {5}, toLast, sizeof toLast);
  TensorSpec perm2("perm", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {5}, toFirst, sizeof toFirst);
  TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {3}, ones, sizeof ones);
  TensorSpec pad("pad_amount", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {3, 2}, zeros, sizeof zeros);
  const Qnn_Tensor_t tx = add(&x), txq = add(&xq), txt = add(&xt), tw = add(&wt), tb = add(&bt), tc = add(&conv),
                     tbk = add(&back), ty = add(&y);
  ASSERT_EQ(node("q", "Quantize", {tx}, txq), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(node("t1", "Transpose", {txq}, txt, {tensorParam("perm", perm1)}), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(node("conv", "Conv3d", {txt, tw, tb}, tc, {tensorParam("stride", stride), tensorParam("pad_amount", pad)}),
            QNN_SUCCESS)
      << LogCapture::take();
  ASSERT_EQ(node("t2", "Transpose", {tc}, tbk, {tensorParam("perm", perm2)}), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(node("dq", "Dequantize", {tbk}, ty), QNN_SUCCESS) << LogCapture::take();
  std::vector<float> input = ramp(count(ncdhw), -10.f, 10.f);
  std::reverse(input.begin(), input.begin() + input.size() / 2);
  const std::vector<float> got = run(tx, ty, input);
  ASSERT_EQ(got.size(), count(outNcdhw));
  auto at = [&](uint32_t c, uint32_t d, uint32_t h, uint32_t ww) { return input[((c * D + d) * D + h) * D + ww]; };
  size_t i = 0;
  for (uint32_t o = 0; o < O; ++o)
    for (uint32_t od = 0; od < Do; ++od)
      for (uint32_t oh = 0; oh < Do; ++oh)
        for (uint32_t ow = 0; ow < Do; ++ow, ++i) {
          int64_t acc = bias[o];  // the bias encoding is s_x * s_w: added as stored
          double real = double(sb[o]) * bias[o];
          for (uint32_t kd = 0; kd < K; ++kd)
            for (uint32_t kh = 0; kh < K; ++kh)
              for (uint32_t kw = 0; kw < K; ++kw)
                for (uint32_t c = 0; c < C; ++c) {
                  const float v = at(c, od + kd, oh + kh, ow + kw);
                  const int8_t wv = w[(((kd * K + kh) * K + kw) * C + c) * O + o];
                  acc += int64_t(quantizeRef(v, ex) + ex.offset) * wv;
                  real += double(v) * double(sw[o]) * wv;
                }
          const float want = dequantizeRef(requantizeTo(acc, double(ex.scale) * double(sw[o]) / double(ey.scale), ey), ey);
          EXPECT_EQ(got[i], want) << "at " << i;
          // Input rounding (half a step per tap, times |w|) plus half an output step.
          EXPECT_LE(std::fabs(double(got[i]) - real), ey.scale / 2.0 + ex.scale / 2.0 * 16 * 127 * sw[o] + 1e-6)
              << "at " << i;
        }
}

// Rank 6 is beyond what the HTP accepts for these ops, in a graph and in QnnBackend_validateOpConfig.
TEST_F(Rank5Graph, RankSixRefused) {
  const std::vector<uint32_t> dims6{1, 3, 4, 4, 2, 1}, dims5{1, 3, 4, 4, 2};
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, dims6);
  QuantSpec xq("xq", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_SFIXED_POINT_8, dims6, 0.1f, 0);
  QuantSpec sq("sq", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_SFIXED_POINT_8, dims5, 0.1f, 0);
  const Qnn_Tensor_t tx = add(&x), txq = add(&xq), tsq = add(&sq);
  EXPECT_EQ(node("q", "Quantize", {tx}, txq), QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
  std::string log = LogCapture::take();
  EXPECT_NE(log.find("input 0 'x' has rank 6; the HTP supports at most 5 for op Quantize"), std::string::npos) << log;
  uint32_t axis = 5;
  TensorSpec axes("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {1}, &axis, 4);
  Qnn_Param_t params[] = {tensorParam("axes", axes), boolParam("keep_dims", false)};
  Qnn_Tensor_t sumIn[] = {txq}, sumOut[] = {tsq};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"sum", "qti.aisw", "ReduceSum", 2, params, 1, sumIn, 1, sumOut};
  EXPECT_NE(api().backendValidateOpConfig(backend, op), QNN_SUCCESS);
  log = LogCapture::take();
  EXPECT_NE(log.find("has rank 6; the HTP supports at most 5 for op ReduceSum"), std::string::npos) << log;
  // The same ReduceSum at rank 5 validates.
  QuantSpec xq5("xq5", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_SFIXED_POINT_8, dims5, 0.1f, 0);
  QuantSpec sq5("sq5", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_SFIXED_POINT_8, {1, 3, 4, 4}, 0.1f, 0);
  axis = 4;
  sumIn[0] = xq5.tensor, sumOut[0] = sq5.tensor;
  EXPECT_EQ(api().backendValidateOpConfig(backend, op), QNN_SUCCESS) << LogCapture::take();
}

}  // namespace
}  // namespace qnn::test
