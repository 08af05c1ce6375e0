/* A C client of libcdsprpc.so and a QNN backend, the way ONNX Runtime's HTP shared memory
 * allocator and ExecuTorch's SharedBuffer use them: dlopen("libcdsprpc.so") by name, allocate
 * with rpcmem_alloc, take the fd with rpcmem_to_fd, register it with QnnMem_register
 * (QNN_MEM_TYPE_ION per tensor, or QNN_MEM_TYPE_CUSTOM with a QnnMemHtp_Descriptor_t naming
 * one allocation and each tensor's offset in it), execute with QNN_TENSORMEMTYPE_MEMHANDLE
 * tensors, deregister, free. Plus misuse of both.
 *
 *   rpcmem_client <backend.so> cpu|htp     (LD_LIBRARY_PATH must find libcdsprpc.so)
 *
 * The graph is out = a * b + a (ElementWiseMultiply, ElementWiseAdd), float32; the expected
 * values are computed here in double. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "HTP/QnnHtpMem.h"
#include "QnnInterface.h"
#include "tests/c_common/mul_add_graph.h"

static int failures = 0;
#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);     \
      ++failures;                                                             \
    }                                                                         \
  } while (0)
#define EXPECT_CODE(call, code)                                                                       \
  do {                                                                                                \
    Qnn_ErrorHandle_t got_ = (call);                                                                  \
    if (got_ != (code)) {                                                                             \
      fprintf(stderr, "%s:%d: %s returned %llu, expected %llu (%s)\n", __FILE__, __LINE__, #call,     \
              (unsigned long long)got_, (unsigned long long)(code), #code);                           \
      ++failures;                                                                                     \
    }                                                                                                 \
  } while (0)

/* ---- the rpcmem API, as its clients declare it for dlsym ---- */
enum { HEAP_ID_SYSTEM = 25, HEAP_ID_CONTIG = 22, DEFAULT_FLAGS = 1 };
static void* (*rpc_alloc)(int heapid, uint32_t flags, int size);
static void* (*rpc_alloc2)(int heapid, uint32_t flags, size_t size);
static void (*rpc_free)(void* po);
static int (*rpc_to_fd)(void* po);
static void (*rpc_init)(void);
static void (*rpc_deinit)(void);

static void loadRpcmem(void) {
  void* lib = dlopen("libcdsprpc.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "cannot load libcdsprpc.so: %s\n", dlerror());
    exit(1);
  }
  *(void**)&rpc_alloc = dlsym(lib, "rpcmem_alloc");
  *(void**)&rpc_alloc2 = dlsym(lib, "rpcmem_alloc2");
  *(void**)&rpc_free = dlsym(lib, "rpcmem_free");
  *(void**)&rpc_to_fd = dlsym(lib, "rpcmem_to_fd");
  *(void**)&rpc_init = dlsym(lib, "rpcmem_init");
  *(void**)&rpc_deinit = dlsym(lib, "rpcmem_deinit");
  REQUIRE(rpc_alloc && rpc_alloc2 && rpc_free && rpc_to_fd && rpc_init && rpc_deinit);
  /* only the rpcmem entry points are exported */
  EXPECT(dlsym(lib, "allocate") == NULL && dlsym(lib, "table") == NULL);
}

static off_t fdSize(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 ? st.st_size : -1;
}

