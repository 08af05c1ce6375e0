/* An API 2.7 client (built against tests/compat/include-2.7) on compat/api-2.7/libQnnSaver.so
 * with no pass-through backend, as the vendor's qnn-net-run 2.13 runs it by default. Checks:
 *   - QnnProperty_hasCapability answers QNN_SAVER_ERROR_DUMMY_RETVALUE, as QnnSaver.h says the
 *     vendor's Saver does (answering SUPPORTED sent qnn-net-run 2.13 into its asynchronous mode,
 *     which frees its graphs while its loader threads still read them: SIGSEGV about 1 in 1000);
 *   - the client's 120-byte tensors are untouched except the documented fields: the id
 *     (QnnTensor_createGraphTensor), nothing at all at execute (record-only outputs are left
 *     alone), and nothing past the array;
 *   - QnnGraph_executeAsync notifies once, from a thread of the library ("in context of backend
 *     owned thread", QnnGraph.h), by the time QnnContext_free returns;
 *   - a field the client changes after an asynchronous execute returned is not overwritten when
 *     the notification comes (the compat adapter used to write its whole copy of the struct back).
 * usage: compat_saver_record_client SAVER_LIB    (writes ./saver_output/)
 * exit: 0 ok, 1 failure. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "QnnInterface.h"
#include "Saver/QnnSaver.h"
#include "tests/c_common/float_tensor.h"
#include "tests/c_common/qnn_check.h"

static const QNN_INTERFACE_VER_TYPE* qnn;
static int failures;

#define EXPECT(cond, ...)                     \
  do {                                        \
    if (!(cond)) {                            \
      fprintf(stderr, "FAIL: " __VA_ARGS__); \
      fputc('\n', stderr);                    \
      ++failures;                             \
    }                                         \
  } while (0)

/* Two tensors and a canary, at the client's stride. */
typedef struct {
  Qnn_Tensor_t t[2];
  unsigned char canary[64];
} TensorPair;

/* Bytes of `after` that differ from `before`, except [skipFrom, skipTo). */
static int changedBytes(const void* before, const void* after, size_t n, size_t skipFrom, size_t skipTo) {
  const unsigned char* a = (const unsigned char*)before;
  const unsigned char* b = (const unsigned char*)after;
  size_t k;
  int changed = 0;
  for (k = 0; k < n; ++k)
    if ((k < skipFrom || k >= skipTo) && a[k] != b[k]) ++changed;
  return changed;
}

/* Notifications: who called, how often; the first one can be held by the client. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_t clientThread;
static int notified[2], fromClientThread, holdFirst;

static void notify(void* param, Qnn_NotifyStatus_t status) {
  int which = (int)(size_t)param;
  pthread_mutex_lock(&mu);
  if (status.error != QNN_SUCCESS) ++failures;
  if (pthread_equal(pthread_self(), clientThread))
    ++fromClientThread; /* from inside the call: holding it would hang the client */
  else
    while (which == 0 && holdFirst) pthread_cond_wait(&cv, &mu);
  ++notified[which];
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
}

