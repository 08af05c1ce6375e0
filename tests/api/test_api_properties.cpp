// QnnBackend/QnnContext/QnnGraph_getProperty on both backends: the HTP
// context properties clients query before providing buffers (weights,
// spill-fill scratch, alignment), the error codes of each group for options no
// backend defines, and misuse (null list, unknown option, null struct, stale
// handle) leaving every property untouched.
#include <gtest/gtest.h>

#include "HTP/QnnHtpContext.h"
#include "HTP/QnnHtpGraph.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

constexpr uint32_t kN = 100;  // HTP: 200-byte fp16 tensors, 256 bytes at its 128-byte alignment

// in -> Relu -> mid1 -> Relu -> mid2 -> Add(mid2, w) -> out, plus a static
// context tensor `cw` used by a second graph. Built, not finalized: the
// properties are read from what the client built.
class PropertyFixture {
 public:
  // The HTP simulator runs float graphs in fp16; the CPU backend in fp32.
  PropertyFixture(const std::string& path, Qnn_DataType_t dtype) : lib(path), dtype(dtype) {}

  bool setUp() {
    if (!lib.ok()) return false;
    return api().backendCreate(nullptr, nullptr, &backend) == QNN_SUCCESS &&
           api().contextCreate(backend, nullptr, nullptr, &ctx) == QNN_SUCCESS;
  }
  ~PropertyFixture() {
    if (ctx) api().contextFree(ctx, nullptr);
    if (backend) api().backendFree(backend);
  }
  const QNN_INTERFACE_VER_TYPE& api() const { return lib.api(); }

  void buildGraph(const char* name, bool useContextWeights) {
    Qnn_GraphHandle_t g = nullptr;
    QnnHtpGraph_CustomConfig_t fp16 = QNN_HTP_GRAPH_CUSTOM_CONFIG_INIT;
    fp16.option = QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION;
    fp16.precision = QNN_PRECISION_FLOAT16;
    QnnGraph_Config_t config = QNN_GRAPH_CONFIG_INIT;
    config.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
    config.customConfig = &fp16;
    const QnnGraph_Config_t* configs[] = {&config, nullptr};
    ASSERT_EQ(api().graphCreate(ctx, name, dtype == QNN_DATATYPE_FLOAT_16 ? configs : nullptr, &g), QNN_SUCCESS);
    graph = g;
    TensorSpec in("in", QNN_TENSOR_TYPE_APP_WRITE, dtype, {1, kN});
    TensorSpec mid1("mid1", QNN_TENSOR_TYPE_NATIVE, dtype, {1, kN});
    TensorSpec mid2("mid2", QNN_TENSOR_TYPE_NATIVE, dtype, {1, kN});
    TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, dtype, {1, kN});
    TensorSpec w("w", QNN_TENSOR_TYPE_STATIC, dtype, {1, kN}, weights.data(), weightBytes());
    for (TensorSpec* t : {&in, &mid1, &mid2, &out}) ASSERT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
    Qnn_Tensor_t weightTensor;
    if (useContextWeights) {
      if (!contextWeights) {
        contextWeights = std::make_unique<TensorSpec>("cw", QNN_TENSOR_TYPE_STATIC, dtype,
                                                      std::vector<uint32_t>{1, kN}, weights.data(), weightBytes());
        ASSERT_EQ(api().tensorCreateContextTensor(ctx, &contextWeights->tensor), QNN_SUCCESS);
      }
      weightTensor = contextWeights->tensor;
    } else {
      ASSERT_EQ(api().tensorCreateGraphTensor(g, &w.tensor), QNN_SUCCESS);
      weightTensor = w.tensor;
    }
    addNode(g, "relu1", "Relu", {in.tensor}, mid1.tensor);
    addNode(g, "relu2", "Relu", {mid1.tensor}, mid2.tensor);
    addNode(g, "add", "ElementWiseAdd", {mid2.tensor, weightTensor}, out.tensor);
  }

  void addNode(Qnn_GraphHandle_t g, const char* name, const char* type, std::vector<Qnn_Tensor_t> inputs,
               Qnn_Tensor_t output) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", type, 0, nullptr, uint32_t(inputs.size()), inputs.data(), 1, &output};
    ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS);
  }

  uint32_t weightBytes() const { return dtype == QNN_DATATYPE_FLOAT_16 ? kN * 2 : kN * 4; }

  LoadedBackend lib;
  Qnn_DataType_t dtype;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  std::vector<float> weights = std::vector<float>(kN, 0.5f);  // enough bytes for either dtype
  std::unique_ptr<TensorSpec> contextWeights;
};

