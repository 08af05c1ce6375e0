// API misuse: every case returns the documented error code, never crashes
// (the suite also runs under ASan/UBSan), and leaves outputs untouched.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

class Misuse : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    ASSERT_EQ(api().graphCreate(ctx, "g", nullptr, &graph), QNN_SUCCESS);
  }
  void TearDown() override {
    if (ctx) api().contextFree(ctx, nullptr);
    if (backend) api().backendFree(backend);
  }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  // in [1,4] -> Relu -> out [1,4], created but not yet connected.
  void makeReluTensors() {
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &in.tensor), QNN_SUCCESS);
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &out.tensor), QNN_SUCCESS);
  }
  Qnn_OpConfig_t reluOp(const char* name = "relu", const char* type = "Relu") {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", type, 0, nullptr, 1, &in.tensor, 1, &out.tensor};
    return op;
  }
  void buildFinalizedRelu() {
    makeReluTensors();
    ASSERT_EQ(api().graphAddNode(graph, reluOp()), QNN_SUCCESS);
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }

  LoadedBackend lib{cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  TensorSpec in{"in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4}};
  TensorSpec out{"out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4}};
  float inData[4] = {-1, 2, -3, 4};
  float outData[4] = {9, 9, 9, 9};
};

void* bogus() { return reinterpret_cast<void*>(0xdeadbeef0); }

// ---- handles
TEST_F(Misuse, NullBackendHandleOut) { EXPECT_EQ(api().backendCreate(nullptr, nullptr, nullptr), QNN_BACKEND_ERROR_INVALID_ARGUMENT); }
TEST_F(Misuse, FreeNullBackend) { EXPECT_EQ(api().backendFree(nullptr), QNN_BACKEND_ERROR_INVALID_HANDLE); }
TEST_F(Misuse, FreeBogusBackend) { EXPECT_EQ(api().backendFree(bogus()), QNN_BACKEND_ERROR_INVALID_HANDLE); }
TEST_F(Misuse, DoubleFreeBackend) {
  Qnn_BackendHandle_t b = nullptr;
  ASSERT_EQ(api().backendCreate(nullptr, nullptr, &b), QNN_SUCCESS);
  EXPECT_EQ(api().backendFree(b), QNN_SUCCESS);
  EXPECT_EQ(api().backendFree(b), QNN_BACKEND_ERROR_INVALID_HANDLE);
}
TEST_F(Misuse, ContextOnFreedBackend) {
  Qnn_BackendHandle_t b = nullptr;
  ASSERT_EQ(api().backendCreate(nullptr, nullptr, &b), QNN_SUCCESS);
  ASSERT_EQ(api().backendFree(b), QNN_SUCCESS);
  Qnn_ContextHandle_t c = nullptr;
  EXPECT_EQ(api().contextCreate(b, nullptr, nullptr, &c), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(c, nullptr);
}
TEST_F(Misuse, BackendFreeReleasesItsContextsAndGraphs) {
  Qnn_BackendHandle_t b = nullptr;
  Qnn_ContextHandle_t c = nullptr;
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(api().backendCreate(nullptr, nullptr, &b), QNN_SUCCESS);
  ASSERT_EQ(api().contextCreate(b, nullptr, nullptr, &c), QNN_SUCCESS);
  ASSERT_EQ(api().graphCreate(c, "g", nullptr, &g), QNN_SUCCESS);
  ASSERT_EQ(api().backendFree(b), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(c, nullptr), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_HANDLE);
}
TEST_F(Misuse, WrongKindHandle) {
  Qnn_GraphHandle_t g = nullptr;
  // A backend handle where a context is expected.
  EXPECT_EQ(api().graphCreate(backend, "x", nullptr, &g), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().graphFinalize(ctx, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_HANDLE);
}
TEST_F(Misuse, FreedContextHandle) {
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  Qnn_GraphHandle_t g = nullptr;
  EXPECT_EQ(api().graphCreate(ctx, "x", nullptr, &g), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  ctx = nullptr;
}
TEST_F(Misuse, GraphHandleDiesWithContext) {
  ASSERT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  ctx = nullptr;
  EXPECT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &in.tensor), QNN_TENSOR_ERROR_INVALID_HANDLE);
}
TEST_F(Misuse, BogusGraphHandleExecute) {
  EXPECT_EQ(api().graphExecute(bogus(), nullptr, 0, nullptr, 0, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_HANDLE);
}
TEST_F(Misuse, BogusLogHandle) {
  Qnn_BackendHandle_t b = nullptr;
  EXPECT_EQ(api().backendCreate(bogus(), nullptr, &b), QNN_BACKEND_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().logSetLogLevel(bogus(), QNN_LOG_LEVEL_INFO), QNN_LOG_ERROR_INVALID_HANDLE);
}
TEST_F(Misuse, BogusProfileAndSignal) {
  EXPECT_EQ(api().profileFree(bogus()), QNN_PROFILE_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().signalFree(bogus()), QNN_SIGNAL_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().signalTrigger(nullptr), QNN_SIGNAL_ERROR_INVALID_HANDLE);
}
TEST_F(Misuse, UnknownProfileEvent) {
  QnnProfile_EventData_t d;
  EXPECT_EQ(api().profileGetEventData(0x7777777, &d), QNN_PROFILE_ERROR_INVALID_HANDLE);
}

// ---- graph construction
TEST_F(Misuse, GraphNullName) {
  Qnn_GraphHandle_t g = nullptr;
  EXPECT_EQ(api().graphCreate(ctx, nullptr, nullptr, &g), QNN_GRAPH_ERROR_INVALID_NAME);
}
TEST_F(Misuse, DuplicateGraphName) {
  Qnn_GraphHandle_t g = nullptr;
  EXPECT_EQ(api().graphCreate(ctx, "g", nullptr, &g), QNN_GRAPH_ERROR_INVALID_NAME);
}
// The 2.32 headers deprecate QNN_TENSOR_ERROR_ALREADY_EXISTS and leave a repeated
// graph tensor name undefined; clients repeat names, so the tensor is created and
// told apart by its id (a warning is logged).
TEST_F(Misuse, DuplicateTensorNameGetsItsOwnId) {
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &in.tensor), QNN_SUCCESS);
  TensorSpec again("in", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2});
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &again.tensor), QNN_SUCCESS);
  EXPECT_NE(again.tensor.v1.id, in.tensor.v1.id);
}
TEST_F(Misuse, TensorWithoutName) {
  TensorSpec t("", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2});
  t.tensor.v1.name = nullptr;
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &t.tensor), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
}
TEST_F(Misuse, TensorUnknownDataType) {
  TensorSpec t("t", QNN_TENSOR_TYPE_NATIVE, static_cast<Qnn_DataType_t>(0x999), {2});
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &t.tensor), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
}
TEST_F(Misuse, TensorZeroDimension) {
  TensorSpec t("t", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2, 0});
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &t.tensor), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
}
TEST_F(Misuse, TensorRankWithoutDims) {
  TensorSpec t("t", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2});
  t.tensor.v1.dimensions = nullptr;
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &t.tensor), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
}
TEST_F(Misuse, StaticTensorWrongDataSize) {
  float w[3] = {1, 2, 3};
  TensorSpec t("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {4}, w, sizeof w);
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &t.tensor), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
}
TEST_F(Misuse, FixedPointWithoutQuantization) {
  TensorSpec t("q", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_8, {4});
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &t.tensor), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
}
TEST_F(Misuse, UnknownTensorVersion) {
  TensorSpec t("t", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {2});
  t.tensor.version = static_cast<Qnn_TensorVersion_t>(77);
  EXPECT_EQ(api().tensorCreateGraphTensor(graph, &t.tensor), QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM);
}
TEST_F(Misuse, UnknownOpType) {
  makeReluTensors();
  EXPECT_EQ(api().graphAddNode(graph, reluOp("n", "NoSuchOp")), QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
}
TEST_F(Misuse, UnknownOpPackage) {
  makeReluTensors();
  Qnn_OpConfig_t op = reluOp();
  op.v1.packageName = "com.example.unregistered";
  EXPECT_EQ(api().graphAddNode(graph, op), QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
}
TEST_F(Misuse, UnknownParam) {
  makeReluTensors();
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_SCALAR;
  p.name = "no_such_param";
  p.scalarParam.dataType = QNN_DATATYPE_UINT_32;
  p.scalarParam.uint32Value = 1;
  Qnn_OpConfig_t op = reluOp();
  op.v1.numOfParams = 1;
  op.v1.params = &p;
  EXPECT_EQ(api().graphAddNode(graph, op), QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
}
TEST_F(Misuse, MissingMandatoryParam) {
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4, 4, 2});
  TensorSpec w("w", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {3, 3, 2, 2});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 2, 2, 2});
  for (TensorSpec* t : {&x, &w, &y}) ASSERT_EQ(api().tensorCreateGraphTensor(graph, &t->tensor), QNN_SUCCESS);
  Qnn_Tensor_t ins[] = {x.tensor, w.tensor};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"conv", "qti.aisw", "Conv2d", 0, nullptr, 2, ins, 1, &y.tensor};  // no stride, no pad_amount
  EXPECT_EQ(api().graphAddNode(graph, op), QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
}
TEST_F(Misuse, ParamWrongKind) {
  makeReluTensors();
  Qnn_Param_t p = QNN_PARAM_INIT;
  p.paramType = QNN_PARAMTYPE_SCALAR;
  p.name = "axis";
  p.scalarParam.dataType = QNN_DATATYPE_FLOAT_32;
  p.scalarParam.floatValue = 1.5f;
  Qnn_OpConfig_t op = reluOp("sm", "Softmax");
  op.v1.numOfParams = 1;
  op.v1.params = &p;
  EXPECT_EQ(api().graphAddNode(graph, op), QNN_GRAPH_ERROR_INVALID_OP_CONFIG);
}
TEST_F(Misuse, WrongInputCount) {
  makeReluTensors();
  Qnn_OpConfig_t op = reluOp("add", "ElementWiseAdd");  // needs two inputs
  EXPECT_EQ(api().graphAddNode(graph, op), QNN_GRAPH_ERROR_INVALID_TENSOR);
}
TEST_F(Misuse, InputNeverCreated) {
  makeReluTensors();
  TensorSpec ghost("ghost", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
  ghost.tensor.v1.id = 4242;
  Qnn_OpConfig_t op = reluOp();
  op.v1.inputTensors = &ghost.tensor;
  EXPECT_EQ(api().graphAddNode(graph, op), QNN_GRAPH_ERROR_INVALID_TENSOR);
}
TEST_F(Misuse, OutputShapeMismatch) {
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &in.tensor), QNN_SUCCESS);
  TensorSpec wrong("wrong", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 5});
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &wrong.tensor), QNN_SUCCESS);
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &wrong.tensor};
  EXPECT_NE(api().graphAddNode(graph, op), QNN_SUCCESS);
}
// Node names are "human-readable" (Qnn_OpConfigV1_t): a repeated one is
// accepted with a warning, as clients repeat them; nodes are told apart by position.
TEST_F(Misuse, DuplicateNodeNameAccepted) {
  makeReluTensors();
  TensorSpec out2("out2", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
  ASSERT_EQ(api().tensorCreateGraphTensor(graph, &out2.tensor), QNN_SUCCESS);
  ASSERT_EQ(api().graphAddNode(graph, reluOp()), QNN_SUCCESS);
  Qnn_OpConfig_t op = reluOp();
  op.v1.outputTensors = &out2.tensor;
  EXPECT_EQ(api().graphAddNode(graph, op), QNN_SUCCESS);
  EXPECT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
}
TEST_F(Misuse, TensorProducedTwice) {
  makeReluTensors();
  ASSERT_EQ(api().graphAddNode(graph, reluOp("a")), QNN_SUCCESS);
  EXPECT_EQ(api().graphAddNode(graph, reluOp("b")), QNN_GRAPH_ERROR_INVALID_TENSOR);
}
TEST_F(Misuse, AddNodeAfterFinalize) {
  buildFinalizedRelu();
  EXPECT_EQ(api().graphAddNode(graph, reluOp("late")), QNN_GRAPH_ERROR_GRAPH_FINALIZED);
}
TEST_F(Misuse, FinalizeTwice) {
  buildFinalizedRelu();
  EXPECT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_GRAPH_ERROR_GRAPH_FINALIZED);
}
TEST_F(Misuse, FinalizeUnconnectedOutput) {
  makeReluTensors();  // out is never produced
  EXPECT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_GRAPH_ERROR_UNCONNECTED_NODE);
}

