// Blockwise-expansion ("LPBQ") static weights (QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION:
// a per-channel scale, and per block of input channels an integer multiplier of it) through the
// C API of libQnnCpu.so and libQnnHtp.so, in the form ExecuTorch, ONNX Runtime and MNN build them
// (HWIO Conv2d filters with axis 3, [out, in] FullyConnected weights with axis 0, 4-bit values in
// 8-bit containers or packed two per byte, multipliers in 1..16). Checked: outputs within one step
// of a float64 reference computed here from the encoding's definition; byte-identical to the same
// graph given the weights pre-expanded by this test into a per-channel encoding; through a context
// binary and a Saver recording replayed by qnn-trace-replay; malformed encodings refused with their
// messages.
#include <dlfcn.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "QnnProperty.h"
#include "tests/htp/weight_test_support.h"

namespace qnn::test {

std::mutex LogCapture::mutex;
std::string LogCapture::text;

namespace {

namespace fs = std::filesystem;

constexpr uint32_t kH = 4, kW = 4, kCin = 8, kCout = 4, kK = 3, kConvBlocks = 4;
constexpr uint32_t kN = 3, kFcIn = 12, kFcBlocks = 3;
constexpr float kSx = 0.03f, kSy = 0.1f;
constexpr int32_t kOffX = -100, kOffY = -128;
// Powers of two, so that channel scale x multiplier x value is exact in float either way round.
constexpr float kChannelScale[kCout] = {1.f / 64, 1.f / 128, 1.f / 32, 1.f / 256};

// kPacked4: the blockwise form with its 4-bit values packed two per byte (QNN_DATATYPE_SFIXED_POINT_4).
enum class Form { kBlockwise8, kBlockwise16, kPacked4, kExpanded, kUnitMultipliers };

struct BlockCase {
  const char* name;
  bool conv;
};
const BlockCase kCases[] = {{"Conv", true}, {"Fc", false}};

// The weight tensor in one form; owns the arrays its encoding points into (not copyable).
struct BlockWeight : TensorSpec {
  std::vector<uint8_t> bytes;
  std::vector<Qnn_ScaleOffset_t> scaleOffsets;
  std::vector<uint8_t> scales8;
  std::vector<uint16_t> scales16;
  Qnn_BlockwiseExpansion_t expansion = QNN_BLOCKWISE_EXPANSION_INIT;
  BlockWeight(std::vector<uint32_t> dims, int32_t axis, uint32_t blocks, const std::vector<int8_t>& values,
              const std::vector<uint8_t>& multipliers, const std::vector<int8_t>& expanded, Form form)
      : TensorSpec("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_8, std::move(dims)) {
    const std::vector<int8_t>& v = form == Form::kExpanded ? expanded : values;
    bytes.assign(reinterpret_cast<const uint8_t*>(v.data()), reinterpret_cast<const uint8_t*>(v.data()) + v.size());
    if (form == Form::kPacked4) {  // first element in the low nibble
      std::vector<uint8_t> packed((v.size() + 1) / 2, 0);
      for (size_t i = 0; i < v.size(); ++i) packed[i / 2] |= uint8_t((uint8_t(v[i]) & 0x0f) << (i % 2 ? 4 : 0));
      bytes = packed;
      tensor.v1.dataType = QNN_DATATYPE_SFIXED_POINT_4;
    }
    tensor.v1.clientBuf = {bytes.data(), uint32_t(bytes.size())};
    for (float s : kChannelScale) scaleOffsets.push_back({s, 0});
    Qnn_QuantizeParams_t& q = tensor.v1.quantizeParams;
    q.encodingDefinition = QNN_DEFINITION_DEFINED;
    if (form == Form::kExpanded || form == Form::kUnitMultipliers) {
      q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET;
      q.axisScaleOffsetEncoding = {axis, kCout, scaleOffsets.data()};
      return;
    }
    q.quantizationEncoding = QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION;
    expansion.axis = axis;
    expansion.scaleOffsets = scaleOffsets.data();
    expansion.numBlocksPerAxis = blocks;
    expansion.blockScaleBitwidth = 4;
    if (form == Form::kBlockwise16) {
      scales16.assign(multipliers.begin(), multipliers.end());
      expansion.blockScaleStorageType = QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_16;
      expansion.blocksScale16 = scales16.data();
    } else {
      scales8 = multipliers;
      expansion.blockScaleStorageType = QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_8;
      expansion.blocksScale8 = scales8.data();
    }
    q.blockwiseExpansion = &expansion;
  }
  BlockWeight(const BlockWeight&) = delete;
  BlockWeight& operator=(const BlockWeight&) = delete;
};

class BlockGraph {
 public:
  explicit BlockGraph(const BlockCase& c) : c_(c) {
    std::mt19937 rng(c.conv ? 7 : 11);
    x_.resize(c.conv ? kH * kW * kCin : kN * kFcIn);
    for (auto& v : x_) v = uint8_t(rng() % 256);
    const std::vector<uint32_t> d = wDims();
    q_.resize(size_t(d[0]) * d[1] * (d.size() > 2 ? d[2] * d[3] : 1));
    for (auto& v : q_) v = int8_t(int(rng() % 16) - 8);
    setMultipliers(rng);
  }
  // New block multipliers (1..16) drawn from `rng`; the expanded form follows.
  void setMultipliers(std::mt19937& rng) {
    mult_.assign(kCout * blocks(), 0);
    for (auto& m : mult_) m = uint8_t(1 + rng() % 16);
    expanded_.resize(q_.size());
    for (size_t i = 0; i < q_.size(); ++i) expanded_[i] = int8_t(q_[i] * int(multiplierOf(i)));
  }
  uint32_t weightId() const { return wId_; }
  uint32_t blocks() const { return c_.conv ? kConvBlocks : kFcBlocks; }
  int32_t axis() const { return c_.conv ? 3 : 0; }
  std::vector<uint32_t> xDims() const { return c_.conv ? std::vector<uint32_t>{1, kH, kW, kCin} : std::vector<uint32_t>{kN, kFcIn}; }
  std::vector<uint32_t> yDims() const { return c_.conv ? std::vector<uint32_t>{1, kH, kW, kCout} : std::vector<uint32_t>{kN, kCout}; }
  std::vector<uint32_t> wDims() const { return c_.conv ? std::vector<uint32_t>{kK, kK, kCin, kCout} : std::vector<uint32_t>{kCout, kFcIn}; }
  size_t ySize() const { return c_.conv ? kH * kW * kCout : kN * kCout; }

