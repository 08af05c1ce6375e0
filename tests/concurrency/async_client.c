/* An asynchronous client written like the vendor's qnn-net-run in its default (async) mode: an
 * I/O worker thread reads inputs into per-execution records and submits them with
 * QnnGraph_executeAsync; the notify callback (on the backend's thread) checks the outputs and
 * frees its record; several executions are in flight, bounded by the context's
 * QNN_CONTEXT_CONFIG_ASYNC_EXECUTION_QUEUE_DEPTH. Each session is what one tool run does: backend,
 * context, graph, N executions, teardown. Many sessions in one process find intermittent faults.
 *
 *   async_client <backend.so> <sessions> [queue depth]
 *
 * What is checked (the contract in docs/compatibility.md, "Asynchronous execution"):
 * - QNN_PROPERTY_GRAPH_SUPPORT_ASYNC_EXECUTION is answered NOT_SUPPORTED (as the vendor's CPU
 *   backend and host HTP do) and executeAsync still works;
 * - each execution is notified exactly once, with QNN_SUCCESS, on a thread other than the
 *   submitting one, in submission order (the library also holds each notification until its
 *   executeAsync call has returned; how often the callback still ran before the submitter's next
 *   line is printed, as that is a race no library can close);
 * - no more than the queue depth of executions is outstanding when executeAsync returns (it
 *   blocks at the depth instead);
 * - every output equals out = a * b + a computed here in double;
 * - a queue depth of 0 or above 300 is refused at context creation.
 * The graph is out = a * b + a, float32 (tests/c_common/mul_add_graph.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/c_common/mul_add_graph.h"

static int failures = 0;
static pthread_mutex_t failLock = PTHREAD_MUTEX_INITIALIZER;
#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      pthread_mutex_lock(&failLock);                                          \
      if (failures++ < 20) fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      pthread_mutex_unlock(&failLock);                                        \
    }                                                                         \
  } while (0)

static const QNN_INTERFACE_VER_TYPE* qnn;
static unsigned long earlyNotifications; /* guarded by the session's lock (one session at a time) */

enum { N = 2 * 3 * 5, EXECUTIONS = 12 };
static uint32_t dims[4] = {1, 2, 3, 5};

/* One execution's state, allocated by the I/O thread and freed by the notify callback. */
struct Execution {
  struct Session* session;
  uint32_t id;
  Qnn_Tensor_t inputs[2], output;
  float a[N], b[N], out[N];
};

/* What the I/O thread and the callbacks share; guarded by `lock`. */
struct Session {
  Qnn_GraphHandle_t graph;
  Qnn_Tensor_t a, b, out;
  uint32_t depth;
  pthread_t ioThread;
  pthread_mutex_t lock;
  pthread_cond_t done;
  uint32_t outstanding; /* submitted (call returned) and not yet notified */
  uint32_t notified;
  uint32_t nextExpected; /* notifications arrive in submission order */
  int inCall[EXECUTIONS]; /* set while that execution's executeAsync call runs */
};

static void fill(struct Execution* e, uint32_t session) {
  for (int i = 0; i < N; ++i) {
    e->a[i] = (float)((i % 7) - 3) * 0.5f + (float)(e->id % 5) - (float)(session % 3);
    e->b[i] = (float)((i * 5 + (int)e->id) % 11) * 0.25f - 1.0f;
    e->out[i] = NAN;
  }
}

static int outputsMatch(const struct Execution* e) {
  for (int i = 0; i < N; ++i) {
    double want = (double)e->a[i] * (double)e->b[i] + (double)e->a[i];
    if (!(fabs((double)e->out[i] - want) <= 1e-5 * (1.0 + fabs(want)))) return 0;
  }
  return 1;
}

static void notifyDone(void* param, Qnn_NotifyStatus_t status) {
  struct Execution* e = param;
  struct Session* s = e->session;
  EXPECT(status.error == QNN_SUCCESS);
  EXPECT(!pthread_equal(pthread_self(), s->ioThread));
  EXPECT(outputsMatch(e));
  pthread_mutex_lock(&s->lock);
  /* The library notifies only after the call returned, but the I/O thread may not have run
   * the line after the call yet: a callback that needs what the submitter records after the
   * call waits for it (counted, not a failure). */
  if (s->inCall[e->id]) ++earlyNotifications;
  while (s->inCall[e->id]) pthread_cond_wait(&s->done, &s->lock);
  EXPECT(e->id == s->nextExpected);
  s->nextExpected = e->id + 1;
  ++s->notified;
  --s->outstanding;
  pthread_cond_broadcast(&s->done);
  pthread_mutex_unlock(&s->lock);
  free(e); /* the record dies in the callback, as the vendor tool's does */
}