// One HTP custom property wrapped for QnnContext_getProperty.
struct HtpContextProperty {
  explicit HtpContextProperty(QnnHtpContext_GetPropertyOption_t option, uint64_t sentinel = 7) {
    custom.option = option;
    custom.weightsBufferSize = sentinel;  // the union's members share storage
    property.option = QNN_CONTEXT_PROPERTY_OPTION_CUSTOM;
    property.customProperty = &custom;
  }
  QnnHtpContext_CustomProperty_t custom = QNN_HTP_CONTEXT_CUSTOM_PROPERTY_INIT;
  QnnContext_Property_t property = QNN_CONTEXT_PROPERTY_INIT;
};

TEST(Properties, HtpContextReportsWeightsScratchAndAlignment) {
  PropertyFixture f(htpBackendPath(), QNN_DATATYPE_FLOAT_16);
  ASSERT_TRUE(f.setUp()) << f.lib.error();
  f.buildGraph("g", false);
  HtpContextProperty align(QNN_HTP_CONTEXT_GET_PROP_BUFFER_START_ALIGNMENT);
  HtpContextProperty scratch(QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE);
  HtpContextProperty weights(QNN_HTP_CONTEXT_GET_PROP_WEIGHTS_BUFFER_SIZE);
  QnnContext_Property_t* list[] = {&align.property, &scratch.property, &weights.property, nullptr};
  ASSERT_EQ(f.api().contextGetProperty(f.ctx, list), QNN_SUCCESS);
  EXPECT_EQ(align.custom.bufferStartAlignment, 128u);
  // mid1 and mid2 are both live while relu2 runs: two 256-byte tensors.
  EXPECT_EQ(scratch.custom.spillfillBufferSize, 512u);
  EXPECT_EQ(weights.custom.weightsBufferSize, 256u);
}