  // Output channel and input channel of weight element i, in the layout of each op.
  uint32_t outChannelOf(size_t i) const { return c_.conv ? uint32_t(i % kCout) : uint32_t(i / kFcIn); }
  uint32_t inChannelOf(size_t i) const { return c_.conv ? uint32_t((i / kCout) % kCin) : uint32_t(i % kFcIn); }
  uint8_t multiplierOf(size_t i) const {
    const uint32_t blockLen = (c_.conv ? kCin : kFcIn) / blocks();
    return mult_[outChannelOf(i) * blocks() + inChannelOf(i) / blockLen];
  }
  // The real weight by the encoding's definition: scale[c] * multiplier[c][block] * q.
  double realWeight(size_t i) const { return double(kChannelScale[outChannelOf(i)]) * multiplierOf(i) * q_[i]; }

  std::unique_ptr<BlockWeight> weight(Form f) const {
    return std::make_unique<BlockWeight>(wDims(), axis(), blocks(), q_, mult_, expanded_, f);
  }

  // The float64 reference: dequantized input and weights, convolution (SAME, stride 1) or
  // x W^T, zero bias, then quantized to the output encoding (round half to even, saturated).
  std::vector<uint8_t> reference() const {
    std::vector<uint8_t> out(ySize());
    auto xr = [&](size_t i) { return double(kSx) * (int(x_[i]) + kOffX); };
    auto quant = [&](double v) {
      double q = std::nearbyint(v / kSy) - kOffY;
      return uint8_t(std::min(255.0, std::max(0.0, q)));
    };
    if (!c_.conv) {
      for (uint32_t n = 0; n < kN; ++n)
        for (uint32_t o = 0; o < kCout; ++o) {
          double acc = 0;
          for (uint32_t k = 0; k < kFcIn; ++k) acc += xr(n * kFcIn + k) * realWeight(o * kFcIn + k);
          out[n * kCout + o] = quant(acc);
        }
      return out;
    }
    for (uint32_t y = 0; y < kH; ++y)
      for (uint32_t x = 0; x < kW; ++x)
        for (uint32_t o = 0; o < kCout; ++o) {
          double acc = 0;
          for (uint32_t ky = 0; ky < kK; ++ky)
            for (uint32_t kx = 0; kx < kK; ++kx) {
              int iy = int(y + ky) - 1, ix = int(x + kx) - 1;
              if (iy < 0 || ix < 0 || iy >= int(kH) || ix >= int(kW)) continue;
              for (uint32_t i = 0; i < kCin; ++i)
                acc += xr((size_t(iy) * kW + ix) * kCin + i) * realWeight(((ky * kK + kx) * kCin + i) * kCout + o);
            }
          out[(y * kW + x) * kCout + o] = quant(acc);
        }
    return out;
  }

