// Packed 4-bit static weights (QNN_DATATYPE_SFIXED_POINT_4 / UFIXED_POINT_4, two
// values per byte, first element in the low nibble) through the C API of
// libQnnHtp.so and libQnnCpu.so: the outputs equal, byte for byte, those of the
// same graph given its weights unpacked in 8-bit containers with bitwidth-4
// encodings; 4-bit values in 8-bit containers, sign-extended or with the upper
// bits cleared (as ONNX Runtime's QNN EP sends them), give the outputs of a float64
// reference; the packed graph survives a context binary and a Saver recording
// replayed with qnn-trace-replay; malformed or unsupported tensors are refused
// with their error codes and messages.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "tests/htp/weight_test_support.h"

namespace qnn::test {

std::mutex LogCapture::mutex;
std::string LogCapture::text;

namespace {

namespace fs = std::filesystem;

// Conv2d: x [1,H,W,Cin], w [K,K,Cin,Cout] (135 values: odd, so the last byte holds
// one value); FullyConnected: x [N,Cin], w [Cout,Cin] (35 values).
constexpr uint32_t kH = 5, kW = 4, kCin = 3, kCout = 5, kK = 3, kN = 2, kFcIn = 7;
constexpr float kSx = 0.03f, kSb = 0.0005f, kSy = 0.05f;
constexpr int32_t kOffX = -100, kOffY = -128;
constexpr float kSw[kCout] = {0.02f, 0.035f, 0.05f, 0.015f, 0.04f};

struct PackedCase {
  const char* name;
  bool conv;             // Conv2d, else FullyConnected
  bool signedPerChannel; // SFIXED per-channel BW_AXIS_SCALE_OFFSET, else UFIXED per-tensor
  bool packedStatesBitwidth;  // packed per-tensor form as BW_SCALE_OFFSET(4), else SCALE_OFFSET
};

const PackedCase kCases[] = {
    {"ConvS4PerChannel", true, true, true},
    {"ConvU4PerTensor", true, false, true},
    {"FcS4PerChannel", false, true, true},
    {"FcU4PerTensorImpliedBitwidth", false, false, false},
};

// Two values per byte, the first in the low nibble (the test's own packing, the
// reverse of what the runtime has to do).
std::vector<uint8_t> pack4(const std::vector<uint8_t>& values) {
  std::vector<uint8_t> out((values.size() + 1) / 2, 0);
  for (size_t i = 0; i < values.size(); ++i) out[i / 2] |= uint8_t((values[i] & 0x0f) << (i % 2 ? 4 : 0));
  return out;
}

// How the weight's 4-bit values are stored: packed two per byte (SFIXED/UFIXED_POINT_4),
// or one per byte of an 8-bit container (SFIXED/UFIXED_POINT_8 with a bitwidth-4
// encoding), sign-extended or with the upper four bits cleared (how ONNX Runtime's
// QNN EP sends signed 4-bit weights: -3 as 0x0D).
enum class Form { kPacked, kContainer, kMaskedContainer };

// The weight tensor in any form; owns its data and encoding arrays, which the
// tensor points into (so it is not copyable).
struct WeightSpec : TensorSpec {
  std::vector<uint8_t> bytes;
  std::vector<float> scales;
  std::vector<int32_t> offsets;
  WeightSpec(const PackedCase& c, const std::vector<uint8_t>& values, std::vector<uint32_t> dims, Form form)
      : TensorSpec("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UNDEFINED, std::move(dims)) {
    const bool packed = form == Form::kPacked;
    bytes = packed ? pack4(values) : values;
    if (form == Form::kMaskedContainer)
      for (uint8_t& b : bytes) b &= 0x0f;
    tensor.v1.clientBuf = {bytes.data(), uint32_t(bytes.size())};
    Qnn_QuantizeParams_t& q = tensor.v1.quantizeParams;
    q.encodingDefinition = QNN_DEFINITION_DEFINED;
    if (c.signedPerChannel) {
      tensor.v1.dataType = packed ? QNN_DATATYPE_SFIXED_POINT_4 : QNN_DATATYPE_SFIXED_POINT_8;
      scales.assign(kSw, kSw + kCout);
      offsets.assign(kCout, 0);
      q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET;
      q.bwAxisScaleOffsetEncoding = {4, c.conv ? 3 : 0, kCout, scales.data(), offsets.data()};
    } else {
      tensor.v1.dataType = packed ? QNN_DATATYPE_UFIXED_POINT_4 : QNN_DATATYPE_UFIXED_POINT_8;
      if (packed && !c.packedStatesBitwidth) {
        q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
        q.scaleOffsetEncoding = {0.03f, -8};
      } else {
        q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET;
        q.bwScaleOffsetEncoding = {4, 0.03f, -8};
      }
    }
  }
  WeightSpec(const WeightSpec&) = delete;
  WeightSpec& operator=(const WeightSpec&) = delete;
};

// One conv or FC graph with random data, built and run through any backend's table.
class PackedGraph {
 public:
  explicit PackedGraph(const PackedCase& c) : c_(c) {
    std::mt19937 rng(c.conv ? 41 : 43);
    x_.resize(c.conv ? kH * kW * kCin : kN * kFcIn);
    w_.resize(c.conv ? kK * kK * kCin * kCout : kCout * kFcIn);
    b_.resize(kCout);
    for (auto& v : x_) v = uint8_t(rng() % 256);
    // Every 4-bit value, sign-extended into the container when signed.
    for (auto& v : w_) v = c.signedPerChannel ? uint8_t(int8_t(int(rng() % 16) - 8)) : uint8_t(rng() % 16);
    for (auto& v : b_) v = int32_t(rng() % 4001) - 2000;
  }
  std::vector<uint32_t> xDims() const { return c_.conv ? std::vector<uint32_t>{1, kH, kW, kCin} : std::vector<uint32_t>{kN, kFcIn}; }
  std::vector<uint32_t> yDims() const { return c_.conv ? std::vector<uint32_t>{1, kH, kW, kCout} : std::vector<uint32_t>{kN, kCout}; }
  std::vector<uint32_t> wDims() const { return c_.conv ? std::vector<uint32_t>{kK, kK, kCin, kCout} : std::vector<uint32_t>{kCout, kFcIn}; }
  size_t ySize() const { return c_.conv ? kH * kW * kCout : kN * kCout; }
  WeightSpec weight(Form form) const { return WeightSpec(c_, w_, wDims(), form); }
  WeightSpec weight(bool packed) const { return weight(packed ? Form::kPacked : Form::kContainer); }