/* ---- the library alone ---- */
static void testAllocationApi(void) {
  rpc_init();
  char* p = rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, 10000);
  REQUIRE(p != NULL);
  EXPECT((uintptr_t)p % 4096 == 0); /* ONNX Runtime requires 64 */
  int fd = rpc_to_fd(p);
  EXPECT(fd >= 0);
  EXPECT(fdSize(fd) == 10000);
  EXPECT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
  /* the fd is the memory behind the pointer, both ways */
  for (int i = 0; i < 10000; ++i) p[i] = (char)(i * 7);
  char back[10000];
  EXPECT(pread(fd, back, sizeof back, 0) == (ssize_t)sizeof back);
  EXPECT(memcmp(back, p, sizeof back) == 0);
  char* other = mmap(NULL, 10000, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  REQUIRE(other != MAP_FAILED);
  other[9999] = 42;
  EXPECT(p[9999] == 42);
  munmap(other, 10000);
  /* the size is sealed: nobody can cut a backend's mapping short */
  EXPECT(ftruncate(fd, 10) != 0);
  EXPECT(fdSize(fd) == 10000);
  /* only the allocation's start names it: an interior pointer has no fd and frees nothing */
  EXPECT(rpc_to_fd(p + 64) == -1);
  rpc_free(p + 64);
  EXPECT(rpc_to_fd(p) == fd);
  /* unknown pointers and NULL */
  int local = 0;
  EXPECT(rpc_to_fd(&local) == -1);
  EXPECT(rpc_to_fd(NULL) == -1);
  rpc_free(&local);
  rpc_free(NULL);
  /* any heap and flags; rpcmem_alloc2 takes a size_t */
  char* q = rpc_alloc(HEAP_ID_CONTIG, 0, 1);
  char* r = rpc_alloc2(HEAP_ID_SYSTEM, DEFAULT_FLAGS, (size_t)5 << 20);
  REQUIRE(q && r);
  EXPECT(rpc_to_fd(q) >= 0 && rpc_to_fd(r) >= 0 && rpc_to_fd(q) != rpc_to_fd(r) && rpc_to_fd(q) != fd);
  EXPECT(fdSize(rpc_to_fd(r)) == (off_t)5 << 20);
  r[((size_t)5 << 20) - 1] = 1;
  /* sizes that cannot be allocated give NULL */
  EXPECT(rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, 0) == NULL);
  EXPECT(rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, -4096) == NULL);
  EXPECT(rpc_alloc2(HEAP_ID_SYSTEM, DEFAULT_FLAGS, 0) == NULL);
  EXPECT(rpc_alloc2(HEAP_ID_SYSTEM, DEFAULT_FLAGS, SIZE_MAX) == NULL);
  EXPECT(rpc_alloc2(HEAP_ID_SYSTEM, DEFAULT_FLAGS, (size_t)1 << 62) == NULL);
  /* free unmaps and closes; a second free is ignored */
  rpc_free(p);
  EXPECT(rpc_to_fd(p) == -1);
  EXPECT(fcntl(fd, F_GETFD) == -1 && errno == EBADF);
  rpc_free(p);
  /* deinit leaves live allocations alone */
  rpc_deinit();
  EXPECT(rpc_to_fd(q) >= 0);
  q[0] = 3;
  rpc_free(q);
  rpc_free(r);
}

/* Threads allocating, checking and freeing at once: each sees its own allocations' fds. */
static void* churn(void* arg) {
  unsigned seed = (unsigned)(uintptr_t)arg;
  long bad = 0;
  for (int i = 0; i < 300; ++i) {
    int size = 1 + (int)(rand_r(&seed) % 20000);
    unsigned char* p = rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, size);
    if (!p) {
      ++bad;
      continue;
    }
    p[size - 1] = (unsigned char)i;
    int fd = rpc_to_fd(p);
    unsigned char last = 0;
    if (fd < 0 || fdSize(fd) != size || pread(fd, &last, 1, size - 1) != 1 || last != (unsigned char)i) ++bad;
    rpc_free(p);
  }
  return (void*)bad;
}

static void testThreads(void) {
  pthread_t threads[8];
  for (uintptr_t t = 0; t < 8; ++t) REQUIRE(pthread_create(&threads[t], NULL, churn, (void*)(t + 1)) == 0);
  for (int t = 0; t < 8; ++t) {
    void* bad = NULL;
    pthread_join(threads[t], &bad);
    EXPECT(bad == NULL);
  }
}

/* ---- with a backend ---- */
static const QNN_INTERFACE_VER_TYPE* qnn;
static char logText[1 << 16];
static size_t logLength;
static pthread_mutex_t logLock = PTHREAD_MUTEX_INITIALIZER;

static void captureLog(const char* fmt, QnnLog_Level_t level, uint64_t ts, va_list args) {
  (void)ts;
  if (level != QNN_LOG_LEVEL_ERROR) return;
  pthread_mutex_lock(&logLock);
  if (logLength < sizeof logText - 1) {
    int n = vsnprintf(logText + logLength, sizeof logText - logLength, fmt, args);
    if (n > 0) logLength = logLength + (size_t)n < sizeof logText - 1 ? logLength + (size_t)n : sizeof logText - 1;
    logText[logLength++] = '\n';
    logText[logLength] = 0;
  }
  pthread_mutex_unlock(&logLock);
}

