// The HTP simulator end to end through dlopen: refusals with their messages, a
// quantized conv+relu graph bit-exact against an independent integer reference,
// the prepared graph through a context binary, profiling events, memfd shared
// buffers and the simulated subsystem restart.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include "HTP/QnnHtpMem.h"
#include "HTP/QnnHtpProfile.h"
#include "tests/htp/htp_test_util.h"

namespace qnn::test {
namespace {

constexpr uint32_t kH = 5, kW = 6, kCin = 3, kCout = 4, kK = 3;
constexpr float kSx = 0.05f, kSb = 0.0004f, kSconv = 0.08f, kSout = 0.06f;
constexpr int32_t kOffX = -128, kOffConv = -90, kOffOut = -20;
const float kSw[kCout] = {0.01f, 0.02f, 0.015f, 0.03f};

// Conv (NHWC, HWIO per-channel int8 weights, pad 1) requantized straight into the
// relu output's encoding and clamped at its zero: what the HTP's conv+relu fusion computes.
std::vector<uint8_t> referenceConvRelu(const std::vector<uint8_t>& x, const std::vector<int8_t>& w,
                                       const std::vector<int32_t>& b) {
  std::vector<uint8_t> out(kH * kW * kCout);
  for (uint32_t oh = 0; oh < kH; ++oh)
    for (uint32_t ow = 0; ow < kW; ++ow)
      for (uint32_t co = 0; co < kCout; ++co) {
        int64_t acc = std::llround(double(kSb) * b[co] / (double(kSx) * double(kSw[co])));
        for (uint32_t kh = 0; kh < kK; ++kh)
          for (uint32_t kw = 0; kw < kK; ++kw) {
            int ih = int(oh) + int(kh) - 1, iw = int(ow) + int(kw) - 1;
            if (ih < 0 || iw < 0 || ih >= int(kH) || iw >= int(kW)) continue;
            for (uint32_t ci = 0; ci < kCin; ++ci)
              acc += int64_t(x[(ih * kW + iw) * kCin + ci] + kOffX) * w[((kh * kK + kw) * kCin + ci) * kCout + co];
          }
        int64_t q = requantizeRef(acc, double(kSx) * double(kSw[co]) / double(kSout)) - kOffOut;
        q = std::max<int64_t>(q, -kOffOut);  // relu: real 0 in the output encoding
        out[(oh * kW + ow) * kCout + co] = uint8_t(std::min<int64_t>(q, 255));
      }
  return out;
}

class HtpGraphTest : public HtpTest {
 protected:
  void SetUp() override {
    HtpTest::SetUp();
    std::mt19937 rng(11);
    x.resize(kH * kW * kCin);
    w.resize(kK * kK * kCin * kCout);
    b.resize(kCout);
    for (auto& v : x) v = uint8_t(rng() % 256);
    for (auto& v : w) v = int8_t(int(rng() % 255) - 127);
    for (auto& v : b) v = int32_t(rng() % 20001) - 10000;
  }

  // conv -> relu, uint8 activations, per-channel int8 weights, int32 bias.
  Qnn_GraphHandle_t buildConvRelu(Qnn_ContextHandle_t ctx, std::vector<QnnHtpGraph_CustomConfig_t> configs = {}) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(makeGraph(ctx, "conv_relu", configs, &g), QNN_SUCCESS);
    QuantSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCin}, kSx, kOffX);
    QuantSpec wt("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_8, {kK, kK, kCin, kCout}, 0, 0, w.data(),
                 uint32_t(w.size()));
    wt.perChannel(3, kSw, kCout);
    QuantSpec bias("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_32, {kCout}, kSb, 0, b.data(),
                   uint32_t(b.size() * 4));
    QuantSpec conv("conv", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCout}, kSconv, kOffConv);
    QuantSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCout}, kSout, kOffOut);
    for (TensorSpec* t : {(TensorSpec*)&in, (TensorSpec*)&wt, (TensorSpec*)&bias, (TensorSpec*)&conv, (TensorSpec*)&out})
      EXPECT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
    xId = in.tensor.v1.id;
    outId = out.tensor.v1.id;
    uint32_t strideData[] = {1, 1}, padData[] = {1, 1, 1, 1};
    TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
    TensorSpec pad("pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
    Qnn_Param_t params[] = {tensorParam("stride", stride), tensorParam("pad_amount", pad)};
    Qnn_Tensor_t convIn[] = {in.tensor, wt.tensor, bias.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"conv0", "qti.aisw", "Conv2d", 2, params, 3, convIn, 1, &conv.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    op.v1 = {"relu0", "qti.aisw", "Relu", 0, nullptr, 1, &conv.tensor, 1, &out.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    return g;
  }

  Qnn_ErrorHandle_t run(Qnn_GraphHandle_t g, std::vector<uint8_t>* result, Qnn_ProfileHandle_t profile = nullptr) {
    result->assign(kH * kW * kCout, 0);
    QuantSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCin}, kSx, kOffX, x.data(),
                 uint32_t(x.size()));
    QuantSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCout}, kSout, kOffOut,
                  result->data(), uint32_t(result->size()));
    in.tensor.v1.id = xId;
    out.tensor.v1.id = outId;
    return api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, profile, nullptr);
  }

  std::vector<QnnProfile_EventData_t> events(Qnn_ProfileHandle_t p) { return profileEvents(api(), p); }
  static bool has(const std::vector<QnnProfile_EventData_t>& ev, uint32_t type, const std::string& text = "") {
    return hasEvent(ev, type, text);
  }
  // Adds a node of the default package with one output and at most one param.
  void addNode(Qnn_GraphHandle_t g, const char* name, const char* type, std::vector<Qnn_Tensor_t> ins, Qnn_Tensor_t out,
               Qnn_Param_t* param = nullptr) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", type, param ? 1u : 0u, param, uint32_t(ins.size()), ins.data(), 1, &out};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << name << LogCapture::take();
  }
  // Finalizes g with a basic profile: the identifiers of its backend events starting with `prefix`, joined by "; ".
  std::string finalizeEvents(Qnn_GraphHandle_t g, const std::string& prefix) {
    Qnn_ProfileHandle_t prof = nullptr;
    EXPECT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &prof), QNN_SUCCESS);
    EXPECT_EQ(api().graphFinalize(g, prof, nullptr), QNN_SUCCESS) << LogCapture::take();
    std::string found;
    for (const QnnProfile_EventData_t& e : events(prof))
      if (e.type == QNN_PROFILE_EVENTTYPE_BACKEND && e.identifier && std::string(e.identifier).find(prefix) == 0)
        found += (found.empty() ? "" : "; ") + std::string(e.identifier);
    EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);
    return found;
  }

  std::vector<uint8_t> x;
  std::vector<int8_t> w;
  std::vector<int32_t> b;
  uint32_t xId = 0, outId = 0;
};