  // The output codes by the encodings' definition, in double: real = scale * (q + offset)
  // for x, the 4-bit weights (-8..7 signed, 0..15 unsigned) and the bias; the sum
  // quantized to y's encoding, rounded to nearest and saturated to 0..255.
  std::vector<int> reference() const {
    auto xr = [&](size_t i) { return kSx * (double(x_[i]) + kOffX); };
    auto wr = [&](size_t i, uint32_t co) {
      return c_.signedPerChannel ? double(kSw[co]) * double(int8_t(w_[i])) : 0.03 * (double(w_[i]) - 8.0);
    };
    std::vector<int> y(ySize());
    auto code = [](double real) { return int(std::min(255.0, std::max(0.0, std::nearbyint(real / kSy) - kOffY))); };
    if (!c_.conv) {
      for (uint32_t n = 0; n < kN; ++n)
        for (uint32_t co = 0; co < kCout; ++co) {
          double acc = double(kSb) * b_[co];
          for (uint32_t ci = 0; ci < kFcIn; ++ci) acc += xr(n * kFcIn + ci) * wr(co * kFcIn + ci, co);
          y[n * kCout + co] = code(acc);
        }
      return y;
    }
    for (uint32_t h = 0; h < kH; ++h)
      for (uint32_t w = 0; w < kW; ++w)
        for (uint32_t co = 0; co < kCout; ++co) {
          double acc = double(kSb) * b_[co];
          for (uint32_t kh = 0; kh < kK; ++kh)
            for (uint32_t kw = 0; kw < kK; ++kw) {
              const int ih = int(h + kh) - 1, iw = int(w + kw) - 1;  // pad 1, stride 1
              if (ih < 0 || iw < 0 || ih >= int(kH) || iw >= int(kW)) continue;
              for (uint32_t ci = 0; ci < kCin; ++ci)
                acc += xr((size_t(ih) * kW + iw) * kCin + ci) * wr(((kh * kK + kw) * kCin + ci) * kCout + co, co);
            }
          y[(h * kW + w) * kCout + co] = code(acc);
        }
    return y;
  }

