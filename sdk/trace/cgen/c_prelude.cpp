// The fixed part of every generated replay program: loading the backend,
// params.bin, the command line, error reporting and the helpers the generated
// calls use. Plain C99 on POSIX, public QNN API names only (and, when the
// backend exports it, OpenQNN's OpenQnn_getProvidersForClientApi). The parts that
// name newer types or members are left out when the recording has no use for
// them, so the file builds against the headers of the recorded client's API.
#include "c_prelude.h"

namespace qnn::trace::cgen {
namespace {

// Up to check()'s error message lookup.
const char* const kHead = R"PRELUDE(
#define _GNU_SOURCE /* memfd_create, RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h> /* older SDKs' HTP headers use bool without including it */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "HTP/QnnHtpDevice.h"
#include "QnnInterface.h"

/* Helpers a given recording may not need. */
#if defined(__GNUC__)
#define MAYBE_UNUSED __attribute__((unused))
#else
#define MAYBE_UNUSED
#endif

static const QNN_INTERFACE_VER_TYPE* qnn;
static uint8_t* params;
static int failures;
static int logLevelOverride; /* --logging: 0 keeps the recorded levels */
static Qnn_LogHandle_t commandLineLogger;

/* A member the backend leaves NULL is answered as unsupported, not called. */
#define API(member, ...) (qnn->member ? qnn->member(__VA_ARGS__) : (Qnn_ErrorHandle_t)QNN_COMMON_ERROR_NOT_SUPPORTED)
#define CHECK(call) check(__LINE__, #call, (call))
#define P(offset) ((void*)(params + (offset)))

/* Prints the line and error code of a failing call; the replay goes on. */
static int check(int line, const char* call, Qnn_ErrorHandle_t rc) {
  const char* message = NULL;
  if (rc == QNN_SUCCESS) return 1;
  ++failures;
)PRELUDE";

// QnnError_getMessage: API 2.11 and later.
const char* const kErrorMessage = R"PRELUDE(  if (qnn->errorGetMessage && qnn->errorGetMessage(rc, &message) != QNN_SUCCESS) message = NULL;
)PRELUDE";

// From the end of check() to the binary callback helpers.
const char* const kHelpers = R"PRELUDE(  fprintf(stderr, "%s:%d: %s failed with error %llu%s%s\n", __FILE__, line, call, (unsigned long long)rc,
          message ? ": " : "", message ? message : "");
  return 0;
}

static void logToStderr(const char* fmt, QnnLog_Level_t level, uint64_t timestamp, va_list args) {
  static const char* const names[] = {"?", "ERROR", "WARN", "INFO", "VERBOSE", "DEBUG"};
  (void)timestamp;
  fprintf(stderr, "[%s] ", (unsigned)level <= 5 ? names[level] : "?");
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
}

MAYBE_UNUSED static QnnLog_Level_t logLevel(int recorded) {
  return (QnnLog_Level_t)(logLevelOverride ? logLevelOverride : recorded);
}

/* Recorded ids -> the ids this backend handed out. */
typedef struct {
  uint32_t* pairs;
  size_t count;
} IdMap;

MAYBE_UNUSED static void bindId(IdMap* map, uint32_t recorded, uint32_t live) {
  size_t k;
  for (k = 0; k < map->count; ++k)
    if (map->pairs[2 * k] == recorded) break;
  if (k == map->count) {
    uint32_t* grown = (uint32_t*)realloc(map->pairs, (map->count + 1) * 2 * sizeof(uint32_t));
    if (!grown) { fprintf(stderr, "out of memory\n"); exit(3); }
    map->pairs = grown;
    ++map->count;
  }
  map->pairs[2 * k] = recorded;
  map->pairs[2 * k + 1] = live;
}

/* An id never bound is used as recorded. */
MAYBE_UNUSED static uint32_t mapId(const IdMap* map, uint32_t recorded) {
  size_t k;
  for (k = 0; k < map->count; ++k)
    if (map->pairs[2 * k] == recorded) return map->pairs[2 * k + 1];
  return recorded;
}

static IdMap tensorIds;
MAYBE_UNUSED static void bindTensorId(uint32_t recorded, uint32_t live) { bindId(&tensorIds, recorded, live); }
/* A tensor never bound: e.g. one of a context restored from recorded binary bytes. */
MAYBE_UNUSED static uint32_t tid(uint32_t recorded) { return mapId(&tensorIds, recorded); }