  struct Node {
    uint32_t strideData[2] = {1, 1}, padData[4] = {1, 1, 1, 1};
    TensorSpec stride{"stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8};
    TensorSpec pad{"pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16};
    Qnn_Param_t params[2];
    Qnn_Tensor_t inputs[2];
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  };
  void fillNode(Node& n, const Qnn_Tensor_t& x, const Qnn_Tensor_t& w, Qnn_Tensor_t* y) const {
    n.params[0] = tensorParam("stride", n.stride);
    n.params[1] = tensorParam("pad_amount", n.pad);
    n.inputs[0] = x;
    n.inputs[1] = w;
    if (c_.conv)
      n.op.v1 = {"op0", "qti.aisw", "Conv2d", 2, n.params, 2, n.inputs, 1, y};
    else
      n.op.v1 = {"op0", "qti.aisw", "FullyConnected", 0, nullptr, 2, n.inputs, 1, y};
  }

  Qnn_ErrorHandle_t build(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, const BlockWeight& w,
                          Qnn_GraphHandle_t* g) {
    Qnn_ErrorHandle_t rc = api.graphCreate(ctx, "blockwise", nullptr, g);
    if (rc != QNN_SUCCESS) return rc;
    QuantSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, xDims(), kSx, kOffX);
    QuantSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, yDims(), kSy, kOffY);
    Qnn_Tensor_t wt = w.tensor;
    if (updateableWeight_) wt.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
    if ((rc = api.tensorCreateGraphTensor(*g, &x.tensor)) != QNN_SUCCESS) return rc;
    if ((rc = api.tensorCreateGraphTensor(*g, &wt)) != QNN_SUCCESS) return rc;
    if ((rc = api.tensorCreateGraphTensor(*g, &y.tensor)) != QNN_SUCCESS) return rc;
    xId_ = x.tensor.v1.id;
    wId_ = wt.v1.id;
    yId_ = y.tensor.v1.id;
    Node n;
    fillNode(n, x.tensor, wt, &y.tensor);
    if ((rc = api.graphAddNode(*g, n.op)) != QNN_SUCCESS) return rc;
    return api.graphFinalize(*g, nullptr, nullptr);
  }

  Qnn_ErrorHandle_t run(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) const {
    return executeU8(api, g, U8Port{xDims(), kSx, kOffX, xId_}, x_, U8Port{yDims(), kSy, kOffY, yId_}, out);
  }

 private:
  BlockCase c_;
  std::vector<uint8_t> x_;
  std::vector<int8_t> q_, expanded_;
  std::vector<uint8_t> mult_;
  uint32_t xId_ = 0, yId_ = 0, wId_ = 0;