/* Whether an error line containing `what` was logged since the last call; clears the log. */
static int logged(const char* what) {
  pthread_mutex_lock(&logLock);
  int found = strstr(logText, what) != NULL;
  logLength = 0;
  logText[0] = 0;
  pthread_mutex_unlock(&logLock);
  return found;
}

enum { H = 3, W = 5, C = 7, N = H * W * C };
static uint32_t dims[4] = {1, H, W, C};

static struct MulAddGraph buildGraph(Qnn_ContextHandle_t ctx) {
  struct MulAddGraph g;
  REQUIRE(buildMulAddGraph(qnn, ctx, dims, &g) == QNN_SUCCESS);
  return g;
}

static Qnn_ErrorHandle_t execute(struct MulAddGraph* g, Qnn_MemHandle_t a, Qnn_MemHandle_t b, Qnn_MemHandle_t out) {
  Qnn_Tensor_t in[2] = {g->a, g->b}, o = g->out;
  in[0].v1.memType = in[1].v1.memType = o.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  in[0].v1.memHandle = a;
  in[1].v1.memHandle = b;
  o.v1.memHandle = out;
  return qnn->graphExecute(g->handle, in, 2, &o, 1, NULL, NULL);
}

static void fillInputs(float* a, float* b, int round) {
  for (int i = 0; i < N; ++i) {
    a[i] = (float)((i % 11) - 5) * 0.375f + (float)round;
    b[i] = (float)((i * 7) % 13) * 0.25f - 1.5f;
  }
}

/* out = a * b + a, in double, compared with a float-rounding tolerance. */
static int matches(const float* a, const float* b, const float* out) {
  for (int i = 0; i < N; ++i) {
    double want = (double)a[i] * (double)b[i] + (double)a[i];
    if (fabs((double)out[i] - want) > 1e-6 * (1.0 + fabs(want))) {
      fprintf(stderr, "out[%d] = %.9g, expected %.9g\n", i, (double)out[i], want);
      return 0;
    }
  }
  return 1;
}

static Qnn_MemDescriptor_t ionDescriptor(int fd) {
  Qnn_MemDescriptor_t d = QNN_MEM_DESCRIPTOR_INIT;
  d.memShape.numDim = 4;
  d.memShape.dimSize = dims;
  d.dataType = QNN_DATATYPE_FLOAT_32;
  d.memType = QNN_MEM_TYPE_ION;
  d.ionInfo.fd = fd;
  return d;
}

/* One rpcmem allocation per tensor, each registered as ION (ExecuTorch's RegisterIonMem,
 * the vendor's sample app). */
static void testIon(Qnn_ContextHandle_t ctx, struct MulAddGraph* g) {
  const int bytes = N * (int)sizeof(float);
  float* mem[3];
  Qnn_MemDescriptor_t d[3];
  for (int i = 0; i < 3; ++i) {
    mem[i] = rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, bytes);
    REQUIRE(mem[i] != NULL);
    d[i] = ionDescriptor(rpc_to_fd(mem[i]));
  }
  Qnn_MemHandle_t h[3] = {NULL, NULL, NULL};
  EXPECT_CODE(qnn->memRegister(ctx, d, 3, h), QNN_SUCCESS);
  for (int round = 0; round < 3; ++round) {
    /* the client writes through its pointers after registering; no copy, no re-register */
    fillInputs(mem[0], mem[1], round);
    memset(mem[2], 0xEE, (size_t)bytes);
    EXPECT_CODE(execute(g, h[0], h[1], h[2]), QNN_SUCCESS);
    EXPECT(matches(mem[0], mem[1], mem[2]));
  }
  /* The client frees an allocation that is still registered: the backend's own mapping keeps
   * the pages, so an execute neither crashes nor fails; deregistering releases them. */
  rpc_free(mem[2]);
  EXPECT_CODE(execute(g, h[0], h[1], h[2]), QNN_SUCCESS);
  EXPECT_CODE(qnn->memDeRegister(h, 3), QNN_SUCCESS);
  EXPECT_CODE(qnn->memDeRegister(h, 1), QNN_MEM_ERROR_INVALID_HANDLE);
  EXPECT_CODE(execute(g, h[0], h[1], h[2]), QNN_GRAPH_ERROR_INVALID_TENSOR);
  rpc_free(mem[0]);
  rpc_free(mem[1]);
}