// Float tensors run with or without a precision config on every architecture. V68
// has no fp16 unit, but the vendor's x86 HTP library takes float graphs for a V68
// SoC (ONNX Runtime's QNN EP tests Inverse_* and UnaryOp_Tan_fp set soc_model
// SM8350 on float models and pass there): so does the simulator, saying so once
// when the device is created. Results are the same as on V73 in fp32; with
// QNN_PRECISION_FLOAT16 V68 still computes in fp32 (UnaryOp_Tan_fp, fp16 precision
// on SM8350, passes on the vendor's library within 1e-5, far below half precision).
TEST_F(HtpGraphTest, FloatGraphsRunOnEveryArchitectureV68WithANote) {
  ASSERT_EQ(api().logSetLogLevel(log, QNN_LOG_LEVEL_WARN), QNN_SUCCESS);
  Qnn_DeviceHandle_t v68 = nullptr, sm8350 = nullptr;
  ASSERT_EQ(makeDevice({archConfig(QNN_HTP_DEVICE_ARCH_V68)}, &v68), QNN_SUCCESS);
  ASSERT_EQ(makeDevice({socConfig(30)}, &sm8350), QNN_SUCCESS);  // SM8350: V68
  std::string note = LogCapture::take();
  const std::string noFp16 =
      "HTP device config: HTP V68 has no fp16 unit; like the vendor's x86 HTP library, the simulator still takes "
      "float graphs";
  size_t first = note.find(noFp16);
  EXPECT_NE(first, std::string::npos) << note;
  EXPECT_NE(note.find(noFp16, first + 1), std::string::npos) << note;  // once per device
  Qnn_DeviceHandle_t v73 = nullptr;
  ASSERT_EQ(makeDevice({archConfig(QNN_HTP_DEVICE_ARCH_V68), socConfig(43)}, &v73), QNN_SUCCESS);  // the SoC wins
  note = LogCapture::take();
  EXPECT_EQ(note.find("has no fp16 unit"), std::string::npos) << note;
  EXPECT_EQ(api().deviceFree(v73), QNN_SUCCESS);

  Qnn_ContextHandle_t ctx = nullptr, ctx68 = nullptr, ctx8350 = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  ASSERT_EQ(api().contextCreate(backend, v68, nullptr, &ctx68), QNN_SUCCESS);
  ASSERT_EQ(api().contextCreate(backend, sm8350, nullptr, &ctx8350), QNN_SUCCESS);
  // x * y - y with values that have no exact half representation: fp16 mode shows in the result.
  const float x[4] = {0.1f, 1.f / 3.f, -2.7f, 3.14159f}, y[4] = {0.2f, 2.f / 3.f, 1.3f, -1.1f};
  for (bool fp16 : {false, true}) {
    for (Qnn_ContextHandle_t c : {ctx, ctx68, ctx8350}) {
      SCOPED_TRACE(std::string(fp16 ? "fp16 " : "fp32 ") + (c == ctx ? "V73" : c == ctx68 ? "V68" : "SM8350"));
      Qnn_GraphHandle_t g = nullptr;
      std::vector<QnnHtpGraph_CustomConfig_t> configs;
      if (fp16) configs.push_back(precisionConfig(QNN_PRECISION_FLOAT16));
      ASSERT_EQ(makeGraph(c, fp16 ? "float16" : "float32", configs, &g), QNN_SUCCESS);
      note = LogCapture::take();
      EXPECT_EQ(note.find("precision FLOAT16 on HTP V68, which has no fp16 unit") != std::string::npos,
                fp16 && c != ctx)
          << note;
      TensorSpec a("a", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
      TensorSpec bb("b", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
      TensorSpec prod("prod", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 4});
      TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
      for (TensorSpec* t : {&a, &bb, &prod, &out}) ASSERT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
      Qnn_Tensor_t mulIn[] = {a.tensor, bb.tensor}, subIn[] = {prod.tensor, bb.tensor};
      Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
      op.v1 = {"mul", "qti.aisw", "ElementWiseMultiply", 0, nullptr, 2, mulIn, 1, &prod.tensor};
      ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
      op.v1 = {"sub", "qti.aisw", "ElementWiseSubtract", 0, nullptr, 2, subIn, 1, &out.tensor};
      ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
      ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
      float xs[4], ys[4], got[4] = {};
      std::copy(x, x + 4, xs), std::copy(y, y + 4, ys);
      Qnn_Tensor_t ins[] = {a.tensor, bb.tensor}, outs[] = {out.tensor};
      ins[0].v1.clientBuf = {xs, sizeof xs}, ins[1].v1.clientBuf = {ys, sizeof ys};
      outs[0].v1.clientBuf = {got, sizeof got};
      ASSERT_EQ(api().graphExecute(g, ins, 2, outs, 1, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
      for (int i = 0; i < 4; ++i) {
        const float fp32 = x[i] * y[i] - y[i];
        if (!fp16 || c != ctx) {
          EXPECT_EQ(got[i], fp32) << i;
          continue;
        }
        // fp16: inputs, product and difference each rounded to 11 significant bits.
        const double exact = double(x[i]) * double(y[i]) - double(y[i]);
        const double bound = std::ldexp(std::fabs(double(x[i]) * double(y[i])) + 2 * std::fabs(double(y[i])), -10);
        EXPECT_NEAR(got[i], exact, bound) << i;
        EXPECT_NE(got[i], fp32) << i;
      }
    }
  }
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx68, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx8350, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(v68), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(sm8350), QNN_SUCCESS);
}

TEST_F(HtpGraphTest, UnsupportedOpAndDatatypeRefused) {
  QuantSpec in("q_in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 2, 2, 4}, 0.1f, 0);
  QuantSpec out("q_out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 2, 2, 4}, 0.1f, 0);
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  // Moments is a QNN op the HTP column does not list.
  op.v1 = {"moments0", "qti.aisw", "Moments", 0, nullptr, 1, &in.tensor, 2, nullptr};
  Qnn_Tensor_t outs[] = {out.tensor, out.tensor};
  op.v1.outputTensors = outs;
  uint32_t axesData[] = {1};
  TensorSpec axes("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {1}, axesData, 4);
  Qnn_Param_t params[2] = {tensorParam("axes", axes), QNN_PARAM_INIT};
  params[1].paramType = QNN_PARAMTYPE_SCALAR;
  params[1].name = "keep_dims";
  params[1].scalarParam.dataType = QNN_DATATYPE_BOOL_8;
  params[1].scalarParam.bool8Value = 1;
  op.v1.numOfParams = 2;
  op.v1.params = params;
  EXPECT_EQ(api().backendValidateOpConfig(backend, op), QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE);
  std::string msg = LogCapture::take();
  EXPECT_NE(msg.find("op Moments is not supported by the HTP backend"), std::string::npos) << msg;
  // Relu on INT_32 data: an op the HTP runs, a datatype it does not take there.
  TensorSpec i32in("i_in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_INT_32, {1, 4});
  TensorSpec i32out("i_out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_INT_32, {1, 4});
  op.v1 = {"relu_i32", "qti.aisw", "Relu", 0, nullptr, 1, &i32in.tensor, 1, &i32out.tensor};
  EXPECT_EQ(api().backendValidateOpConfig(backend, op), QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE);
  msg = LogCapture::take();
  EXPECT_NE(msg.find("node 'relu_i32' (op Relu): input 0 'i_in' has datatype INT_32"), std::string::npos) << msg;
  EXPECT_NE(msg.find("supported: UFIXED_POINT_8"), std::string::npos) << msg;
}

TEST_F(HtpGraphTest, QuantizedConvReluBitExactAndFused) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = buildConvRelu(ctx);
  Qnn_ProfileHandle_t prof = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &prof), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(g, prof, nullptr), QNN_SUCCESS) << LogCapture::take();
  std::vector<uint8_t> got;
  ASSERT_EQ(run(g, &got, prof), QNN_SUCCESS) << LogCapture::take();
  std::vector<uint8_t> want = referenceConvRelu(x, w, b);
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(int(got[i]), int(want[i])) << i;
  auto ev = events(prof);
  EXPECT_TRUE(has(ev, QNN_PROFILE_EVENTTYPE_BACKEND, "pass conv_activation_fusion: conv0+relu0"));
  EXPECT_TRUE(has(ev, QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_ACCEL_TIME_CYCLE, "HTP V73, 6 HVX threads"));
  EXPECT_TRUE(has(ev, QNN_HTP_PROFILE_EVENTTYPE_GRAPH_NUMBER_OF_HVX_THREADS));
  bool nodeCycles = false;
  for (auto& e : ev)
    nodeCycles |= e.type == QNN_PROFILE_EVENTTYPE_NODE && e.unit == QNN_PROFILE_EVENTUNIT_CYCLES && e.value > 0 &&
                  std::string(e.identifier).find("conv0: estimated HTP cycles (HMX") == 0;
  EXPECT_TRUE(nodeCycles);
  EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);

  // The prepared graph goes through the context binary and comes back without passes.
  Qnn_ContextBinarySize_t size = 0, written = 0;
  ASSERT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
  std::vector<uint8_t> bin(size);
  ASSERT_EQ(api().contextGetBinary(ctx, bin.data(), size, &written), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &prof), QNN_SUCCESS);
  Qnn_ContextHandle_t loaded = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, bin.data(), written, &loaded, prof), QNN_SUCCESS)
      << LogCapture::take();
  auto loadEvents = events(prof);  // a profile reports each event once: read it once
  EXPECT_TRUE(has(loadEvents, QNN_HTP_PROFILE_EVENTTYPE_GRAPH_FINALIZE_HOST_RPC_TIME_MICROSEC, "passes not re-run"));
  EXPECT_TRUE(has(loadEvents, QNN_PROFILE_EVENTTYPE_BACKEND, "conv0+relu0"));
  EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);
  Qnn_GraphHandle_t lg = nullptr;
  ASSERT_EQ(api().graphRetrieve(loaded, "conv_relu", &lg), QNN_SUCCESS);
  std::vector<uint8_t> again;
  ASSERT_EQ(run(lg, &again), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(again, got);
  // A binary prepared for V73 is refused by a V68 device.
  Qnn_DeviceHandle_t v68 = nullptr;
  ASSERT_EQ(makeDevice({archConfig(QNN_HTP_DEVICE_ARCH_V68)}, &v68), QNN_SUCCESS);
  Qnn_ContextHandle_t wrong = nullptr;
  EXPECT_EQ(api().contextCreateFromBinary(backend, v68, nullptr, bin.data(), written, &wrong, nullptr),
            QNN_CONTEXT_ERROR_BINARY_CONFIGURATION);
  EXPECT_EQ(api().deviceFree(v68), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
}

// The later SoCs ONNX Runtime's QNN EP tests name (SM8850 = 87, soc_model in many of them)
// and their architectures run the same quantized graph bit-exact, and say which HTP they are.
TEST_F(HtpGraphTest, LaterSocsAndArchitecturesRunGraphs) {
  struct Device {
    std::vector<QnnHtpDevice_CustomConfig_t> configs;
    const char* htp;
  };
  const Device devices[] = {{{socConfig(87)}, "HTP V81"},  // SM8850
                            {{socConfig(69)}, "HTP V79"},  // SM8750
                            {{archConfig(QNN_HTP_DEVICE_ARCH_V79)}, "HTP V79"},
                            {{archConfig(QNN_HTP_DEVICE_ARCH_V81)}, "HTP V81"}};
  const std::vector<uint8_t> want = referenceConvRelu(x, w, b);
  for (const Device& d : devices) {
    SCOPED_TRACE(d.htp);
    Qnn_DeviceHandle_t dev = nullptr;
    ASSERT_EQ(makeDevice(d.configs, &dev), QNN_SUCCESS) << LogCapture::take();
    Qnn_ContextHandle_t ctx = nullptr;
    ASSERT_EQ(api().contextCreate(backend, dev, nullptr, &ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = buildConvRelu(ctx);
    ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
    Qnn_ProfileHandle_t prof = nullptr;
    ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &prof), QNN_SUCCESS);
    std::vector<uint8_t> got;
    ASSERT_EQ(run(g, &got, prof), QNN_SUCCESS) << LogCapture::take();
    EXPECT_EQ(got, want);
    EXPECT_TRUE(has(events(prof), QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_ACCEL_TIME_CYCLE,
                    std::string(d.htp) + ", 6 HVX threads, 8 MB VTCM"));
    EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    EXPECT_EQ(api().deviceFree(dev), QNN_SUCCESS);
  }
}

TEST_F(HtpGraphTest, OptimizationModeOneSkipsFusion) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g =
      buildConvRelu(ctx, {optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG, 1)});
  Qnn_ProfileHandle_t prof = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &prof), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(g, prof, nullptr), QNN_SUCCESS) << LogCapture::take();
  auto ev = events(prof);
  EXPECT_FALSE(has(ev, QNN_PROFILE_EVENTTYPE_BACKEND, "conv_activation_fusion"));
  EXPECT_TRUE(has(ev, QNN_PROFILE_EVENTTYPE_BACKEND, "pass vtcm_tiling"));
  std::vector<uint8_t> got;
  EXPECT_EQ(run(g, &got), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// Op trace (QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE) on a detailed profile: one
// QNN_PROFILE_EVENTTYPE_TRACE event per node under the execute event, its value the node's
// estimated cycles, its timestamp where the node starts on the accelerator's timeline (the nodes
// back to back from the execute's start at the power state's clock). Basic profiles, and detailed
// ones without the config, carry none.
TEST_F(HtpGraphTest, OpTraceEventsFollowTheEstimatedCycles) {
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_PROFILE_SUPPORT_OPTRACE_CONFIG), QNN_PROPERTY_SUPPORTED);
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  // Mode 1 keeps conv0 and relu0 apart: two nodes on the timeline.
  Qnn_GraphHandle_t g =
      buildConvRelu(ctx, {optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG, 1)});
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  QnnProfile_Config_t optrace = QNN_PROFILE_CONFIG_INIT;
  optrace.option = QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE;
  optrace.enableOptrace = 1;
  const QnnProfile_Config_t* configs[] = {&optrace, nullptr};
  struct Ext {
    uint32_t type, unit;
    uint64_t value, timestamp;
    std::string id;
  };
  auto extended = [&](QnnProfile_EventId_t id) {
    QnnProfile_ExtendedEventData_t d = QNN_PROFILE_EXTENDED_EVENT_DATA_INIT;
    EXPECT_EQ(api().profileGetExtendedEventData(id, &d), QNN_SUCCESS);
    return Ext{d.v1.type, d.v1.unit, d.v1.value.uint64Value, d.v1.timestamp, d.v1.identifier ? d.v1.identifier : ""};
  };
  auto subEvents = [&](QnnProfile_EventId_t id) {
    const QnnProfile_EventId_t* subs = nullptr;
    uint32_t n = 0;
    EXPECT_EQ(api().profileGetSubEvents(id, &subs, &n), QNN_SUCCESS);
    return std::vector<QnnProfile_EventId_t>(subs, subs + n);
  };
  // The execute event, its trace events in order, and the estimated cycles of each node event.
  auto profileOneRun = [&](QnnProfile_Level_t level, bool trace, Ext* execute, std::vector<Ext>* traces,
                           std::vector<Ext>* nodeCycles, Ext* accel) {
    Qnn_ProfileHandle_t prof = nullptr;
    ASSERT_EQ(api().profileCreate(backend, level, &prof), QNN_SUCCESS);
    if (trace) { ASSERT_EQ(api().profileSetConfig(prof, configs), QNN_SUCCESS) << LogCapture::take(); }
    std::vector<uint8_t> got;
    ASSERT_EQ(run(g, &got, prof), QNN_SUCCESS) << LogCapture::take();
    const QnnProfile_EventId_t* ids = nullptr;
    uint32_t n = 0;
    ASSERT_EQ(api().profileGetEvents(prof, &ids, &n), QNN_SUCCESS);
    // The HTP's own measurements as top-level events, the execute event last.
    ASSERT_EQ(n, 6u);
    for (uint32_t i = 0; i + 1 < n; ++i)
      if (Ext e = extended(ids[i]); e.type == QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_ACCEL_TIME_CYCLE) *accel = e;
    *execute = extended(ids[n - 1]);
    ASSERT_EQ(execute->type, QNN_PROFILE_EVENTTYPE_EXECUTE);
    for (QnnProfile_EventId_t sub : subEvents(ids[n - 1])) {
      Ext e = extended(sub);
      if (e.type == QNN_PROFILE_EVENTTYPE_TRACE) traces->push_back(e);
      if (e.type == QNN_PROFILE_EVENTTYPE_NODE)
        for (QnnProfile_EventId_t s : subEvents(sub))
          if (Ext c = extended(s); c.unit == QNN_PROFILE_EVENTUNIT_CYCLES) nodeCycles->push_back(c);
    }
    EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);
  };
  Ext execute{}, accel{};
  std::vector<Ext> traces, nodeCycles;
  profileOneRun(QNN_PROFILE_LEVEL_DETAILED, true, &execute, &traces, &nodeCycles, &accel);
  ASSERT_EQ(traces.size(), 2u);
  ASSERT_EQ(nodeCycles.size(), 2u);
  // The clock the estimate ran at, as the accelerator-cycles event states it ("... (N MHz)").
  const size_t mhzAt = accel.id.rfind(" MHz)");
  ASSERT_NE(mhzAt, std::string::npos) << accel.id;
  const uint64_t mhz = std::stoull(accel.id.substr(accel.id.rfind('(', mhzAt) + 1));
  ASSERT_GT(mhz, 0u);
  uint64_t before = 0;
  const char* names[] = {"conv0 (Conv2d)", "relu0 (Relu)"};
  for (size_t i = 0; i < traces.size(); ++i) {
    EXPECT_EQ(traces[i].unit, QNN_PROFILE_EVENTUNIT_CYCLES);
    EXPECT_EQ(traces[i].id.find(names[i]), 0u) << traces[i].id;
    EXPECT_GT(traces[i].value, 0u);
    EXPECT_EQ(traces[i].value, nodeCycles[i].value) << nodeCycles[i].id;
    EXPECT_EQ(traces[i].timestamp, traces[0].timestamp + before / mhz) << i;
    before += traces[i].value;
  }
  EXPECT_EQ(before, accel.value);  // the trace covers the whole estimate
  EXPECT_GE(traces[0].timestamp, execute.timestamp);
  EXPECT_LE(traces[0].timestamp, execute.timestamp + execute.value);
  // Op trace needs the detailed level and the config.
  for (auto [level, trace] : {std::pair{QNN_PROFILE_LEVEL_BASIC, true}, std::pair{QNN_PROFILE_LEVEL_DETAILED, false}}) {
    traces.clear();
    nodeCycles.clear();
    profileOneRun(level, trace, &execute, &traces, &nodeCycles, &accel);
    EXPECT_TRUE(traces.empty()) << level;
  }
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// x + (a + b): the static a + b folds at finalize; the result equals mode 1's
// unfolded graph byte for byte (same kernel, same data, run earlier). The
// Convert -> Convert chain after it becomes one Convert in both modes, so the
// comparison isolates constant folding.
TEST_F(HtpGraphTest, ConstantAndRequantizeFolding) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  std::vector<uint8_t> a = {10, 200, 33, 128, 7, 99}, bv = {250, 0, 77, 128, 64, 1}, xin = {0, 50, 100, 150, 200, 255};
  auto build = [&](const char* name, float mode, uint32_t* xIdOut, uint32_t* outIdOut) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(makeGraph(ctx, name, {optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG, mode)},
                        &g), QNN_SUCCESS);
    std::string p = name;
    QuantSpec tx(p + "x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 6}, 0.1f, -100);
    QuantSpec ta(p + "a", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UFIXED_POINT_8, {1, 6}, 0.05f, -128, a.data(), 6);
    QuantSpec tb(p + "b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UFIXED_POINT_8, {1, 6}, 0.02f, -10, bv.data(), 6);
    QuantSpec tc(p + "c", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_8, {1, 6}, 0.07f, -60);
    QuantSpec td(p + "d", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_8, {1, 6}, 0.12f, -110);
    QuantSpec te(p + "e", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_16, {1, 6}, 0.001f, -30000);
    QuantSpec to(p + "out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 6}, 0.1f, -120);
    for (QuantSpec* t : {&tx, &ta, &tb, &tc, &td, &te, &to})
      EXPECT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    Qnn_Tensor_t ab[] = {ta.tensor, tb.tensor}, xc[] = {tx.tensor, tc.tensor};
    op.v1 = {"add_static", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ab, 1, &tc.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    op.v1 = {"add_x", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, xc, 1, &td.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    op.v1 = {"to16", "qti.aisw", "Convert", 0, nullptr, 1, &td.tensor, 1, &te.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    op.v1 = {"to8", "qti.aisw", "Convert", 0, nullptr, 1, &te.tensor, 1, &to.tensor};
    EXPECT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    *xIdOut = tx.tensor.v1.id;
    *outIdOut = to.tensor.v1.id;
    return g;
  };
  auto exec = [&](Qnn_GraphHandle_t g, uint32_t inId, uint32_t oId) {
    std::vector<uint8_t> result(6, 0);
    QuantSpec tx("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 6}, 0.1f, -100, xin.data(), 6);
    QuantSpec to("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 6}, 0.1f, -120, result.data(), 6);
    tx.tensor.v1.id = inId;
    to.tensor.v1.id = oId;
    EXPECT_EQ(api().graphExecute(g, &tx.tensor, 1, &to.tensor, 1, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
    return result;
  };
  uint32_t x0 = 0, o0 = 0, x1 = 0, o1 = 0;
  Qnn_GraphHandle_t folded = build("m0", 0, &x0, &o0), plain = build("m1", 1, &x1, &o1);
  Qnn_ProfileHandle_t prof = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &prof), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(folded, prof, nullptr), QNN_SUCCESS) << LogCapture::take();
  auto ev = events(prof);
  EXPECT_TRUE(has(ev, QNN_PROFILE_EVENTTYPE_BACKEND, "pass constant_folding: add_static"));
  EXPECT_TRUE(has(ev, QNN_PROFILE_EVENTTYPE_BACKEND, "pass requantize_folding: to16+to8"));
  ASSERT_EQ(api().graphFinalize(plain, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(exec(folded, x0, o0), exec(plain, x1, o1));
  EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// Grouped-query attention as the converters write it (2 key / value heads repeated to 8 by Reshape, an Add of
// zeros, Reshape; per-head Transpose and Convert before the MatMuls): the grouped_head_sharing pass lets the
// MatMuls read the 2 heads with the 4 query heads of a group as rows. Its outputs equal mode 1's graph (no
// pass) byte for byte; an Add of a non-zero constant is no repetition and stays.
TEST_F(HtpGraphTest, GroupedHeadSharing) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  constexpr uint32_t G = 2, R = 4, H = G * R, S = 5, D = 4, M = 2;
  std::mt19937 rng(5);
  std::vector<uint16_t> q(H * M * D), kv(G * S * D), vv(G * S * D), p(H * M * S);
  for (auto* v : {&q, &kv, &vv, &p})
    for (auto& e : *v) e = uint16_t(rng() % 65536);
  std::vector<uint8_t> zeros(H * S * D, 7);
  struct Built {
    Qnn_GraphHandle_t g;
    std::vector<uint32_t> ids;  // q, kv, vv, p, scores, ctx
  };
  auto build = [&](const char* name, float mode, uint8_t zeroValue) {
    Built b{};
    EXPECT_EQ(makeGraph(ctx, name, {optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG, mode)},
                        &b.g), QNN_SUCCESS);
    std::fill(zeros.begin(), zeros.end(), zeroValue);
    const std::string n = name;
    const Qnn_DataType_t u16 = QNN_DATATYPE_UFIXED_POINT_16, u8 = QNN_DATATYPE_UFIXED_POINT_8;
    const auto write = QNN_TENSOR_TYPE_APP_WRITE, read = QNN_TENSOR_TYPE_APP_READ, native = QNN_TENSOR_TYPE_NATIVE;
    QuantSpec tq(n + "q", write, u16, {1, H, M, D}, 0.0002f, -31000);
    QuantSpec tk(n + "kv", write, u16, {1, G, S, D}, 0.0001f, -33000);
    QuantSpec tv(n + "vv", write, u16, {1, G, S, D}, 0.00015f, -30000);
    QuantSpec tp(n + "p", write, u16, {1, H, M, S}, 1.f / 65536, 0);
    QuantSpec tz(n + "zeros", QNN_TENSOR_TYPE_STATIC, u8, {1, G, R, S, D}, 1.f, -7, zeros.data(), uint32_t(zeros.size()));
    QuantSpec ku(n + "ku", native, u16, {1, G, 1, S, D}, 0.0001f, -33000);
    QuantSpec ke(n + "ke", native, u16, {1, G, R, S, D}, 0.0001f, -33000);
    QuantSpec kh(n + "kh", native, u16, {1, H, S, D}, 0.0001f, -33000);
    QuantSpec kt(n + "kt", native, u16, {1, H, D, S}, 0.0001f, -33000);
    QuantSpec k8(n + "k8", native, u8, {1, H, D, S}, 0.03f, -128);
    QuantSpec vu(n + "vu", native, u16, {1, G, 1, S, D}, 0.00015f, -30000);
    QuantSpec ve(n + "ve", native, u16, {1, G, R, S, D}, 0.00015f, -30000);
    QuantSpec vh(n + "vh", native, u16, {1, H, S, D}, 0.00015f, -30000);
    QuantSpec v8(n + "v8", native, u8, {1, H, S, D}, 0.04f, -120);
    QuantSpec ts(n + "scores", read, u16, {1, H, M, S}, 0.002f, -32000);
    QuantSpec tc(n + "ctx", read, u16, {1, H, M, D}, 0.0001f, -32768);
    for (QuantSpec* t : {&tq, &tk, &tv, &tp, &tz, &ku, &ke, &kh, &kt, &k8, &vu, &ve, &vh, &v8, &ts, &tc})
      EXPECT_EQ(api().tensorCreateGraphTensor(b.g, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
    uint32_t swap[] = {0, 1, 3, 2};
    TensorSpec perm("perm", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {4}, swap, sizeof swap);
    Qnn_Param_t permParam = tensorParam("perm", perm);
    auto node = [&](const char* nodeName, const char* type, std::vector<Qnn_Tensor_t> ins, Qnn_Tensor_t out,
                    Qnn_Param_t* param = nullptr) { addNode(b.g, nodeName, type, std::move(ins), out, param); };
    node("k_unsqueeze", "Reshape", {tk.tensor}, ku.tensor);
    node("k_expand", "ElementWiseAdd", {ku.tensor, tz.tensor}, ke.tensor);
    node("k_heads", "Reshape", {ke.tensor}, kh.tensor);
    node("k_transpose", "Transpose", {kh.tensor}, kt.tensor, &permParam);
    node("k_convert", "Convert", {kt.tensor}, k8.tensor);
    node("qk", "MatMul", {tq.tensor, k8.tensor}, ts.tensor);
    node("v_unsqueeze", "Reshape", {tv.tensor}, vu.tensor);
    node("v_expand", "ElementWiseAdd", {vu.tensor, tz.tensor}, ve.tensor);
    node("v_heads", "Reshape", {ve.tensor}, vh.tensor);
    node("v_convert", "Convert", {vh.tensor}, v8.tensor);
    node("pv", "MatMul", {tp.tensor, v8.tensor}, tc.tensor);
    for (QuantSpec* t : {&tq, &tk, &tv, &tp, &ts, &tc}) b.ids.push_back(t->tensor.v1.id);
    return b;
  };
  auto exec = [&](const Built& b) {
    std::vector<uint16_t> scores(H * M * S), out(H * M * D);
    std::vector<TensorSpec> ins, outs;
    ins.emplace_back("q", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, std::vector<uint32_t>{1, H, M, D},
                     q.data(), uint32_t(q.size() * 2));
    ins.emplace_back("kv", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, std::vector<uint32_t>{1, G, S, D},
                     kv.data(), uint32_t(kv.size() * 2));
    ins.emplace_back("vv", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, std::vector<uint32_t>{1, G, S, D},
                     vv.data(), uint32_t(vv.size() * 2));
    ins.emplace_back("p", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, std::vector<uint32_t>{1, H, M, S},
                     p.data(), uint32_t(p.size() * 2));
    outs.emplace_back("scores", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_16,
                      std::vector<uint32_t>{1, H, M, S}, scores.data(), uint32_t(scores.size() * 2));
    outs.emplace_back("ctx", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_16, std::vector<uint32_t>{1, H, M, D},
                      out.data(), uint32_t(out.size() * 2));
    std::vector<Qnn_Tensor_t> in, o;
    for (size_t i = 0; i < ins.size(); ++i) in.push_back(ins[i].tensor), in.back().v1.id = b.ids[i];
    for (size_t i = 0; i < outs.size(); ++i) o.push_back(outs[i].tensor), o.back().v1.id = b.ids[4 + i];
    EXPECT_EQ(api().graphExecute(b.g, in.data(), uint32_t(in.size()), o.data(), uint32_t(o.size()), nullptr, nullptr),
              QNN_SUCCESS)
        << LogCapture::take();
    scores.insert(scores.end(), out.begin(), out.end());
    return scores;
  };
  // Finalizes; whether a pass event names `text`.
  auto finalize = [&](const Built& b, const std::string& text) {
    return finalizeEvents(b.g, "pass ").find(text) != std::string::npos;
  };
  Built shared = build("gqa0", 0, 7), plain = build("gqa1", 1, 7);
  EXPECT_TRUE(finalize(shared, "pass grouped_head_sharing: qk (2 x 4 heads), pv (2 x 4 heads)"));
  EXPECT_FALSE(finalize(plain, "grouped_head_sharing"));
  const std::vector<uint16_t> want = exec(plain);
  EXPECT_EQ(exec(shared), want);
  // 7 with offset -7 is 0; 9 is 2: the Add changes every value and the pass leaves it.
  Built added = build("gqa2", 0, 9);
  EXPECT_FALSE(finalize(added, "qk (2 x 4 heads)"));
  EXPECT_NE(exec(added), want);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// Attention's K^T as the converters write it: K [1, 2, S, D] (16-bit) through a Transpose of the last two
// axes and a Convert to 8 bits into MatMul in[1] (q1k), and an 8-bit K through a Transpose alone (q2k):
// the matmul_transpose_folding pass lets both MatMuls read K as it is stored (transpose_in1). The
// outputs equal mode 1's graph (no pass) byte for byte; a Transpose that requantizes stays.
TEST_F(HtpGraphTest, MatMulTransposeFolding) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  constexpr uint32_t H = 2, S = 77, D = 40, M = 3;
  std::mt19937 rng(9);
  std::vector<uint16_t> q(H * M * D), k16(H * S * D);
  std::vector<uint8_t> k8(H * S * D);
  for (auto& e : q) e = uint16_t(rng() % 65536);
  for (auto& e : k16) e = uint16_t(rng() % 65536);
  for (auto& e : k8) e = uint8_t(rng() % 256);
  struct Built {
    Qnn_GraphHandle_t g;
    std::vector<uint32_t> ids;  // q, k16, k8, s1, s2
  };
  auto build = [&](const char* name, float mode, float transposedScale) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(makeGraph(ctx, name, {optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG, mode)},
                        &g), QNN_SUCCESS);
    const Qnn_DataType_t u16 = QNN_DATATYPE_UFIXED_POINT_16, u8 = QNN_DATATYPE_UFIXED_POINT_8;
    const auto write = QNN_TENSOR_TYPE_APP_WRITE, read = QNN_TENSOR_TYPE_APP_READ, native = QNN_TENSOR_TYPE_NATIVE;
    QuantSpec tq("q", write, u16, {1, H, M, D}, 0.0002f, -31000);
    QuantSpec tk("k16", write, u16, {1, H, S, D}, 0.0001f, -33000);
    QuantSpec tk8("k8", write, u8, {1, H, S, D}, 0.02f, -120);
    QuantSpec kt("kt", native, u16, {1, H, D, S}, 0.0001f, -33000);
    QuantSpec kc("kc", native, u8, {1, H, D, S}, 0.03f, -128);
    QuantSpec k8t("k8t", native, u8, {1, H, D, S}, transposedScale, -120);
    QuantSpec s1("s1", read, u16, {1, H, M, S}, 0.002f, -32000);
    QuantSpec s2("s2", read, u16, {1, H, M, S}, 0.003f, -32000);
    for (QuantSpec* t : {&tq, &tk, &tk8, &kt, &kc, &k8t, &s1, &s2})
      EXPECT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
    uint32_t swap[] = {0, 1, 3, 2};
    TensorSpec perm("perm", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {4}, swap, sizeof swap);
    Qnn_Param_t permParam = tensorParam("perm", perm);
    auto node = [&](const char* nodeName, const char* type, std::vector<Qnn_Tensor_t> ins, Qnn_Tensor_t out,
                    Qnn_Param_t* param = nullptr) { addNode(g, nodeName, type, std::move(ins), out, param); };
    node("k_transpose", "Transpose", {tk.tensor}, kt.tensor, &permParam);
    node("k_convert", "Convert", {kt.tensor}, kc.tensor);
    node("q1k", "MatMul", {tq.tensor, kc.tensor}, s1.tensor);
    node("k8_transpose", "Transpose", {tk8.tensor}, k8t.tensor, &permParam);
    node("q2k", "MatMul", {tq.tensor, k8t.tensor}, s2.tensor);
    Built b{g, {}};
    for (QuantSpec* t : {&tq, &tk, &tk8, &s1, &s2}) b.ids.push_back(t->tensor.v1.id);
    return b;
  };
  auto exec = [&](const Built& b) {
    std::vector<uint16_t> r1(H * M * S), r2(H * M * S);
    TensorSpec ti("q", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, {1, H, M, D}, q.data(),
                  uint32_t(q.size() * 2));
    TensorSpec tk("k16", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, {1, H, S, D}, k16.data(),
                  uint32_t(k16.size() * 2));
    TensorSpec tk8("k8", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, H, S, D}, k8.data(),
                   uint32_t(k8.size()));
    TensorSpec o1("s1", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_16, {1, H, M, S}, r1.data(),
                  uint32_t(r1.size() * 2));
    TensorSpec o2("s2", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_16, {1, H, M, S}, r2.data(),
                  uint32_t(r2.size() * 2));
    Qnn_Tensor_t in[] = {ti.tensor, tk.tensor, tk8.tensor}, out[] = {o1.tensor, o2.tensor};
    for (uint32_t i = 0; i < 3; ++i) in[i].v1.id = b.ids[i];
    out[0].v1.id = b.ids[3], out[1].v1.id = b.ids[4];
    EXPECT_EQ(api().graphExecute(b.g, in, 3, out, 2, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
    r1.insert(r1.end(), r2.begin(), r2.end());
    return r1;
  };
  auto finalize = [&](const Built& b) { return finalizeEvents(b.g, "pass matmul_transpose_folding"); };
  Built folded = build("ktf0", 0, 0.02f), plain = build("ktf1", 1, 0.02f),
                    requant = build("ktf2", 0, 0.025f);
  EXPECT_EQ(finalize(folded), "pass matmul_transpose_folding: q1k, q2k");
  EXPECT_EQ(finalize(plain), "");
  EXPECT_EQ(finalize(requant), "pass matmul_transpose_folding: q1k");
  const std::vector<uint16_t> want = exec(plain);
  EXPECT_EQ(exec(folded), want);
  const std::vector<uint16_t> third = exec(requant);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + H * M * S, third.begin()));
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// Attention over a KV cache as the converters write it: K = Concat(past, new) along axis 2, Transpose,
// Convert to 8 bits, MatMul in[1] (qk); V = Concat(past, new), Convert, MatMul in[1] (pv). The passes
// matmul_transpose_folding and matmul_concat_reading let both MatMuls read past and new as parts of
// in[1], each through its own Convert: no cache copy. The outputs equal mode 1's graph byte for byte.
TEST_F(HtpGraphTest, MatMulConcatReading) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  constexpr uint32_t H = 2, S = 70, D = 36, M = 2;
  std::mt19937 rng(11);
  std::vector<uint16_t> q(H * M * D), p(H * M * S), kp(H * (S - 1) * D), kn(H * D), vp(H * (S - 1) * D), vn(H * D);
  for (auto* v : {&q, &p, &kp, &kn, &vp, &vn})
    for (auto& e : *v) e = uint16_t(rng() % 65536);
  struct Built {
    Qnn_GraphHandle_t g;
    std::vector<uint32_t> ids;  // q, p, kp, kn, vp, vn, scores, ctx
  };
  auto build = [&](const char* name, float mode) {
    Built b{};
    EXPECT_EQ(makeGraph(ctx, name, {optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG, mode)},
                        &b.g), QNN_SUCCESS);
    const Qnn_DataType_t u16 = QNN_DATATYPE_UFIXED_POINT_16, u8 = QNN_DATATYPE_UFIXED_POINT_8;
    const auto write = QNN_TENSOR_TYPE_APP_WRITE, read = QNN_TENSOR_TYPE_APP_READ, native = QNN_TENSOR_TYPE_NATIVE;
    QuantSpec tq("q", write, u16, {1, H, M, D}, 0.0002f, -31000);
    QuantSpec tp("p", write, u16, {1, H, M, S}, 1.f / 65536, 0);
    QuantSpec tkp("kp", write, u16, {1, H, S - 1, D}, 0.0001f, -33000);
    QuantSpec tkn("kn", write, u16, {1, H, 1, D}, 0.0001f, -33000);
    QuantSpec tvp("vp", write, u16, {1, H, S - 1, D}, 0.00015f, -30000);
    QuantSpec tvn("vn", write, u16, {1, H, 1, D}, 0.00015f, -30000);
    QuantSpec kc("kc", native, u16, {1, H, S, D}, 0.0001f, -33000);
    QuantSpec kt("kt", native, u16, {1, H, D, S}, 0.0001f, -33000);
    QuantSpec k8("k8", native, u8, {1, H, D, S}, 0.03f, -128);
    QuantSpec vc("vc", native, u16, {1, H, S, D}, 0.00015f, -30000);
    QuantSpec v8("v8", native, u8, {1, H, S, D}, 0.04f, -120);
    QuantSpec ts("scores", read, u16, {1, H, M, S}, 0.002f, -32000);
    QuantSpec tc("ctx", read, u16, {1, H, M, D}, 0.0001f, -32768);
    for (QuantSpec* t : {&tq, &tp, &tkp, &tkn, &tvp, &tvn, &kc, &kt, &k8, &vc, &v8, &ts, &tc})
      EXPECT_EQ(api().tensorCreateGraphTensor(b.g, &t->tensor), QNN_SUCCESS) << t->name << LogCapture::take();
    uint32_t swap[] = {0, 1, 3, 2};
    TensorSpec perm("perm", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {4}, swap, sizeof swap);
    Qnn_Param_t permParam = tensorParam("perm", perm);
    Qnn_Param_t axisParam = QNN_PARAM_INIT;
    axisParam.paramType = QNN_PARAMTYPE_SCALAR;
    axisParam.name = "axis";
    axisParam.scalarParam.dataType = QNN_DATATYPE_UINT_32;
    axisParam.scalarParam.uint32Value = 2;
    auto node = [&](const char* nodeName, const char* type, std::vector<Qnn_Tensor_t> ins, Qnn_Tensor_t out,
                    Qnn_Param_t* param = nullptr) { addNode(b.g, nodeName, type, std::move(ins), out, param); };
    node("k_concat", "Concat", {tkp.tensor, tkn.tensor}, kc.tensor, &axisParam);
    node("k_transpose", "Transpose", {kc.tensor}, kt.tensor, &permParam);
    node("k_convert", "Convert", {kt.tensor}, k8.tensor);
    node("qk", "MatMul", {tq.tensor, k8.tensor}, ts.tensor);
    node("v_concat", "Concat", {tvp.tensor, tvn.tensor}, vc.tensor, &axisParam);
    node("v_convert", "Convert", {vc.tensor}, v8.tensor);
    node("pv", "MatMul", {tp.tensor, v8.tensor}, tc.tensor);
    for (QuantSpec* t : {&tq, &tp, &tkp, &tkn, &tvp, &tvn, &ts, &tc}) b.ids.push_back(t->tensor.v1.id);
    return b;
  };
  auto exec = [&](const Built& b) {
    std::vector<uint16_t> scores(H * M * S), out(H * M * D);
    const auto u16 = QNN_DATATYPE_UFIXED_POINT_16;
    std::vector<TensorSpec> ins, outs;
    ins.emplace_back("q", QNN_TENSOR_TYPE_APP_WRITE, u16, std::vector<uint32_t>{1, H, M, D}, q.data(), uint32_t(q.size() * 2));
    ins.emplace_back("p", QNN_TENSOR_TYPE_APP_WRITE, u16, std::vector<uint32_t>{1, H, M, S}, p.data(), uint32_t(p.size() * 2));
    ins.emplace_back("kp", QNN_TENSOR_TYPE_APP_WRITE, u16, std::vector<uint32_t>{1, H, S - 1, D}, kp.data(),
                     uint32_t(kp.size() * 2));
    ins.emplace_back("kn", QNN_TENSOR_TYPE_APP_WRITE, u16, std::vector<uint32_t>{1, H, 1, D}, kn.data(),
                     uint32_t(kn.size() * 2));
    ins.emplace_back("vp", QNN_TENSOR_TYPE_APP_WRITE, u16, std::vector<uint32_t>{1, H, S - 1, D}, vp.data(),
                     uint32_t(vp.size() * 2));
    ins.emplace_back("vn", QNN_TENSOR_TYPE_APP_WRITE, u16, std::vector<uint32_t>{1, H, 1, D}, vn.data(),
                     uint32_t(vn.size() * 2));
    outs.emplace_back("scores", QNN_TENSOR_TYPE_APP_READ, u16, std::vector<uint32_t>{1, H, M, S}, scores.data(),
                      uint32_t(scores.size() * 2));
    outs.emplace_back("ctx", QNN_TENSOR_TYPE_APP_READ, u16, std::vector<uint32_t>{1, H, M, D}, out.data(),
                      uint32_t(out.size() * 2));
    std::vector<Qnn_Tensor_t> in, o;
    for (size_t i = 0; i < ins.size(); ++i) in.push_back(ins[i].tensor), in.back().v1.id = b.ids[i];
    for (size_t i = 0; i < outs.size(); ++i) o.push_back(outs[i].tensor), o.back().v1.id = b.ids[6 + i];
    EXPECT_EQ(api().graphExecute(b.g, in.data(), uint32_t(in.size()), o.data(), uint32_t(o.size()), nullptr, nullptr),
              QNN_SUCCESS)
        << LogCapture::take();
    scores.insert(scores.end(), out.begin(), out.end());
    return scores;
  };
  auto finalize = [&](const Built& b) { return finalizeEvents(b.g, "pass matmul_"); };
  Built parts = build("kvc0", 0), plain = build("kvc1", 1);
  EXPECT_EQ(finalize(parts), "pass matmul_concat_reading: qk (2 parts), pv (2 parts); pass matmul_transpose_folding: qk");
  EXPECT_EQ(finalize(plain), "");
  const std::vector<uint16_t> want = exec(plain);
  EXPECT_EQ(exec(parts), want);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// Three 1 MiB tensors in a graph with 1 MB of VTCM: the add runs in 3 tiles, and
// the node's cycle estimate says so.
TEST_F(HtpGraphTest, TilingWithinTheVtcmBudget) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(makeGraph(ctx, "big_add", {vtcmConfig(1)}, &g), QNN_SUCCESS);
  const std::vector<uint32_t> dims = {1, 256, 256, 16};
  QuantSpec a("a", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, dims, 0.1f, -128);
  QuantSpec bb("b", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, dims, 0.1f, -128);
  QuantSpec out("sum", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, dims, 0.2f, -128);
  for (QuantSpec* t : {&a, &bb, &out}) ASSERT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
  Qnn_Tensor_t ins[] = {a.tensor, bb.tensor};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"add_big", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ins, 1, &out.tensor};
  ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
  Qnn_ProfileHandle_t prof = nullptr;
  ASSERT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &prof), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(g, prof, nullptr), QNN_SUCCESS) << LogCapture::take();
  EXPECT_TRUE(has(events(prof), QNN_PROFILE_EVENTTYPE_BACKEND, "pass vtcm_tiling: add_big in 3 tiles"));
  std::vector<uint8_t> da(256 * 256 * 16, 140), db(da.size(), 116), result(da.size(), 0);
  a.tensor.v1.clientBuf = {da.data(), uint32_t(da.size())};
  bb.tensor.v1.clientBuf = {db.data(), uint32_t(db.size())};
  out.tensor.v1.clientBuf = {result.data(), uint32_t(result.size())};
  Qnn_Tensor_t execIn[] = {a.tensor, bb.tensor};
  ASSERT_EQ(api().graphExecute(g, execIn, 2, &out.tensor, 1, prof, nullptr), QNN_SUCCESS) << LogCapture::take();
  // (1.2 + -1.2) / 0.2 + 128 = 128 everywhere.
  EXPECT_EQ(std::count(result.begin(), result.end(), 128), long(result.size()));
  EXPECT_TRUE(has(events(prof), QNN_PROFILE_EVENTTYPE_NODE, "add_big: estimated HTP cycles (HVX, 3 tiles"));
  EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

TEST_F(HtpGraphTest, MemfdSharedBufferAsInput) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = buildConvRelu(ctx);
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  int fd = memfd_create("htp_input", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, off_t(x.size())), 0);
  ASSERT_EQ(pwrite(fd, x.data(), x.size(), 0), ssize_t(x.size()));
  uint32_t dims[] = {1, kH, kW, kCin};
  Qnn_MemDescriptor_t desc = QNN_MEM_DESCRIPTOR_INIT;
  desc.memShape = {4, dims, nullptr};
  desc.dataType = QNN_DATATYPE_UFIXED_POINT_8;
  desc.memType = QNN_MEM_TYPE_ION;
  desc.ionInfo.fd = fd;
  Qnn_MemHandle_t mem = nullptr;
  ASSERT_EQ(api().memRegister(ctx, &desc, 1, &mem), QNN_SUCCESS);
  std::vector<uint8_t> result(kH * kW * kCout);
  QuantSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCin}, kSx, kOffX);
  in.tensor.v1.id = xId;
  in.tensor.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  in.tensor.v1.memHandle = mem;
  QuantSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCout}, kSout, kOffOut,
                result.data(), uint32_t(result.size()));
  out.tensor.v1.id = outId;
  ASSERT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(result, referenceConvRelu(x, w, b));
  EXPECT_EQ(api().memDeRegister(&mem, 1), QNN_SUCCESS);
  // QURT addresses (QnnMemHtp_Descriptor_t) mean nothing on x86; a CUSTOM descriptor needs its struct.
  QnnMemHtp_Descriptor_t htp{};
  htp.type = QNN_HTP_MEM_QURT;
  desc.memType = QNN_MEM_TYPE_CUSTOM;
  desc.customInfo = &htp;
  mem = nullptr;
  EXPECT_EQ(api().memRegister(ctx, &desc, 1, &mem), QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE);
  EXPECT_EQ(mem, nullptr);
  desc.customInfo = nullptr;
  EXPECT_EQ(api().memRegister(ctx, &desc, 1, &mem), QNN_MEM_ERROR_INVALID_ARGUMENT);
  close(fd);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// One shared buffer holding the input and the output at offsets (QNN_MEM_TYPE_CUSTOM
