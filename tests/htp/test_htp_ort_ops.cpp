// The configurations ONNX Runtime's QNN Execution Provider sends the HTP that
// go beyond the HTP column of the op definitions (backends/htp_sim/
// htp_support_observed.inc), each as the EP builds it, through the C API of
// libQnnHtp.so against a reference computed here: Cast from/to INT_64 (the EP's
// int64 graph inputs and outputs), TopK and GatherNd in fp16 mode, GatherElements
// with INT_32 indices, ElementWiseSelect with a BOOL_8 condition (ONNX Where),
// ElementWiseNeuron HARD_SIGMOID, Resize CUBIC, ScatterElements MAX / MUL,
// GroupNorm, RoiAlign, Sin, Cos and Asin in fp16 mode; and Quantize on the
// float32 quotient ties of the EP's QDQ tests.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include "tests/htp/htp_test_util.h"

namespace qnn::test {
namespace {

// The HTP's quantize (docs/htp-fixed-point.md): the float32 quotient rounded half
// to even (nearbyint), then the offset and saturation.
int64_t quantizeRef(double real, double scale, int32_t offset, int64_t lo, int64_t hi) {
  const float quotient = float(real) / float(scale);
  const double q = std::nearbyint(double(quotient)) - offset;
  return int64_t(std::min(std::max(q, double(lo)), double(hi)));
}

class HtpOrtOpsTest : public HtpTest {
 protected:
  void SetUp() override {
    HtpTest::SetUp();
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  }
  void TearDown() override {
    if (ctx) {
      EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    }
    HtpTest::TearDown();
  }

  // One graph of nodes over `tensors` (each created once, in order; APP_WRITE
  // ones are fed their clientBuf at execute, APP_READ ones receive into theirs).
  // Returns the first failing step's error; `log` keeps what the backend said.
  struct Node {
    const char* type;
    std::vector<TensorSpec*> in, out;
    std::vector<Qnn_Param_t> params;
  };
  Qnn_ErrorHandle_t run(const std::vector<TensorSpec*>& tensors, const std::vector<Node>& nodes, bool fp16 = false) {
    static int serial = 0;
    const std::string name = "g" + std::to_string(serial++);
    Qnn_GraphHandle_t g = nullptr;
    std::vector<QnnHtpGraph_CustomConfig_t> configs;
    if (fp16) configs.push_back(precisionConfig(QNN_PRECISION_FLOAT16));
    Qnn_ErrorHandle_t e = makeGraph(ctx, name.c_str(), configs, &g);
    if (e != QNN_SUCCESS) return e;
    std::vector<Qnn_ClientBuffer_t> bufs;
    for (TensorSpec* t : tensors) {
      bufs.push_back(t->tensor.v1.clientBuf);
      t->tensor.v1.id = 0;
      if (t->tensor.v1.type != QNN_TENSOR_TYPE_STATIC) t->tensor.v1.clientBuf = {nullptr, 0};
      e = api().tensorCreateGraphTensor(g, &t->tensor);
      t->tensor.v1.clientBuf = bufs.back();
      if (e != QNN_SUCCESS) return log = LogCapture::take(), e;
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
      const Node& n = nodes[i];
      std::vector<Qnn_Tensor_t> ins, outs;
      for (TensorSpec* t : n.in) ins.push_back(t->tensor);
      for (TensorSpec* t : n.out) outs.push_back(t->tensor);
      std::vector<Qnn_Param_t> params = n.params;
      const std::string nodeName = std::string(n.type) + std::to_string(i);
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      op.v1 = {nodeName.c_str(), "qti.aisw", n.type, uint32_t(params.size()), params.data(), uint32_t(ins.size()),
               ins.data(), uint32_t(outs.size()), outs.data()};
      e = api().graphAddNode(g, op);
      if (e != QNN_SUCCESS) return log = LogCapture::take(), e;
    }
    e = api().graphFinalize(g, nullptr, nullptr);
    if (e != QNN_SUCCESS) return log = LogCapture::take(), e;
    std::vector<Qnn_Tensor_t> ins, outs;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const Qnn_Tensor_t& t = tensors[i]->tensor;
      if (t.v1.type == QNN_TENSOR_TYPE_APP_WRITE) ins.push_back(t);
      if (t.v1.type == QNN_TENSOR_TYPE_APP_READ) outs.push_back(t);
    }
    e = api().graphExecute(g, ins.data(), uint32_t(ins.size()), outs.data(), uint32_t(outs.size()), nullptr, nullptr);
    log = LogCapture::take();
    return e;
  }
  Qnn_ErrorHandle_t runOne(const char* type, std::vector<TensorSpec*> in, std::vector<TensorSpec*> out,
                           std::vector<Qnn_Param_t> params = {}, bool fp16 = false) {
    std::vector<TensorSpec*> all(in);
    all.insert(all.end(), out.begin(), out.end());
    return run(all, {{type, in, out, params}}, fp16);
  }