 public:
  bool updateableWeight_ = false;  // create the weight as UPDATEABLE_STATIC
};

const auto& kBackends = kWeightTestBackends;

std::vector<uint8_t> buildAndRun(Session& s, BlockGraph& graph, Form form, std::vector<uint8_t>* binary = nullptr) {
  auto w = graph.weight(form);
  return s.buildAndRun(
      [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, Qnn_GraphHandle_t* g) {
        return graph.build(api, ctx, *w, g);
      },
      [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) { return graph.run(api, g, out); },
      binary);
}

int maxDifference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  int d = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, std::abs(int(a[i]) - int(b[i])));
  return d;
}

class BlockwiseWeights : public ::testing::TestWithParam<std::tuple<BackendCase, BlockCase>> {};

TEST_P(BlockwiseWeights, MatchReferenceAndExpandedFormAndSurviveContextBinary) {
  const auto& [backendCase, blockCase] = GetParam();
  Session s(backendCase.lib());
  BlockGraph graph(blockCase);
  std::vector<uint8_t> binary;
  const std::vector<uint8_t> blockwise = buildAndRun(s, graph, Form::kBlockwise8, &binary);
  ASSERT_EQ(blockwise.size(), graph.ySize());
  const std::vector<uint8_t> reference = graph.reference();
  EXPECT_LE(maxDifference(blockwise, reference), 1) << "more than one step from the float64 reference";
  std::set<uint8_t> distinct(reference.begin(), reference.end());
  EXPECT_GE(distinct.size(), reference.size() / 4) << "reference outputs barely vary";
  // The multipliers matter: without them (all 1) the outputs are far off.
  EXPECT_GT(maxDifference(buildAndRun(s, graph, Form::kUnitMultipliers), reference), 8);
  EXPECT_EQ(buildAndRun(s, graph, Form::kExpanded), blockwise);
  EXPECT_EQ(buildAndRun(s, graph, Form::kBlockwise16), blockwise);
  EXPECT_EQ(buildAndRun(s, graph, Form::kPacked4), blockwise);
  EXPECT_EQ(s.runFromBinary(
                "blockwise",
                [&](const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, std::vector<uint8_t>* out) {
                  return graph.run(api, g, out);
                },
                binary),
            blockwise);
  if (std::string(backendCase.name) == "Htp" && blockCase.conv) {
    // The prepared graph refers to the graph's blockwise weights instead of storing their
    // expansion again (prepared format 4): the binary is the expanded form's plus the block
    // multipliers, not plus a second copy of the 288 weight bytes (the conv case, whose weights
    // outweigh the encoding's extra bytes).
    std::vector<uint8_t> expandedBinary;
    buildAndRun(s, graph, Form::kExpanded, &expandedBinary);
    const size_t weightBytes = graph.weight(Form::kExpanded)->bytes.size();
    EXPECT_LT(binary.size(), expandedBinary.size() + weightBytes)
        << "blockwise binary " << binary.size() << " bytes, expanded form " << expandedBinary.size();
  }
}

INSTANTIATE_TEST_SUITE_P(All, BlockwiseWeights, ::testing::Combine(::testing::ValuesIn(kBackends), ::testing::ValuesIn(kCases)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) + std::get<1>(info.param).name;
                         });

