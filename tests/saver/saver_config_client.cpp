// A QNN client for the Saver tests that uses what saver_client does not:
// backend/context/graph/signal configs (with a backend custom config payload),
// a log callback, a profile handle (bound in a graph config: continuous profiling), a
// signal, and memory registered from memfds for the input and output tensors.
// It builds out = in + c (1x8 float), executes twice and then once
// asynchronously with different inputs, and writes the outputs to OUTPUTS.bin. Through the Saver, it also checks that a
// graph of a freed context and a profile of a freed backend are refused.
// Exit 0 when every call succeeded.
// Usage: saver_config_client BACKEND.so OUTPUTS.bin SAVER_DIR [cpu|htp]
//   cpu: Saver backend id CPU, a QnnCpuGraph_CustomConfig_t graph config
//   htp: Saver backend id HTP, a QnnHtpGraph_CustomConfig_t and a 2.39 HTP device option (record only)
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>

#include "CPU/QnnCpuGraph.h"
#include "HTP/QnnHtpCommon.h"
#include "HTP/QnnHtpDevice.h"
#include "HTP/QnnHtpGraph.h"
#include "Saver/QnnSaver.h"
#include "tests/api/backend_loader.h"

using namespace qnn::test;

namespace {

constexpr uint32_t kN = 8;
int failures = 0;

void check(Qnn_ErrorHandle_t rc, const char* what) {
  if (rc != QNN_SUCCESS) {
    std::fprintf(stderr, "saver_config_client: %s failed: %llu\n", what, (unsigned long long)rc);
    ++failures;
  }
}

void logCallback(const char*, QnnLog_Level_t, uint64_t, va_list) {}

Qnn_ErrorHandle_t opDebug(Qnn_OpConfig_t*, void*) { return QNN_SUCCESS; }

struct SharedFloats {
  int fd = -1;
  float* data = nullptr;
  SharedFloats() {
    fd = memfd_create("saver_config_client", 0);
    if (fd < 0 || ftruncate(fd, kN * 4) != 0) return;
    void* p = mmap(nullptr, kN * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    data = p == MAP_FAILED ? nullptr : static_cast<float*>(p);
  }
  ~SharedFloats() {
    if (data) munmap(data, kN * 4);
    if (fd >= 0) close(fd);
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: saver_config_client BACKEND.so OUTPUTS.bin SAVER_DIR [cpu|htp]\n");
    return 2;
  }
  bool htp = argc > 4 && std::string(argv[4]) == "htp";
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  using Init = Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**);
  if (!lib) return 3;
  auto init = reinterpret_cast<Init>(dlsym(lib, "QnnSaver_initialize"));  // absent: a direct run
  QnnSaver_Config_t dir = QNN_SAVER_CONFIG_INIT, id = QNN_SAVER_CONFIG_INIT, files = QNN_SAVER_CONFIG_INIT;
  dir.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
  dir.outputDirectory = argv[3];
  id.option = QNN_SAVER_CONFIG_OPTION_BACKEND_ID;
  id.backendId = htp ? QNN_BACKEND_ID_HTP : QNN_BACKEND_ID_CPU;
  files.option = QNN_SAVER_CONFIG_OPTION_FILE_CONFIG;
  files.fileConfig.modelFileName = "replay.c";
  files.fileConfig.dataFileName = "replay_params.bin";
  const QnnSaver_Config_t* cfg[] = {&dir, &id, &files, nullptr};
  if (init) check(init(cfg), "QnnSaver_initialize");

