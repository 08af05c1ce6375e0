/* A QNN client as a vendor-built program would be: compiled against one set of QNN headers
 * (tests/compat/include-2.7, include-2.13, or include/QNN) and run on OpenQNN's libraries.
 * It picks a provider by the vendor sample's rule (major equal, minor not lower than its own),
 * registers an op package, builds Add -> Softmax(beta, a scalar param) -> the package's
 * ScaledSoftplus(beta) -> Transpose(perm, a tensor param), executes, saves and reloads the
 * context binary, reads that binary's info through the system library, reads profiling
 * events, and prints everything it saw. Run on libQnnSaver.so it is also recorded. The same source built
 * against each header set must print the same text, and the numbers are checked here
 * against an independent computation.
 *
 * Built with CLIENT_TABLE_2_39 it is a client of API 2.39 headers: it demands minor 39, reads the
 * 75-member table of 2.39's QnnInterface_t, registers the op package from its bytes
 * (QnnBackend_registerOpPackageFromBinary) and validates its graph with QnnGraph_validate (on
 * stderr only: stdout must stay the same on every route).
 *
 * usage: compat_client BACKEND_LIB SYSTEM_LIB OP_PACKAGE_LIB
 * With COMPAT_CLIENT_OUTPUTS=DIR each execute's output bytes also go to DIR/<label>.raw.
 * exit: 0 ok, 1 failure, 3 refused (no provider of this client's version). */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "QnnInterface.h"
#include "System/QnnSystemInterface.h"
#include "tests/c_common/float_tensor.h"
#include "tests/c_common/qnn_check.h"

#ifndef CLIENT_MINOR /* a client may demand a newer minor than its headers (refusal test) */
#define CLIENT_MINOR QNN_API_VERSION_MINOR
#endif

static const QNN_INTERFACE_VER_TYPE* qnn;
#ifdef CLIENT_TABLE_2_39
/* QnnInterface_t as API 2.39 headers declare it: 2.32's 71 members, then the four 2.39 appends. */
typedef struct {
  QNN_INTERFACE_VER_TYPE v2_32;
  QnnContext_AddToDlcFn_t contextAddToDlc;
  QnnGraph_ValidateFn_t graphValidate;
  QnnGraph_FreeValidationResultFn_t graphFreeValidationResult;
  QnnBackend_RegisterOpPackageFromBinaryFn_t backendRegisterOpPackageFromBinary;
} ClientTable2_39;
typedef struct {
  uint32_t backendId;
  const char* providerName;
  Qnn_ApiVersion_t apiVersion;
  ClientTable2_39 table;
} ClientInterface2_39;
static const ClientTable2_39* qnn39;
#endif
static Qnn_BackendHandle_t backend;
static uint32_t idA, idB, idOut; /* ids the backend gave the graph tensors */


typedef Qnn_ErrorHandle_t (*GetProvidersFn)(const QnnInterface_t***, uint32_t*);
typedef Qnn_ErrorHandle_t (*GetSystemProvidersFn)(const QnnSystemInterface_t***, uint32_t*);

static void* symbol(const char* lib, const char* name) {
  void* h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "cannot load %s: %s\n", lib, dlerror());
    exit(1);
  }
  return dlsym(h, name);
}

static int loadBackend(const char* lib) {
  GetProvidersFn get;
  const QnnInterface_t** list = NULL;
  uint32_t n = 0, k;
  *(void**)&get = symbol(lib, "QnnInterface_getProviders");
  if (!get || get(&list, &n) != QNN_SUCCESS) return 0;
  printf("providers: %u\n", n);
  for (k = 0; k < n; ++k) {
    const Qnn_Version_t* v = &list[k]->apiVersion.coreApiVersion;
    if (v->major == QNN_API_VERSION_MAJOR && v->minor >= CLIENT_MINOR) {
      qnn = &list[k]->QNN_INTERFACE_VER_NAME;
#ifdef CLIENT_TABLE_2_39
      qnn39 = &((const ClientInterface2_39*)(const void*)list[k])->table;
#endif
      return 1;
    }
  }
  return 0;
}

