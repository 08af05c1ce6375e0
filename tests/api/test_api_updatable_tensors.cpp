// Updateable tensors and binary sections on both backends, in the vendor's
// LoRA flow (QnnTensor.h, QnnContext.h, the SDK's LoRA v2 tutorial): a graph
// y = x*W + (x*A)*B whose adapter A, B are UPDATEABLE_STATIC; updates take
// effect at the next QnnGraph_finalize; QnnContext_getBinarySection writes an
// adapter as a section; QnnContext_applyBinarySection switches adapters in a
// context re-created from the base binary, between executes. Outputs are
// checked against plain loops over the same numbers.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "HTP/QnnHtpGraph.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

constexpr uint32_t kIn = 4, kRank = 2, kOut = 4;

struct Adapter {
  std::vector<float> a, b;  // kIn x kRank, kRank x kOut
};

Adapter adapter(float seed) {
  Adapter ad{std::vector<float>(kIn * kRank), std::vector<float>(kRank * kOut)};
  for (size_t i = 0; i < ad.a.size(); ++i) ad.a[i] = seed * (0.25f + 0.1f * static_cast<float>(i % 5)) - 0.3f;
  for (size_t i = 0; i < ad.b.size(); ++i) ad.b[i] = seed * (0.5f - 0.07f * static_cast<float>(i % 7));
  return ad;
}

// Row vector x (1 x kIn) through y = x*W + (x*A)*B.
std::vector<float> reference(const std::vector<float>& x, const std::vector<float>& w, const Adapter& ad) {
  std::vector<float> xa(kRank, 0.f), y(kOut, 0.f);
  for (uint32_t r = 0; r < kRank; ++r)
    for (uint32_t i = 0; i < kIn; ++i) xa[r] += x[i] * ad.a[i * kRank + r];
  for (uint32_t o = 0; o < kOut; ++o) {
    for (uint32_t i = 0; i < kIn; ++i) y[o] += x[i] * w[i * kOut + o];
    for (uint32_t r = 0; r < kRank; ++r) y[o] += xa[r] * ad.b[r * kOut + o];
  }
  return y;
}

