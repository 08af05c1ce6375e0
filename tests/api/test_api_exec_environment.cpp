// QnnGraph_prepareExecutionEnvironment / releaseExecutionEnvironment on both
// backends: POPULATE_CLIENT_BUFS hands out the backend's buffers for a set of
// I/O tensors (the client writes inputs and reads outputs there, across
// executes and across the two graphs sharing the set's output as input);
// BIND_MEM_HANDLES binds registered memory; bad sets change nothing.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

class ExecEnvironment : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    ASSERT_EQ(api().graphCreate(ctx, "relu", nullptr, &graph), QNN_SUCCESS);
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &in.tensor), QNN_SUCCESS);
    ASSERT_EQ(api().tensorCreateGraphTensor(graph, &out.tensor), QNN_SUCCESS);
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
    ASSERT_EQ(api().graphAddNode(graph, op), QNN_SUCCESS);
    ASSERT_EQ(api().graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
  }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  static QnnGraph_ExecuteEnvironment_t environment(QnnGraph_ExecuteEnvironmentOption_t option, Qnn_Tensor_t* ins,
                                                  uint32_t nIn, Qnn_Tensor_t* outs, uint32_t nOut) {
    QnnGraph_ExecuteEnvironment_t env;
    std::memset(&env, 0, sizeof env);
    env.option = option;
    env.tensorSet.version = QNN_TENSOR_SET_VERSION_1;
    env.tensorSet.v1 = {nIn, ins, nOut, outs};
    return env;
  }

  LoadedBackend lib{GetParam() ? htpBackendPath() : cpuBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  TensorSpec in{"x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 64}};
  TensorSpec out{"y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 64}};
};

TEST_P(ExecEnvironment, PopulatedBuffersAreWhereTheGraphReadsAndWrites) {
  Qnn_Tensor_t ins[] = {in.tensor}, outs[] = {out.tensor};
  ins[0].v1.clientBuf = {nullptr, 0};
  outs[0].v1.clientBuf = {nullptr, 0};
  QnnGraph_ExecuteEnvironment_t env =
      environment(QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_POPULATE_CLIENT_BUFS, ins, 1, outs, 1);
  QnnGraph_ExecuteEnvironment_t* envs[] = {&env};
  ASSERT_EQ(api().graphPrepareExecutionEnvironment(graph, envs, 1), QNN_SUCCESS);
  ASSERT_EQ(ins[0].v1.memType, QNN_TENSORMEMTYPE_RAW);
  ASSERT_NE(ins[0].v1.clientBuf.data, nullptr);
  ASSERT_NE(outs[0].v1.clientBuf.data, nullptr);
  EXPECT_EQ(ins[0].v1.clientBuf.dataSize, 256u);
  EXPECT_EQ(outs[0].v1.clientBuf.dataSize, 256u);
  auto* x = static_cast<float*>(ins[0].v1.clientBuf.data);
  auto* y = static_cast<float*>(outs[0].v1.clientBuf.data);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 64; ++i) x[i] = float((i * 7 + round) % 11) - 5.f;
    ASSERT_EQ(api().graphExecute(graph, ins, 1, outs, 1, nullptr, nullptr), QNN_SUCCESS);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(y[i], std::max(x[i], 0.f)) << round << " " << i;
  }
  const QnnGraph_ExecuteEnvironment_t* release[] = {&env};
  EXPECT_EQ(api().graphReleaseExecutionEnvironment(graph, release, 1), QNN_SUCCESS);
  EXPECT_EQ(api().graphReleaseExecutionEnvironment(graph, release, 1), QNN_GRAPH_ERROR_INVALID_ARGUMENT);  // twice
}