static uint32_t dimsIn[4] = {1, 2, 2, 3};
static uint32_t dimsOut[4] = {1, 2, 3, 2};
static uint32_t permDims[1] = {4};
static uint32_t perm[4] = {0, 1, 3, 2};

static Qnn_Tensor_t tensor(const char* name, Qnn_TensorType_t type, uint32_t* dims) {
  return floatTensor(name, type, 4, dims);
}

static void addNode(Qnn_GraphHandle_t g, const char* name, const char* package, const char* type,
                    Qnn_Param_t* params, uint32_t np, Qnn_Tensor_t* in, uint32_t ni, Qnn_Tensor_t* out) {
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1.name = name;
  op.v1.packageName = package;
  op.v1.typeName = type;
  op.v1.numOfParams = np;
  op.v1.params = params;
  op.v1.numOfInputs = ni;
  op.v1.inputTensors = in;
  op.v1.numOfOutputs = 1;
  op.v1.outputTensors = out;
  CHECK(qnn->backendValidateOpConfig(backend, op));
  CHECK(qnn->graphAddNode(g, op));
}

/* The expected output, computed here independently of any backend. */
static void reference(const float* a, const float* b, float* out) {
  float sm[12];
  int r, c;
  for (r = 0; r < 4; ++r) { /* softmax over the last axis (3), beta 0.5 */
    float mx = -1e30f, sum = 0;
    for (c = 0; c < 3; ++c) mx = fmaxf(mx, 0.5f * (a[r * 3 + c] + b[r * 3 + c]));
    for (c = 0; c < 3; ++c) sum += sm[r * 3 + c] = expf(0.5f * (a[r * 3 + c] + b[r * 3 + c]) - mx);
    for (c = 0; c < 3; ++c) sm[r * 3 + c] /= sum;
    for (c = 0; c < 3; ++c) sm[r * 3 + c] = log1pf(expf(2.0f * sm[r * 3 + c])) / 2.0f; /* ScaledSoftplus */
  }
  for (r = 0; r < 2; ++r) /* [1,2,2,3] -> perm 0,1,3,2 -> [1,2,3,2] */
    for (c = 0; c < 3; ++c) {
      out[(r * 3 + c) * 2 + 0] = sm[(r * 2 + 0) * 3 + c];
      out[(r * 3 + c) * 2 + 1] = sm[(r * 2 + 1) * 3 + c];
    }
}

static int run(Qnn_GraphHandle_t g, Qnn_ProfileHandle_t prof, const char* label) {
  static float a[12], b[12];
  float out[12], want[12];
  double worst = 0;
  int k;
  Qnn_Tensor_t in[2], o;
  for (k = 0; k < 12; ++k) {
    a[k] = (float)(k % 5) - 1.5f;
    b[k] = (float)(k * 7 % 3) * 0.25f;
  }
  memset(out, 0, sizeof out);
  in[0] = tensor("a", QNN_TENSOR_TYPE_APP_WRITE, dimsIn);
  in[1] = tensor("b", QNN_TENSOR_TYPE_APP_WRITE, dimsIn);
  o = tensor("out", QNN_TENSOR_TYPE_APP_READ, dimsOut);
  in[0].v1.id = idA;
  in[1].v1.id = idB;
  o.v1.id = idOut;
  in[0].v1.clientBuf.data = a;
  in[0].v1.clientBuf.dataSize = sizeof a;
  in[1].v1.clientBuf.data = b;
  in[1].v1.clientBuf.dataSize = sizeof b;
  o.v1.clientBuf.data = out;
  o.v1.clientBuf.dataSize = sizeof out;
  CHECK(qnn->graphExecute(g, in, 2, &o, 1, prof, NULL));
  reference(a, b, want);
  printf("%s: out dims %u,%u,%u,%u bytes %u:", label, o.v1.dimensions[0], o.v1.dimensions[1], o.v1.dimensions[2],
         o.v1.dimensions[3], o.v1.clientBuf.dataSize);
  for (k = 0; k < 12; ++k) {
    printf(" %.5f", out[k]);
    if (fabs(out[k] - want[k]) > worst) worst = fabs(out[k] - want[k]);
  }
  printf("\n");
  if (getenv("COMPAT_CLIENT_OUTPUTS")) { /* the output bytes, for comparing a replay with them */
    char path[1024];
    FILE* f;
    snprintf(path, sizeof path, "%s/%s.raw", getenv("COMPAT_CLIENT_OUTPUTS"), label);
    f = fopen(path, "wb");
    if (!f || fwrite(out, 1, sizeof out, f) != sizeof out) fprintf(stderr, "cannot write %s\n", path);
    if (f) fclose(f);
  }
  if (worst > 1e-5) {
    fprintf(stderr, "%s: max error %g against the reference\n", label, worst);
    return 0;
  }
  return 1;
}

