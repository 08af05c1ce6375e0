// QnnProperty_hasCapability answers every key of the 2.32 headers truthfully
// on both backends: SUPPORTED or NOT_SUPPORTED, never UNKNOWN_KEY (clients such
// as ONNX Runtime's QNN EP treat UNKNOWN_KEY as a backend that does not know the
// group); a key no header defines is UNKNOWN_KEY. Spot checks tie answers to
// what the entries do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "HTP/QnnHtpProperty.h"
#include "QnnOpPackage.h"
#include "backend_loader.h"

namespace qnn::test {
namespace {

// Every QNN_PROPERTY_* key of include/QNN/QnnProperty.h (API 2.32) but QNN_PROPERTY_GROUP_CUSTOM.
const QnnProperty_Key_t kEveryCoreKey[] = {
    QNN_PROPERTY_GROUP_CORE,
    QNN_PROPERTY_GROUP_BACKEND,
    QNN_PROPERTY_BACKEND_SUPPORT_OP_PACKAGE,
    QNN_PROPERTY_BACKEND_SUPPORT_PLATFORM_OPTIONS,
    QNN_PROPERTY_BACKEND_SUPPORT_COMPOSITION,
    QNN_PROPERTY_BACKEND_SUPPORT_CUSTOM_PROPERTY,
    QNN_PROPERTY_GROUP_CONTEXT,
    QNN_PROPERTY_CONTEXT_SUPPORT_CACHING,
    QNN_PROPERTY_CONTEXT_SUPPORT_CONFIGURATION,
    QNN_PROPERTY_CONTEXT_SUPPORT_CONFIG_ENABLE_GRAPHS,
    QNN_PROPERTY_CONTEXT_SUPPORT_CONFIG_MEMORY_LIMIT_HINT,
    QNN_PROPERTY_CONTEXT_SUPPORT_CONFIG_PERSISTENT_BINARY,
    QNN_PROPERTY_CONTEXT_SUPPORT_CONFIG_BINARY_COMPATIBILITY_TYPE,
    QNN_PROPERTY_CONTEXT_SUPPORT_VALIDATE_BINARY,
    QNN_PROPERTY_CONTEXT_SUPPORT_CREATE_FROM_BINARY_WITH_SIGNALS,
    QNN_PROPERTY_CONTEXT_SUPPORT_CREATE_FROM_BINARY_LIST_ASYNC,
    QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_UPDATES,
    QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_SECTION_FULL_CONTEXT,
    QNN_PROPERTY_CONTEXT_SUPPORT_CUSTOM_PROPERTY,
    QNN_PROPERTY_CONTEXT_SUPPORT_INCREMENTAL_BINARY,
    QNN_PROPERTY_CONTEXT_SUPPORT_DEFERRED_GRAPH_INIT,
    QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_WEIGHT_ONLY_UPDATES,
    QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_QUANT_ONLY_UPDATES,
    QNN_PROPERTY_CONTEXT_SUPPORT_CREATE_FROM_BINARY_WITH_CALLBACK,
    QNN_PROPERTY_CONTEXT_SUPPORT_GRAPH_RETENTION_ORDER,
    QNN_PROPERTY_CONTEXT_SUPPORT_BINARY_SECTION_UPDATES,
    QNN_PROPERTY_GROUP_GRAPH,
    QNN_PROPERTY_GRAPH_SUPPORT_CONFIG,
    QNN_PROPERTY_GRAPH_SUPPORT_SIGNALS,
    QNN_PROPERTY_GRAPH_SUPPORT_ASYNC_EXECUTION,
    QNN_PROPERTY_GRAPH_SUPPORT_NULL_INPUTS,
    QNN_PROPERTY_GRAPH_SUPPORT_PRIORITY_CONTROL,
    QNN_PROPERTY_GRAPH_SUPPORT_FINALIZE_SIGNAL,
    QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_SIGNAL,
    QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_ASYNC_SIGNAL,
    QNN_PROPERTY_GRAPH_SUPPORT_CONTINUOUS_PROFILING,
    QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE,
    QNN_PROPERTY_GRAPH_SUPPORT_BATCH_MULTIPLE,
    QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_PER_API_PROFILING,
    QNN_PROPERTY_GRAPH_SUPPORT_SUBGRAPH,
    QNN_PROPERTY_GRAPH_SUPPORT_PROFILING_STATE,
    QNN_PROPERTY_GRAPH_SUPPORT_SET_PROFILING_NUM_EXECUTIONS,
    QNN_PROPERTY_GRAPH_SUPPORT_ENV_OPTION_BIND_MEM_HANDLES,
    QNN_PROPERTY_GRAPH_SUPPORT_ENV_OPTION_POPULATE_CLIENT_BUFS,
    QNN_PROPERTY_GRAPH_SUPPORT_FINALIZE_DESERIALIZED_GRAPH,
    QNN_PROPERTY_GRAPH_SUPPORT_CUSTOM_PROPERTY,
    QNN_PROPERTY_GRAPH_SUPPORT_EARLY_TERMINATION,
    QNN_PROPERTY_GRAPH_SUPPORT_ONLINE_PREPARE,
    QNN_PROPERTY_GRAPH_SUPPORT_UPDATABLE_WEIGHTS_BINARY_SECTION_CREATION,
    QNN_PROPERTY_GROUP_OP_PACKAGE,
    QNN_PROPERTY_OP_PACKAGE_SUPPORTS_VALIDATION,
    QNN_PROPERTY_OP_PACKAGE_SUPPORTS_OP_IMPLS,
    QNN_PROPERTY_OP_PACKAGE_SUPPORTS_DUPLICATE_NAMES,
    QNN_PROPERTY_GROUP_TENSOR,
    QNN_PROPERTY_TENSOR_SUPPORT_MEMHANDLE_TYPE,
    QNN_PROPERTY_TENSOR_SUPPORT_CONTEXT_TENSORS,
    QNN_PROPERTY_TENSOR_SUPPORT_DYNAMIC_DIMENSIONS,
    QNN_PROPERTY_TENSOR_SUPPORT_SPARSITY,
    QNN_PROPERTY_TENSOR_SUPPORT_UPDATEABLE_STATIC_TENSORS,
    QNN_PROPERTY_TENSOR_SUPPORT_UPDATEABLE_NATIVE_TENSORS,
    QNN_PROPERTY_TENSOR_SUPPORT_UPDATEABLE_APP_TENSORS,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_SCALE_OFFSET,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BW_SCALE_OFFSET,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BLOCK,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_VECTOR,
    QNN_PROPERTY_TENSOR_SUPPORT_RETRIEVE_RAW,
    QNN_PROPERTY_TENSOR_SUPPORT_OPTIONAL_APP_WRITE,
    QNN_PROPERTY_TENSOR_SUPPORT_OPTIONAL_APP_READ,
    QNN_PROPERTY_TENSOR_SUPPORT_OPTIONAL_APP_READWRITE,
    QNN_PROPERTY_TENSOR_SUPPORT_MX_DATA_FORMAT,
    QNN_PROPERTY_TENSOR_SUPPORT_UBWC_RGBA8888,
    QNN_PROPERTY_TENSOR_SUPPORT_UBWC_NV12,
    QNN_PROPERTY_TENSOR_SUPPORT_UBWC_NV12_Y,
    QNN_PROPERTY_TENSOR_SUPPORT_UBWC_NV12_UV,
    QNN_PROPERTY_TENSOR_SUPPORT_UBWC_NV124R,
    QNN_PROPERTY_TENSOR_SUPPORT_UBWC_NV124R_Y,
    QNN_PROPERTY_TENSOR_SUPPORT_UBWC_NV124R_UV,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_FLOAT_BLOCK,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET_MAPPED,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BW_BLOCK_SCALE_OFFSET_MAPPED,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BW_BLOCKWISE_EXPANSION_MAPPED,
    QNN_PROPERTY_TENSOR_SUPPORT_QUANTIZATION_ENCODING_BW_FLOAT_BLOCK,
    QNN_PROPERTY_GROUP_ERROR,
    QNN_PROPERTY_ERROR_GET_VERBOSE_MESSAGE,
    QNN_PROPERTY_GROUP_MEMORY,
    QNN_PROPERTY_MEMORY_SUPPORT_MEM_TYPE_ION,
    QNN_PROPERTY_MEMORY_SUPPORT_MEM_TYPE_CUSTOM,
    QNN_PROPERTY_MEMORY_SUPPORT_MEM_TYPE_DMA_BUF,
    QNN_PROPERTY_GROUP_SIGNAL,
    QNN_PROPERTY_SIGNAL_SUPPORT_ABORT,
    QNN_PROPERTY_SIGNAL_SUPPORT_TIMEOUT,
    QNN_PROPERTY_GROUP_LOG,
    QNN_PROPERTY_LOG_SUPPORTS_DEFAULT_STREAM,
    QNN_PROPERTY_GROUP_PROFILE,
    QNN_PROPERTY_PROFILE_SUPPORT_CUSTOM_CONFIG,
    QNN_PROPERTY_PROFILE_SUPPORT_MAX_EVENTS_CONFIG,
    QNN_PROPERTY_PROFILE_SUPPORTS_EXTENDED_EVENT,
    QNN_PROPERTY_PROFILE_SUPPORT_OPTRACE_CONFIG,
    QNN_PROPERTY_GROUP_DEVICE,
    QNN_PROPERTY_DEVICE_SUPPORT_INFRASTRUCTURE,
};

void expectEveryKeyAnswered(const std::string& path) {
  LoadedBackend lib(path);
  ASSERT_TRUE(lib.ok()) << lib.error();
  for (QnnProperty_Key_t key : kEveryCoreKey) {
    Qnn_ErrorHandle_t answer = lib.api().propertyHasCapability(key);
    EXPECT_TRUE(answer == QNN_PROPERTY_SUPPORTED || answer == QNN_PROPERTY_NOT_SUPPORTED)
        << path << ": key " << key << " answered " << answer;
  }
  EXPECT_EQ(lib.api().propertyHasCapability(QnnProperty_Key_t(0x7fff0001)), QNN_PROPERTY_ERROR_UNKNOWN_KEY);
}

TEST(Capabilities, EveryKeyOfTheHeadersIsAnsweredOnTheCpu) { expectEveryKeyAnswered(cpuBackendPath()); }
TEST(Capabilities, EveryKeyOfTheHeadersIsAnsweredOnTheHtp) { expectEveryKeyAnswered(htpBackendPath()); }

// Answers that follow from what each library implements.
TEST(Capabilities, AnswersMatchWhatTheBackendsDo) {
  LoadedBackend cpu(cpuBackendPath()), htp(htpBackendPath());
  ASSERT_TRUE(cpu.ok() && htp.ok());
  for (LoadedBackend* b : {&cpu, &htp}) {
    const QNN_INTERFACE_VER_TYPE& api = b->api();
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_GROUP_DEVICE), QNN_PROPERTY_SUPPORTED);
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_TENSOR_SUPPORT_CONTEXT_TENSORS), QNN_PROPERTY_SUPPORTED);
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_PROFILE_SUPPORT_MAX_EVENTS_CONFIG), QNN_PROPERTY_SUPPORTED);
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_MEMORY_SUPPORT_MEM_TYPE_ION), QNN_PROPERTY_SUPPORTED);
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_MEMORY_SUPPORT_MEM_TYPE_CUSTOM), QNN_PROPERTY_NOT_SUPPORTED);
    // Entries that still answer QNN_COMMON_ERROR_NOT_SUPPORTED.
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_SUBGRAPH), QNN_PROPERTY_NOT_SUPPORTED);
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_CONTEXT_SUPPORT_INCREMENTAL_BINARY), QNN_PROPERTY_SUPPORTED);
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_TENSOR_SUPPORT_UPDATEABLE_STATIC_TENSORS),
              QNN_PROPERTY_SUPPORTED);  // test_api_updatable_tensors.cpp
    // As the vendor's capability table (2.25): asynchronous execution not supported on the CPU,
    // platform dependent on the HTP (the host build), async signals nowhere. The vendor's
    // qnn-net-run then runs synchronously; QnnGraph_executeAsync still works
    // (tests/concurrency/async_client.c).
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_ASYNC_EXECUTION), QNN_PROPERTY_NOT_SUPPORTED);
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_ASYNC_SIGNAL), QNN_PROPERTY_NOT_SUPPORTED);
    // Continuous profiling: not supported on any backend in the same table, so a client
    // profiles per call; a bound profile handle still works (test_api_continuous_profiling.cpp).
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_CONTINUOUS_PROFILING), QNN_PROPERTY_NOT_SUPPORTED);
  }
  // Only the HTP records op trace (the vendor's CPU backend has none either).
  EXPECT_EQ(htp.api().propertyHasCapability(QNN_PROPERTY_PROFILE_SUPPORT_OPTRACE_CONFIG), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(cpu.api().propertyHasCapability(QNN_PROPERTY_PROFILE_SUPPORT_OPTRACE_CONFIG), QNN_PROPERTY_NOT_SUPPORTED);
  // Only the HTP defines context custom properties and a device infrastructure.
  EXPECT_EQ(htp.api().propertyHasCapability(QNN_PROPERTY_CONTEXT_SUPPORT_CUSTOM_PROPERTY), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(cpu.api().propertyHasCapability(QNN_PROPERTY_CONTEXT_SUPPORT_CUSTOM_PROPERTY), QNN_PROPERTY_NOT_SUPPORTED);
  EXPECT_EQ(htp.api().propertyHasCapability(QNN_PROPERTY_DEVICE_SUPPORT_INFRASTRUCTURE), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(cpu.api().propertyHasCapability(QNN_PROPERTY_DEVICE_SUPPORT_INFRASTRUCTURE), QNN_PROPERTY_NOT_SUPPORTED);
  // A backend's own custom key is known to it only.
  EXPECT_EQ(htp.api().propertyHasCapability(QNN_PROPERTY_CUSTOM_HTP_UNSIGNED_PD_SUPPORT), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(cpu.api().propertyHasCapability(QNN_PROPERTY_CUSTOM_HTP_UNSIGNED_PD_SUPPORT),
            QNN_PROPERTY_ERROR_UNKNOWN_KEY);
}

// QnnBackend_getSupportedOperations with a null backend lists the built-in op
// package; QnnBackend_validateOpConfig answers with the codes of QnnBackend.h.
TEST(Capabilities, BuiltInOperationsAndValidationCodes) {
  LoadedBackend cpu(cpuBackendPath());
  ASSERT_TRUE(cpu.ok()) << cpu.error();
  const QNN_INTERFACE_VER_TYPE& api = cpu.api();
  uint32_t n = 0;
  const QnnBackend_OperationName_t* ops = nullptr;
  ASSERT_EQ(api.backendGetSupportedOperations(nullptr, &n, &ops), QNN_SUCCESS);
  ASSERT_GT(n, 50u);
  bool relu = false;
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_STREQ(ops[i].packageName, "qti.aisw");
    relu = relu || std::string(ops[i].name) == "Relu";
  }
  EXPECT_TRUE(relu);
  Qnn_BackendHandle_t backend = nullptr;
  ASSERT_EQ(api.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  uint32_t withHandle = 0;
  ASSERT_EQ(api.backendGetSupportedOperations(backend, &withHandle, &ops), QNN_SUCCESS);
  EXPECT_EQ(withHandle, n);  // no package registered: the same list

  TensorSpec in("in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
  TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
  EXPECT_EQ(api.backendValidateOpConfig(backend, op), QNN_SUCCESS);
  op.v1.typeName = "NoSuchOp";
  EXPECT_EQ(api.backendValidateOpConfig(backend, op), QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE);
  op.v1.typeName = "Relu";
  op.v1.packageName = "not.registered";
  EXPECT_EQ(api.backendValidateOpConfig(backend, op), QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND);
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
}

// QNN_PROPERTY_GRAPH_SUPPORT_NULL_INPUTS: a graph without APP_WRITE tensors
// (static data only) executes with null inputs, on both backends.
TEST(Capabilities, GraphsWithoutInputsExecuteWithNullInputs) {
  for (const std::string& path : {cpuBackendPath(), htpBackendPath()}) {
    LoadedBackend lib(path);
    ASSERT_TRUE(lib.ok()) << lib.error();
    const QNN_INTERFACE_VER_TYPE& api = lib.api();
    EXPECT_EQ(api.propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_NULL_INPUTS), QNN_PROPERTY_SUPPORTED);
    Qnn_BackendHandle_t backend = nullptr;
    Qnn_ContextHandle_t ctx = nullptr;
    Qnn_GraphHandle_t g = nullptr;
    ASSERT_EQ(api.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api.contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    ASSERT_EQ(api.graphCreate(ctx, "constant", nullptr, &g), QNN_SUCCESS);
    float data[4] = {-2.f, 1.f, -0.5f, 3.f}, y[4] = {9, 9, 9, 9};
    TensorSpec c("c", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {1, 4}, data, sizeof data);
    TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
    ASSERT_EQ(api.tensorCreateGraphTensor(g, &c.tensor), QNN_SUCCESS);
    ASSERT_EQ(api.tensorCreateGraphTensor(g, &out.tensor), QNN_SUCCESS);
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &c.tensor, 1, &out.tensor};
    ASSERT_EQ(api.graphAddNode(g, op), QNN_SUCCESS) << path;
    ASSERT_EQ(api.graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << path;
    out.tensor.v1.clientBuf = {y, sizeof y};
    ASSERT_EQ(api.graphExecute(g, nullptr, 0, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS) << path;
    EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{0.f, 1.f, 0.f, 3.f})) << path;
    EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
    EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
  }
}

}  // namespace
}  // namespace qnn::test