/* The I/O worker: reads (fills) each input set and enqueues it. */
static void* ioWorker(void* arg) {
  struct Session* s = arg;
  static uint32_t sessionCounter;
  uint32_t session = __atomic_fetch_add(&sessionCounter, 1, __ATOMIC_RELAXED);
  for (uint32_t id = 0; id < EXECUTIONS; ++id) {
    struct Execution* e = calloc(1, sizeof *e);
    REQUIRE(e);
    e->session = s;
    e->id = id;
    fill(e, session);
    e->inputs[0] = s->a;
    e->inputs[1] = s->b;
    e->output = s->out;
    e->inputs[0].v1.clientBuf = (Qnn_ClientBuffer_t){e->a, sizeof e->a};
    e->inputs[1].v1.clientBuf = (Qnn_ClientBuffer_t){e->b, sizeof e->b};
    e->output.v1.clientBuf = (Qnn_ClientBuffer_t){e->out, sizeof e->out};
    pthread_mutex_lock(&s->lock);
    s->inCall[id] = 1;
    pthread_mutex_unlock(&s->lock);
    Qnn_ErrorHandle_t rc = qnn->graphExecuteAsync(s->graph, e->inputs, 2, &e->output, 1, NULL, NULL, notifyDone, e);
    /* e may be freed already: only the session is touched from here on */
    pthread_mutex_lock(&s->lock);
    s->inCall[id] = 0;
    pthread_cond_broadcast(&s->done);
    if (rc == QNN_SUCCESS) {
      ++s->outstanding;
      EXPECT(s->outstanding <= s->depth);
    }
    pthread_mutex_unlock(&s->lock);
    if (rc != QNN_SUCCESS) {
      fprintf(stderr, "graphExecuteAsync failed: %llu\n", (unsigned long long)rc);
      EXPECT(rc == QNN_SUCCESS);
      free(e); /* a failed call is never notified */
      pthread_mutex_lock(&s->lock);
      ++s->notified;
      ++s->nextExpected;
      pthread_mutex_unlock(&s->lock);
    }
  }
  return NULL;
}

static Qnn_ErrorHandle_t createContext(Qnn_BackendHandle_t backend, uint32_t depth, Qnn_ContextHandle_t* ctx) {
  QnnContext_Config_t config = QNN_CONTEXT_CONFIG_INIT;
  config.option = QNN_CONTEXT_CONFIG_ASYNC_EXECUTION_QUEUE_DEPTH;
  config.asyncExeQueueDepth.type = QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_TYPE_NUMERIC;
  config.asyncExeQueueDepth.depth = depth;
  const QnnContext_Config_t* list[] = {&config, NULL};
  return qnn->contextCreate(backend, NULL, list, ctx);
}

static void runSession(uint32_t depth) {
  Qnn_LogHandle_t logger = NULL;
  Qnn_BackendHandle_t backend = NULL;
  Qnn_ContextHandle_t ctx = NULL;
  REQUIRE(qnn->logCreate(NULL, QNN_LOG_LEVEL_ERROR, &logger) == QNN_SUCCESS);
  REQUIRE(qnn->backendCreate(logger, NULL, &backend) == QNN_SUCCESS);
  REQUIRE(createContext(backend, depth, &ctx) == QNN_SUCCESS);
  struct Session s;
  memset(&s, 0, sizeof s);
  s.depth = depth;
  pthread_mutex_init(&s.lock, NULL);
  pthread_cond_init(&s.done, NULL);
  struct MulAddGraph g;
  REQUIRE(buildMulAddGraph(qnn, ctx, dims, &g) == QNN_SUCCESS);
  s.graph = g.handle;
  s.a = g.a;
  s.b = g.b;
  s.out = g.out;

  REQUIRE(pthread_create(&s.ioThread, NULL, ioWorker, &s) == 0);
  REQUIRE(pthread_join(s.ioThread, NULL) == 0);
  pthread_mutex_lock(&s.lock);
  while (s.notified < EXECUTIONS) pthread_cond_wait(&s.done, &s.lock);
  EXPECT(s.outstanding == 0);
  pthread_mutex_unlock(&s.lock);

  REQUIRE(qnn->contextFree(ctx, NULL) == QNN_SUCCESS);
  REQUIRE(qnn->backendFree(backend) == QNN_SUCCESS);
  REQUIRE(qnn->logFree(logger) == QNN_SUCCESS);
  pthread_mutex_destroy(&s.lock);
  pthread_cond_destroy(&s.done);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <backend.so> <sessions> [queue depth]\n", argv[0]);
    return 2;
  }
  long sessions = strtol(argv[2], NULL, 10);
  uint32_t depth = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 3;
  REQUIRE(sessions > 0 && depth > 0);
  qnn = loadQnnInterface(argv[1]);
  if (!qnn) return 1;

  /* What a tool reads before choosing its mode: the vendor's CPU backend and host HTP answer
   * NOT_SUPPORTED, so the vendor's qnn-net-run runs synchronously on them. */
  EXPECT(qnn->propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_ASYNC_EXECUTION) == QNN_PROPERTY_NOT_SUPPORTED);
  EXPECT(qnn->propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_ASYNC_SIGNAL) == QNN_PROPERTY_NOT_SUPPORTED);

  /* Queue depths out of 1..300 are refused when the context is made. */
  Qnn_BackendHandle_t backend = NULL;
  Qnn_ContextHandle_t ctx = NULL;
  REQUIRE(qnn->backendCreate(NULL, NULL, &backend) == QNN_SUCCESS);
  EXPECT(createContext(backend, 0, &ctx) == QNN_CONTEXT_ERROR_INVALID_CONFIG);
  EXPECT(createContext(backend, 301, &ctx) == QNN_CONTEXT_ERROR_INVALID_CONFIG);
  EXPECT(createContext(backend, 300, &ctx) == QNN_SUCCESS);
  EXPECT(qnn->contextFree(ctx, NULL) == QNN_SUCCESS);
  EXPECT(qnn->backendFree(backend) == QNN_SUCCESS);

  for (long i = 0; i < sessions && failures == 0; ++i) runSession(depth);
  if (failures) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  printf("async client on %s: %ld sessions of %d executions, queue depth %u: ok (%lu callbacks ran before "
         "the submitter's line after the call)\n", argv[1], sessions, EXECUTIONS, depth, earlyNotifications);
  return 0;
}