static void printBinaryInfo(const char* systemLib, const void* bin, uint64_t size) {
  GetSystemProvidersFn get;
  const QnnSystemInterface_t** list = NULL;
  const QNN_SYSTEM_INTERFACE_VER_TYPE* sys = NULL;
  QnnSystemContext_Handle_t h = NULL;
  const QnnSystemContext_BinaryInfo_t* info = NULL;
  Qnn_ContextBinarySize_t infoSize = 0;
  uint32_t n = 0, k, i;
  *(void**)&get = symbol(systemLib, "QnnSystemInterface_getProviders");
  if (!get || get(&list, &n) != QNN_SUCCESS) exit(1);
  for (k = 0; k < n && !sys; ++k)
    if (list[k]->systemApiVersion.major == QNN_SYSTEM_API_VERSION_MAJOR &&
        list[k]->systemApiVersion.minor >= QNN_SYSTEM_API_VERSION_MINOR)
      sys = &list[k]->QNN_SYSTEM_INTERFACE_VER_NAME;
  if (!sys) {
    fprintf(stderr, "no system provider\n");
    exit(1);
  }
  CHECK(sys->systemContextCreate(&h));
  CHECK(sys->systemContextGetBinaryInfo(h, (void*)bin, size, &info, &infoSize));
  {
    const QnnSystemContext_BinaryInfoV1_t* v1 = &info->contextBinaryInfoV1;
    printf("binary info: %u graph(s)\n", v1->numGraphs);
    for (k = 0; k < v1->numGraphs; ++k) {
      const QnnSystemContext_GraphInfoV1_t* gi = &v1->graphs[k].graphInfoV1;
      printf("  graph %s: %u inputs, %u outputs\n", gi->graphName, gi->numGraphInputs, gi->numGraphOutputs);
      for (i = 0; i < gi->numGraphInputs; ++i)
        printf("    in %s rank %u dim3 %u\n", gi->graphInputs[i].v1.name, gi->graphInputs[i].v1.rank,
               gi->graphInputs[i].v1.dimensions[3]);
      for (i = 0; i < gi->numGraphOutputs; ++i)
        printf("    out %s rank %u dim2 %u\n", gi->graphOutputs[i].v1.name, gi->graphOutputs[i].v1.rank,
               gi->graphOutputs[i].v1.dimensions[2]);
    }
  }
  CHECK(sys->systemContextFree(h));
}