/* The HTP perf infrastructure (QnnDevice_getInfrastructure on an HTP backend) and
   the power config ids it created in this run. Without it the perf calls are skipped. */
MAYBE_UNUSED static QnnHtpDevice_PerfInfrastructure_t* perfInfra;
static IdMap powerIds;
MAYBE_UNUSED static QnnHtpDevice_PerfInfrastructure_t* perfOf(QnnDevice_Infrastructure_t infrastructure) {
  QnnHtpDevice_Infrastructure_t* htp = (QnnHtpDevice_Infrastructure_t*)infrastructure;
  return htp && htp->infraType == QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF ? &htp->perfInfra : NULL;
}
#define PERF(member, ...) \
  (perfInfra->member ? perfInfra->member(__VA_ARGS__) : (Qnn_ErrorHandle_t)QNN_COMMON_ERROR_NOT_SUPPORTED)

MAYBE_UNUSED static void tensorBase(Qnn_Tensor_t* t, int version, uint32_t id, const char* name, int type, int dataFormat,
                       int dataType, uint32_t rank, uint32_t* dims) {
  memset(t, 0, sizeof *t);
  t->version = (Qnn_TensorVersion_t)version;
  t->v1.id = id;
  t->v1.name = name;
  t->v1.type = (Qnn_TensorType_t)type;
  t->v1.dataFormat = (Qnn_TensorDataFormat_t)dataFormat;
  t->v1.dataType = (Qnn_DataType_t)dataType;
  t->v1.rank = rank;
  t->v1.dimensions = dims;
  t->v1.memType = QNN_TENSORMEMTYPE_RAW;
}

MAYBE_UNUSED static void tensorQuant(Qnn_Tensor_t* t, int definition, int encoding) {
  t->v1.quantizeParams.encodingDefinition = (Qnn_Definition_t)definition;
  t->v1.quantizeParams.quantizationEncoding = (Qnn_QuantizationEncoding_t)encoding;
}

MAYBE_UNUSED static void tensorData(Qnn_Tensor_t* t, void* data, uint32_t size) {
  t->v1.memType = QNN_TENSORMEMTYPE_RAW;
  t->v1.clientBuf.data = data;
  t->v1.clientBuf.dataSize = size;
}

)PRELUDE";

// Qnn_ContextBinaryCallback_t helpers, for recordings that load binaries through callbacks.
const char* const kBinaryCallbacks = R"PRELUDE(/* contextCreateFromBinaryWithCallback: the recorded client's callback is not in
 * the trace; this one serves ranges of the buffer being loaded. */
typedef struct { const uint8_t* data; uint64_t size; } BufferRange;
static BufferRange callbackRange;
MAYBE_UNUSED static Qnn_ErrorHandle_t provideFromBuffer(Qnn_ContextBinaryDataRequest_t req,
                                                        Qnn_ContextBinaryRawDataResponse_t* out, void* param) {
  const BufferRange* range = (const BufferRange*)param;
  if (!out || req.offset > range->size || req.size > range->size - req.offset) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
  out->memPtr = (void*)(range->data + req.offset);
  out->dataStartOffset = 0;
  out->alignedSize = req.size;
  return QNN_SUCCESS;
}
MAYBE_UNUSED static Qnn_ErrorHandle_t releaseNothing(Qnn_ContextBinaryRawDataMem_t mem, void* param) {
  (void)mem;
  (void)param;
  return QNN_SUCCESS;
}
MAYBE_UNUSED static Qnn_ContextBinaryCallback_t rangeCallback(BufferRange* range, const void* data, uint64_t size) {
  Qnn_ContextBinaryCallback_t cb;
  memset(&cb, 0, sizeof cb);
  range->data = (const uint8_t*)data;
  range->size = size;
  cb.type = QNN_CONTEXT_CALLBACK_RAW_BUFFER;
  cb.rawBufferCallback.version = QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1;
  cb.rawBufferCallback.v1.dataProvide = provideFromBuffer;
  cb.rawBufferCallback.v1.dataRelease = releaseNothing;
  cb.rawBufferCallback.v1.notifyParam = range;
  return cb;
}
MAYBE_UNUSED static Qnn_ContextBinaryCallback_t bufferCallback(const void* data, uint64_t size) {
  return rangeCallback(&callbackRange, data, size);
}

)PRELUDE";