class UpdatableTensors : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    for (uint32_t i = 0; i < kIn * kOut; ++i) w[i] = 0.05f * static_cast<float>(i) - 0.3f;
  }
  void TearDown() override { EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS); }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  // Builds "lora" in `ctx` with adapter `ad`; ids of A and B land in aId/bId.
  // fp16 (HTP): the graph config QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION FLOAT16.
  void build(Qnn_ContextHandle_t ctx, const Adapter& ad, bool sectionUpdates = false, bool fp16 = false) {
    QnnGraph_Config_t enable = QNN_GRAPH_CONFIG_INIT;
    enable.option = QNN_GRAPH_CONFIG_OPTION_ENABLE_BINARY_SECTION_WEIGHTS_UPDATES;
    enable.enableBinarySectionWeightsUpdates = 1;
    QnnHtpGraph_CustomConfig_t precision{};
    precision.option = QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION;
    precision.precision = QNN_PRECISION_FLOAT16;
    QnnGraph_Config_t custom = QNN_GRAPH_CONFIG_INIT;
    custom.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
    custom.customConfig = &precision;
    std::vector<const QnnGraph_Config_t*> configs;
    if (sectionUpdates) configs.push_back(&enable);
    if (fp16) configs.push_back(&custom);
    configs.push_back(nullptr);
    ASSERT_EQ(api().graphCreate(ctx, "lora", configs.size() > 1 ? configs.data() : nullptr, &graph), QNN_SUCCESS);
    Adapter copy = ad;
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kIn});
    TensorSpec W("W", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kIn, kOut}, w, sizeof w);
    TensorSpec A("A", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {kIn, kRank}, copy.a.data(),
                 static_cast<uint32_t>(copy.a.size() * 4));
    TensorSpec B("B", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {kRank, kOut}, copy.b.data(),
                 static_cast<uint32_t>(copy.b.size() * 4));
    TensorSpec xw("xw", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kOut});
    TensorSpec xa("xa", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kRank});
    TensorSpec xab("xab", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kOut});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kOut});
    for (TensorSpec* t : {&x, &W, &A, &B, &xw, &xa, &xab, &y})
      ASSERT_EQ(api().tensorCreateGraphTensor(graph, &t->tensor), QNN_SUCCESS) << t->name;
    aId = A.tensor.v1.id;
    bId = B.tensor.v1.id;
    wId = W.tensor.v1.id;
    xId = x.tensor.v1.id;
    yId = y.tensor.v1.id;
    matmul("mm_w", x, W, xw);
    matmul("mm_a", x, A, xa);
    matmul("mm_b", xa, B, xab);
    Qnn_Tensor_t addIn[] = {xw.tensor, xab.tensor};
    Qnn_OpConfig_t add = QNN_OPCONFIG_INIT;
    add.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &y.tensor};
    ASSERT_EQ(api().graphAddNode(graph, add), QNN_SUCCESS);
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }
  void matmul(const char* name, TensorSpec& a, TensorSpec& b, TensorSpec& out) {
    Qnn_Tensor_t in[] = {a.tensor, b.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", "MatMul", 0, nullptr, 2, in, 1, &out.tensor};
    ASSERT_EQ(api().graphAddNode(graph, op), QNN_SUCCESS) << name;
  }

  std::vector<float> run(Qnn_GraphHandle_t g) {
    std::vector<float> y(kOut, -1.f);
    Qnn_Tensor_t in = QNN_TENSOR_INIT, out = QNN_TENSOR_INIT;
    uint32_t inDims[] = {1, kIn}, outDims[] = {1, kOut};
    in.v1.id = xId;
    in.v1.type = QNN_TENSOR_TYPE_APP_WRITE;
    in.v1.dataType = QNN_DATATYPE_FLOAT_32;
    in.v1.rank = 2;
    in.v1.dimensions = inDims;
    in.v1.memType = QNN_TENSORMEMTYPE_RAW;
    in.v1.clientBuf = {x.data(), static_cast<uint32_t>(x.size() * 4)};
    out = in;
    out.v1.id = yId;
    out.v1.type = QNN_TENSOR_TYPE_APP_READ;
    out.v1.dimensions = outDims;
    out.v1.clientBuf = {y.data(), static_cast<uint32_t>(y.size() * 4)};
    EXPECT_EQ(api().graphExecute(g, &in, 1, &out, 1, nullptr, nullptr), QNN_SUCCESS);
    return y;
  }

  // An update of tensor `id` with float data.
  static Qnn_Tensor_t update(uint32_t id, std::vector<float>& data, std::vector<uint32_t>& dims) {
    Qnn_Tensor_t t = QNN_TENSOR_INIT;
    t.v1.id = id;
    t.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
    t.v1.dataType = QNN_DATATYPE_FLOAT_32;
    t.v1.rank = static_cast<uint32_t>(dims.size());
    t.v1.dimensions = dims.data();
    t.v1.memType = QNN_TENSORMEMTYPE_RAW;
    t.v1.clientBuf = {data.data(), static_cast<uint32_t>(data.size() * 4)};
    return t;
  }
  Qnn_ErrorHandle_t updateAdapter(Adapter& ad) {
    Qnn_Tensor_t a = update(aId, ad.a, aDims), b = update(bId, ad.b, bDims);
    const Qnn_Tensor_t* list[] = {&a, &b};
    return api().tensorUpdateGraphTensors(graph, list, 2);
  }

  std::vector<uint8_t> contextBinary(Qnn_ContextHandle_t ctx) { return test::contextBinary(api(), ctx); }
  std::vector<uint8_t> section(Qnn_ContextHandle_t ctx, Qnn_GraphHandle_t g,
                               QnnContext_SectionType_t type = QNN_CONTEXT_SECTION_UPDATABLE) {
    Qnn_ContextBinarySize_t size = 0, written = 0;
    EXPECT_EQ(api().contextGetBinarySectionSize(ctx, g, type, &size), QNN_SUCCESS);
    std::vector<uint8_t> bytes(size);
    QnnContext_Buffer_t buf{};
    buf.version = QNN_CONTEXT_BUFFER_VERSION_1;
    buf.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    buf.v1.binaryBuf = {bytes.data(), size};
    EXPECT_EQ(api().contextGetBinarySection(ctx, g, type, &buf, &written, nullptr, nullptr), QNN_SUCCESS);
    EXPECT_EQ(written, size);
    return bytes;
  }
  static QnnContext_Buffer_t bufferOf(std::vector<uint8_t>& bytes) {
    QnnContext_Buffer_t buf{};
    buf.version = QNN_CONTEXT_BUFFER_VERSION_1;
    buf.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    buf.v1.binaryBuf = {bytes.data(), bytes.size()};
    return buf;
  }
  Qnn_ErrorHandle_t apply(Qnn_ContextHandle_t ctx, Qnn_GraphHandle_t g, std::vector<uint8_t>& bytes,
                          QnnContext_SectionType_t type = QNN_CONTEXT_SECTION_UPDATABLE) {
    QnnContext_Buffer_t buf = bufferOf(bytes);
    return api().contextApplyBinarySection(ctx, g, type, &buf, nullptr, nullptr);
  }
  Qnn_ContextHandle_t load(std::vector<uint8_t>& binary, Qnn_GraphHandle_t* g) {
    Qnn_ContextHandle_t ctx = nullptr;
    EXPECT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), binary.size(), &ctx, nullptr),
              QNN_SUCCESS);
    EXPECT_EQ(api().graphRetrieve(ctx, "lora", g), QNN_SUCCESS);
    return ctx;
  }

  void expectNear(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4f) << what << " [" << i << "]";
  }

  LoadedBackend lib{GetParam() ? htpBackendPath() : cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  uint32_t aId = 0, bId = 0, wId = 0, xId = 0, yId = 0;
  std::vector<uint32_t> aDims{kIn, kRank}, bDims{kRank, kOut};
  float w[kIn * kOut];
  std::vector<float> x{1.f, -2.f, 0.5f, 3.f};
  std::vector<float> wv() const { return std::vector<float>(w, w + kIn * kOut); }
};