/* One rpcmem allocation holding every tensor at 64-byte aligned offsets, registered per tensor
 * as QNN_MEM_TYPE_CUSTOM / QNN_HTP_MEM_SHARED_BUFFER with the allocation's size (ONNX Runtime's
 * HTP shared memory allocator, ExecuTorch's RegisterCustomMem). */
static void testHtpSharedBuffer(Qnn_ContextHandle_t ctx, struct MulAddGraph* g) {
  const size_t bytes = N * sizeof(float);
  const size_t offsets[3] = {64, 64 + 448 + bytes, 4096 + 3 * 64 + 2 * bytes};
  const size_t total = offsets[2] + bytes + 256;
  char* base = rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, (int)total);
  REQUIRE(base != NULL);
  int fd = rpc_to_fd(base);
  EXPECT(fd >= 0);
  QnnMemHtp_Descriptor_t htp[3];
  Qnn_MemDescriptor_t d[3];
  for (int i = 0; i < 3; ++i) {
    memset(&htp[i], 0, sizeof htp[i]);
    htp[i].type = QNN_HTP_MEM_SHARED_BUFFER;
    htp[i].size = total;
    htp[i].sharedBufferConfig.fd = fd;
    htp[i].sharedBufferConfig.offset = offsets[i];
    d[i] = ionDescriptor(-1);
    d[i].memType = QNN_MEM_TYPE_CUSTOM;
    d[i].customInfo = &htp[i];
  }
  Qnn_MemHandle_t h[3] = {NULL, NULL, NULL};
  EXPECT_CODE(qnn->memRegister(ctx, d, 3, h), QNN_SUCCESS);
  float* a = (float*)(base + offsets[0]);
  float* b = (float*)(base + offsets[1]);
  float* out = (float*)(base + offsets[2]);
  for (int round = 0; round < 2; ++round) {
    memset(base, 0x5A, total);
    fillInputs(a, b, round);
    EXPECT_CODE(execute(g, h[0], h[1], h[2]), QNN_SUCCESS);
    EXPECT(matches(a, b, out));
    /* nothing written around the output */
    EXPECT((unsigned char)base[offsets[2] - 1] == 0x5A && (unsigned char)base[offsets[2] + bytes] == 0x5A);
  }
  EXPECT_CODE(qnn->memDeRegister(h, 3), QNN_SUCCESS);
  /* a tensor reaching past the allocation */
  Qnn_MemHandle_t refused = NULL;
  htp[2].sharedBufferConfig.offset = total - bytes + 4;
  htp[2].size = 0;
  EXPECT_CODE(qnn->memRegister(ctx, &d[2], 1, &refused), QNN_MEM_ERROR_MAPPING);
  EXPECT(logged("holds " ) && refused == NULL);
  /* or past the size the descriptor states */
  htp[2].sharedBufferConfig.offset = offsets[2];
  htp[2].size = offsets[2] + bytes - 1;
  EXPECT_CODE(qnn->memRegister(ctx, &d[2], 1, &refused), QNN_MEM_ERROR_MAPPING);
  EXPECT(logged("beyond the stated buffer size") && refused == NULL);
  /* the fd of a freed allocation */
  rpc_free(base);
  htp[2].size = total;
  EXPECT_CODE(qnn->memRegister(ctx, &d[2], 1, &refused), QNN_MEM_ERROR_MAPPING);
  EXPECT(logged("is not an open, mappable file") && refused == NULL);
}