  // The node's op config over the given tensors (params owned by `storage`).
  struct Node {
    uint32_t strideData[2] = {1, 1}, padData[4] = {1, 1, 1, 1};
    TensorSpec stride{"stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8};
    TensorSpec pad{"pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16};
    Qnn_Param_t params[2];
    Qnn_Tensor_t inputs[3];
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  };
  void fillNode(Node& n, const Qnn_Tensor_t& x, const Qnn_Tensor_t& w, const Qnn_Tensor_t& b, Qnn_Tensor_t* y) const {
    n.params[0] = tensorParam("stride", n.stride);
    n.params[1] = tensorParam("pad_amount", n.pad);
    n.inputs[0] = x;
    n.inputs[1] = w;
    n.inputs[2] = b;
    if (c_.conv)
      n.op.v1 = {"op0", "qti.aisw", "Conv2d", 2, n.params, 3, n.inputs, 1, y};
    else
      n.op.v1 = {"op0", "qti.aisw", "FullyConnected", 0, nullptr, 3, n.inputs, 1, y};
  }

  Qnn_ErrorHandle_t build(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, Form form,
                          Qnn_GraphHandle_t* g) {
    Qnn_ErrorHandle_t rc = api.graphCreate(ctx, "packed", nullptr, g);
    if (rc != QNN_SUCCESS) return rc;
    QuantSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, xDims(), kSx, kOffX);
    WeightSpec w = weight(form);
    if (updateableWeight) w.tensor.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
    QuantSpec b("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_32, {kCout}, kSb, 0, b_.data(),
                uint32_t(b_.size() * 4));
    QuantSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, yDims(), kSy, kOffY);
    for (TensorSpec* t : {(TensorSpec*)&x, (TensorSpec*)&w, (TensorSpec*)&b, (TensorSpec*)&y})
      if ((rc = api.tensorCreateGraphTensor(*g, &t->tensor)) != QNN_SUCCESS) return rc;
    xId_ = x.tensor.v1.id;
    yId_ = y.tensor.v1.id;
    wId_ = w.tensor.v1.id;
    Node n;
    fillNode(n, x.tensor, w.tensor, b.tensor, &y.tensor);
    if ((rc = api.graphAddNode(*g, n.op)) != QNN_SUCCESS) return rc;
    return api.graphFinalize(*g, nullptr, nullptr);
  }

  Qnn_ErrorHandle_t run(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) const {
    return executeU8(api, g, U8Port{xDims(), kSx, kOffX, xId_}, x_, U8Port{yDims(), kSy, kOffY, yId_}, out);
  }

  // New weight values (the reference follows them), given to an UPDATEABLE_STATIC
  // weight with QnnTensor_updateGraphTensors in the container form `form`.
  Qnn_ErrorHandle_t updateWeights(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t> values,
                                  Form form) {
    w_ = std::move(values);
    WeightSpec w = weight(form);
    w.tensor.v1.id = wId_;
    w.tensor.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
    w.tensor.v1.quantizeParams = QNN_QUANTIZE_PARAMS_INIT;  // data only
    const Qnn_Tensor_t* list[] = {&w.tensor};
    return api.tensorUpdateGraphTensors(g, list, 1);
  }
  const std::vector<uint8_t>& weights() const { return w_; }

  bool updateableWeight = false;