  LoadedBackend backendLib(argv[1]);
  if (!backendLib.ok()) return 3;
  const QNN_INTERFACE_VER_TYPE& api = backendLib.api();
  Qnn_LogHandle_t logger = nullptr;
  check(api.logCreate(logCallback, QNN_LOG_LEVEL_WARN, &logger), "logCreate");
  QnnBackend_Config_t errors = QNN_BACKEND_CONFIG_INIT;
  errors.option = QNN_BACKEND_CONFIG_OPTION_ERROR_REPORTING;
  errors.errorConfig.reportingLevel = QNN_ERROR_REPORTING_LEVEL_BRIEF;
  errors.errorConfig.storageLimit = 64;
  const QnnBackend_Config_t* backendCfg[] = {&errors, nullptr};
  Qnn_BackendHandle_t backend = nullptr;
  check(api.backendCreate(logger, backendCfg, &backend), "backendCreate");
  Qnn_ProfileHandle_t profile = nullptr;
  check(api.profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &profile), "profileCreate");
  QnnProfile_Config_t maxEvents = QNN_PROFILE_CONFIG_INIT;
  maxEvents.option = QNN_PROFILE_CONFIG_OPTION_MAX_EVENTS;
  maxEvents.numMaxEvents = 1000;
  const QnnProfile_Config_t* profileCfg[] = {&maxEvents, nullptr};
  check(api.profileSetConfig(profile, profileCfg), "profileSetConfig");
  QnnGlobalConfig_t soc = QNN_GLOBAL_CONFIG_INIT;
  soc.option = QNN_GLOBAL_CONFIG_OPTION_SOC_MODEL;
  soc.socModel = QNN_SOC_MODEL_SM8550;
  const QnnGlobalConfig_t* globalCfg[] = {&soc, nullptr};
  check(api.globalConfigSet(globalCfg), "globalConfigSet");
  QnnSignal_Config_t timeout = QNN_SIGNAL_CONFIG_INIT;
  timeout.option = QNN_SIGNAL_CONFIG_OPTION_TIMEOUT;
  timeout.timeoutDurationUs = 5000000;
  const QnnSignal_Config_t* signalCfg[] = {&timeout, nullptr};
  Qnn_SignalHandle_t signal = nullptr;
  check(api.signalCreate(backend, signalCfg, &signal), "signalCreate");
  QnnContext_Config_t priority = QNN_CONTEXT_CONFIG_INIT;
  priority.option = QNN_CONTEXT_CONFIG_OPTION_PRIORITY;
  priority.priority = QNN_PRIORITY_HIGH;
  QnnContext_Config_t memoryHint = QNN_CONTEXT_CONFIG_INIT, retention = QNN_CONTEXT_CONFIG_INIT;
  memoryHint.option = QNN_CONTEXT_CONFIG_MEMORY_LIMIT_HINT;
  memoryHint.memoryLimitHint = 256;
  const char* retentionOrder[] = {"main", "spare", nullptr};
  retention.option = QNN_CONTEXT_CONFIG_GRAPH_RETENTION_ORDER;
  retention.graphRetentionOrder = retentionOrder;
  if (htp) {  // an HTP device option of API 2.39, in that version's 24-byte layout (payload at offset 8)
    struct {
      QnnHtpDevice_ConfigOption_t option;
      uint32_t padding, appUid, rest[3];
    } appUid{QNN_HTP_DEVICE_CONFIG_OPTION_APP_UID, 0, 10123, {0, 0, 0}};
    QnnDevice_Config_t deviceCustom = QNN_DEVICE_CONFIG_INIT;
    deviceCustom.option = QNN_DEVICE_CONFIG_OPTION_CUSTOM;
    deviceCustom.customConfig = &appUid;
    const QnnDevice_Config_t* deviceCfg[] = {&deviceCustom, nullptr};
    Qnn_DeviceHandle_t device = nullptr;
    check(api.deviceCreate(logger, deviceCfg, &device), "deviceCreate");
    check(api.deviceFree(device), "deviceFree");
  }
  const QnnContext_Config_t* contextCfg[] = {&priority, &memoryHint, &retention, nullptr};
  Qnn_ContextHandle_t ctx = nullptr;
  check(api.contextCreate(backend, nullptr, contextCfg, &ctx), "contextCreate");

  QnnCpuGraph_CustomConfig_t cpuCustom;
  std::memset(&cpuCustom, 0, sizeof cpuCustom);
  cpuCustom.option = QNN_CPU_GRAPH_CONFIG_OPTION_OP_DEBUG_CALLBACK;
  cpuCustom.cpuGraphOpDebug.cpuGraphOpDebugCallback = opDebug;
  QnnHtpGraph_CustomConfig_t htpCustom;
  std::memset(&htpCustom, 0, sizeof htpCustom);
  htpCustom.option = QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE;
  htpCustom.vtcmSizeInMB = 4;
  QnnGraph_Config_t custom = QNN_GRAPH_CONFIG_INIT, graphPriority = QNN_GRAPH_CONFIG_INIT,
                    graphProfile = QNN_GRAPH_CONFIG_INIT;
  custom.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
  custom.customConfig = htp ? static_cast<void*>(&htpCustom) : static_cast<void*>(&cpuCustom);
  graphPriority.option = QNN_GRAPH_CONFIG_OPTION_PRIORITY;
  graphPriority.priority = QNN_PRIORITY_LOW;
  graphProfile.option = QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE;
  graphProfile.profileHandle = profile;
  QnnGraph_Config_t profiledRuns = QNN_GRAPH_CONFIG_INIT;
  profiledRuns.option = QNN_GRAPH_CONFIG_OPTION_SET_PROFILING_NUM_EXECUTIONS;
  profiledRuns.numProfilingExecutions = 100;
  const QnnGraph_Config_t* graphCfg[] = {&custom, &graphPriority, &graphProfile, &profiledRuns, nullptr};
  Qnn_GraphHandle_t g = nullptr;
  check(api.graphCreate(ctx, "add_const", graphCfg, &g), "graphCreate");