// contextCreateFromBinaryListAsync (API 2.17 and later) helpers.
const char* const kListLoads = R"PRELUDE(/* contextCreateFromBinaryListAsync: what the backend notified for one entry of
 * the list (the call returns when every entry has been notified). */
typedef struct {
  Qnn_ContextHandle_t context;
  uint32_t numGraphs;
  char names[64][256];
  Qnn_GraphHandle_t graphs[64];
} ListSlot;
MAYBE_UNUSED static void noteListLoad(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, const char* name,
                                      QnnContext_createFromBinaryAsyncNotifyType_t type, void* param,
                                      Qnn_ErrorHandle_t status) {
  ListSlot* slot = (ListSlot*)param;
  (void)status;
  if (context) slot->context = context;
  if (type == QNN_CONTEXT_NOTIFY_TYPE_GRAPH_INIT && graph && name && slot->numGraphs < 64) {
    strncpy(slot->names[slot->numGraphs], name, 255);
    slot->graphs[slot->numGraphs++] = graph;
  }
}
MAYBE_UNUSED static Qnn_GraphHandle_t listGraph(const ListSlot* slot, const char* name) {
  for (uint32_t i = 0; i < slot->numGraphs; ++i)
    if (strcmp(slot->names[i], name) == 0) return slot->graphs[i];
  fprintf(stderr, "graph '%s' was not notified\n", name);
  return NULL;
}

)PRELUDE";

// Outputs, registered memory, async executes, params.bin, the backend and main().
const char* const kTail = R"PRELUDE(MAYBE_UNUSED static void* outputBuffer(uint32_t size) {
  void* p = calloc(size ? size : 1, 1);
  if (!p) { fprintf(stderr, "out of memory\n"); exit(3); }
  return p;
}

/* Registered memory: each handle's shared mapping, for outputs and inputs. */
typedef struct { Qnn_MemHandle_t handle; void* data; size_t size; int fd; } MemMapping;
static MemMapping* mappings;
static size_t numMappings;

/* A memfd of `size` bytes standing in for the recorded client allocation. */
MAYBE_UNUSED static int sharedBuffer(size_t size, void** data) {
  int fd = memfd_create("qnn_replay", 0);
  *data = NULL;
  if (fd < 0 || ftruncate(fd, (off_t)(size ? size : 1)) != 0) {
    fprintf(stderr, "cannot create shared memory: %s\n", strerror(errno));
    exit(3);
  }
  *data = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (*data == MAP_FAILED) { fprintf(stderr, "cannot map shared memory\n"); exit(3); }
  return fd;
}

MAYBE_UNUSED static void bindMapping(Qnn_MemHandle_t handle, void* data, size_t size, int fd) {
  MemMapping* grown = (MemMapping*)realloc(mappings, (numMappings + 1) * sizeof *mappings);
  if (!grown) { fprintf(stderr, "out of memory\n"); exit(3); }
  mappings = grown;
  mappings[numMappings].handle = handle;
  mappings[numMappings].data = data;
  mappings[numMappings].size = size;
  mappings[numMappings].fd = fd;
  ++numMappings;
}

MAYBE_UNUSED static MemMapping* mappingOf(Qnn_MemHandle_t handle) {
  size_t k;
  for (k = numMappings; k-- > 0;)
    if (mappings[k].handle == handle) return &mappings[k];
  return NULL;
}

MAYBE_UNUSED static void tensorMem(Qnn_Tensor_t* t, Qnn_MemHandle_t handle) {
  t->v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  t->v1.memHandle = handle;
}

/* Copies recorded input data into a registered buffer before an execute. */
MAYBE_UNUSED static void fillMem(Qnn_MemHandle_t handle, const void* data, size_t size) {
  MemMapping* m = mappingOf(handle);
  if (m && size <= m->size) memcpy(m->data, data, size);
}

/* replay_output/execute_<E>_output_<K>_<name>.raw: E counts the replayed
 * executes from 0, K is the output's position in the execute call. */