TEST_P(UpdatableTensors, UpdatesTakeEffectAtTheNextFinalize) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Adapter base = adapter(1.f), next = adapter(-0.5f);
  build(ctx, base);
  expectNear(run(graph), reference(x, wv(), base), "base");
  ASSERT_EQ(updateAdapter(next), QNN_SUCCESS);
  expectNear(run(graph), reference(x, wv(), base), "updated but not finalized");
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  expectNear(run(graph), reference(x, wv(), next), "after finalize");
  // With nothing pending, a second finalize of a built graph is still an error.
  EXPECT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_GRAPH_ERROR_GRAPH_FINALIZED);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

TEST_P(UpdatableTensors, BadUpdatesAreRefusedAndChangeNothing) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Adapter base = adapter(1.f), next = adapter(2.f);
  build(ctx, base);
  std::vector<float> wdata(kIn * kOut, 1.f), shortA(3, 1.f);
  std::vector<uint32_t> wDims{kIn, kOut}, shortDims{3};
  Qnn_Tensor_t notUpdateable = update(wId, wdata, wDims);
  Qnn_Tensor_t wrongShape = update(aId, shortA, shortDims);
  Qnn_Tensor_t wrongSize = update(aId, shortA, aDims);
  Qnn_Tensor_t unknown = update(9999, next.a, aDims);
  Qnn_Tensor_t good = update(aId, next.a, aDims);
  Qnn_Tensor_t wrongType = good;
  wrongType.v1.dataType = QNN_DATATYPE_UINT_8;
  const Qnn_Tensor_t* l1[] = {&good, &notUpdateable};
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, l1, 2), QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE);
  const Qnn_Tensor_t* l2[] = {&wrongShape};
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, l2, 1), QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE);
  const Qnn_Tensor_t* l3[] = {&wrongSize};
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, l3, 1), QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE);
  const Qnn_Tensor_t* l4[] = {&wrongType};
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, l4, 1), QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE);
  const Qnn_Tensor_t* l5[] = {&unknown};
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, l5, 1), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
  const Qnn_Tensor_t* l6[] = {nullptr};
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, l6, 1), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, nullptr, 1), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
  const Qnn_Tensor_t* l7[] = {&good};
  EXPECT_EQ(api().tensorUpdateGraphTensors(nullptr, l7, 1), QNN_TENSOR_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().tensorUpdateContextTensors(ctx, l7, 1), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);  // not a context tensor
  // None of the refused calls staged anything: a finalize has nothing to apply.
  EXPECT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_GRAPH_ERROR_GRAPH_FINALIZED);
  expectNear(run(graph), reference(x, wv(), base), "after refused updates");

  // A graph still being built has nothing to update yet.
  Qnn_GraphHandle_t building = nullptr;
  ASSERT_EQ(api().graphCreate(ctx, "building", nullptr, &building), QNN_SUCCESS);
  EXPECT_EQ(api().tensorUpdateGraphTensors(building, l7, 1), QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

TEST_P(UpdatableTensors, ContextTensorUpdatesReachTheGraphsUsingThem) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  std::vector<float> bias{1.f, 2.f, 3.f, 4.f}, bias2{-1.f, 0.f, 10.f, 0.5f};
  TensorSpec b("shared_bias", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {1, kOut}, bias.data(), 16);
  ASSERT_EQ(api().tensorCreateContextTensor(ctx, &b.tensor), QNN_SUCCESS);
  ASSERT_EQ(api().graphCreate(ctx, "add_bias", nullptr, &graph), QNN_SUCCESS);
  TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kOut});
  TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kOut});
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &in.tensor), QNN_SUCCESS);
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &out.tensor), QNN_SUCCESS);
  Qnn_Tensor_t ins[] = {in.tensor, b.tensor};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, ins, 1, &out.tensor};
  ASSERT_EQ(api().graphAddNode(graph, op), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  xId = in.tensor.v1.id;
  yId = out.tensor.v1.id;
  auto expect = [&](const std::vector<float>& bb) {
    std::vector<float> want(kOut);
    for (uint32_t i = 0; i < kOut; ++i) want[i] = x[i] + bb[i];
    return want;
  };
  expectNear(run(graph), expect(bias), "base bias");
  std::vector<uint32_t> dims{1, kOut};
  Qnn_Tensor_t u = update(b.tensor.v1.id, bias2, dims);
  const Qnn_Tensor_t* list[] = {&u};
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, list, 1), QNN_SUCCESS);  // also allowed on the graph's copy
  ASSERT_EQ(api().tensorUpdateContextTensors(ctx, list, 1), QNN_SUCCESS);
  expectNear(run(graph), expect(bias), "before finalize");
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  expectNear(run(graph), expect(bias2), "after finalize");
  EXPECT_EQ(api().tensorUpdateContextTensors(nullptr, list, 1), QNN_TENSOR_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

TEST_P(UpdatableTensors, QuantizationOfAnUpdateableInputChangesAtFinalize) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  ASSERT_EQ(api().graphCreate(ctx, "deq", nullptr, &graph), QNN_SUCCESS);
  TensorSpec in("q", QNN_TENSOR_TYPE_UPDATEABLE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 4});
  in.tensor.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
  in.tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
  in.tensor.v1.quantizeParams.scaleOffsetEncoding = {0.5f, -10};
  TensorSpec out("f", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &in.tensor), QNN_SUCCESS);
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &out.tensor), QNN_SUCCESS);
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"dequantize", "qti.aisw", "Dequantize", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
  ASSERT_EQ(api().graphAddNode(graph, op), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  uint8_t q[4] = {10, 12, 20, 255};
  auto runDeq = [&] {
    std::vector<float> f(4, -1.f);
    Qnn_Tensor_t i = in.tensor, o = out.tensor;
    i.v1.clientBuf = {q, 4};
    o.v1.clientBuf = {f.data(), 16};
    EXPECT_EQ(api().graphExecute(graph, &i, 1, &o, 1, nullptr, nullptr), QNN_SUCCESS);
    return f;
  };
  // QNN's offset convention: real = scale * (q + offset).
  expectNear(runDeq(), {0.f, 1.f, 5.f, 122.5f}, "scale 0.5 offset -10");
  Qnn_Tensor_t u = in.tensor;
  u.v1.quantizeParams.scaleOffsetEncoding = {2.f, 0};
  const Qnn_Tensor_t* list[] = {&u};
  ASSERT_EQ(api().tensorUpdateGraphTensors(graph, list, 1), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  expectNear(runDeq(), {20.f, 24.f, 40.f, 510.f}, "scale 2 offset 0");
  // Quantization only: data for a non-static tensor is refused.
  u.v1.clientBuf = {q, 4};
  EXPECT_EQ(api().tensorUpdateGraphTensors(graph, list, 1), QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

TEST_P(UpdatableTensors, AdapterSectionsSwitchALoadedContextBetweenExecutes) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Adapter base = adapter(0.f), one = adapter(1.f), two = adapter(-2.f);
  build(ctx, base);
  std::vector<uint8_t> baseBinary = contextBinary(ctx);
  // The offline flow: update, finalize, get the section; once per adapter.
  ASSERT_EQ(updateAdapter(one), QNN_SUCCESS);
  EXPECT_EQ(api().contextGetBinarySectionSize(ctx, graph, QNN_CONTEXT_SECTION_UPDATABLE, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  Qnn_ContextBinarySize_t size = 0;
  EXPECT_EQ(api().contextGetBinarySectionSize(ctx, graph, QNN_CONTEXT_SECTION_UPDATABLE, &size),
            QNN_CONTEXT_ERROR_NOT_FINALIZED);  // updates pending
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  std::vector<uint8_t> sectionOne = section(ctx, graph);
  ASSERT_EQ(updateAdapter(two), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  std::vector<uint8_t> sectionTwo = section(ctx, nullptr);  // full-context form
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);

  // The online flow: load the base binary, apply adapters between executes.
  Qnn_GraphHandle_t g = nullptr;
  Qnn_ContextHandle_t loaded = load(baseBinary, &g);
  expectNear(run(g), reference(x, wv(), base), "base binary");
  ASSERT_EQ(apply(loaded, g, sectionOne), QNN_SUCCESS);
  expectNear(run(g), reference(x, wv(), one), "adapter one");
  ASSERT_EQ(apply(loaded, nullptr, sectionTwo), QNN_SUCCESS);
  expectNear(run(g), reference(x, wv(), two), "adapter two");
  ASSERT_EQ(apply(loaded, g, sectionOne), QNN_SUCCESS);
  expectNear(run(g), reference(x, wv(), one), "adapter one again");

  // A failed apply leaves the context as it was.
  std::vector<uint8_t> corrupt = sectionTwo;
  corrupt[corrupt.size() / 2] ^= 0x5a;
  EXPECT_EQ(apply(loaded, g, corrupt), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  std::vector<uint8_t> truncated(sectionTwo.begin(), sectionTwo.begin() + 10);
  EXPECT_EQ(apply(loaded, g, truncated), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(apply(loaded, g, sectionTwo, QNN_CONTEXT_SECTION_UPDATABLE_WEIGHTS), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(apply(loaded, g, sectionTwo, static_cast<QnnContext_SectionType_t>(77)), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextApplyBinarySection(loaded, g, QNN_CONTEXT_SECTION_UPDATABLE, nullptr, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  QnnContext_Buffer_t buf = bufferOf(sectionTwo);
  EXPECT_EQ(api().contextApplyBinarySection(nullptr, g, QNN_CONTEXT_SECTION_UPDATABLE, &buf, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_HANDLE);
  expectNear(run(g), reference(x, wv(), one), "after refused applies");

  // Sections are made from contexts built online, not re-created ones.
  EXPECT_EQ(api().contextGetBinarySectionSize(loaded, g, QNN_CONTEXT_SECTION_UPDATABLE, &size),
            QNN_COMMON_ERROR_OPERATION_NOT_PERMITTED);
  // A section carries the graph's tensors by name and id: a context holding
  // another graph refuses it.
  Qnn_ContextHandle_t other = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &other), QNN_SUCCESS);
  Qnn_GraphHandle_t otherGraph = nullptr;
  ASSERT_EQ(api().graphCreate(other, "not_lora", nullptr, &otherGraph), QNN_SUCCESS);
  EXPECT_EQ(apply(other, nullptr, sectionTwo), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(apply(other, otherGraph, sectionTwo), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextFree(other, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
}

// A graph prepared in fp16 and loaded from a context binary keeps computing in
// fp16 after a section is applied (the graph is prepared again with the options
// the binary holds, not the loading context's settings): applying the values it
// already has gives the same output bytes. It used to run in fp32 after any section.
TEST_P(UpdatableTensors, Fp16GraphFromABinaryStaysFp16AfterASection) {
  if (!GetParam()) GTEST_SKIP() << "an HTP graph config";
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Adapter one = adapter(1.f);
  build(ctx, one, false, true);
  std::vector<uint8_t> binary = contextBinary(ctx), same = section(ctx, graph);
  const std::vector<float> built = run(graph);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);

  Qnn_GraphHandle_t g = nullptr;
  Qnn_ContextHandle_t loaded = load(binary, &g);
  const std::vector<float> before = run(g), want = reference(x, wv(), one);
  ASSERT_EQ(apply(loaded, g, same), QNN_SUCCESS);
  const std::vector<float> after = run(g);
  EXPECT_EQ(std::memcmp(before.data(), built.data(), before.size() * 4), 0) << "loaded vs built";
  EXPECT_EQ(std::memcmp(after.data(), before.data(), after.size() * 4), 0) << "after the section vs before";
  double worst = 0;  // fp16 rounding is there (an fp32 graph gives the reference within 1e-6)
  for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::fabs(double(after[i]) - want[i]));
  EXPECT_GT(worst, 1e-5);
  EXPECT_LT(worst, 2e-2);
  EXPECT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
}

TEST_P(UpdatableTensors, WeightOnlyAndQuantOnlySections) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Adapter base = adapter(0.5f), one = adapter(1.5f);
  build(ctx, base);
  std::vector<uint8_t> baseBinary = contextBinary(ctx);
  ASSERT_EQ(updateAdapter(one), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  std::vector<uint8_t> weights = section(ctx, graph, QNN_CONTEXT_SECTION_UPDATABLE_WEIGHTS);
  std::vector<uint8_t> quant = section(ctx, graph, QNN_CONTEXT_SECTION_UPDATABLE_QUANT_PARAMS);
  EXPECT_LT(quant.size(), weights.size());  // float tensors: no quantization to carry
  Qnn_GraphHandle_t g = nullptr;
  Qnn_ContextHandle_t loaded = load(baseBinary, &g);
  ASSERT_EQ(apply(loaded, g, quant, QNN_CONTEXT_SECTION_UPDATABLE_QUANT_PARAMS), QNN_SUCCESS);
  expectNear(run(g), reference(x, wv(), base), "quant-only section of float tensors");
  ASSERT_EQ(apply(loaded, g, weights, QNN_CONTEXT_SECTION_UPDATABLE_WEIGHTS), QNN_SUCCESS);
  expectNear(run(g), reference(x, wv(), one), "weights-only section");
  EXPECT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

TEST_P(UpdatableTensors, SectionUpdatesMakeNewAdaptersWithoutAContext) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Adapter base = adapter(1.f), made = adapter(3.f);
  build(ctx, base, /*sectionUpdates=*/true);
  std::vector<uint8_t> baseBinary = contextBinary(ctx);
  std::vector<uint8_t> baseSection = section(ctx, graph);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);

  Qnn_Tensor_t a = update(aId, made.a, aDims), b = update(bId, made.b, bDims);
  const Qnn_Tensor_t* list[] = {&a, &b};
  QnnContext_Buffer_t in = bufferOf(baseSection), out{};
  ASSERT_EQ(api().contextGetBinarySectionUpdate(&in, nullptr, list, 2, 1, nullptr, nullptr, nullptr, &out), QNN_SUCCESS);
  ASSERT_NE(out.v1.binaryBuf.data, nullptr);
  std::vector<uint8_t> madeSection(static_cast<uint8_t*>(out.v1.binaryBuf.data),
                                   static_cast<uint8_t*>(out.v1.binaryBuf.data) + out.v1.binaryBuf.dataSize);
  Qnn_GraphHandle_t g = nullptr;
  Qnn_ContextHandle_t loaded = load(baseBinary, &g);
  ASSERT_EQ(apply(loaded, g, madeSection), QNN_SUCCESS);
  expectNear(run(g), reference(x, wv(), made), "section made by getBinarySectionUpdate");
  EXPECT_EQ(api().contextFreeBinarySectionUpdate(out, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFreeBinarySectionUpdate(out, nullptr), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);  // twice

  // keepUpdatable = 0: the result can be applied but not updated again.
  QnnContext_Buffer_t last{};
  ASSERT_EQ(api().contextGetBinarySectionUpdate(&in, nullptr, list, 1, 0, nullptr, nullptr, nullptr, &last), QNN_SUCCESS);
  QnnContext_Buffer_t again{};
  EXPECT_EQ(api().contextGetBinarySectionUpdate(&last, nullptr, list, 1, 1, nullptr, nullptr, nullptr, &again),
            QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE);
  EXPECT_EQ(api().contextFreeBinarySectionUpdate(last, nullptr), QNN_SUCCESS);

  std::vector<float> none(2, 0.f);
  std::vector<uint32_t> d{2};
  Qnn_Tensor_t unknown = update(4242, none, d);
  const Qnn_Tensor_t* bad[] = {&unknown};
  EXPECT_EQ(api().contextGetBinarySectionUpdate(&in, nullptr, bad, 1, 1, nullptr, nullptr, nullptr, &again),
            QNN_TENSOR_ERROR_DOES_NOT_EXIST);
  EXPECT_EQ(api().contextGetBinarySectionUpdate(&in, &in, list, 1, 1, nullptr, nullptr, nullptr, &again),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);  // auxiliary must be NULL
  EXPECT_EQ(api().contextGetBinarySectionUpdate(&in, nullptr, list, 1, 1, nullptr, nullptr, nullptr, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextFreeBinarySectionUpdate(QnnContext_Buffer_t{}, nullptr), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
}

TEST_P(UpdatableTensors, SectionsOfGraphsWithoutTheOptionCannotBeUpdated) {
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  Adapter base = adapter(1.f), made = adapter(3.f);
  build(ctx, base, /*sectionUpdates=*/false);
  std::vector<uint8_t> baseSection = section(ctx, graph);
  Qnn_Tensor_t a = update(aId, made.a, aDims);
  const Qnn_Tensor_t* list[] = {&a};
  QnnContext_Buffer_t in = bufferOf(baseSection), out{};
  EXPECT_EQ(api().contextGetBinarySectionUpdate(&in, nullptr, list, 1, 1, nullptr, nullptr, nullptr, &out),
            QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
}

// Switching adapters on a graph whose base weights are large: an apply refreshes
// the adapter's nodes only (CPU) where a reload reads and prepares everything.
// Printed for docs/benchmarks.md, not asserted (timing is not a test).
TEST_P(UpdatableTensors, AdapterSwitchAgainstReloadIsMeasured) {
  constexpr uint32_t kBig = 1024, kLow = 8;
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  ASSERT_EQ(api().graphCreate(ctx, "big_lora", nullptr, &graph), QNN_SUCCESS);
  std::vector<float> base(kBig * kBig, 0.001f), a(kBig * kLow, 0.01f), b(kLow * kBig, 0.02f), a2(kBig * kLow, -0.01f);
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kBig});
  TensorSpec W("W", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kBig, kBig}, base.data(), kBig * kBig * 4);
  TensorSpec A("A", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {kBig, kLow}, a.data(), kBig * kLow * 4);
  TensorSpec B("B", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {kLow, kBig}, b.data(), kLow * kBig * 4);
  TensorSpec xw("xw", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kBig});
  TensorSpec xa("xa", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kLow});
  TensorSpec xab("xab", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kBig});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kBig});
  for (TensorSpec* t : {&x, &W, &A, &B, &xw, &xa, &xab, &y})
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &t->tensor), QNN_SUCCESS);
  matmul("mm_w", x, W, xw);
  matmul("mm_a", x, A, xa);
  matmul("mm_b", xa, B, xab);
  Qnn_Tensor_t addIn[] = {xw.tensor, xab.tensor};
  Qnn_OpConfig_t add = QNN_OPCONFIG_INIT;
  add.v1 = {"add", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &y.tensor};
  ASSERT_EQ(api().graphAddNode(graph, add), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  std::vector<uint8_t> binary = contextBinary(ctx);
  std::vector<uint8_t> one = section(ctx, graph);
  std::vector<uint32_t> aDimsBig{kBig, kLow};
  Qnn_Tensor_t u = update(A.tensor.v1.id, a2, aDimsBig);
  const Qnn_Tensor_t* list[] = {&u};
  ASSERT_EQ(api().tensorUpdateGraphTensors(graph, list, 1), QNN_SUCCESS);
  ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  std::vector<uint8_t> two = section(ctx, graph);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);

  Qnn_ContextHandle_t loaded = nullptr;
  ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), binary.size(), &loaded, nullptr),
            QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().graphRetrieve(loaded, "big_lora", &g), QNN_SUCCESS);
  constexpr int kRounds = 10;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kRounds; ++i) ASSERT_EQ(apply(loaded, g, i % 2 ? one : two), QNN_SUCCESS);
  auto t1 = std::chrono::steady_clock::now();
  for (int i = 0; i < kRounds; ++i) {
    ASSERT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), binary.size(), &loaded, nullptr),
              QNN_SUCCESS);
  }
  auto t2 = std::chrono::steady_clock::now();
  std::printf("%s, 1024x1024 base + rank-8 adapter: switch %.0f us, reload %.0f us (mean of %d)\n",
              GetParam() ? "HTP" : "CPU", std::chrono::duration<double, std::micro>(t1 - t0).count() / kRounds,
              std::chrono::duration<double, std::micro>(t2 - t1).count() / kRounds, kRounds);
  EXPECT_EQ(api().contextFree(loaded, nullptr), QNN_SUCCESS);
}

TEST_P(UpdatableTensors, CapabilitiesSayItIsSupported) {
  for (QnnProperty_Key_t key :
       {QNN_PROPERTY_TENSOR_SUPPORT_UPDATEABLE_STATIC_TENSORS, QNN_PROPERTY_TENSOR_SUPPORT_UPDATEABLE_NATIVE_TENSORS,
        QNN_PROPERTY_TENSOR_SUPPORT_UPDATEABLE_APP_TENSORS, QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_UPDATES,
        QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_SECTION_FULL_CONTEXT,
        QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_WEIGHT_ONLY_UPDATES,
        QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_QUANT_ONLY_UPDATES, QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_SECTION_UPDATES,
        QNN_PROPERTY_GRAPH_SUPPORT_UPDATABLE_WEIGHTS_BINARY_SECTION_CREATION})
    EXPECT_EQ(api().propertyHasCapability(key), QNN_PROPERTY_SUPPORTED) << key;
}

INSTANTIATE_TEST_SUITE_P(Backends, UpdatableTensors, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Htp" : "Cpu"; });

}  // namespace
}  // namespace qnn::test