  Qnn_ContextHandle_t ctx = nullptr;
  std::string log;
};

// ---------------------------------------------------------------------------
// Cast with INT_64 on either side: integers narrow by their low bits and widen
// exactly, floats truncate toward zero and saturate (NaN -> 0), INT_64 -> float
// rounds to nearest. Also in an fp16 graph, as ONNX Runtime runs it.
TEST_F(HtpOrtOpsTest, CastFromAndToInt64) {
  const int64_t big = int64_t(1) << 40;
  std::vector<int64_t> wide = {0, -1, 7, int64_t(1) << 31, -5000000000LL, std::numeric_limits<int64_t>::max(), big + 1};
  const uint32_t n = uint32_t(wide.size());
  {  // The EP asks QnnBackend_validateOpConfig first.
    TensorSpec x("vx", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_64, {n});
    TensorSpec y("vy", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_INT_32, {n});
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"cast_v", "qti.aisw", "Cast", 0, nullptr, 1, &x.tensor, 1, &y.tensor};
    EXPECT_EQ(api().backendValidateOpConfig(backend, op), QNN_SUCCESS) << LogCapture::take();
  }
  for (bool fp16 : {false, true}) {
    std::vector<int32_t> narrow(n, 99);
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_64, {n}, wide.data(), n * 8);
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_32, {n}, narrow.data(), n * 4);
    ASSERT_EQ(runOne("Cast", {&x}, {&y}, {}, fp16), QNN_SUCCESS) << log;
    for (uint32_t i = 0; i < n; ++i) {
      // The low 32 bits as a two's complement number.
      const uint32_t low = uint32_t(uint64_t(wide[i]) & 0xffffffffu);
      const int64_t want = low >= 0x80000000u ? int64_t(low) - (int64_t(1) << 32) : int64_t(low);
      EXPECT_EQ(narrow[i], want) << "element " << i << " fp16 " << fp16;
    }
  }
  // INT_32 / UINT_32 -> INT_64 widen exactly.
  std::vector<int32_t> i32 = {std::numeric_limits<int32_t>::min(), -1, 0, 123, std::numeric_limits<int32_t>::max()};
  std::vector<int64_t> out64(5, 99);
  TensorSpec a("a", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {5}, i32.data(), 20);
  TensorSpec b("b", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_64, {5}, out64.data(), 40);
  ASSERT_EQ(runOne("Cast", {&a}, {&b}), QNN_SUCCESS) << log;
  EXPECT_EQ(out64, (std::vector<int64_t>{-2147483648LL, -1, 0, 123, 2147483647LL}));
  std::vector<uint32_t> u32 = {0, 1, 0xffffffffu};
  std::vector<int64_t> outU(3, 99);
  TensorSpec c("c", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UINT_32, {3}, u32.data(), 12);
  TensorSpec d("d", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_64, {3}, outU.data(), 24);
  ASSERT_EQ(runOne("Cast", {&c}, {&d}), QNN_SUCCESS) << log;
  EXPECT_EQ(outU, (std::vector<int64_t>{0, 1, 4294967295LL}));
  // FLOAT_32 -> INT_64.
  std::vector<float> f = {-2.75f, 2.75f, 3e9f, 1e19f, -1e19f, std::nanf("")};
  std::vector<int64_t> outF(6, 99);
  TensorSpec e("e", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {6}, f.data(), 24);
  TensorSpec h("h", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_64, {6}, outF.data(), 48);
  ASSERT_EQ(runOne("Cast", {&e}, {&h}), QNN_SUCCESS) << log;
  EXPECT_EQ(outF, (std::vector<int64_t>{-2, 2, 3000000000LL, std::numeric_limits<int64_t>::max(),
                                        std::numeric_limits<int64_t>::min(), 0}));
  // INT_64 -> FLOAT_32: 2^40 + 1 is not a float; the nearest is 2^40.
  std::vector<float> outG(n, 99.f);
  TensorSpec k("k", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_64, {n}, wide.data(), n * 8);
  TensorSpec m("m", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {n}, outG.data(), n * 4);
  ASSERT_EQ(runOne("Cast", {&k}, {&m}), QNN_SUCCESS) << log;
  EXPECT_EQ(outG[1], -1.f);
  EXPECT_EQ(outG[3], 2147483648.f);
  EXPECT_EQ(outG[4], -5000000000.f);
  EXPECT_EQ(outG[5], 9223372036854775808.f);
  EXPECT_EQ(outG[6], 1099511627776.f);
}

// ---------------------------------------------------------------------------
// TopK on float data in fp16 mode (values exactly representable in half), the k
// largest and the k smallest, indices INT_32; and the fixed-point TopK's largest = false.
TEST_F(HtpOrtOpsTest, TopKInFp16ModeAndSmallest) {
  constexpr uint32_t kRows = 3, kLen = 7, kK = 3;
  std::mt19937 rng(5);
  std::vector<float> x(kRows * kLen);
  for (uint32_t r = 0; r < kRows; ++r) {
    std::vector<int> v(40);
    std::iota(v.begin(), v.end(), -20);
    std::shuffle(v.begin(), v.end(), rng);  // distinct values: no ties
    for (uint32_t i = 0; i < kLen; ++i) x[r * kLen + i] = float(v[i]) * 0.25f;
  }
  for (bool largest : {true, false}) {
    std::vector<float> values(kRows * kK, -99.f);
    std::vector<int32_t> indices(kRows * kK, -1);
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kRows, kLen}, x.data(), uint32_t(x.size() * 4));
    TensorSpec v("values", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kRows, kK}, values.data(),
                 uint32_t(values.size() * 4));
    TensorSpec ix("indices", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_32, {1, kRows, kK}, indices.data(),
                  uint32_t(indices.size() * 4));
    ASSERT_EQ(runOne("TopK", {&in}, {&v, &ix}, {u32Param("k", kK), boolParam("largest", largest)}, true),
              QNN_SUCCESS)
        << log;
    for (uint32_t r = 0; r < kRows; ++r) {
      std::vector<std::pair<float, int32_t>> row;
      for (uint32_t i = 0; i < kLen; ++i) row.push_back({x[r * kLen + i], int32_t(i)});
      std::sort(row.begin(), row.end(), [&](auto a, auto b) { return largest ? a.first > b.first : a.first < b.first; });
      for (uint32_t i = 0; i < kK; ++i) {
        EXPECT_EQ(values[r * kK + i], row[i].first) << "row " << r << " rank " << i << " largest " << largest;
        EXPECT_EQ(indices[r * kK + i], row[i].second) << "row " << r << " rank " << i << " largest " << largest;
      }
    }
  }
  // Fixed point: the 2 smallest stored values of a row, same encoding in and out.
  std::vector<uint8_t> q = {40, 7, 200, 9, 120, 3, 250, 8};
  std::vector<uint8_t> qv(2, 0);
  std::vector<int32_t> qi(2, -1);
  QuantSpec in("q", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 8}, 0.1f, -100, q.data(), 8);
  QuantSpec v("qv", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 2}, 0.1f, -100, qv.data(), 2);
  TensorSpec ix("qi", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_32, {1, 2}, qi.data(), 8);
  ASSERT_EQ(runOne("TopK", {&in}, {&v, &ix}, {u32Param("k", 2), boolParam("largest", false)}), QNN_SUCCESS) << log;
  EXPECT_EQ(qv, (std::vector<uint8_t>{3, 7}));
  EXPECT_EQ(qi, (std::vector<int32_t>{5, 1}));
}

