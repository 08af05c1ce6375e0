/* Demo: a C client of the QNN API. It dlopens a backend (default: libQnnCpu.so
 * next to this program's lib directory, or the path given as argv[1]), builds a
 * small graph (conv 3x3 -> relu -> add), runs it, and prints the results and
 * the profile of the run. Only the public headers are used. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "QnnInterface.h"

#define CHECK(call)                                                              \
  do {                                                                           \
    Qnn_ErrorHandle_t err_ = (call);                                             \
    if (err_ != QNN_SUCCESS) {                                                   \
      fprintf(stderr, "%s failed with error %llu\n", #call, (unsigned long long)err_); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

static void logToStdout(const char* fmt, QnnLog_Level_t level, uint64_t ts, va_list args) {
  (void)ts;
  printf("[backend log %d] ", (int)level);
  vprintf(fmt, args);
  printf("\n");
}

static Qnn_Tensor_t makeTensor(const char* name, Qnn_TensorType_t type, uint32_t rank, uint32_t* dims, void* data,
                               uint32_t bytes) {
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.name = name;
  t.v1.type = type;
  t.v1.dataType = QNN_DATATYPE_FLOAT_32;
  t.v1.rank = rank;
  t.v1.dimensions = dims;
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  t.v1.clientBuf.data = data;
  t.v1.clientBuf.dataSize = bytes;
  return t;
}

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "libQnnCpu.so";
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
    return 1;
  }
  typedef Qnn_ErrorHandle_t (*GetProvidersFn)(const QnnInterface_t***, uint32_t*);
  GetProvidersFn getProviders = (GetProvidersFn)dlsym(lib, "QnnInterface_getProviders");
  const QnnInterface_t** providers = NULL;
  uint32_t numProviders = 0;
  if (!getProviders || getProviders(&providers, &numProviders) != QNN_SUCCESS || numProviders == 0) {
    fprintf(stderr, "%s is not a QNN backend\n", path);
    return 1;
  }
  const QNN_INTERFACE_VER_TYPE* qnn = &providers[0]->QNN_INTERFACE_VER_NAME;
  const char* buildId = NULL;
  CHECK(qnn->backendGetBuildId(&buildId));
  printf("backend: %s (%s), core API %u.%u.%u\n", providers[0]->providerName, buildId,
         providers[0]->apiVersion.coreApiVersion.major, providers[0]->apiVersion.coreApiVersion.minor,
         providers[0]->apiVersion.coreApiVersion.patch);

  Qnn_LogHandle_t logger = NULL;
  Qnn_BackendHandle_t backend = NULL;
  Qnn_ContextHandle_t context = NULL;
  Qnn_GraphHandle_t graph = NULL;
  Qnn_ProfileHandle_t profile = NULL;
  CHECK(qnn->logCreate(logToStdout, QNN_LOG_LEVEL_WARN, &logger));
  CHECK(qnn->backendCreate(logger, NULL, &backend));
  CHECK(qnn->profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &profile));
  CHECK(qnn->contextCreate(backend, NULL, NULL, &context));
  CHECK(qnn->graphCreate(context, "demo", NULL, &graph));

  /* x: 1x4x4x1 ramp; w: 3x3x1x2 (an edge detector and a box blur); b: 2. */
  float x[16], w[18], b[2] = {0.0f, -1.0f}, y[32], out[32];
  uint32_t xDims[] = {1, 4, 4, 1}, wDims[] = {3, 3, 1, 2}, bDims[] = {2}, oDims[] = {1, 4, 4, 2};
  for (int i = 0; i < 16; ++i) x[i] = (float)i;
  for (int k = 0; k < 9; ++k) {
    w[k * 2 + 0] = (k == 4) ? 8.0f : -1.0f;
    w[k * 2 + 1] = 1.0f / 9.0f;
  }
  for (int i = 0; i < 32; ++i) y[i] = 0.5f;
  Qnn_Tensor_t tx = makeTensor("x", QNN_TENSOR_TYPE_APP_WRITE, 4, xDims, NULL, 0);
  Qnn_Tensor_t tw = makeTensor("w", QNN_TENSOR_TYPE_STATIC, 4, wDims, w, sizeof w);
  Qnn_Tensor_t tb = makeTensor("b", QNN_TENSOR_TYPE_STATIC, 1, bDims, b, sizeof b);
  Qnn_Tensor_t tconv = makeTensor("conv", QNN_TENSOR_TYPE_NATIVE, 4, oDims, NULL, 0);
  Qnn_Tensor_t trelu = makeTensor("relu", QNN_TENSOR_TYPE_NATIVE, 4, oDims, NULL, 0);
  Qnn_Tensor_t ty = makeTensor("y", QNN_TENSOR_TYPE_APP_WRITE, 4, oDims, NULL, 0);
  Qnn_Tensor_t tout = makeTensor("out", QNN_TENSOR_TYPE_APP_READ, 4, oDims, NULL, 0);
  Qnn_Tensor_t* all[] = {&tx, &tw, &tb, &tconv, &trelu, &ty, &tout};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) CHECK(qnn->tensorCreateGraphTensor(graph, all[i]));

  uint32_t stride[] = {1, 1}, pad[] = {1, 1, 1, 1}, strideDims[] = {2}, padDims[] = {2, 2};
  Qnn_Param_t convParams[2] = {QNN_PARAM_INIT, QNN_PARAM_INIT};
  convParams[0].paramType = QNN_PARAMTYPE_TENSOR;
  convParams[0].name = "stride";
  convParams[0].tensorParam = makeTensor("stride", QNN_TENSOR_TYPE_STATIC, 1, strideDims, stride, sizeof stride);
  convParams[0].tensorParam.v1.dataType = QNN_DATATYPE_UINT_32;
  convParams[1].paramType = QNN_PARAMTYPE_TENSOR;
  convParams[1].name = "pad_amount";
  convParams[1].tensorParam = makeTensor("pad", QNN_TENSOR_TYPE_STATIC, 2, padDims, pad, sizeof pad);
  convParams[1].tensorParam.v1.dataType = QNN_DATATYPE_UINT_32;

  Qnn_Tensor_t convIn[] = {tx, tw, tb};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1.name = "conv";
  op.v1.packageName = "qti.aisw";
  op.v1.typeName = "Conv2d";
  op.v1.numOfParams = 2;
  op.v1.params = convParams;
  op.v1.numOfInputs = 3;
  op.v1.inputTensors = convIn;
  op.v1.numOfOutputs = 1;
  op.v1.outputTensors = &tconv;
  CHECK(qnn->graphAddNode(graph, op));

  Qnn_OpConfig_t relu = QNN_OPCONFIG_INIT;
  relu.v1.name = "relu";
  relu.v1.packageName = "qti.aisw";
  relu.v1.typeName = "Relu";
  relu.v1.numOfInputs = 1;
  relu.v1.inputTensors = &tconv;
  relu.v1.numOfOutputs = 1;
  relu.v1.outputTensors = &trelu;
  CHECK(qnn->graphAddNode(graph, relu));

  Qnn_Tensor_t addIn[] = {trelu, ty};
  Qnn_OpConfig_t add = QNN_OPCONFIG_INIT;
  add.v1.name = "add";
  add.v1.packageName = "qti.aisw";
  add.v1.typeName = "ElementWiseAdd";
  add.v1.numOfInputs = 2;
  add.v1.inputTensors = addIn;
  add.v1.numOfOutputs = 1;
  add.v1.outputTensors = &tout;
  CHECK(qnn->graphAddNode(graph, add));
  CHECK(qnn->graphFinalize(graph, NULL, NULL));

  tx.v1.clientBuf.data = x;
  tx.v1.clientBuf.dataSize = sizeof x;
  ty.v1.clientBuf.data = y;
  ty.v1.clientBuf.dataSize = sizeof y;
  tout.v1.clientBuf.data = out;
  tout.v1.clientBuf.dataSize = sizeof out;
  Qnn_Tensor_t inputs[] = {tx, ty};
  CHECK(qnn->graphExecute(graph, inputs, 2, &tout, 1, profile, NULL));

  printf("out[channel 0: relu(edge detector) + 0.5]\n");
  for (int h = 0; h < 4; ++h) {
    for (int wi = 0; wi < 4; ++wi) printf("%8.3f", out[(h * 4 + wi) * 2]);
    printf("\n");
  }
  printf("out[channel 1: relu(box blur - 1) + 0.5]\n");
  for (int h = 0; h < 4; ++h) {
    for (int wi = 0; wi < 4; ++wi) printf("%8.3f", out[(h * 4 + wi) * 2 + 1]);
    printf("\n");
  }

  const QnnProfile_EventId_t* events = NULL;
  uint32_t numEvents = 0;
  CHECK(qnn->profileGetEvents(profile, &events, &numEvents));
  for (uint32_t i = 0; i < numEvents; ++i) {
    QnnProfile_EventData_t data;
    CHECK(qnn->profileGetEventData(events[i], &data));
    printf("profile: %s: %llu us\n", data.identifier, (unsigned long long)data.value);
    const QnnProfile_EventId_t* subs = NULL;
    uint32_t numSubs = 0;
    CHECK(qnn->profileGetSubEvents(events[i], &subs, &numSubs));
    for (uint32_t s = 0; s < numSubs; ++s) {
      CHECK(qnn->profileGetEventData(subs[s], &data));
      printf("profile:   %s: %llu us\n", data.identifier, (unsigned long long)data.value);
    }
  }
  CHECK(qnn->contextFree(context, NULL));
  CHECK(qnn->profileFree(profile));
  CHECK(qnn->backendFree(backend));
  CHECK(qnn->logFree(logger));
  dlclose(lib);
  return 0;
}