// with QnnMemHtp_Descriptor_t SHARED_BUFFER), the way ExecuTorch's and ONNX Runtime's
// HTP clients register an rpcmem allocation; the offset is not page aligned.
TEST_F(HtpGraphTest, MultiTensorSharedBufferAtOffsets) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = buildConvRelu(ctx);
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  const uint64_t inOffset = 4096 + 64, outOffset = inOffset + x.size() + 128;
  const uint64_t outBytes = kH * kW * kCout, total = outOffset + outBytes;
  int fd = memfd_create("htp_shared", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, off_t(total)), 0);
  void* base = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ASSERT_NE(base, MAP_FAILED);
  auto* bytes = static_cast<uint8_t*>(base);
  std::memcpy(bytes + inOffset, x.data(), x.size());
  std::memset(bytes + outOffset, 0xEE, outBytes);
  uint32_t inDims[] = {1, kH, kW, kCin}, outDims[] = {1, kH, kW, kCout};
  QnnMemHtp_Descriptor_t htp[2] = {};
  Qnn_MemDescriptor_t desc[2] = {QNN_MEM_DESCRIPTOR_INIT, QNN_MEM_DESCRIPTOR_INIT};
  for (int i = 0; i < 2; ++i) {
    htp[i].type = QNN_HTP_MEM_SHARED_BUFFER;
    htp[i].size = total;
    htp[i].sharedBufferConfig = {fd, i == 0 ? inOffset : outOffset};
    desc[i].memShape = {4, i == 0 ? inDims : outDims, nullptr};
    desc[i].dataType = QNN_DATATYPE_UFIXED_POINT_8;
    desc[i].memType = QNN_MEM_TYPE_CUSTOM;
    desc[i].customInfo = &htp[i];
  }
  Qnn_MemHandle_t mem[2] = {nullptr, nullptr};
  ASSERT_EQ(api().memRegister(ctx, desc, 2, mem), QNN_SUCCESS) << LogCapture::take();
  QuantSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCin}, kSx, kOffX);
  in.tensor.v1.id = xId;
  in.tensor.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  in.tensor.v1.memHandle = mem[0];
  QuantSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, kH, kW, kCout}, kSout, kOffOut);
  out.tensor.v1.id = outId;
  out.tensor.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  out.tensor.v1.memHandle = mem[1];
  ASSERT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(std::vector<uint8_t>(bytes + outOffset, bytes + total), referenceConvRelu(x, w, b));
  EXPECT_EQ(bytes[outOffset - 1], 0);  // nothing written outside the output's bytes
  EXPECT_EQ(api().memDeRegister(mem, 2), QNN_SUCCESS);
  // A shared-buffer handle backs a tensor larger than its registered shape while the buffer's rest holds
  // it: the Genie runtime registers one handle per (buffer, offset), with the shape of the first tensor it
  // meets there (e.g. input_ids of its AR-1 graph), and executes its AR-N graph's tensor with it.
  uint32_t oneRow[] = {1, 1, 1, kCin};
  desc[0].memShape = {4, oneRow, nullptr};
  ASSERT_EQ(api().memRegister(ctx, desc, 2, mem), QNN_SUCCESS) << LogCapture::take();
  in.tensor.v1.memHandle = mem[0];
  out.tensor.v1.memHandle = mem[1];
  std::memset(bytes + outOffset, 0xEE, outBytes);
  ASSERT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(std::vector<uint8_t>(bytes + outOffset, bytes + total), referenceConvRelu(x, w, b));
  EXPECT_EQ(api().memDeRegister(mem, 1), QNN_SUCCESS);
  // ... but not one the rest of the buffer cannot hold (here: kCin bytes before its end).
  htp[0].sharedBufferConfig.offset = total - kCin;
  ASSERT_EQ(api().memRegister(ctx, desc, 1, mem), QNN_SUCCESS) << LogCapture::take();
  in.tensor.v1.memHandle = mem[0];
  EXPECT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_TENSOR);
  EXPECT_NE(LogCapture::take().find("buffer is " + std::to_string(kCin) + " bytes, the tensor needs " +
                                    std::to_string(x.size())),
            std::string::npos);
  EXPECT_EQ(api().memDeRegister(mem, 2), QNN_SUCCESS);
  // A tensor reaching past the stated buffer size, or past the file, is refused before mapping.
  htp[1].size = total - 1;
  Qnn_MemHandle_t refused = nullptr;
  EXPECT_EQ(api().memRegister(ctx, &desc[1], 1, &refused), QNN_MEM_ERROR_MAPPING);
  EXPECT_NE(LogCapture::take().find("beyond the stated buffer size"), std::string::npos);
  htp[1].size = 0;
  htp[1].sharedBufferConfig.offset = total - 1;
  EXPECT_EQ(api().memRegister(ctx, &desc[1], 1, &refused), QNN_MEM_ERROR_MAPPING);
  EXPECT_EQ(refused, nullptr);
  munmap(base, total);
  close(fd);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