// ---- execution
TEST_F(Misuse, ExecuteBeforeFinalize) {
  makeReluTensors();
  ASSERT_EQ(api().graphAddNode(graph, reluOp()), QNN_SUCCESS);
  in.tensor.v1.clientBuf = {inData, sizeof inData};
  out.tensor.v1.clientBuf = {outData, sizeof outData};
  EXPECT_EQ(api().graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr),
            QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED);
  EXPECT_EQ(outData[0], 9.f);
}
TEST_F(Misuse, ExecuteWrongInputSize) {
  buildFinalizedRelu();
  in.tensor.v1.clientBuf = {inData, 8};  // needs 16 bytes
  out.tensor.v1.clientBuf = {outData, sizeof outData};
  EXPECT_EQ(api().graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_TENSOR);
  EXPECT_EQ(outData[0], 9.f);
}
TEST_F(Misuse, ExecuteWrongOutputSize) {
  buildFinalizedRelu();
  in.tensor.v1.clientBuf = {inData, sizeof inData};
  out.tensor.v1.clientBuf = {outData, 4};
  EXPECT_EQ(api().graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_TENSOR);
  EXPECT_EQ(outData[0], 9.f);
}
TEST_F(Misuse, ExecuteWrongDType) {
  buildFinalizedRelu();
  in.tensor.v1.clientBuf = {inData, sizeof inData};
  in.tensor.v1.dataType = QNN_DATATYPE_INT_32;
  out.tensor.v1.clientBuf = {outData, sizeof outData};
  EXPECT_EQ(api().graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_TENSOR);
}
TEST_F(Misuse, ExecuteMissingInput) {
  buildFinalizedRelu();
  out.tensor.v1.clientBuf = {outData, sizeof outData};
  EXPECT_EQ(api().graphExecute(graph, nullptr, 0, &out.tensor, 1, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_TENSOR);
  EXPECT_EQ(outData[0], 9.f);
}
TEST_F(Misuse, ExecuteNullInputArray) {
  buildFinalizedRelu();
  out.tensor.v1.clientBuf = {outData, sizeof outData};
  EXPECT_EQ(api().graphExecute(graph, nullptr, 1, &out.tensor, 1, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
}
TEST_F(Misuse, ExecuteOutputPassedAsInput) {
  buildFinalizedRelu();
  out.tensor.v1.clientBuf = {outData, sizeof outData};
  in.tensor.v1.clientBuf = {inData, sizeof inData};
  Qnn_Tensor_t ins[] = {out.tensor};
  EXPECT_EQ(api().graphExecute(graph, ins, 1, &out.tensor, 1, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_TENSOR);
}
TEST_F(Misuse, ExecuteNullDataBuffer) {
  buildFinalizedRelu();
  in.tensor.v1.clientBuf = {nullptr, sizeof inData};
  out.tensor.v1.clientBuf = {outData, sizeof outData};
  EXPECT_EQ(api().graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_GRAPH_ERROR_INVALID_TENSOR);
}
TEST_F(Misuse, ExecuteSucceedsAfterErrors) {
  buildFinalizedRelu();
  in.tensor.v1.clientBuf = {inData, 8};
  out.tensor.v1.clientBuf = {outData, sizeof outData};
  EXPECT_NE(api().graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
  in.tensor.v1.clientBuf = {inData, sizeof inData};
  ASSERT_EQ(api().graphExecute(graph, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS);
  EXPECT_EQ(outData[0], 0.f);
  EXPECT_EQ(outData[1], 2.f);
  EXPECT_EQ(outData[2], 0.f);
  EXPECT_EQ(outData[3], 4.f);
}
TEST_F(Misuse, RetrieveUnknownGraph) {
  Qnn_GraphHandle_t g = nullptr;
  EXPECT_EQ(api().graphRetrieve(ctx, "nope", &g), QNN_GRAPH_ERROR_GRAPH_DOES_NOT_EXIST);
}

// ---- context binaries
TEST_F(Misuse, BinaryOfUnfinalizedGraph) {
  Qnn_ContextBinarySize_t size = 0;
  EXPECT_EQ(api().contextGetBinarySize(ctx, &size), QNN_CONTEXT_ERROR_NOT_FINALIZED);
}
TEST_F(Misuse, BinaryBufferTooSmall) {
  buildFinalizedRelu();
  Qnn_ContextBinarySize_t size = 0, written = 0;
  ASSERT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
  std::vector<uint8_t> buf(size / 2);
  EXPECT_EQ(api().contextGetBinary(ctx, buf.data(), buf.size(), &written), QNN_CONTEXT_ERROR_GET_BINARY_FAILED);
}
TEST_F(Misuse, ForeignBinaryRefused) {
  std::vector<uint8_t> junk(4096, 0x42);
  Qnn_ContextHandle_t c = nullptr;
  EXPECT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, junk.data(), junk.size(), &c, nullptr),
            QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
  EXPECT_EQ(c, nullptr);
}
TEST_F(Misuse, EmptyBinaryRefused) {
  Qnn_ContextHandle_t c = nullptr;
  uint8_t b = 0;
  EXPECT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, &b, 0, &c, nullptr), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, nullptr, 10, &c, nullptr),
            QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
}

// ---- signals, profiles, logs
TEST_F(Misuse, TriggerIdleSignal) {
  Qnn_SignalHandle_t s = nullptr;
  ASSERT_EQ(api().signalCreate(backend, nullptr, &s), QNN_SUCCESS);
  EXPECT_EQ(api().signalTrigger(s), QNN_SIGNAL_ERROR_SIGNAL_IDLE);
  EXPECT_EQ(api().signalFree(s), QNN_SUCCESS);
}
TEST_F(Misuse, ProfileUnsupportedLevel) {
  Qnn_ProfileHandle_t p = nullptr;
  EXPECT_EQ(api().profileCreate(backend, 77, &p), QNN_PROFILE_ERROR_UNSUPPORTED);
}
TEST_F(Misuse, LogInvalidLevel) {
  Qnn_LogHandle_t l = nullptr;
  EXPECT_EQ(api().logCreate(nullptr, static_cast<QnnLog_Level_t>(99), &l), QNN_LOG_ERROR_INVALID_ARGUMENT);
}
TEST_F(Misuse, UnknownPropertyKey) { EXPECT_EQ(api().propertyHasCapability(123456), QNN_PROPERTY_ERROR_UNKNOWN_KEY); }
TEST_F(Misuse, OpPackageMissingLibrary) {
  EXPECT_EQ(api().backendRegisterOpPackage(backend, "/nonexistent.so", "Provider", nullptr),
            QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND);
  EXPECT_EQ(api().backendRegisterOpPackage(backend, nullptr, "Provider", nullptr), QNN_BACKEND_ERROR_INVALID_ARGUMENT);
}
TEST_F(Misuse, MemRegisterBadFd) {
  uint32_t dims[] = {4};
  Qnn_MemDescriptor_t d = QNN_MEM_DESCRIPTOR_INIT;
  d.memShape = {1, dims, nullptr};
  d.dataType = QNN_DATATYPE_FLOAT_32;
  d.memType = QNN_MEM_TYPE_ION;
  d.ionInfo.fd = -1;
  Qnn_MemHandle_t h = nullptr;
  EXPECT_EQ(api().memRegister(ctx, &d, 1, &h), QNN_MEM_ERROR_MAPPING);
  // The CPU backend defines no CUSTOM memory; an unknown type is refused the same way.
  d.memType = QNN_MEM_TYPE_CUSTOM;
  d.customInfo = &dims;
  EXPECT_EQ(api().memRegister(ctx, &d, 1, &h), QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE);
  d.memType = static_cast<Qnn_MemType_t>(77);
  EXPECT_EQ(api().memRegister(ctx, &d, 1, &h), QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE);
  EXPECT_EQ(h, nullptr);
}

}  // namespace
}  // namespace qnn::test

namespace qnn::test {
namespace {

// QnnContext_addToDlc (the 2.39 provider's member 72) in a process without libQnnSystem.so: no
// handle can be a System DLC handle, and the call says so instead of guessing.
TEST_F(Misuse, ContextAddToDlcWithoutTheSystemLibrary) {
  if (void* sys = dlopen("libQnnSystem.so", RTLD_NOW | RTLD_NOLOAD)) {
    dlclose(sys);
    GTEST_SKIP() << "libQnnSystem.so is loaded in this process";
  }
  buildFinalizedRelu();
  void* lib = dlopen(QNN_TEST_CPU_BACKEND_PATH, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(lib, nullptr);
  using GetProviders = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
  auto get = reinterpret_cast<GetProviders>(dlsym(lib, "QnnInterface_getProviders"));
  dlclose(lib);
  ASSERT_EQ(setenv("QNN_OPENQNN_PROVIDER_API", "2.39", 1), 0);
  const QnnInterface_t** providers = nullptr;
  uint32_t n = 0;
  const Qnn_ErrorHandle_t err = get(&providers, &n);
  unsetenv("QNN_OPENQNN_PROVIDER_API");
  ASSERT_EQ(err, QNN_SUCCESS);
  auto addToDlc = reinterpret_cast<decltype(&QnnContext_addToDlc)>(
      reinterpret_cast<void* const*>(&providers[0]->QNN_INTERFACE_VER_NAME)[71]);
  EXPECT_EQ(addToDlc(ctx, reinterpret_cast<QnnSystemDlc_Handle_t>(0x10)), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(addToDlc(ctx, nullptr), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace qnn::test