#ifdef CLIENT_TABLE_2_39
/* The op package registered from its bytes (QnnBackend_registerOpPackageFromBinary), read here. */
static void registerPackageFromBytes(const char* path) {
  FILE* f = fopen(path, "rb");
  long size;
  void* bytes;
  if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  bytes = malloc((size_t)size);
  if (!bytes || fread(bytes, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  CHECK(qnn39->backendRegisterOpPackageFromBinary(backend, bytes, (uint64_t)size,
                                                  "ExampleElementwiseCpuInterfaceProvider", NULL));
  free(bytes); /* the backend keeps its own copy */
}

/* QnnGraph_validate on the composed graph: four nodes, each supported, in the order added;
 * the result freed once (a second free is an error). */
static void validateGraph(Qnn_GraphHandle_t g) {
  static const char* const names[4] = {"add", "softmax", "softplus", "transpose"};
  QnnGraph_ValidationResult_t* r = NULL;
  uint32_t k;
  CHECK(qnn39->graphValidate(g, NULL, &r));
  if (!r || r->numResults != 4 || r->overallStatus != QNN_SUCCESS) {
    fprintf(stderr, "graphValidate: unexpected result\n");
    exit(1);
  }
  for (k = 0; k < 4; ++k)
    if (strcmp(r->results[k].nodeName, names[k]) != 0 ||
        r->results[k].status != QNN_GRAPH_NODE_VALIDATION_STATUS_SUPPORTED || r->results[k].errorCode != QNN_SUCCESS) {
      fprintf(stderr, "graphValidate: node %u (%s) not as expected\n", k, r->results[k].nodeName);
      exit(1);
    }
  CHECK(qnn39->graphFreeValidationResult(r));
  if (qnn39->graphFreeValidationResult(r) == QNN_SUCCESS) {
    fprintf(stderr, "graphFreeValidationResult: a second free succeeded\n");
    exit(1);
  }
  fprintf(stderr, "graphValidate: 4 nodes supported\n");
}
#endif

/* Backend messages go to stderr: stdout holds only what every route must print alike. */
static void logToStderr(const char* fmt, QnnLog_Level_t level, uint64_t timestamp, va_list args) {
  (void)timestamp;
  fprintf(stderr, "[log %d] ", (int)level);
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
}

int main(int argc, char** argv) {
  Qnn_LogHandle_t logger = NULL;
  Qnn_ContextHandle_t ctx = NULL;
  Qnn_GraphHandle_t g = NULL;
  Qnn_ProfileHandle_t prof = NULL;
  const QnnProfile_EventId_t* events = NULL;
  uint32_t numEvents = 0;
  Qnn_Tensor_t a, b, sum, sm, sp, out, permT;
  Qnn_Param_t beta = QNN_PARAM_INIT, spBeta = QNN_PARAM_INIT, permParam = QNN_PARAM_INIT;
  Qnn_ContextBinarySize_t size = 0, written = 0;
  void* bin;
  int ok;
  if (argc < 4) {
    fprintf(stderr, "usage: %s BACKEND_LIB SYSTEM_LIB OP_PACKAGE_LIB\n", argv[0]);
    return 2;
  }
  if (!loadBackend(argv[1])) {
    printf("refused: no provider of QNN API %d.%d\n", QNN_API_VERSION_MAJOR, CLIENT_MINOR);
    return 3;
  }
#ifdef CLIENT_TABLE_2_39
  if (!qnn39->contextAddToDlc || !qnn39->graphValidate || !qnn39->graphFreeValidationResult ||
      !qnn39->backendRegisterOpPackageFromBinary) {
    fprintf(stderr, "a 2.39 member of the table is null\n");
    return 1;
  }
#endif
  /* As the vendor's tools do, a logger first: on a table of another layout this is the call
   * that goes astray (the library then names the table it needs). */
  CHECK(qnn->logCreate(logToStderr, QNN_LOG_LEVEL_WARN, &logger));
  CHECK(qnn->backendCreate(logger, NULL, &backend));
#ifdef CLIENT_TABLE_2_39
  registerPackageFromBytes(argv[3]);
#else
  CHECK(qnn->backendRegisterOpPackage(backend, argv[3], "ExampleElementwiseCpuInterfaceProvider", NULL));
#endif
  printf("op package registered\n");
  CHECK(qnn->contextCreate(backend, NULL, NULL, &ctx));
  CHECK(qnn->graphCreate(ctx, "compat_graph", NULL, &g));
  a = tensor("a", QNN_TENSOR_TYPE_APP_WRITE, dimsIn);
  b = tensor("b", QNN_TENSOR_TYPE_APP_WRITE, dimsIn);
  sum = tensor("sum", QNN_TENSOR_TYPE_NATIVE, dimsIn);
  sm = tensor("softmax", QNN_TENSOR_TYPE_NATIVE, dimsIn);
  sp = tensor("softplus", QNN_TENSOR_TYPE_NATIVE, dimsIn);
  out = tensor("out", QNN_TENSOR_TYPE_APP_READ, dimsOut);
  permT = tensor("perm", QNN_TENSOR_TYPE_STATIC, permDims);
  permT.v1.dataType = QNN_DATATYPE_UINT_32;
  permT.v1.rank = 1;
  permT.v1.clientBuf.data = perm;
  permT.v1.clientBuf.dataSize = sizeof perm;
  CHECK(qnn->tensorCreateGraphTensor(g, &a));
  CHECK(qnn->tensorCreateGraphTensor(g, &b));
  CHECK(qnn->tensorCreateGraphTensor(g, &sum));
  CHECK(qnn->tensorCreateGraphTensor(g, &sm));
  CHECK(qnn->tensorCreateGraphTensor(g, &sp));
  CHECK(qnn->tensorCreateGraphTensor(g, &out));
  CHECK(qnn->tensorCreateGraphTensor(g, &permT));
  printf("tensor ids: %u %u %u %u %u %u %u\n", a.v1.id, b.v1.id, sum.v1.id, sm.v1.id, sp.v1.id, out.v1.id,
         permT.v1.id);
  idA = a.v1.id;
  idB = b.v1.id;
  idOut = out.v1.id;
  {
    Qnn_Tensor_t ab[2];
    ab[0] = a;
    ab[1] = b;
    addNode(g, "add", "qti.aisw", QNN_OP_ELEMENT_WISE_ADD, NULL, 0, ab, 2, &sum);
  }
  beta.paramType = QNN_PARAMTYPE_SCALAR;
  beta.name = QNN_OP_SOFTMAX_PARAM_BETA;
  beta.scalarParam.dataType = QNN_DATATYPE_FLOAT_32;
  beta.scalarParam.floatValue = 0.5f;
  addNode(g, "softmax", "qti.aisw", QNN_OP_SOFTMAX, &beta, 1, &sum, 1, &sm);
  spBeta.paramType = QNN_PARAMTYPE_SCALAR;
  spBeta.name = "beta";
  spBeta.scalarParam.dataType = QNN_DATATYPE_FLOAT_32;
  spBeta.scalarParam.floatValue = 2.0f;
  addNode(g, "softplus", "ExampleElementwise", "ScaledSoftplus", &spBeta, 1, &sm, 1, &sp);
  permParam.paramType = QNN_PARAMTYPE_TENSOR;
  permParam.name = QNN_OP_TRANSPOSE_PARAM_PERM;
  permParam.tensorParam = permT;
  addNode(g, "transpose", "qti.aisw", QNN_OP_TRANSPOSE, &permParam, 1, &sp, 1, &out);
#ifdef CLIENT_TABLE_2_39
  validateGraph(g);
#endif
  CHECK(qnn->graphFinalize(g, NULL, NULL));
  CHECK(qnn->profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &prof));
  ok = run(g, prof, "execute");
  CHECK(qnn->profileGetEvents(prof, &events, &numEvents));
  printf("profile events: %s\n", numEvents > 0 ? "present" : "none");
  /* save the context binary, free the context, reload it and run again */
  CHECK(qnn->contextGetBinarySize(ctx, &size));
  bin = malloc(size);
  CHECK(qnn->contextGetBinary(ctx, bin, size, &written));
  CHECK(qnn->contextFree(ctx, NULL));
  printBinaryInfo(argv[2], bin, written);
  CHECK(qnn->contextCreateFromBinary(backend, NULL, NULL, bin, written, &ctx, NULL));
  CHECK(qnn->graphRetrieve(ctx, "compat_graph", &g));
  ok = run(g, NULL, "reloaded") && ok;
  free(bin);
  CHECK(qnn->profileFree(prof));
  CHECK(qnn->contextFree(ctx, NULL));
  CHECK(qnn->backendFree(backend));
  CHECK(qnn->logFree(logger));
  return ok ? 0 : 1;
}