// API 2.39's MAX_VTCMBACKUP_BUFFER_SIZE: the simulator never saves VTCM contents (its VTCM is
// host memory of each execution), so the buffer a client provides for that is 0 bytes.
TEST(Properties, HtpContextNeedsNoVtcmBackupBuffer) {
  PropertyFixture f(htpBackendPath(), QNN_DATATYPE_FLOAT_16);
  ASSERT_TRUE(f.setUp()) << f.lib.error();
  f.buildGraph("g", false);
  HtpContextProperty backup(QNN_HTP_CONTEXT_GET_PROP_MAX_VTCMBACKUP_BUFFER_SIZE);
  HtpContextProperty reserved(QNN_HTP_CONTEXT_GET_PROP_RESERVED_7);
  QnnContext_Property_t* list[] = {&backup.property, nullptr};
  ASSERT_EQ(f.api().contextGetProperty(f.ctx, list), QNN_SUCCESS);
  EXPECT_EQ(backup.custom.vtcmBackupBufferSize, 0u);
  QnnContext_Property_t* withReserved[] = {&reserved.property, nullptr};
  EXPECT_EQ(f.api().contextGetProperty(f.ctx, withReserved), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
}

TEST(Properties, HtpContextCountsContextWeightsOnceAndTakesTheLargestScratch) {
  PropertyFixture f(htpBackendPath(), QNN_DATATYPE_FLOAT_16);
  ASSERT_TRUE(f.setUp()) << f.lib.error();
  f.buildGraph("own_weights", false);
  f.buildGraph("shared_a", true);
  f.buildGraph("shared_b", true);
  HtpContextProperty scratch(QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE);
  HtpContextProperty weights(QNN_HTP_CONTEXT_GET_PROP_WEIGHTS_BUFFER_SIZE);
  QnnContext_Property_t* list[] = {&scratch.property, &weights.property, nullptr};
  ASSERT_EQ(f.api().contextGetProperty(f.ctx, list), QNN_SUCCESS);
  EXPECT_EQ(scratch.custom.spillfillBufferSize, 512u);  // the graphs run one at a time
  EXPECT_EQ(weights.custom.weightsBufferSize, 512u);    // w of the first graph + cw once
}

TEST(Properties, HtpContextMisuseLeavesEveryPropertyUntouched) {
  PropertyFixture f(htpBackendPath(), QNN_DATATYPE_FLOAT_16);
  ASSERT_TRUE(f.setUp()) << f.lib.error();
  f.buildGraph("g", false);
  HtpContextProperty good(QNN_HTP_CONTEXT_GET_PROP_WEIGHTS_BUFFER_SIZE);
  HtpContextProperty reserved(QNN_HTP_CONTEXT_GET_PROP_RESERVED_4);
  QnnContext_Property_t* withUnknown[] = {&good.property, &reserved.property, nullptr};
  EXPECT_EQ(f.api().contextGetProperty(f.ctx, withUnknown), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(good.custom.weightsBufferSize, 7u);

  QnnContext_Property_t notCustom = QNN_CONTEXT_PROPERTY_INIT;  // option UNDEFINED
  QnnContext_Property_t* withUndefined[] = {&good.property, &notCustom, nullptr};
  EXPECT_EQ(f.api().contextGetProperty(f.ctx, withUndefined), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  QnnContext_Property_t nullStruct = QNN_CONTEXT_PROPERTY_INIT;
  nullStruct.option = QNN_CONTEXT_PROPERTY_OPTION_CUSTOM;
  QnnContext_Property_t* withNull[] = {&good.property, &nullStruct, nullptr};
  EXPECT_EQ(f.api().contextGetProperty(f.ctx, withNull), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(good.custom.weightsBufferSize, 7u);

  EXPECT_EQ(f.api().contextGetProperty(f.ctx, nullptr), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  QnnContext_Property_t* justGood[] = {&good.property, nullptr};
  EXPECT_EQ(f.api().contextGetProperty(reinterpret_cast<Qnn_ContextHandle_t>(0x1234), justGood),
            QNN_CONTEXT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(good.custom.weightsBufferSize, 7u);
  QnnContext_Property_t* empty[] = {nullptr};
  EXPECT_EQ(f.api().contextGetProperty(f.ctx, empty), QNN_SUCCESS);
}

TEST(Properties, CpuDefinesNoCustomProperties) {
  PropertyFixture f(cpuBackendPath(), QNN_DATATYPE_FLOAT_32);
  ASSERT_TRUE(f.setUp()) << f.lib.error();
  f.buildGraph("g", false);
  uint64_t opaque = 7;
  QnnContext_Property_t ctxProp = QNN_CONTEXT_PROPERTY_INIT;
  ctxProp.option = QNN_CONTEXT_PROPERTY_OPTION_CUSTOM;
  ctxProp.customProperty = &opaque;
  QnnContext_Property_t* ctxList[] = {&ctxProp, nullptr};
  EXPECT_EQ(f.api().contextGetProperty(f.ctx, ctxList), QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(opaque, 7u);
}

// Neither backend defines custom backend or graph properties; each group answers
// with its own code, and misuse is told apart from the unsupported feature.
void expectBackendAndGraphProperties(const std::string& path, Qnn_DataType_t dtype) {
  PropertyFixture f(path, dtype);
  ASSERT_TRUE(f.setUp()) << f.lib.error();
  f.buildGraph("g", false);
  uint64_t opaque = 7;

  QnnBackend_Property_t backendProp = QNN_BACKEND_PROPERTY_INIT;
  QnnBackend_Property_t* backendList[] = {&backendProp, nullptr};
  EXPECT_EQ(f.api().backendGetProperty(f.backend, backendList), QNN_BACKEND_ERROR_INVALID_ARGUMENT);
  backendProp.option = QNN_BACKEND_PROPERTY_OPTION_CUSTOM;
  backendProp.customProperty = &opaque;
  EXPECT_EQ(f.api().backendGetProperty(f.backend, backendList), QNN_BACKEND_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(f.api().backendGetProperty(f.backend, nullptr), QNN_BACKEND_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(f.api().backendGetProperty(reinterpret_cast<Qnn_BackendHandle_t>(0x1234), backendList),
            QNN_BACKEND_ERROR_INVALID_HANDLE);
  QnnBackend_Property_t* backendEmpty[] = {nullptr};
  EXPECT_EQ(f.api().backendGetProperty(f.backend, backendEmpty), QNN_SUCCESS);

  QnnGraph_Property_t graphProp = QNN_GRAPH_PROPERTY_INIT;
  QnnGraph_Property_t* graphList[] = {&graphProp, nullptr};
  EXPECT_EQ(f.api().graphGetProperty(f.graph, graphList), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  graphProp.option = QNN_GRAPH_PROPERTY_OPTION_CUSTOM;
  graphProp.customProperty = &opaque;
  EXPECT_EQ(f.api().graphGetProperty(f.graph, graphList), QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(f.api().graphGetProperty(f.graph, nullptr), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(f.api().graphGetProperty(reinterpret_cast<Qnn_GraphHandle_t>(0x1234), graphList),
            QNN_GRAPH_ERROR_INVALID_HANDLE);
  EXPECT_EQ(opaque, 7u);
}

TEST(Properties, CpuBackendAndGraphProperties) { expectBackendAndGraphProperties(cpuBackendPath(), QNN_DATATYPE_FLOAT_32); }
TEST(Properties, HtpBackendAndGraphProperties) { expectBackendAndGraphProperties(htpBackendPath(), QNN_DATATYPE_FLOAT_16); }

}  // namespace
}  // namespace qnn::test