// GatherNd on float data in fp16 mode behind the EP's Cast of int64 indices
// (a graph input; negative indices count from the end).
TEST_F(HtpOrtOpsTest, GatherNdInFp16ModeAfterInt64Cast) {
  std::vector<float> data = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f};  // [2, 2, 2]
  std::vector<int64_t> idx = {-1, -1, 0, 1};                            // [2, 2]: (1, 1), (0, 1)
  std::vector<float> out(4, -1.f);
  TensorSpec d("data", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {2, 2, 2}, data.data(), 32);
  TensorSpec i64("idx", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_64, {2, 2}, idx.data(), 32);
  TensorSpec i32("idx_int32", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_INT_32, {2, 2});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {2, 2}, out.data(), 16);
  ASSERT_EQ(run({&d, &i64, &i32, &y}, {{"Cast", {&i64}, {&i32}, {}}, {"GatherNd", {&d, &i32}, {&y}, {}}}, true),
            QNN_SUCCESS)
      << log;
  EXPECT_EQ(out, (std::vector<float>{6.f, 7.f, 2.f, 3.f}));
}

// ---------------------------------------------------------------------------
// GatherElements with INT_32 indices on UFIXED_POINT_8 and on INT_32 data.
TEST_F(HtpOrtOpsTest, GatherElementsWithInt32Indices) {
  std::vector<uint8_t> data = {11, 12, 13, 21, 22, 23, 31, 32, 33};  // [3, 3]
  std::vector<int32_t> idx = {1, 2, 0, 2, 0, 0};                     // [2, 3]
  std::vector<uint8_t> out(6, 0);
  QuantSpec d("d", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {3, 3}, 0.04f, -10, data.data(), 9);
  TensorSpec i("i", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {2, 3}, idx.data(), 24);
  QuantSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {2, 3}, 0.04f, -10, out.data(), 6);
  ASSERT_EQ(runOne("GatherElements", {&d, &i}, {&y}, {u32Param("axis", 0)}), QNN_SUCCESS) << log;
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t c = 0; c < 3; ++c) EXPECT_EQ(out[r * 3 + c], data[size_t(idx[r * 3 + c]) * 3 + c]);
  std::vector<int32_t> d32 = {1, 2, 3}, i1 = {1, 2}, o32(2, 0);
  TensorSpec a("a", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {3}, d32.data(), 12);
  TensorSpec b("b", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {2}, i1.data(), 8);
  TensorSpec c("c", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_32, {2}, o32.data(), 8);
  ASSERT_EQ(runOne("GatherElements", {&a, &b}, {&c}, {u32Param("axis", 0)}), QNN_SUCCESS) << log;
  EXPECT_EQ(o32, (std::vector<int32_t>{2, 3}));
}

// ElementWiseSelect with a BOOL_8 condition broadcast over fixed-point values (ONNX Where).
TEST_F(HtpOrtOpsTest, SelectWithBoolCondition) {
  std::vector<uint8_t> cond = {1, 0};
  std::vector<uint8_t> x(24), yv = {77}, out(24, 0);
  for (size_t i = 0; i < x.size(); ++i) x[i] = uint8_t(i * 10);
  TensorSpec c("cond", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_BOOL_8, {2}, cond.data(), 2);
  QuantSpec a("x", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UFIXED_POINT_8, {4, 3, 2}, 0.02f, -30, x.data(), 24);
  QuantSpec b("y", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UFIXED_POINT_8, {1}, 0.02f, -30, yv.data(), 1);
  QuantSpec o("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {4, 3, 2}, 0.02f, -30, out.data(), 24);
  ASSERT_EQ(runOne("ElementWiseSelect", {&c, &a, &b}, {&o}), QNN_SUCCESS) << log;
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], cond[i % 2] ? x[i] : 77) << i;
}

// ---------------------------------------------------------------------------
// ElementWiseNeuron HARD_SIGMOID: fixed point as quantize(max(0, min(1, alpha x + beta)))
// over every stored input value (x dequantized in float as the fixed-point rule
// states), fp16 mode within half precision, another operation refused.
TEST_F(HtpOrtOpsTest, HardSigmoidNeuron) {
  constexpr uint32_t kHardSigmoid = 2;
  const float alpha = 0.1f, beta = 0.4f, sx = 20.f / 255.f, sy = 1.f / 255.f;
  const int32_t ox = -128;
  std::vector<uint8_t> x(256), y(256, 0);
  std::iota(x.begin(), x.end(), 0);
  QuantSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 4, 64}, sx, ox, x.data(), 256);
  QuantSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 4, 64}, sy, 0, y.data(), 256);
  ASSERT_EQ(runOne("ElementWiseNeuron", {&in}, {&out},
                   {u32Param("operation", kHardSigmoid), f32Param("alpha", alpha), f32Param("beta", beta)}),
            QNN_SUCCESS)
      << log;
  for (int q = 0; q < 256; ++q) {
    const double real = double(sx * float(q + ox));
    const double hs = std::min(1.0, std::max(0.0, double(alpha) * real + double(beta)));
    EXPECT_EQ(y[size_t(q)], quantizeRef(hs, sy, 0, 0, 255)) << "q " << q;
  }
  // 16-bit, default alpha 0.2 and beta 0.5.
  std::vector<uint16_t> x16(512), y16(512, 0);
  for (size_t i = 0; i < x16.size(); ++i) x16[i] = uint16_t(i * 128);
  QuantSpec in16("x16", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, {512}, 0.0003f, -32768, x16.data(), 1024);
  QuantSpec out16("y16", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_16, {512}, 1.f / 65536, 0, y16.data(), 1024);
  ASSERT_EQ(runOne("ElementWiseNeuron", {&in16}, {&out16}, {u32Param("operation", kHardSigmoid)}), QNN_SUCCESS) << log;
  for (size_t i = 0; i < x16.size(); ++i) {
    const double real = double(0.0003f * float(int32_t(x16[i]) - 32768));
    const double hs = std::min(1.0, std::max(0.0, 0.2 * real + 0.5));
    EXPECT_EQ(y16[i], quantizeRef(hs, 1.0 / 65536, 0, 0, 65535)) << i;
  }
  // fp16 mode: inputs are multiples of 1/64 (exact in half); outputs within half precision.
  std::vector<float> xf(64), yf(64, -1.f);
  for (size_t i = 0; i < xf.size(); ++i) xf[i] = -5.f + float(i) * 10.f / 64.f;
  TensorSpec inf("xf", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 2, 2, 16}, xf.data(), 256);
  TensorSpec outf("yf", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 2, 2, 16}, yf.data(), 256);
  ASSERT_EQ(runOne("ElementWiseNeuron", {&inf}, {&outf},
                   {u32Param("operation", kHardSigmoid), f32Param("alpha", alpha), f32Param("beta", beta)}, true),
            QNN_SUCCESS)
      << log;
  for (size_t i = 0; i < xf.size(); ++i) {
    const double hs = std::min(1.0, std::max(0.0, double(alpha) * xf[i] + double(beta)));
    EXPECT_NEAR(yf[i], hs, std::ldexp(1.0, -11)) << i;  // half an ulp of half below 1
  }
  // Operation SIGMOID (6) has its own op on the HTP; ElementWiseNeuron runs HARD_SIGMOID only.
  EXPECT_NE(runOne("ElementWiseNeuron", {&in}, {&out}, {u32Param("operation", 6)}), QNN_SUCCESS);
  EXPECT_NE(log.find("ElementWiseNeuron: operation 6 (Sigmoid) is not supported on the HTP"), std::string::npos) << log;
}