// An UPDATEABLE_STATIC blockwise weight given new block multipliers through
// QnnTensor_updateGraphTensors (as LoRA-style weight updates do) and applied by the next
// QnnGraph_finalize: the graph then computes what a graph built with those multipliers computes.
TEST_P(BlockwiseWeights, UpdatedMultipliersTakeEffect) {
  const auto& [backendCase, blockCase] = GetParam();
  Session s(backendCase.lib());
  BlockGraph graph(blockCase);
  graph.updateableWeight_ = true;
  BlockGraph changed = graph;
  std::mt19937 rng(99);
  changed.setMultipliers(rng);
  const std::vector<uint8_t> want = buildAndRun(s, changed, Form::kBlockwise8);
  EXPECT_LE(maxDifference(want, changed.reference()), 1);
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(s.api().contextCreate(s.backend(), nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  auto w = graph.weight(Form::kBlockwise8);
  ASSERT_EQ(graph.build(s.api(), ctx, *w, &g), QNN_SUCCESS) << LogCapture::take();
  std::vector<uint8_t> before, after;
  ASSERT_EQ(graph.run(s.api(), g, &before), QNN_SUCCESS) << LogCapture::take();
  EXPECT_NE(before, want);
  auto update = changed.weight(Form::kBlockwise8);
  update->tensor.v1.id = graph.weightId();
  update->tensor.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
  const Qnn_Tensor_t* list[] = {&update->tensor};
  ASSERT_EQ(s.api().tensorUpdateGraphTensors(g, list, 1), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(s.api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(graph.run(s.api(), g, &after), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(after, want);
  // A different number of blocks per channel is refused; the graph keeps the update before it.
  auto other = changed.weight(Form::kBlockwise8);
  other->tensor.v1.id = graph.weightId();
  other->expansion.numBlocksPerAxis = 1;
  other->scales8.resize(kCout);
  const Qnn_Tensor_t* bad[] = {&other->tensor};
  LogCapture::take();
  EXPECT_NE(s.api().tensorUpdateGraphTensors(g, bad, 1), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("number of blocks"), std::string::npos);
  ASSERT_EQ(graph.run(s.api(), g, &after), QNN_SUCCESS);
  EXPECT_EQ(after, want);
  EXPECT_EQ(s.api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

class BlockwiseBackend : public ::testing::TestWithParam<BackendCase> {};

TEST_P(BlockwiseBackend, PropertySaysSupported) {
  Session s(GetParam().lib());
  EXPECT_EQ(s.api().propertyHasCapability(QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION),
            QNN_PROPERTY_SUPPORTED);
}

TEST_P(BlockwiseBackend, MalformedEncodingsAreRefused) {
  Session s(GetParam().lib());
  BlockGraph fc(kCases[1]);
  auto expectRefused = [&](const Qnn_Tensor_t& t, Qnn_ErrorHandle_t code, const std::string& message) {
    auto [rc, log] = s.create(t);
    EXPECT_EQ(rc, code) << message;
    EXPECT_NE(log.find(message), std::string::npos) << log;
  };
  const Qnn_ErrorHandle_t invalid = QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM;
  {
    auto w = fc.weight(Form::kBlockwise8);
    w->expansion.numBlocksPerAxis = 5;
    expectRefused(w->tensor, invalid, "numBlocksPerAxis 5 does not divide dimension 1 (12) into equal blocks");
    w->expansion.numBlocksPerAxis = 0;
    expectRefused(w->tensor, invalid, "numBlocksPerAxis 0 does not divide");
  }
  {
    auto w = fc.weight(Form::kBlockwise8);
    w->expansion.axis = 2;
    expectRefused(w->tensor, invalid, "blockwise-expansion quantization: axis 2 is outside the tensor's rank");
    w->expansion.blocksScale8 = nullptr;
    w->expansion.axis = 0;
    expectRefused(w->tensor, invalid, "blockwise-expansion quantization: the block scales are null");
  }
  {
    auto w = fc.weight(Form::kBlockwise8);
    w->expansion.blockScaleStorageType = QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_UNDEFINED;
    expectRefused(w->tensor, invalid, "unknown blockScaleStorageType");
    w->expansion.blockScaleStorageType = QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_8;
    w->expansion.scaleOffsets = nullptr;
    expectRefused(w->tensor, invalid, "scaleOffsets is null");
    w->tensor.v1.quantizeParams.blockwiseExpansion = nullptr;
    expectRefused(w->tensor, invalid, "blockwiseExpansion is null");
  }
  {
    // A channel axis in the middle of a rank-4 tensor has no established block axis.
    BlockGraph conv(kCases[0]);
    auto w = conv.weight(Form::kBlockwise8);
    w->expansion.axis = 1;
    expectRefused(w->tensor, invalid, "axis 1 of a rank-4 tensor has no block axis");
  }
  {
    // Encodings of QnnTypes.h 2.32 that no backend here reads: refused as not supported.
    auto w = fc.weight(Form::kBlockwise8);
    w->tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_VECTOR;
    auto [rc, log] = s.create(w->tensor);
    EXPECT_EQ(rc, QNN_COMMON_ERROR_NOT_SUPPORTED);
    EXPECT_NE(log.find("quantization encoding QNN_QUANTIZATION_ENCODING_VECTOR is not supported"), std::string::npos) << log;
  }
}

INSTANTIATE_TEST_SUITE_P(All, BlockwiseBackend, ::testing::ValuesIn(kBackends),
                         [](const auto& info) { return std::string(info.param.name); });

// The HTP expands into the weight's own datatype; a multiplier that takes a value past it is
// refused when the node is added (the CPU, which dequantizes to float, runs it).
TEST(BlockwiseHtp, ExpansionBeyondTheDatatypeIsRefusedAtAddNode) {
  BlockGraph graph(kCases[1]);
  auto w = graph.weight(Form::kBlockwise8);
  for (auto& m : w->scales8) m = 17;  // -8 x 17 = -136 < -128
  {
    Session s(htpLib());
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(s.api().contextCreate(s.backend(), nullptr, nullptr, &ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    LogCapture::take();
    EXPECT_NE(graph.build(s.api(), ctx, *w, &g), QNN_SUCCESS);
    std::string log = LogCapture::take();
    EXPECT_NE(log.find("outside the SFIXED_POINT_8 range the HTP expands into"), std::string::npos) << log;
    EXPECT_EQ(s.api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
  {
    Session s(cpuLib());
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(s.api().contextCreate(s.backend(), nullptr, nullptr, &ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(graph.build(s.api(), ctx, *w, &g), QNN_SUCCESS) << LogCapture::take();
    EXPECT_EQ(s.api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
}

// Recorded through the Saver (pass-through to the HTP; the Saver initializes once per process),
// replayed by qnn-trace-replay on the HTP with the recorded outputs compared, and on the CPU.
TEST(BlockwiseSaver, RecordingReplaysOnHtpAndCpu) {
  fs::path dir = fs::temp_directory_path() / ("blockwise_saver_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  BlockGraph graph(kCases[0]);
  std::vector<uint8_t> direct;
  {
    Session s(htpLib());
    direct = buildAndRun(s, graph, Form::kBlockwise8);
  }
  setenv("QNN_SAVER_BACKEND", QNN_TEST_HTP_BACKEND_PATH, 1);
  LoadedBackend saver(QNN_TEST_SAVER_PATH);
  ASSERT_EQ(startSaver(saver, dir), "");
  {
    Session recorded(saver);
    EXPECT_EQ(buildAndRun(recorded, graph, Form::kBlockwise8), direct);
  }
  ASSERT_TRUE(fs::exists(dir / "saver_output.qnntrace"));
  for (const char* backendPath : {QNN_TEST_HTP_BACKEND_PATH, QNN_TEST_CPU_BACKEND_PATH}) {
    auto [status, text] = replayRecording(dir, backendPath);
    EXPECT_EQ(status, 0) << backendPath << "\n" << text;
    EXPECT_NE(text.find("compared 1 outputs"), std::string::npos) << text;
  }
  // The C program the Saver wrote (Qnn_BlockwiseExpansion_t built in C) compiles strictly and, run on
  // the CPU backend, gives the recorded output.
  std::vector<uint8_t> bytes;
  ASSERT_EQ(runSaverProgram(dir, QNN_TEST_CPU_BACKEND_PATH, "y", &bytes), "");
  EXPECT_EQ(bytes, direct);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace qnn::test