/* What a backend must refuse, with a message, whatever the client's fd. */
static void testBadFds(Qnn_ContextHandle_t ctx, int htp) {
  const int bytes = N * (int)sizeof(float);
  Qnn_MemHandle_t h = NULL;
  /* -1, what rpcmem_to_fd answers for a pointer it does not know */
  int local = 0;
  Qnn_MemDescriptor_t d = ionDescriptor(rpc_to_fd(&local));
  EXPECT_CODE(qnn->memRegister(ctx, &d, 1, &h), QNN_MEM_ERROR_MAPPING);
  EXPECT(logged("fd -1 is not an open, mappable file") && h == NULL);
  /* an allocation smaller than the tensor */
  void* small = rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, bytes - 4);
  REQUIRE(small != NULL);
  d = ionDescriptor(rpc_to_fd(small));
  EXPECT_CODE(qnn->memRegister(ctx, &d, 1, &h), QNN_MEM_ERROR_MAPPING);
  EXPECT(logged("the tensor needs") && h == NULL);
  /* a freed allocation's fd */
  void* freed = rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, bytes);
  REQUIRE(freed != NULL);
  d = ionDescriptor(rpc_to_fd(freed));
  rpc_free(freed);
  EXPECT_CODE(qnn->memRegister(ctx, &d, 1, &h), QNN_MEM_ERROR_MAPPING);
  EXPECT(logged("is not an open, mappable file") && h == NULL);
  /* a pipe: open, but not memory */
  int p[2];
  REQUIRE(pipe(p) == 0);
  d = ionDescriptor(p[0]);
  EXPECT_CODE(qnn->memRegister(ctx, &d, 1, &h), QNN_MEM_ERROR_MAPPING);
  EXPECT(logged("mappable") && h == NULL);
  close(p[0]);
  close(p[1]);
  /* one bad descriptor among good ones registers nothing */
  void* good = rpc_alloc(HEAP_ID_SYSTEM, DEFAULT_FLAGS, bytes);
  REQUIRE(good != NULL);
  Qnn_MemDescriptor_t two[2] = {ionDescriptor(rpc_to_fd(good)), ionDescriptor(-1)};
  Qnn_MemHandle_t hs[2] = {NULL, NULL};
  EXPECT_CODE(qnn->memRegister(ctx, two, 2, hs), QNN_MEM_ERROR_MAPPING);
  EXPECT(logged("descriptor 1") && hs[0] == NULL && hs[1] == NULL);
  /* the CPU backend defines no custom memory type; the HTP one refuses a null descriptor */
  QnnMemHtp_Descriptor_t custom;
  memset(&custom, 0, sizeof custom);
  custom.type = QNN_HTP_MEM_SHARED_BUFFER;
  custom.size = (uint64_t)bytes;
  custom.sharedBufferConfig.fd = rpc_to_fd(good);
  d = ionDescriptor(-1);
  d.memType = QNN_MEM_TYPE_CUSTOM;
  d.customInfo = htp ? NULL : &custom;
  EXPECT_CODE(qnn->memRegister(ctx, &d, 1, &h),
              htp ? QNN_MEM_ERROR_INVALID_ARGUMENT : QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE);
  EXPECT(logged(htp ? "QnnMemHtp_Descriptor_t" : "no custom memory type") && h == NULL);
  rpc_free(small);
  rpc_free(good);
}

int main(int argc, char** argv) {
  if (argc != 3 || (strcmp(argv[2], "cpu") != 0 && strcmp(argv[2], "htp") != 0)) {
    fprintf(stderr, "usage: %s <backend.so> cpu|htp\n", argv[0]);
    return 2;
  }
  const int htp = strcmp(argv[2], "htp") == 0;
  loadRpcmem();
  testAllocationApi();
  testThreads();

  qnn = loadQnnInterface(argv[1]);
  if (!qnn) return 1;
  Qnn_LogHandle_t logger = NULL;
  Qnn_BackendHandle_t backend = NULL;
  Qnn_ContextHandle_t ctx = NULL;
  REQUIRE(qnn->logCreate(captureLog, QNN_LOG_LEVEL_ERROR, &logger) == QNN_SUCCESS);
  REQUIRE(qnn->backendCreate(logger, NULL, &backend) == QNN_SUCCESS);
  REQUIRE(qnn->contextCreate(backend, NULL, NULL, &ctx) == QNN_SUCCESS);
  struct MulAddGraph g = buildGraph(ctx);

  testIon(ctx, &g);
  if (htp) testHtpSharedBuffer(ctx, &g);
  testBadFds(ctx, htp);

  EXPECT_CODE(qnn->contextFree(ctx, NULL), QNN_SUCCESS);
  EXPECT_CODE(qnn->backendFree(backend), QNN_SUCCESS);
  EXPECT_CODE(qnn->logFree(logger), QNN_SUCCESS);
  if (failures) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  printf("rpcmem client on %s: ok\n", argv[2]);
  return 0;
}