// ---------------------------------------------------------------------------
// Resize CUBIC on UFIXED_POINT_8 against an independent double-precision Keys
// cubic (taps floor(x) - 1 .. floor(x) + 2 clamped to the edge, or dropped and
// renormalized with exclude_outside); the HTP runs the shared float32 algorithm
// on dequantized values, so each output is within one step of the reference and
// all but 5% (or one) equal it.
struct CubicCase {
  uint32_t transformation;  // 0 HALF_PIXEL, 1 PYTORCH_HALF_PIXEL, 2 ALIGN_CORNERS, 3 ASYMMETRIC
  bool excludeOutside;
  float coeff;
  uint32_t outH, outW;
};

double sourceCoord(uint32_t transformation, uint32_t o, uint32_t in, uint32_t out) {
  const double ratio = double(in) / double(out);
  switch (transformation) {
    case 0: return (o + 0.5) * ratio - 0.5;
    case 1: return out > 1 ? (o + 0.5) * ratio - 0.5 : 0.0;
    case 2: return out > 1 ? double(o) * (in - 1) / (out - 1) : 0.0;
    default: return o * ratio;
  }
}

// Per output coordinate: 4 (index, weight) taps.
std::vector<std::pair<int, double>> cubicTaps(double x, uint32_t in, double a, bool exclude) {
  auto keys = [a](double t) {
    t = std::fabs(t);
    if (t <= 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
    return 0.0;
  };
  std::vector<std::pair<int, double>> taps;
  const int base = int(std::floor(x));
  double sum = 0;
  for (int k = base - 1; k <= base + 2; ++k) {
    const bool outside = k < 0 || k >= int(in);
    const double w = exclude && outside ? 0.0 : keys(x - k);
    taps.push_back({std::min(std::max(k, 0), int(in) - 1), w});
    sum += w;
  }
  if (exclude)
    for (auto& t : taps) t.second /= sum;
  return taps;
}

TEST_F(HtpOrtOpsTest, ResizeCubicFixedPoint) {
  constexpr uint32_t kH = 4, kW = 5, kC = 3;
  const float s = 20.f / 255.f;
  const int32_t off = -128;
  std::mt19937 rng(3);
  std::vector<uint8_t> x(kH * kW * kC);
  for (auto& v : x) v = uint8_t(rng() % 256);
  const CubicCase cases[] = {{0, false, -0.75f, 8, 10}, {0, false, -0.6f, 8, 10}, {0, false, -0.75f, 2, 3},
                             {2, true, -0.5f, 7, 9},    {3, false, -0.75f, 6, 7}, {1, true, -0.75f, 1, 4}};
  for (const CubicCase& cc : cases) {
    std::vector<uint8_t> y(cc.outH * cc.outW * kC, 0);
    QuantSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kC}, s, off, x.data(),
                 uint32_t(x.size()));
    QuantSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, cc.outH, cc.outW, kC}, s, off,
                  y.data(), uint32_t(y.size()));
    ASSERT_EQ(runOne("Resize", {&in}, {&out},
                     {u32Param("interpolation_mode", 2), u32Param("transformation_mode", cc.transformation),
                      boolParam("exclude_outside", cc.excludeOutside), f32Param("cubic_coeff", cc.coeff)}),
              QNN_SUCCESS)
        << log;
    size_t equal = 0;
    for (uint32_t oy = 0; oy < cc.outH; ++oy)
      for (uint32_t ox = 0; ox < cc.outW; ++ox) {
        const auto ty = cubicTaps(sourceCoord(cc.transformation, oy, kH, cc.outH), kH, cc.coeff, cc.excludeOutside);
        const auto tx = cubicTaps(sourceCoord(cc.transformation, ox, kW, cc.outW), kW, cc.coeff, cc.excludeOutside);
        for (uint32_t c = 0; c < kC; ++c) {
          double acc = 0;
          for (auto [iy, wy] : ty)
            for (auto [ix, wx] : tx) acc += wy * wx * double(s) * (x[(size_t(iy) * kW + size_t(ix)) * kC + c] + off);
          const int64_t want = quantizeRef(acc, s, off, 0, 255);
          const int64_t got = y[(size_t(oy) * cc.outW + ox) * kC + c];
          EXPECT_LE(std::abs(got - want), 1) << "transformation " << cc.transformation << " at " << oy << "," << ox;
          equal += got == want;
        }
      }
    EXPECT_LE(y.size() - equal, std::max<size_t>(1, y.size() / 20)) << "transformation " << cc.transformation;
  }
}