  float constant[kN] = {0.5f, -1.f, 2.f, 3.25f, -4.f, 5.5f, 6.f, -7.75f};
  TensorSpec in("in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kN});
  TensorSpec c("c", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {1, kN}, constant, sizeof constant);
  TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kN});
  for (TensorSpec* t : {&in, &c, &out}) check(api.tensorCreateGraphTensor(g, &t->tensor), "tensorCreateGraphTensor");
  Qnn_Tensor_t addIn[] = {in.tensor, c.tensor};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"add0", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &out.tensor};
  check(api.graphAddNode(g, op), "graphAddNode");
  // The profile is bound to the graph (continuous profiling): the calls pass none of their own.
  check(api.graphFinalize(g, nullptr, nullptr), "graphFinalize");
  // The CPU backend defines no custom context property: the same answer directly
  // and through the Saver (forwarding or not).
  uint64_t opaque = 0;
  QnnContext_Property_t property = QNN_CONTEXT_PROPERTY_INIT;
  property.option = QNN_CONTEXT_PROPERTY_OPTION_CUSTOM;
  property.customProperty = &opaque;
  QnnContext_Property_t* properties[] = {&property, nullptr};
  if (api.contextGetProperty(ctx, properties) != QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE) check(1, "contextGetProperty");

  SharedFloats inMem, outMem;
  if (!inMem.data || !outMem.data) return 3;
  uint32_t dims[] = {1, kN};
  Qnn_MemDescriptor_t desc[2] = {QNN_MEM_DESCRIPTOR_INIT, QNN_MEM_DESCRIPTOR_INIT};
  for (int k = 0; k < 2; ++k) {
    desc[k].memShape = {2, dims, nullptr};
    desc[k].dataType = QNN_DATATYPE_FLOAT_32;
  }
  // The input as a dma-buf (the Saver records what it holds at each execute), the output as ION.
  desc[0].memType = QNN_MEM_TYPE_DMA_BUF;
  desc[0].dmaBufInfo = {inMem.fd, inMem.data};
  desc[1].memType = QNN_MEM_TYPE_ION;
  desc[1].ionInfo.fd = outMem.fd;
  Qnn_MemHandle_t mem[2] = {nullptr, nullptr};
  check(api.memRegister(ctx, desc, 2, mem), "memRegister");
  Qnn_Tensor_t inT = in.tensor, outT = out.tensor;
  inT.v1.memType = outT.v1.memType = QNN_TENSORMEMTYPE_MEMHANDLE;
  inT.v1.memHandle = mem[0];
  outT.v1.memHandle = mem[1];
  float results[3 * kN];
  for (int run = 0; run < 3; ++run) {
    for (uint32_t k = 0; k < kN; ++k) inMem.data[k] = float(k) * (run == 0 ? 0.25f : run == 1 ? -1.5f : 3.f);
    std::memset(outMem.data, 0, kN * 4);
    if (run < 2) {
      check(api.graphExecute(g, &inT, 1, &outT, 1, nullptr, signal), "graphExecute");
    } else {
      std::atomic<int> done{0};
      auto notify = [](void* param, Qnn_NotifyStatus_t) { static_cast<std::atomic<int>*>(param)->store(1); };
      check(api.graphExecuteAsync(g, &inT, 1, &outT, 1, nullptr, nullptr, notify, &done), "graphExecuteAsync");
      while (!done.load()) usleep(100);
    }
    std::memcpy(results + run * kN, outMem.data, kN * 4);
  }
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t numEvents = 0;
  check(api.profileGetEvents(profile, &events, &numEvents), "profileGetEvents");
  if (numEvents > 0) {  // none when the Saver only records
    QnnProfile_ExtendedEventData_t extended = QNN_PROFILE_EXTENDED_EVENT_DATA_INIT;
    check(api.profileGetExtendedEventData(events[0], &extended), "profileGetExtendedEventData");
  }
  check(api.memDeRegister(mem, 2), "memDeRegister");
  check(api.signalFree(signal), "signalFree");
  Qnn_ProfileHandle_t leftOver = nullptr;  // freed with its backend
  check(api.profileCreate(backend, QNN_PROFILE_LEVEL_BASIC, &leftOver), "profileCreate");
  check(api.contextFree(ctx, nullptr), "contextFree");
  check(api.profileFree(profile), "profileFree");
  check(api.backendFree(backend), "backendFree");
  if (init) {
    // The Saver drops a freed object's children with it, whether or not it forwards.
    if (api.graphFinalize(g, nullptr, nullptr) != QNN_GRAPH_ERROR_INVALID_HANDLE) check(1, "graph of a freed context");
    const QnnProfile_EventId_t* none = nullptr;
    if (api.profileGetEvents(leftOver, &none, &numEvents) != QNN_PROFILE_ERROR_INVALID_HANDLE)
      check(1, "profile of a freed backend");
  }
  check(api.logFree(logger), "logFree");
  std::FILE* f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(results, 4, 3 * kN, f) != 3 * kN) return 4;
  std::fclose(f);
  return failures == 0 ? 0 : 1;
}