 private:
  PackedCase c_;
  std::vector<uint8_t> x_, w_;
  std::vector<int32_t> b_;
  uint32_t xId_ = 0, yId_ = 0, wId_ = 0;
};

const auto& kBackends = kWeightTestBackends;

std::vector<uint8_t> buildAndRun(Session& s, PackedGraph& graph, Form form, std::vector<uint8_t>* binary = nullptr) {
  return s.buildAndRun(
      [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, Qnn_GraphHandle_t* g) {
        return graph.build(api, ctx, form, g);
      },
      [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) { return graph.run(api, g, out); },
      binary);
}

std::vector<uint8_t> runFromBinary(Session& s, PackedGraph& graph, const std::vector<uint8_t>& binary) {
  return s.runFromBinary(
      "packed",
      [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) { return graph.run(api, g, out); },
      binary);
}

class PackedWeights : public ::testing::TestWithParam<std::tuple<BackendCase, PackedCase>> {};

TEST_P(PackedWeights, OutputsEqualUnpackedContainersAndSurviveContextBinary) {
  const auto& [backendCase, packedCase] = GetParam();
  Session s(backendCase.lib());
  PackedGraph graph(packedCase);
  std::vector<uint8_t> binary;
  std::vector<uint8_t> containers = buildAndRun(s, graph, Form::kContainer);
  std::vector<uint8_t> packed = buildAndRun(s, graph, Form::kPacked, &binary);
  ASSERT_EQ(packed.size(), graph.ySize());
  EXPECT_EQ(packed, containers);
  // Not a degenerate comparison: the outputs spread over many codes.
  std::set<uint8_t> distinct(packed.begin(), packed.end());
  EXPECT_GE(distinct.size(), packed.size() / 3) << "outputs barely vary";
  EXPECT_EQ(runFromBinary(s, graph, binary), packed);
}

INSTANTIATE_TEST_SUITE_P(All, PackedWeights, ::testing::Combine(::testing::ValuesIn(kBackends), ::testing::ValuesIn(kCases)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) + std::get<1>(info.param).name;
                         });

// 4-bit weights in 8-bit containers, as ONNX Runtime's QNN EP sends them (upper bits
// cleared) and sign-extended: the outputs are those of the float64 reference of the
// encodings' definition (within one output step), the two forms give the same bytes,
// and a context binary of the EP's form runs the same.
TEST_P(PackedWeights, ContainerFormsMatchTheReference) {
  const auto& [backendCase, packedCase] = GetParam();
  Session s(backendCase.lib());
  PackedGraph graph(packedCase);
  std::vector<uint8_t> binary;
  std::vector<uint8_t> masked = buildAndRun(s, graph, Form::kMaskedContainer, &binary);
  std::vector<int> want = graph.reference();
  ASSERT_EQ(masked.size(), want.size());
  size_t off = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::abs(int(masked[i]) - want[i]) > 1 && off++ < 5)
      ADD_FAILURE() << "output " << i << ": " << int(masked[i]) << ", the reference " << want[i];
  EXPECT_EQ(off, 0u) << "outputs off the reference by more than one step";
  std::set<int> distinct(want.begin(), want.end());
  EXPECT_GE(distinct.size(), want.size() / 3) << "reference barely varies";
  EXPECT_EQ(buildAndRun(s, graph, Form::kContainer), masked);
  EXPECT_EQ(runFromBinary(s, graph, binary), masked);
}