// ---------------------------------------------------------------------------
// ScatterElements with reduction MAX and MUL on UFIXED_POINT_8 (indices from the
// EP's Cast of int64): the reached elements are reduce(data, updates...) in index
// order on real values, quantized once; the others are copied (same encoding).
TEST_F(HtpOrtOpsTest, ScatterElementsMaxAndMul) {
  constexpr uint32_t kMul = 2, kMax = 3;
  const float sd = 0.05f, su = 0.1f;
  std::vector<uint8_t> data = {0, 20, 40, 60, 80};
  std::vector<int64_t> idx = {1, 3, 1, -1};
  std::vector<uint8_t> upd = {30, 5, 12, 7};
  for (uint32_t reduction : {kMax, kMul}) {
    std::vector<uint8_t> out(5, 0);
    QuantSpec d("data", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {5}, sd, 0, data.data(), 5);
    TensorSpec i64("idx", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_64, {4}, idx.data(), 32);
    TensorSpec i32("idx_int32", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_INT_32, {4});
    QuantSpec u("upd", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {4}, su, 0, upd.data(), 4);
    QuantSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {5}, sd, 0, out.data(), 5);
    ASSERT_EQ(run({&d, &i64, &i32, &u, &y},
                  {{"Cast", {&i64}, {&i32}, {}},
                   {"ScatterElements", {&d, &i32, &u}, {&y}, {u32Param("axis", 0), u32Param("reduction", reduction)}}}),
              QNN_SUCCESS)
        << log;
    std::vector<double> real(5);
    for (size_t k = 0; k < 5; ++k) real[k] = double(sd) * data[k];
    for (size_t k = 0; k < idx.size(); ++k) {
      double& r = real[size_t((idx[k] + 5) % 5)];
      const double v = double(su) * upd[k];
      r = reduction == kMax ? std::max(r, v) : r * v;
    }
    for (size_t k = 0; k < 5; ++k) {
      const bool reached = k == 1 || k == 3 || k == 4;
      EXPECT_EQ(out[k], reached ? quantizeRef(real[k], sd, 0, 0, 255) : data[k]) << "reduction " << reduction << " at " << k;
    }
  }
}

// ScatterND on int64 tensors as the EP sends it: every int64 graph input cast to
// INT_32, ScatterNd with reduction ADD / MUL (duplicate indices), the result cast
// back to an int64 graph output.
TEST_F(HtpOrtOpsTest, ScatterNdInt32ReductionsBetweenInt64Casts) {
  constexpr uint32_t kAdd = 1, kMul = 2;
  std::vector<int64_t> data = {0, 1, 2, 3}, idx = {1, 3, 1}, upd = {10, -4, 5};
  for (uint32_t reduction : {kAdd, kMul}) {
    std::vector<int64_t> out(4, 99);
    TensorSpec d64("data", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_64, {4}, data.data(), 32);
    TensorSpec i64("idx", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_64, {3, 1}, idx.data(), 24);
    TensorSpec u64("upd", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_64, {3}, upd.data(), 24);
    TensorSpec d32("data_int32", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_INT_32, {4});
    TensorSpec i32("idx_int32", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_INT_32, {3, 1});
    TensorSpec u32("upd_int32", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_INT_32, {3});
    TensorSpec y32("y_int32", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_INT_32, {4});
    TensorSpec y64("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_64, {4}, out.data(), 32);
    ASSERT_EQ(run({&d64, &i64, &u64, &d32, &i32, &u32, &y32, &y64},
                  {{"Cast", {&d64}, {&d32}, {}},
                   {"Cast", {&i64}, {&i32}, {}},
                   {"Cast", {&u64}, {&u32}, {}},
                   {"ScatterNd", {&d32, &i32, &u32}, {&y32}, {u32Param("reduction", reduction)}},
                   {"Cast", {&y32}, {&y64}, {}}}),
              QNN_SUCCESS)
        << log;
    EXPECT_EQ(out, reduction == kAdd ? (std::vector<int64_t>{0, 16, 2, -1}) : (std::vector<int64_t>{0, 50, 2, -12}));
  }
}

// ScatterElements (reduction NONE) on float data in fp16 mode.
TEST_F(HtpOrtOpsTest, ScatterElementsInFp16Mode) {
  std::vector<float> data = {0.f, 1.f, 2.f, 3.f}, upd = {10.f}, out(4, -1.f);
  std::vector<int32_t> idx = {1};
  TensorSpec d("data", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {4}, data.data(), 16);
  TensorSpec i("idx", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {1}, idx.data(), 4);
  TensorSpec u("upd", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1}, upd.data(), 4);
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {4}, out.data(), 16);
  ASSERT_EQ(runOne("ScatterElements", {&d, &i, &u}, {&y}, {u32Param("axis", 0)}, true), QNN_SUCCESS) << log;
  EXPECT_EQ(out, (std::vector<float>{0.f, 10.f, 2.f, 3.f}));
}

// ---------------------------------------------------------------------------
// Float to fixed point: the quotient x / scale divided in float32 and rounded half
// to even, as ONNX Runtime's QuantizeLinear (the reference of the EP's QDQ tests).
// The encodings and inputs of three EP tests, whose quotients are ties in float32
// only: QuantAccuracyTest (range [0, 200]: scale 200/255, zero point 0; 20 and 100
// give 25.5f and 127.5f, so 26 and 128; the double quotients 25.4999996 and
// 127.499998 gave 25 and 127), UnaryOp_Ceil ([-12, 12]: scale 24/255, zero point
// RoundHalfToEven(127.5f) = 128; -12 gives -127.5f, so -128 + 128 = 0, not 1) and
// UnaryOp_LogSoftmax13_NonLastAxis ([-5, 5]: scale 10/255, zero point
// round(127.499992f) = 127; -1 and 1 give -25.5f and 25.5f, so 101 and 153, where
// the double quotients gave 102 and 152).
// The EP's inputs for the last two: min, min + step, ... accumulated in float.
std::vector<float> accumulatedRange(float lo, float hi, size_t n) {
  std::vector<float> v;
  const float step = (hi - lo) / float(n - 1);
  for (float x = lo; v.size() < n; x += step) v.push_back(x);
  return v;
}