TEST_P(ExecEnvironment, BoundMemHandlesServeTheExecutes) {
  int fds[2] = {memfd_create("env-in", 0), memfd_create("env-out", 0)};
  uint32_t dims[] = {1, 64};
  Qnn_MemDescriptor_t d[2] = {QNN_MEM_DESCRIPTOR_INIT, QNN_MEM_DESCRIPTOR_INIT};
  float* maps[2];
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(ftruncate(fds[i], 256), 0);
    d[i].memShape = {2, dims, nullptr};
    d[i].dataType = QNN_DATATYPE_FLOAT_32;
    d[i].memType = QNN_MEM_TYPE_ION;
    d[i].ionInfo.fd = fds[i];
    maps[i] = static_cast<float*>(mmap(nullptr, 256, PROT_READ | PROT_WRITE, MAP_SHARED, fds[i], 0));
  }
  Qnn_MemHandle_t mem[2] = {nullptr, nullptr};
  ASSERT_EQ(api().memRegister(ctx, d, 2, mem), QNN_SUCCESS);
  Qnn_Tensor_t ins[] = {in.tensor}, outs[] = {out.tensor};
  ins[0].v1.memType = outs[0].v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  ins[0].v1.memHandle = mem[0];
  outs[0].v1.memHandle = mem[1];
  QnnGraph_ExecuteEnvironment_t env = environment(QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_BIND_MEM_HANDLES, ins, 1, outs, 1);
  QnnGraph_ExecuteEnvironment_t* envs[] = {&env};
  ASSERT_EQ(api().graphPrepareExecutionEnvironment(graph, envs, 1), QNN_SUCCESS);
  EXPECT_EQ(ins[0].v1.memHandle, mem[0]);  // a bound set is left as it is
  for (int i = 0; i < 64; ++i) maps[0][i] = float(i % 9) - 4.f;
  ASSERT_EQ(api().graphExecute(graph, ins, 1, outs, 1, nullptr, nullptr), QNN_SUCCESS);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(maps[1][i], std::max(maps[0][i], 0.f)) << i;
  const QnnGraph_ExecuteEnvironment_t* release[] = {&env};
  EXPECT_EQ(api().graphReleaseExecutionEnvironment(graph, release, 1), QNN_SUCCESS);
  EXPECT_EQ(api().memDeRegister(mem, 2), QNN_SUCCESS);
  for (int i = 0; i < 2; ++i) {
    munmap(maps[i], 256);
    close(fds[i]);
  }
}

TEST_P(ExecEnvironment, BadEnvironmentsAreRefusedWholeAndWriteNothing) {
  Qnn_Tensor_t ins[] = {in.tensor}, outs[] = {out.tensor};
  ins[0].v1.clientBuf = {nullptr, 0};
  QnnGraph_ExecuteEnvironment_t good =
      environment(QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_POPULATE_CLIENT_BUFS, ins, 1, nullptr, 0);
  QnnGraph_ExecuteEnvironment_t unknown = good;
  unknown.option = static_cast<QnnGraph_ExecuteEnvironmentOption_t>(9);
  QnnGraph_ExecuteEnvironment_t swapped =  // an output given as input
      environment(QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_POPULATE_CLIENT_BUFS, outs, 1, nullptr, 0);
  QnnGraph_ExecuteEnvironment_t unbound =  // BIND without mem handles
      environment(QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_BIND_MEM_HANDLES, ins, 1, nullptr, 0);
  QnnGraph_ExecuteEnvironment_t* withUnknown[] = {&good, &unknown};
  EXPECT_EQ(api().graphPrepareExecutionEnvironment(graph, withUnknown, 2), QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE);
  QnnGraph_ExecuteEnvironment_t* withSwapped[] = {&good, &swapped};
  EXPECT_EQ(api().graphPrepareExecutionEnvironment(graph, withSwapped, 2), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  QnnGraph_ExecuteEnvironment_t* withUnbound[] = {&unbound};
  EXPECT_EQ(api().graphPrepareExecutionEnvironment(graph, withUnbound, 1), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ins[0].v1.clientBuf.data, nullptr);  // nothing was handed out
  EXPECT_EQ(api().graphPrepareExecutionEnvironment(graph, nullptr, 1), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  QnnGraph_ExecuteEnvironment_t* one[] = {&good};
  EXPECT_EQ(api().graphPrepareExecutionEnvironment(nullptr, one, 1), QNN_GRAPH_ERROR_INVALID_HANDLE);
  const QnnGraph_ExecuteEnvironment_t* neverPrepared[] = {&good};
  EXPECT_EQ(api().graphReleaseExecutionEnvironment(graph, neverPrepared, 1), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  // Environments not released go with the graph (and the context): nothing leaks (ASan).
  ASSERT_EQ(api().graphPrepareExecutionEnvironment(graph, one, 1), QNN_SUCCESS);
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_ENV_OPTION_POPULATE_CLIENT_BUFS),
            QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_ENV_OPTION_BIND_MEM_HANDLES), QNN_PROPERTY_SUPPORTED);
}

INSTANTIATE_TEST_SUITE_P(Backends, ExecEnvironment, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Htp" : "Cpu"; });

}  // namespace
}  // namespace qnn::test