TEST_F(HtpGraphTest, SimulatedSubsystemRestart) {
  // The engine reads the variable when the backend is created.
  EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
  setenv("QNN_HTP_SIM_FAIL_AFTER_EXECUTES", "2", 1);
  backend = nullptr;
  ASSERT_EQ(api().backendCreate(log, nullptr, &backend), QNN_SUCCESS);
  unsetenv("QNN_HTP_SIM_FAIL_AFTER_EXECUTES");
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = buildConvRelu(ctx);
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  std::vector<uint8_t> got, before(kH * kW * kCout, 0);
  EXPECT_EQ(run(g, &got), QNN_SUCCESS);
  EXPECT_EQ(run(g, &got), QNN_SUCCESS);
  EXPECT_EQ(run(g, &got), QNN_COMMON_ERROR_SYSTEM_COMMUNICATION);
  EXPECT_NE(LogCapture::take().find("subsystem restarted"), std::string::npos);
  EXPECT_EQ(run(g, &got), QNN_COMMON_ERROR_SYSTEM_COMMUNICATION);  // the session is gone
  EXPECT_EQ(got, before);                                         // outputs untouched on error
  // Recreating the context brings the backend back.
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  g = buildConvRelu(ctx);
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  EXPECT_EQ(run(g, &got), QNN_SUCCESS);
  EXPECT_EQ(got, referenceConvRelu(x, w, b));
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// Buffer (after op set 2.7; the HTP takes it on UFIXED_POINT_8/16): a sliding
// window kept across executes, frames moved bit for bit. Windows worked out by
// hand (NON_BLOCKING_LEFT: held frames first, zeros after; stride 1).
TEST_F(HtpGraphTest, BufferKeepsItsWindowAcrossExecutesBitForBit) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(makeGraph(ctx, "buffer", {}, &g), QNN_SUCCESS);
  QuantSpec in("frame", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {2, 1}, 0.5f, -3);
  QuantSpec out("window", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {2, 3}, 0.5f, -3);
  ASSERT_EQ(api().tensorCreateGraphTensor(g, &in.tensor), QNN_SUCCESS);
  ASSERT_EQ(api().tensorCreateGraphTensor(g, &out.tensor), QNN_SUCCESS);
  Qnn_Param_t params[] = {u32Param("buffer_size", 3), u32Param("buffer_dim", 1), u32Param("stride", 1),
                          u32Param("mode", 1)};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"buffer0", "qti.aisw", "Buffer", 4, params, 1, &in.tensor, 1, &out.tensor};
  ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
  // Zero frames are the encoding's real zero: byte 3 (offset -3).
  const std::vector<std::vector<uint8_t>> frames = {{11, 101}, {12, 102}, {13, 103}, {14, 104}};
  const std::vector<std::vector<uint8_t>> want = {
      {11, 3, 3, 101, 3, 3}, {11, 12, 3, 101, 102, 3}, {11, 12, 13, 101, 102, 103}, {12, 13, 14, 102, 103, 104}};
  for (size_t k = 0; k < frames.size(); ++k) {
    std::vector<uint8_t> x = frames[k], y(6, 0xEE);
    in.tensor.v1.clientBuf = {x.data(), uint32_t(x.size())};
    out.tensor.v1.clientBuf = {y.data(), uint32_t(y.size())};
    ASSERT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS)
        << LogCapture::take();
    EXPECT_EQ(y, want[k]) << "execute " << k;
  }
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// The ops after op set 2.7 recorded on float tensors only (IsInf: float in, BOOL_8 out) run in
// fp16 mode only; a fixed-point tensor is refused naming that. (Those with recorded quantized
// configurations, e.g. RmsNorm, run on UFIXED_POINT_8/16: htp_conformance_api RealValued/*.)
TEST_F(HtpGraphTest, LaterOpsRefuseFixedPointWhereOnlyFp16IsRecorded) {
  QuantSpec in("q_in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, {1, 8}, 0.01f, 0);
  TensorSpec out("b_out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_BOOL_8, {1, 8});
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"isinf0", "qti.aisw", "IsInf", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
  EXPECT_EQ(api().backendValidateOpConfig(backend, op), QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE);
  const std::string msg = LogCapture::take();
  EXPECT_NE(msg.find("node 'isinf0' (op IsInf): input 0 'q_in' has datatype UFIXED_POINT_16; the HTP runs op IsInf "
                     "on float tensors in fp16 mode only"),
            std::string::npos)
      << msg;
  // RmsNorm's quantized configuration is recorded: the same tensors pass.
  QuantSpec q("q", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_16, {1, 8}, 0.01f, 0);
  QuantSpec qo("qo", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_16, {1, 8}, 0.01f, 0);
  uint32_t axesData[] = {1};
  TensorSpec axes("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {1}, axesData, 4);
  Qnn_Param_t params[] = {tensorParam("axes", axes)};
  Qnn_OpConfig_t rms = QNN_OPCONFIG_INIT;
  rms.v1 = {"rms0", "qti.aisw", "RmsNorm", 1, params, 1, &q.tensor, 1, &qo.tensor};
  EXPECT_EQ(api().backendValidateOpConfig(backend, rms), QNN_SUCCESS) << LogCapture::take();
}

}  // namespace
}  // namespace qnn::test