TEST_F(HtpOrtOpsTest, QuantizeRoundsTheFloat32QuotientHalfToEven) {
  struct Case {
    const char* name;
    std::vector<float> x;
    float scale;
    int32_t offset;
    std::vector<uint8_t> expected;  // nearbyint(float32 quotient) - offset, saturated
  };
  const std::vector<Case> cases = {
      {"quant_accuracy", {1.f, 2.f, 10.f, 20.f, 100.f, 200.f}, 200.f / 255.f, 0, {1, 3, 13, 26, 128, 255}},
      {"ceil", accumulatedRange(-12.f, 12.f, 6), 24.f / 255.f, -128, {0, 52, 103, 154, 205, 255}},
      {"log_softmax", accumulatedRange(-5.f, 5.f, 6), 10.f / 255.f, -127, {0, 51, 101, 153, 203, 254}},
  };
  for (const Case& c : cases) {
    std::vector<float> x = c.x;
    std::vector<uint8_t> q(x.size(), 7);
    const uint32_t n = uint32_t(x.size());
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 2, 3}, x.data(), n * 4);
    QuantSpec out("q", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 2, 3}, c.scale, c.offset, q.data(), n);
    ASSERT_EQ(runOne("Quantize", {&in}, {&out}), QNN_SUCCESS) << c.name << ": " << log;
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(q[i], quantizeRef(x[i], c.scale, c.offset, 0, 255)) << c.name << " x " << x[i];
      EXPECT_EQ(q[i], c.expected[i]) << c.name << " x " << x[i];
    }
  }
}

// UnaryOp_Ceil as the EP builds it (Quantize, then ElementWiseCeil on UFIXED_POINT_8,
// both encodings scale 24/255, offset -128): -12 quantizes to 0 (real -12.047), whose
// ceiling -12 quantizes to 0 again; with the double quotient it was 1 (-11.01).
TEST_F(HtpOrtOpsTest, CeilAfterQuantizeOnFloat32Ties) {
  const float s = 24.f / 255.f;
  const int32_t off = -128;
  std::vector<float> x = accumulatedRange(-12.f, 12.f, 6);
  std::vector<uint8_t> y(6, 7);
  TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 2, 3}, x.data(), 24);
  QuantSpec q("q", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_8, {1, 2, 3}, s, off);
  QuantSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 2, 3}, s, off, y.data(), 6);
  ASSERT_EQ(run({&in, &q, &out}, {{"Quantize", {&in}, {&q}, {}}, {"ElementWiseCeil", {&q}, {&out}, {}}}), QNN_SUCCESS)
      << log;
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t stored = quantizeRef(x[i], s, off, 0, 255);
    const float real = s * float(stored + off);
    EXPECT_EQ(y[i], quantizeRef(std::ceil(double(real)), s, off, 0, 255)) << "x " << x[i];
  }
  EXPECT_EQ(y[0], 0);
}

// ---------------------------------------------------------------------------
// Float ops the EP sends in fp16 mode beyond the op definitions' HTP column:
// GroupNorm (NHWC, rank 3 and 4), RoiAlign (also with a float input 0 in a
// quantized graph), ElementWiseSin / Cos (the EP's Tan) and Asin. References in
// double from the unrounded inputs; fp16 graphs within half precision, fp32
// graphs within float rounding.

// GroupNorm reference: channel (last) axis split into `groups`; statistics per
// (batch, group) over every non-batch position.
std::vector<double> groupNormRef(const std::vector<float>& x, const std::vector<uint32_t>& dims, uint32_t groups,
                                 double eps, const std::vector<float>& gamma, const std::vector<float>& beta) {
  const size_t c = dims.back(), batch = dims[0], pos = x.size() / (batch * c), per = c / groups;
  std::vector<double> y(x.size());
  for (size_t b = 0; b < batch; ++b)
    for (size_t g = 0; g < groups; ++g) {
      double sum = 0, n = double(pos * per);
      for (size_t p = 0; p < pos; ++p)
        for (size_t k = g * per; k < (g + 1) * per; ++k) sum += x[(b * pos + p) * c + k];
      const double mean = sum / n;
      double var = 0;
      for (size_t p = 0; p < pos; ++p)
        for (size_t k = g * per; k < (g + 1) * per; ++k) var += std::pow(x[(b * pos + p) * c + k] - mean, 2) / n;
      for (size_t p = 0; p < pos; ++p)
        for (size_t k = g * per; k < (g + 1) * per; ++k) {
          const size_t i = (b * pos + p) * c + k;
          y[i] = (x[i] - mean) / std::sqrt(var + eps) * gamma[k] + beta[k];
        }
    }
  return y;
}