MAYBE_UNUSED static void saveOutputs(unsigned execute, const Qnn_Tensor_t* outputs, uint32_t n) {
  uint32_t k;
  mkdir("replay_output", 0777);
  for (k = 0; k < n; ++k) {
    char path[600], name[256];
    const char* src = outputs[k].v1.name ? outputs[k].v1.name : "";
    const void* data = outputs[k].v1.clientBuf.data;
    size_t size = outputs[k].v1.clientBuf.dataSize, i;
    FILE* f;
    for (i = 0; src[i] && i + 1 < sizeof name; ++i) {
      char c = src[i];
      name[i] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.') ? c : '_';
    }
    name[i] = 0;
    if (outputs[k].v1.memType == QNN_TENSORMEMTYPE_MEMHANDLE) {
      MemMapping* m = mappingOf(outputs[k].v1.memHandle);
      data = m ? m->data : NULL;
      size = m ? m->size : 0;
    }
    snprintf(path, sizeof path, "replay_output/execute_%u_output_%u_%s.raw", execute, (unsigned)k, name);
    f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size)) {
      fprintf(stderr, "cannot write %s\n", path);
      ++failures;
    }
    if (f) fclose(f);
  }
}

MAYBE_UNUSED static void freeOutputs(Qnn_Tensor_t* outputs, uint32_t n) {
  uint32_t k;
  for (k = 0; k < n; ++k)
    if (outputs[k].v1.memType == QNN_TENSORMEMTYPE_RAW) free(outputs[k].v1.clientBuf.data);
}

/* graphExecuteAsync: the notification is awaited before the next call. */
static volatile int asyncDone;
static volatile Qnn_ErrorHandle_t asyncStatus;
MAYBE_UNUSED static void notifyDone(void* param, Qnn_NotifyStatus_t status) {
  (void)param;
  asyncStatus = status.error;
  asyncDone = 1;
}
MAYBE_UNUSED static int waitAsync(int line, Qnn_ErrorHandle_t rc) {
  struct timespec pause = {0, 100000};
  if (!check(line, "graphExecuteAsync", rc)) return 0;
#if defined(__GNUC__)
  while (!__atomic_load_n(&asyncDone, __ATOMIC_ACQUIRE)) nanosleep(&pause, NULL);
#else
  while (!asyncDone) nanosleep(&pause, NULL);
#endif
  asyncDone = 0;
  return check(line, "graphExecuteAsync (notification)", asyncStatus);
}

MAYBE_UNUSED static const QnnDevice_PlatformInfo_t* platformInfo;
MAYBE_UNUSED static const char* verboseMessage;

static int loadParams(const char* path) {
  FILE* f = fopen(path, "rb");
  long size;
  if (!f) { fprintf(stderr, "cannot open %s (run from the directory that holds it, or pass --params)\n", path); return 0; }
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (size != (long)PARAMS_SIZE) {
    fprintf(stderr, "%s has %ld bytes, this program expects %llu\n", path, size, (unsigned long long)PARAMS_SIZE);
    fclose(f);
    return 0;
  }
  params = (uint8_t*)malloc(PARAMS_SIZE ? PARAMS_SIZE : 1);
  if (!params || (PARAMS_SIZE && fread(params, 1, PARAMS_SIZE, f) != PARAMS_SIZE)) {
    fprintf(stderr, "cannot read %s\n", path);
    fclose(f);
    return 0;
  }
  fclose(f);
  return 1;
}

typedef Qnn_ErrorHandle_t (*GetProvidersFn)(const QnnInterface_t***, uint32_t*);
typedef Qnn_ErrorHandle_t (*GetProvidersForApiFn)(uint32_t, uint32_t, const QnnInterface_t***, uint32_t*);

/* --backend LIB is dlopened. Without it the backend linked at build time is used, as the
 * vendor documents the build: cc saver_output.c -I<include/QNN> -L<lib> -lQnnCpu. The
 * reference to it must be a strong one (a weak one lets the linker's --as-needed drop the
 * library); -DSAVER_OUTPUT_NO_LINKED_BACKEND builds without one, and then --backend (or a
 * library already loaded that exports QnnInterface_getProviders) is required. */