int main(int argc, char** argv) {
  typedef Qnn_ErrorHandle_t (*GetProvidersFn)(const QnnInterface_t***, uint32_t*);
  static uint32_t dims[4] = {1, 2, 2, 3};
  static float inData[12], outData[2][12];
  const QnnInterface_t** list = NULL;
  uint32_t n = 0, k;
  GetProvidersFn get;
  void* lib;
  Qnn_BackendHandle_t backend = NULL;
  Qnn_ContextHandle_t ctx = NULL;
  Qnn_GraphHandle_t g = NULL;
  Qnn_Tensor_t in, out, before;
  TensorPair outs, outsBefore;
  const size_t idFrom = offsetof(Qnn_Tensor_t, v1) + offsetof(Qnn_TensorV1_t, id);
  if (argc < 2) {
    fprintf(stderr, "usage: %s SAVER_LIB\n", argv[0]);
    return 1;
  }
  unsetenv("QNN_SAVER_BACKEND"); /* record only */
  clientThread = pthread_self();
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  *(void**)&get = dlsym(lib, "QnnInterface_getProviders");
  if (!get || get(&list, &n) != QNN_SUCCESS || n != 1 || list[0]->apiVersion.coreApiVersion.minor != 7) {
    fprintf(stderr, "no API 2.7 provider in %s\n", argv[1]);
    return 1;
  }
  qnn = &list[0]->QNN_INTERFACE_VER_NAME;

  EXPECT(sizeof(Qnn_Tensor_t) == 120, "the 2.7 tensor is %zu bytes", sizeof(Qnn_Tensor_t));
  {
    const QnnProperty_Key_t keys[] = {QNN_PROPERTY_GRAPH_SUPPORT_ASYNC_EXECUTION, QNN_PROPERTY_GROUP_DEVICE,
                                      QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_ASYNC_SIGNAL};
    for (k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
      Qnn_ErrorHandle_t rc = qnn->propertyHasCapability(keys[k]);
      EXPECT(rc == QNN_SAVER_ERROR_DUMMY_RETVALUE, "hasCapability(%u) answered %lu, not %d", (unsigned)keys[k],
             (unsigned long)rc, QNN_SAVER_ERROR_DUMMY_RETVALUE);
    }
  }
  CHECK(qnn->backendCreate(NULL, NULL, &backend));
  CHECK(qnn->contextCreate(backend, NULL, NULL, &ctx));
  CHECK(qnn->graphCreate(ctx, "record_only", NULL, &g));

  /* Creation writes the id and nothing else. */
  in = floatTensor("in", QNN_TENSOR_TYPE_APP_WRITE, 4, dims);
  out = floatTensor("out", QNN_TENSOR_TYPE_APP_READ, 4, dims);
  before = in;
  CHECK(qnn->tensorCreateGraphTensor(g, &in));
  EXPECT(changedBytes(&before, &in, sizeof in, idFrom, idFrom + 4) == 0, "tensor create changed more than the id");
  EXPECT(in.v1.id != 0, "no id assigned");
  before = out;
  CHECK(qnn->tensorCreateGraphTensor(g, &out));
  EXPECT(changedBytes(&before, &out, sizeof out, idFrom, idFrom + 4) == 0, "tensor create changed more than the id");
  EXPECT(out.v1.id != in.v1.id, "two tensors got id %u", in.v1.id);
  CHECK(qnn->graphFinalize(g, NULL, NULL));

  in.v1.clientBuf.data = inData;
  in.v1.clientBuf.dataSize = sizeof inData;
  memset(&outs, 0xA5, sizeof outs);
  for (k = 0; k < 2; ++k) {
    outs.t[k] = out;
    outs.t[k].v1.clientBuf.data = outData[k];
    outs.t[k].v1.clientBuf.dataSize = sizeof outData[k];
  }
  /* A synchronous execute leaves the client's structs, buffers and the bytes after them alone. */
  memset(outData, 0x5A, sizeof outData);
  outsBefore = outs;
  CHECK(qnn->graphExecute(g, &in, 1, outs.t, 1, NULL, NULL));
  EXPECT(changedBytes(&outsBefore, &outs, sizeof outs, 0, 0) == 0, "execute changed the client's output tensors");
  EXPECT(((unsigned char*)outData)[0] == 0x5A, "record-only execute wrote the output buffer");

  /* Two asynchronous executes; the first notification is held by the client, so the second one
   * comes only after the client changed its output struct (as a client may once the call returned). */
  pthread_mutex_lock(&mu);
  holdFirst = 1;
  pthread_mutex_unlock(&mu);
  CHECK(qnn->graphExecuteAsync(g, &in, 1, &outs.t[0], 1, NULL, NULL, notify, (void*)0));
  CHECK(qnn->graphExecuteAsync(g, &in, 1, &outs.t[1], 1, NULL, NULL, notify, (void*)1));
  outs.t[1].v1.name = "renamed after the call";
  outsBefore = outs;
  pthread_mutex_lock(&mu);
  holdFirst = 0;
  pthread_cond_broadcast(&cv);
  while (notified[1] == 0) pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
  EXPECT(changedBytes(&outsBefore, &outs, sizeof outs, 0, 0) == 0,
         "the asynchronous executes' notifications changed the client's output tensors");
  EXPECT(strcmp(outs.t[1].v1.name, "renamed after the call") == 0, "the client's change was overwritten");

  /* One more, not waited for: QnnContext_free returns after its notification. */
  CHECK(qnn->graphExecuteAsync(g, &in, 1, &outs.t[0], 1, NULL, NULL, notify, (void*)0));
  CHECK(qnn->contextFree(ctx, NULL));
  pthread_mutex_lock(&mu);
  EXPECT(notified[0] == 2 && notified[1] == 1, "notifications: %d and %d, expected 2 and 1", notified[0], notified[1]);
  EXPECT(fromClientThread == 0, "%d notification(s) came on the client's own thread", fromClientThread);
  pthread_mutex_unlock(&mu);
  CHECK(qnn->backendFree(backend));
  if (failures == 0) printf("ok   2.7 client on the record-only Saver\n");
  return failures ? 1 : 0;
}