TEST_F(HtpOrtOpsTest, GroupNormInFp16Mode) {
  struct Case {
    std::vector<uint32_t> dims;
    uint32_t groups;
    float eps;
  };
  const std::vector<Case> cases = {{{1, 3, 4, 2}, 1, 1e-5f}, {{1, 3, 4, 4}, 2, 1e-5f}, {{1, 3, 4, 2}, 1, 0.1f},
                                   {{2, 5, 6}, 3, 1e-5f}};
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0.05f, 0.9f);
  for (const Case& tc : cases)
    for (bool fp16 : {true, false}) {
      const uint32_t c = tc.dims.back();
      size_t n = 1;
      for (uint32_t d : tc.dims) n *= d;
      std::vector<float> x(n), gamma(c), beta(c), y(n, -99.f);
      for (float& v : x) v = u(rng);
      for (uint32_t k = 0; k < c; ++k) gamma[k] = 0.5f + 0.5f * float(k), beta[k] = 0.1f * float(k + 1);
      TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, tc.dims, x.data(), uint32_t(n * 4));
      TensorSpec g("gamma", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {c}, gamma.data(), c * 4);
      TensorSpec b("beta", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {c}, beta.data(), c * 4);
      TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, tc.dims, y.data(), uint32_t(n * 4));
      ASSERT_EQ(runOne("GroupNorm", {&in, &g, &b}, {&out}, {f32Param("epsilon", tc.eps), u32Param("group", tc.groups)},
                       fp16),
                QNN_SUCCESS)
          << log;
      const std::vector<double> ref = groupNormRef(x, tc.dims, tc.groups, tc.eps, gamma, beta);
      for (size_t i = 0; i < n; ++i)  // half: inputs rounded (|x| < 1, std > 0.1) and the output rounded
        EXPECT_NEAR(y[i], ref[i], fp16 ? 8e-3 + std::ldexp(std::fabs(ref[i]), -10) : 1e-5)
            << "element " << i << " groups " << tc.groups << " fp16 " << fp16;
    }
}

// RoiAlign reference (NHWC map, RoIs in image coordinates / img_size_ratio;
// aligned: corners shifted by -0.5 and no minimum size, else RoIs at least 1x1;
// samples x samples bilinear points per bin; a point up to one pixel outside
// the map is clamped to its edge).
std::vector<double> roiAlignRef(const std::vector<float>& x, uint32_t h, uint32_t w, uint32_t c,
                                const std::vector<float>& rois, uint32_t outH, uint32_t outW, int samples,
                                bool aligned) {
  const size_t numRois = rois.size() / 4;
  std::vector<double> y(numRois * outH * outW * c, 0.0);
  auto at = [&](int yy, int xx, size_t ch) { return double(x[(size_t(yy) * w + size_t(xx)) * c + ch]); };
  for (size_t r = 0; r < numRois; ++r) {
    const double off = aligned ? 0.5 : 0.0;
    const double x1 = rois[r * 4] - off, y1 = rois[r * 4 + 1] - off;
    double rw = rois[r * 4 + 2] - rois[r * 4], rh = rois[r * 4 + 3] - rois[r * 4 + 1];
    if (!aligned) rw = std::max(rw, 1.0), rh = std::max(rh, 1.0);
    const double bw = rw / outW, bh = rh / outH;
    for (uint32_t py = 0; py < outH; ++py)
      for (uint32_t px = 0; px < outW; ++px)
        for (size_t ch = 0; ch < c; ++ch) {
          double acc = 0;
          for (int iy = 0; iy < samples; ++iy)
            for (int ix = 0; ix < samples; ++ix) {
              double sy = y1 + bh * (py + (iy + 0.5) / samples), sx = x1 + bw * (px + (ix + 0.5) / samples);
              if (sy < -1 || sy > h || sx < -1 || sx > w) continue;  // beyond one pixel outside: 0
              sy = std::min(std::max(sy, 0.0), h - 1.0), sx = std::min(std::max(sx, 0.0), w - 1.0);
              const int y0 = int(std::floor(sy)), x0 = int(std::floor(sx));
              const int yh = std::min(y0 + 1, int(h) - 1), xh = std::min(x0 + 1, int(w) - 1);
              const double fy = sy - y0, fx = sx - x0;
              acc += (1 - fy) * ((1 - fx) * at(y0, x0, ch) + fx * at(y0, xh, ch)) +
                     fy * ((1 - fx) * at(yh, x0, ch) + fx * at(yh, xh, ch));
            }
          y[((r * outH + py) * outW + px) * c + ch] = acc / (samples * samples);
        }
  }
  return y;
}

TEST_F(HtpOrtOpsTest, RoiAlignInFp16ModeAndWithFloatInputInQuantizedGraph) {
  constexpr uint32_t kH = 4, kW = 5, kC = 2, kOut = 2;
  std::vector<float> x(kH * kW * kC);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.37f * float(i % 7) - 0.8f + 0.05f * float(i / 7);
  std::vector<float> rois = {0.f, 0.f, 1.f, 1.f, 0.5f, 1.f, 3.5f, 2.75f};
  std::vector<int32_t> batch = {0, 0};
  std::vector<float> ratio = {1.f, 1.f};
  for (bool aligned : {false, true}) {
    const std::vector<double> ref = roiAlignRef(x, kH, kW, kC, rois, kOut, kOut, 2, aligned);
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kC}, x.data(),
                  uint32_t(x.size() * 4));
    TensorSpec r("rois", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {2, 4}, rois.data(), 32);
    TensorSpec bi("batch", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_INT_32, {2}, batch.data(), 8);
    TensorSpec rt("img_size_ratio", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {2}, ratio.data(), 8);
    const std::vector<Qnn_Param_t> params = {tensorParam("img_size_ratio", rt), u32Param("num_samples_y", 2),
                                             u32Param("num_samples_x", 2), boolParam("aligned", aligned)};
    std::vector<float> y(ref.size(), -99.f);
    TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {2, kOut, kOut, kC}, y.data(),
                   uint32_t(y.size() * 4));
    ASSERT_EQ(runOne("RoiAlign", {&in, &r, &bi}, {&out}, params, true), QNN_SUCCESS) << log;
    for (size_t i = 0; i < ref.size(); ++i)  // |x| < 2.5: input and output half roundings
      EXPECT_NEAR(y[i], ref[i], 4e-3) << "element " << i << " aligned " << aligned;
    // Input 0 FLOAT_32, the output UFIXED_POINT_8 (ONNX Runtime's QDQ RoiAlign).
    std::vector<uint8_t> q(ref.size(), 0);
    const float scale = 0.02f;
    const int32_t offset = -128;
    QuantSpec qout("yq", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {2, kOut, kOut, kC}, scale, offset,
                   q.data(), uint32_t(q.size()));
    ASSERT_EQ(runOne("RoiAlign", {&in, &r, &bi}, {&qout}, params, true), QNN_SUCCESS) << log;
    for (size_t i = 0; i < ref.size(); ++i)
      EXPECT_NEAR(double(q[i]), double(quantizeRef(ref[i], scale, offset, 0, 255)), 1.0)
          << "element " << i << " aligned " << aligned;
  }
}