// An UPDATEABLE_STATIC 4-bit weight in 8-bit containers updated with values whose
// upper bits are cleared: the outputs follow the new values (float64 reference).
TEST_P(PackedWeights, ContainerUpdateWithClearedUpperBitsMatchesTheReference) {
  const auto& [backendCase, packedCase] = GetParam();
  Session s(backendCase.lib());
  PackedGraph graph(packedCase);
  graph.updateableWeight = true;
  auto expectNearReference = [&](const std::vector<uint8_t>& got) {
    std::vector<int> want = graph.reference();
    ASSERT_EQ(got.size(), want.size());
    size_t off = 0;
    for (size_t i = 0; i < want.size(); ++i) off += std::abs(int(got[i]) - want[i]) > 1;
    EXPECT_EQ(off, 0u) << off << " outputs off the reference by more than one step";
  };
  const QNN_INTERFACE_VER_TYPE& api = s.api();
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api.contextCreate(s.backend(), nullptr, nullptr, &ctx), QNN_SUCCESS);
  ASSERT_EQ(graph.build(api, ctx, Form::kContainer, &g), QNN_SUCCESS) << LogCapture::take();
  std::vector<uint8_t> before, after;
  ASSERT_EQ(graph.run(api, g, &before), QNN_SUCCESS) << LogCapture::take();
  expectNearReference(before);
  std::vector<uint8_t> reversed(graph.weights().rbegin(), graph.weights().rend());
  ASSERT_EQ(graph.updateWeights(api, g, reversed, Form::kMaskedContainer), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(api.graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(graph.run(api, g, &after), QNN_SUCCESS) << LogCapture::take();
  EXPECT_NE(after, before);
  expectNearReference(after);
  EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
}

// A 4-bit activation (SFIXED_POINT_8 with a bitwidth-4 encoding) on the CPU: read
// from either container form, and written saturated to -8..7, sign-extended.
// x = 0.5 * {-3 (0x0D, upper bits cleared), 7, -8 (0x08), 1}: x + x = {-3, 7, -8, 1}
// -> {-6, 14, -16, 2} saturated to {-6, 7, -8, 2}; Dequantize(x) = {-1.5, 3.5, -4, 0.5}.
// The HTP takes 4-bit data only as static weights and refuses the tensor.
TEST(FourBitActivations, ReadInEitherFormAndSaturatedToTheBitwidthOnTheCpu) {
  Session s(cpuLib());
  const QNN_INTERFACE_VER_TYPE& api = s.api();
  auto bw4 = [](TensorSpec& t) {
    t.tensor.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
    t.tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET;
    t.tensor.v1.quantizeParams.bwScaleOffsetEncoding = {4, 0.5f, 0};
  };
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_SFIXED_POINT_8, {4});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_SFIXED_POINT_8, {4});
  TensorSpec z("z", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {4});
  bw4(x);
  bw4(y);
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api.contextCreate(s.backend(), nullptr, nullptr, &ctx), QNN_SUCCESS);
  ASSERT_EQ(api.graphCreate(ctx, "act4", nullptr, &g), QNN_SUCCESS);
  for (TensorSpec* t : {&x, &y, &z}) ASSERT_EQ(api.tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS) << LogCapture::take();
  Qnn_Tensor_t addIn[2] = {x.tensor, x.tensor};
  Qnn_OpConfig_t add = QNN_OPCONFIG_INIT, dq = QNN_OPCONFIG_INIT;
  add.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &y.tensor};
  dq.v1 = {"dq", "qti.aisw", "Dequantize", 0, nullptr, 1, &x.tensor, 1, &z.tensor};
  ASSERT_EQ(api.graphAddNode(g, add), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(api.graphAddNode(g, dq), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(api.graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  for (uint8_t minusThree : {uint8_t(0x0D), uint8_t(0xFD)}) {
    uint8_t xData[4] = {minusThree, 0x07, uint8_t(minusThree == 0x0D ? 0x08 : 0xF8), 0x01};
    uint8_t yData[4] = {};
    float zData[4] = {};
    Qnn_Tensor_t in = x.tensor, outs[2] = {y.tensor, z.tensor};
    in.v1.clientBuf = {xData, sizeof xData};
    outs[0].v1.clientBuf = {yData, sizeof yData};
    outs[1].v1.clientBuf = {zData, sizeof zData};
    ASSERT_EQ(api.graphExecute(g, &in, 1, outs, 2, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
    EXPECT_EQ(std::vector<uint8_t>(yData, yData + 4), (std::vector<uint8_t>{0xFA, 0x07, 0xF8, 0x02})) << int(minusThree);
    EXPECT_EQ(std::vector<float>(zData, zData + 4), (std::vector<float>{-1.5f, 3.5f, -4.f, 0.5f})) << int(minusThree);
  }
  EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);

  Session htp(htpLib());
  Qnn_ContextHandle_t hctx = nullptr;
  Qnn_GraphHandle_t hg = nullptr;
  ASSERT_EQ(htp.api().contextCreate(htp.backend(), nullptr, nullptr, &hctx), QNN_SUCCESS);
  ASSERT_EQ(htp.api().graphCreate(hctx, "act4", nullptr, &hg), QNN_SUCCESS);
  TensorSpec hx = x, hy = y;
  hx.tensor.v1.id = hy.tensor.v1.id = 0;
  for (TensorSpec* t : {&hx, &hy}) ASSERT_EQ(htp.api().tensorCreateGraphTensor(hg, &t->tensor), QNN_SUCCESS);
  Qnn_Tensor_t hAddIn[2] = {hx.tensor, hx.tensor};
  add.v1.inputTensors = hAddIn;
  add.v1.outputTensors = &hy.tensor;
  LogCapture::take();
  EXPECT_NE(htp.api().graphAddNode(hg, add), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("is 4-bit; the HTP takes 4-bit data only as static weights"), std::string::npos);
  EXPECT_EQ(htp.api().contextFree(hctx, nullptr), QNN_SUCCESS);
}

// The op config with packed weights passes the HTP's per-op validation, as the
// container form does.
TEST(PackedWeightsValidation, ValidateOpConfigAcceptsPackedWeights) {
  Session s(htpLib());
  for (const PackedCase& c : kCases) {
    PackedGraph graph(c);
    QuantSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, graph.xDims(), kSx, kOffX);
    WeightSpec w = graph.weight(true);
    int32_t bias[kCout] = {};
    QuantSpec b("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_32, {kCout}, kSb, 0, bias, sizeof bias);
    QuantSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, graph.yDims(), kSy, kOffY);
    PackedGraph::Node n;
    graph.fillNode(n, x.tensor, w.tensor, b.tensor, &y.tensor);
    EXPECT_EQ(s.api().backendValidateOpConfig(s.backend(), n.op), QNN_SUCCESS) << c.name << LogCapture::take();
    // Without data (only shape and type count for validation) as well.
    n.inputs[1].v1.clientBuf = {nullptr, 0};
    EXPECT_EQ(s.api().backendValidateOpConfig(s.backend(), n.op), QNN_SUCCESS) << c.name << LogCapture::take();
  }
}

class PackedWeightsRefusal : public ::testing::TestWithParam<BackendCase> {};

TEST_P(PackedWeightsRefusal, MalformedAndUnsupportedTensorsAreRefused) {
  Session s(GetParam().lib());
  PackedGraph graph(kCases[2]);  // FC weights: 35 values, 18 packed bytes
  auto expectRefused = [&](const Qnn_Tensor_t& t, const std::string& message,
                           Qnn_ErrorHandle_t code = QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM) {
    auto [rc, log] = s.create(t);
    EXPECT_EQ(rc, code) << message;
    EXPECT_NE(log.find(message), std::string::npos) << log;
  };
  // Wrong dataSize: one value per byte, or one byte short.
  {
    WeightSpec w = graph.weight(true);
    ASSERT_EQ(w.bytes.size(), 18u);
    w.tensor.v1.clientBuf.dataSize = 35;
    expectRefused(w.tensor, "tensor 'w': static data is 35 bytes, expected 18 (35 4-bit values, two per byte)");
    w.tensor.v1.clientBuf.dataSize = 17;
    expectRefused(w.tensor, "static data is 17 bytes, expected 18");
  }
  // 4-bit data the client would read or write at execution.
  {
    QuantSpec in("x4", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_4, {2, 3}, 0.1f, 0);
    expectRefused(in.tensor, "tensor 'x4': datatype UFIXED_POINT_4 is supported only for STATIC tensors",
                  QNN_COMMON_ERROR_NOT_SUPPORTED);
    QuantSpec native("n4", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_SFIXED_POINT_4, {2, 3}, 0.1f, 0);
    expectRefused(native.tensor, "tensor 'n4': datatype SFIXED_POINT_4 is supported only for STATIC tensors",
                  QNN_COMMON_ERROR_NOT_SUPPORTED);
  }
  // A 4-bit type whose encoding claims another width, or has none.
  {
    WeightSpec w = graph.weight(true);
    w.tensor.v1.quantizeParams.bwAxisScaleOffsetEncoding.bitwidth = 8;
    expectRefused(w.tensor, "tensor 'w': datatype SFIXED_POINT_4 holds 4-bit values but its encoding says bitwidth 8");
    w.tensor.v1.quantizeParams = QNN_QUANTIZE_PARAMS_INIT;
    expectRefused(w.tensor, "tensor 'w': fixed-point datatype SFIXED_POINT_4 needs quantization params");
  }
  // An 8-bit container whose value is outside the 4-bit range (neither the value nor
  // its low four bits with the upper bits cleared): 0x25 signed, 0x1f unsigned.
  {
    WeightSpec w = graph.weight(Form::kContainer);
    w.bytes[6] = 0x25;
    expectRefused(w.tensor, "tensor 'w': element 6 of the static data (0x25) is outside the 4-bit range -8..7");
    PackedGraph unsignedGraph(kCases[3]);
    WeightSpec u = unsignedGraph.weight(Form::kContainer);
    u.bytes[0] = 0x1f;
    expectRefused(u.tensor, "tensor 'w': element 0 of the static data (0x1f) is outside the 4-bit range 0..15");
  }
  // The other datatypes added after 2.7, static or not.
  {
    char text[8] = "abcdefg";
    TensorSpec str("s", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_STRING, {1}, text, sizeof text);
    expectRefused(str.tensor, "tensor 's': datatype STRING is not supported");
    TensorSpec bf("bf", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_BFLOAT_16, {4});
    expectRefused(bf.tensor, "tensor 'bf': datatype BFLOAT_16 is not supported");
    TensorSpec f64("f64", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_64, {4});
    expectRefused(f64.tensor, "tensor 'f64': datatype FLOAT_64 is not supported");
    TensorSpec odd("odd", QNN_TENSOR_TYPE_APP_READ, Qnn_DataType_t(0x0999), {4});
    expectRefused(odd.tensor, "tensor 'odd': datatype 0x0999 is not supported");
  }
}

INSTANTIATE_TEST_SUITE_P(All, PackedWeightsRefusal, ::testing::ValuesIn(kBackends),
                         [](const auto& info) { return std::string(info.param.name); });

// The Saver records the client's bytes as given (packed, and 8-bit containers with
// the upper bits cleared, with their bitwidth-4 encoding); the recording, made with
// pass-through to the HTP, replays on the HTP with the same outputs.
TEST(PackedWeightsSaver, RecordingReplaysOnTheHtp) {
  fs::path dir = fs::temp_directory_path() / ("packed4_saver_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  PackedGraph graph(kCases[0]);
  std::vector<uint8_t> direct, directMasked;
  {
    Session htp(htpLib());
    direct = buildAndRun(htp, graph, Form::kPacked);
    directMasked = buildAndRun(htp, graph, Form::kMaskedContainer);
  }
  setenv("QNN_SAVER_BACKEND", QNN_TEST_HTP_BACKEND_PATH, 1);
  LoadedBackend saver(QNN_TEST_SAVER_PATH);
  ASSERT_EQ(startSaver(saver, dir), "");
  {
    Session recorded(saver);
    EXPECT_EQ(buildAndRun(recorded, graph, Form::kPacked), direct);
    EXPECT_EQ(buildAndRun(recorded, graph, Form::kMaskedContainer), directMasked);
  }
  ASSERT_TRUE(fs::exists(dir / "saver_output.qnntrace"));
  auto [status, text] = replayRecording(dir, QNN_TEST_HTP_BACKEND_PATH);
  EXPECT_EQ(status, 0) << text;
  EXPECT_NE(text.find("compared 2 outputs"), std::string::npos) << text;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace qnn::test