static int loadBackend(const char* path) {
  void* lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : RTLD_DEFAULT;
  GetProvidersFn get = NULL;
  GetProvidersForApiFn getForApi = NULL;
  const QnnInterface_t** providers = NULL;
  uint32_t n = 0, k;
  if (path && !lib) { fprintf(stderr, "cannot load %s: %s\n", path, dlerror()); return 0; }
#ifndef SAVER_OUTPUT_NO_LINKED_BACKEND
  if (!path) get = QnnInterface_getProviders;
#endif
  if (!get) *(void**)&get = dlsym(lib, "QnnInterface_getProviders"); /* POSIX: data to function pointer */
  /* An OpenQNN library hands out the table of the headers this program was built with, whichever
   * API version they are; other backends (or a version it does not serve): their provider list. */
  *(void**)&getForApi = dlsym(lib, "OpenQnn_getProvidersForClientApi");
  if (!getForApi || getForApi(QNN_API_VERSION_MAJOR, QNN_API_VERSION_MINOR, &providers, &n) != QNN_SUCCESS) {
    n = 0;
    if (!get) {
      fprintf(stderr, path ? "%s exports no QnnInterface_getProviders\n"
                           : "no backend: pass --backend LIB or link one%s\n", path ? path : "");
      return 0;
    }
    if (get(&providers, &n) != QNN_SUCCESS) { fprintf(stderr, "QnnInterface_getProviders failed\n"); return 0; }
  }
  for (k = 0; k < n && !qnn; ++k)
    if (providers[k]->apiVersion.coreApiVersion.major == QNN_API_VERSION_MAJOR)
      qnn = &providers[k]->QNN_INTERFACE_VER_NAME;
  if (!qnn) fprintf(stderr, "the backend has no provider of QNN API %d.x\n", QNN_API_VERSION_MAJOR);
  return qnn != NULL;
}

static int parseLevel(const char* s) {
  static const char* const names[] = {"error", "warn", "info", "verbose", "debug"};
  int k;
  for (k = 0; k < 5; ++k)
    if (strcmp(s, names[k]) == 0) return k + 1;
  k = atoi(s);
  return k >= 1 && k <= 5 ? k : 0;
}

static void usage(const char* argv0) {
  fprintf(stderr,
          "usage: %s [--backend LIB] [--logging|-l error|warn|info|verbose|debug] [--params FILE]\n"
          "Replays the recorded QNN calls; execute outputs go to replay_output/.\n", argv0);
}

static void replayAll(void);
static void releaseReplay(void); /* frees what the generated calls kept */

static void releaseHelpers(void) {
  size_t k;
  for (k = 0; k < numMappings; ++k) {
    munmap(mappings[k].data, mappings[k].size ? mappings[k].size : 1);
    close(mappings[k].fd);
  }
  free(mappings);
  free(tensorIds.pairs);
  free(powerIds.pairs);
}

int main(int argc, char** argv) {
  const char* backend = NULL;
  const char* paramsPath = PARAMS_FILE;
  int k;
  for (k = 1; k < argc; ++k) {
    if ((!strcmp(argv[k], "--backend") || !strcmp(argv[k], "-b")) && k + 1 < argc) {
      backend = argv[++k];
    } else if ((!strcmp(argv[k], "--logging") || !strcmp(argv[k], "-l")) && k + 1 < argc) {
      logLevelOverride = parseLevel(argv[++k]);
      if (!logLevelOverride) { fprintf(stderr, "unknown log level '%s'\n", argv[k]); return 2; }
    } else if (!strcmp(argv[k], "--params") && k + 1 < argc) {
      paramsPath = argv[++k];
    } else {
      usage(argv[0]);
      return !strcmp(argv[k], "--help") || !strcmp(argv[k], "-h") ? 0 : 2;
    }
  }
  if (!loadBackend(backend) || !loadParams(paramsPath)) return 2;
  if (logLevelOverride && qnn->logCreate &&
      qnn->logCreate(logToStderr, (QnnLog_Level_t)logLevelOverride, &commandLineLogger) != QNN_SUCCESS)
    commandLineLogger = NULL;
  replayAll();
  if (commandLineLogger && qnn->logFree) qnn->logFree(commandLineLogger);
  releaseReplay();
  releaseHelpers();
  free(params);
  if (failures) fprintf(stderr, "%d call(s) failed\n", failures);
  return failures ? 1 : 0;
}
)PRELUDE";

}  // namespace

std::string cPrelude(const PreludeParts& parts) {
  std::string text = kHead;
  if (parts.errorMessages) text += kErrorMessage;
  text += kHelpers;
  if (parts.binaryCallbacks) text += kBinaryCallbacks;
  if (parts.listLoads) text += kListLoads;
  return text + kTail;
}

}  // namespace qnn::trace::cgen