TEST_F(HtpOrtOpsTest, SinCosAsinAndTanInFp16Mode) {
  std::vector<float> x;
  for (int i = -12; i <= 12; ++i) x.push_back(0.075f * float(i) + 0.01f);  // |x| <= 0.91
  const uint32_t n = uint32_t(x.size());
  struct Op {
    const char* type;
    double (*ref)(double);
  };
  for (const Op& op : {Op{"ElementWiseSin", [](double v) { return std::sin(v); }},
                       Op{"ElementWiseCos", [](double v) { return std::cos(v); }},
                       Op{"ElementWiseAsin", [](double v) { return std::asin(v); }}})
    for (bool fp16 : {true, false}) {
      std::vector<float> y(n, -99.f);
      TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, n}, x.data(), n * 4);
      TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, n}, y.data(), n * 4);
      ASSERT_EQ(runOne(op.type, {&in}, {&out}, {}, fp16), QNN_SUCCESS) << log;
      for (uint32_t i = 0; i < n; ++i)  // half: input rounding (slope <= 2.5) and output rounding
        EXPECT_NEAR(y[i], op.ref(x[i]), fp16 ? 2e-3 : 1e-6) << op.type << " x " << x[i] << " fp16 " << fp16;
    }
  // The EP's Tan: Sin / Cos.
  std::vector<float> t(n, -99.f);
  TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {n}, x.data(), n * 4);
  TensorSpec s("sin", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {n});
  TensorSpec c("cos", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {n});
  TensorSpec out("tan", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {n}, t.data(), n * 4);
  ASSERT_EQ(run({&in, &s, &c, &out},
                {{"ElementWiseSin", {&in}, {&s}, {}}, {"ElementWiseCos", {&in}, {&c}, {}},
                 {"ElementWiseDivide", {&s, &c}, {&out}, {}}},
                true),
            QNN_SUCCESS)
      << log;
  for (uint32_t i = 0; i < n; ++i) EXPECT_NEAR(t[i], std::tan(double(x[i])), 5e-3) << "x " << x[i];
}

// ---------------------------------------------------------------------------
// FullyConnected whose weight [n, k] is quantized per input channel (axis 1, k
// scales): ONNX Runtime's MatMul with a 1-D per-channel weight {k} becomes a
// FullyConnected of units 1. The reference is the definition: every element
// dequantized with its own channel's scale, the sum in double, quantized once.
TEST_F(HtpOrtOpsTest, FullyConnectedWeightPerInputChannel) {
  struct Case {
    uint32_t rows, n, k;
    Qnn_DataType_t act;
    bool bias;
  };
  for (const Case& tc : {Case{6, 1, 3, QNN_DATATYPE_UFIXED_POINT_16, false},
                         Case{5, 2, 4, QNN_DATATYPE_UFIXED_POINT_8, true}}) {
    const bool wide = tc.act == QNN_DATATYPE_UFIXED_POINT_16;
    const int64_t qmax = wide ? 65535 : 255;
    const float sx = wide ? 1.5e-5f : 0.004f, so = wide ? 8e-5f : 0.03f;
    const int32_t ox = wide ? -30000 : -120, oo = wide ? -32768 : -128;
    std::vector<uint16_t> x16(tc.rows * tc.k), y16(tc.rows * tc.n, 0);
    std::vector<uint8_t> x8(tc.rows * tc.k), y8(tc.rows * tc.n, 0);
    for (size_t i = 0; i < x16.size(); ++i) {
      x16[i] = uint16_t((i * 7919 + 123) % 65536);
      x8[i] = uint8_t((i * 37 + 11) % 256);
    }
    std::vector<int8_t> w(tc.n * tc.k);
    for (size_t i = 0; i < w.size(); ++i) w[i] = int8_t(int(i * 53 % 255) - 127);
    std::vector<float> scales(tc.k);
    for (uint32_t kk = 0; kk < tc.k; ++kk) scales[kk] = 0.0031f * float(kk + 1) + 0.0007f * float(kk * kk);
    std::vector<int32_t> bias = {1234, -987};
    const float sb = 1e-4f;
    void* xd = wide ? static_cast<void*>(x16.data()) : x8.data();
    void* yd = wide ? static_cast<void*>(y16.data()) : y8.data();
    const uint32_t es = wide ? 2 : 1;
    QuantSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, tc.act, {tc.rows, tc.k}, sx, ox, xd, tc.rows * tc.k * es);
    QuantSpec wt("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_8, {tc.n, tc.k}, 1.f, 0, w.data(),
                 uint32_t(w.size()));
    wt.perChannel(1, scales.data(), tc.k);
    QuantSpec b("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_32, {tc.n}, sb, 0, bias.data(), tc.n * 4);
    QuantSpec y("y", QNN_TENSOR_TYPE_APP_READ, tc.act, {tc.rows, tc.n}, so, oo, yd, tc.rows * tc.n * es);
    std::vector<TensorSpec*> in = {&x, &wt};
    if (tc.bias) in.push_back(&b);
    ASSERT_EQ(runOne("FullyConnected", in, {&y}), QNN_SUCCESS) << log;
    for (uint32_t r = 0; r < tc.rows; ++r)
      for (uint32_t j = 0; j < tc.n; ++j) {
        double acc = tc.bias ? double(sb) * bias[j] : 0.0;
        for (uint32_t kk = 0; kk < tc.k; ++kk) {
          const double xq = wide ? x16[r * tc.k + kk] : x8[r * tc.k + kk];
          acc += double(sx) * (xq + ox) * double(scales[kk]) * w[j * tc.k + kk];
        }
        const int64_t got = wide ? y16[r * tc.n + j] : y8[r * tc.n + j];
        EXPECT_EQ(got, quantizeRef(acc, so, oo, 0, qmax)) << "row " << r << " unit " << j << " k " << tc.k;
      }
  }
}

}  // namespace
}  // namespace qnn::test
