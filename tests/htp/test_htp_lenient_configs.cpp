// Where the vendor's HTP backend is lenient, ours is too (docs/compatibility.md,
// "Configs, properties and queries"): meaningful out-of-range values are clamped
// with a warning, a SoC config overrides a conflicting arch config, the HVX
// thread count may change until the first execution, and every graph option of
// the 2.32 headers is accepted. Each test is one row of that table.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "HTP/QnnHtpPerfInfrastructure.h"
#include "HTP/QnnHtpProfile.h"
#include "tests/htp/htp_test_util.h"

namespace qnn::test {
namespace {

class HtpLenientTest : public HtpTest {
 protected:
  void SetUp() override {
    HtpTest::SetUp();
    // Warnings are what these tests look for.
    ASSERT_EQ(api().logSetLogLevel(log, QNN_LOG_LEVEL_WARN), QNN_SUCCESS);
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
    LogCapture::take();
  }
  void TearDown() override {
    if (ctx) {
      EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    }
    HtpTest::TearDown();
  }

  // Relu on 4 floats in an fp16 graph with these configs, finalized.
  Qnn_ErrorHandle_t buildRelu(const char* name, std::vector<QnnHtpGraph_CustomConfig_t> customs, Qnn_GraphHandle_t* g) {
    customs.push_back(precisionConfig(QNN_PRECISION_FLOAT16));
    Qnn_ErrorHandle_t rc = makeGraph(ctx, name, customs, g);
    if (rc != QNN_SUCCESS) return rc;
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
    TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
    EXPECT_EQ(api().tensorCreateGraphTensor(*g, &in.tensor), QNN_SUCCESS);
    EXPECT_EQ(api().tensorCreateGraphTensor(*g, &out.tensor), QNN_SUCCESS);
    inId = in.tensor.v1.id;
    outId = out.tensor.v1.id;
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
    EXPECT_EQ(api().graphAddNode(*g, op), QNN_SUCCESS);
    return api().graphFinalize(*g, nullptr, nullptr);
  }

  // Runs the Relu graph once: checks the output, returns the HVX thread count the
  // execution used and the accelerator-time description.
  uint64_t runAndReadHvxThreads(Qnn_GraphHandle_t g, std::string* setup = nullptr) {
    float x[4] = {-1.5f, 0.f, 2.25f, -0.5f}, y[4] = {9, 9, 9, 9};
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4}, x, sizeof x);
    TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4}, y, sizeof y);
    in.tensor.v1.id = inId;
    out.tensor.v1.id = outId;
    Qnn_ProfileHandle_t prof = nullptr;
    EXPECT_EQ(api().profileCreate(backend, QNN_PROFILE_LEVEL_DETAILED, &prof), QNN_SUCCESS);
    EXPECT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, prof, nullptr), QNN_SUCCESS) << LogCapture::take();
    const float want[4] = {0.f, 0.f, 2.25f, 0.f};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], want[i]) << i;
    uint64_t threads = 0;
    for (const auto& e : profileEvents(api(), prof)) {
      if (e.type == QNN_HTP_PROFILE_EVENTTYPE_GRAPH_NUMBER_OF_HVX_THREADS) threads = e.value;
      if (setup && e.type == QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_ACCEL_TIME_CYCLE) *setup = e.identifier;
    }
    EXPECT_EQ(api().profileFree(prof), QNN_SUCCESS);
    return threads;
  }

  Qnn_ErrorHandle_t setGraphConfig(Qnn_GraphHandle_t g, QnnHtpGraph_CustomConfig_t custom) {
    QnnGraph_Config_t config = QNN_GRAPH_CONFIG_INIT;
    config.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
    config.customConfig = &custom;
    const QnnGraph_Config_t* list[] = {&config, nullptr};
    return api().graphSetConfig(g, list);
  }

  // The HTP perf infrastructure (QnnDevice_getInfrastructure).
  const QnnHtpDevice_PerfInfrastructure_t& perfInfra() {
    QnnDevice_Infrastructure_t infra = nullptr;
    EXPECT_EQ(api().deviceGetInfrastructure(&infra), QNN_SUCCESS);
    return reinterpret_cast<QnnHtpDevice_Infrastructure_t*>(infra)->perfInfra;
  }

  // A DCVS V3 vote on power config id 0 of only the core corners.
  static QnnHtpPerfInfrastructure_PowerConfig_t coreVote(QnnHtpPerfInfrastructure_VoltageCorner_t min,
                                                         QnnHtpPerfInfrastructure_VoltageCorner_t target,
                                                         QnnHtpPerfInfrastructure_VoltageCorner_t max) {
    QnnHtpPerfInfrastructure_PowerConfig_t c{};  // the C INIT macro does not compile as C++
    c.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3;
    c.dcvsV3Config.contextId = 0;
    c.dcvsV3Config.setCoreParams = 1;
    c.dcvsV3Config.coreVoltageCornerMin = min;
    c.dcvsV3Config.coreVoltageCornerTarget = target;
    c.dcvsV3Config.coreVoltageCornerMax = max;
    return c;
  }

  Qnn_ContextHandle_t ctx = nullptr;
  uint32_t inId = 0, outId = 0;
};

QnnHtpGraph_CustomConfig_t option(QnnHtpGraph_ConfigOption_t o) {
  QnnHtpGraph_CustomConfig_t c{};
  c.option = o;
  return c;
}

// The configs an open-source LLM runtime passes to every graph (issue "Behave as
// the vendor's backends do"): 8 HVX threads on a V73 with 6, DLBC, the finalize
// optimization flag, fp16, VTCM. The graph is created and runs on the 6 threads.
TEST_F(HtpLenientTest, LlmRuntimeGraphConfigsRunClampedToTheDevice) {
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(buildRelu("llm", {hvxThreadsConfig(8), optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_DLBC, 1.f),
                              optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG, 3.f),
                              vtcmConfig(8)},
                      &g),
            QNN_SUCCESS)
      << LogCapture::take();
  std::string log = LogCapture::take();
  EXPECT_NE(log.find("QnnGraph_create: HTP graph config: 8 HVX threads exceed the 6 of HTP V73; using 6"),
            std::string::npos)
      << log;
  EXPECT_EQ(runAndReadHvxThreads(g), 6u);
}

TEST_F(HtpLenientTest, HvxThreadsZeroIsTheDefault) {
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(buildRelu("hvx0", {hvxThreadsConfig(0)}, &g), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(LogCapture::take(), "");
  EXPECT_EQ(runAndReadHvxThreads(g), 6u);
}

// QnnHtpGraph.h: the HVX thread count may be set until the first execution and
// is not applied afterwards (the call still succeeds).
TEST_F(HtpLenientTest, HvxThreadsChangeUntilTheFirstExecution) {
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(buildRelu("hvx", {hvxThreadsConfig(2)}, &g), QNN_SUCCESS) << LogCapture::take();
  ASSERT_EQ(setGraphConfig(g, hvxThreadsConfig(4)), QNN_SUCCESS);  // finalized, not run yet
  EXPECT_EQ(LogCapture::take(), "");
  EXPECT_EQ(runAndReadHvxThreads(g), 4u);
  ASSERT_EQ(setGraphConfig(g, hvxThreadsConfig(1)), QNN_SUCCESS);
  std::string log = LogCapture::take();
  EXPECT_NE(log.find("QnnGraph_setConfig: HTP graph config: the number of HVX threads is fixed at the first "
                     "execution; 1 is not applied"),
            std::string::npos)
      << log;
  EXPECT_EQ(runAndReadHvxThreads(g), 4u);
}

// VTCM: 0 is QNN_HTP_GRAPH_CONFIG_OPTION_MAX; more than the device has is
// clamped to it (the TFLite delegate header states both), in MB and in bytes.
TEST_F(HtpLenientTest, VtcmZeroIsAllAndTooMuchIsClamped) {
  Qnn_DeviceHandle_t v68 = nullptr;
  ASSERT_EQ(makeDevice({archConfig(QNN_HTP_DEVICE_ARCH_V68)}, &v68), QNN_SUCCESS);
  Qnn_ContextHandle_t ctx68 = nullptr;
  ASSERT_EQ(api().contextCreate(backend, v68, nullptr, &ctx68), QNN_SUCCESS);
  std::swap(ctx, ctx68);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(makeGraph(ctx, "vtcm8", {vtcmConfig(8)}, &g), QNN_SUCCESS);
  std::string log = LogCapture::take();
  EXPECT_NE(log.find("VTCM size 8 MB exceeds the 4 MB of HTP V68; using 4 MB"), std::string::npos) << log;
  QnnHtpGraph_CustomConfig_t bytes = option(QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE_IN_BYTES);
  bytes.vtcmSizeInBytes = 1u << 30;
  ASSERT_EQ(makeGraph(ctx, "vtcm1g", {bytes}, &g), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("VTCM size 1073741824 bytes exceeds the 4 MB"), std::string::npos);
  std::swap(ctx, ctx68);

  std::string setup;
  ASSERT_EQ(buildRelu("vtcm0", {vtcmConfig(QNN_HTP_GRAPH_CONFIG_OPTION_MAX)}, &g), QNN_SUCCESS);
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("8 MB VTCM"), std::string::npos) << setup;
  bytes.vtcmSizeInBytes = 3u << 20;
  ASSERT_EQ(buildRelu("vtcm3", {bytes}, &g), QNN_SUCCESS);
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("3 MB VTCM"), std::string::npos) << setup;
  EXPECT_EQ(LogCapture::take(), "");
  EXPECT_EQ(api().contextFree(ctx68, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(v68), QNN_SUCCESS);
}

// A SoC whose VTCM is smaller than its architecture's (SSG2115P: V73 with 2 MB) clamps to its own,
// and HMX bounding, refused before V81, is taken on a V81 device (SM8850).
TEST_F(HtpLenientTest, SocVtcmAndV81HmxBounding) {
  Qnn_DeviceHandle_t ssg = nullptr, sm8850 = nullptr;
  ASSERT_EQ(makeDevice({socConfig(46)}, &ssg), QNN_SUCCESS);
  ASSERT_EQ(makeDevice({socConfig(87)}, &sm8850), QNN_SUCCESS);
  Qnn_ContextHandle_t ctxSsg = nullptr, ctx81 = nullptr;
  ASSERT_EQ(api().contextCreate(backend, ssg, nullptr, &ctxSsg), QNN_SUCCESS);
  ASSERT_EQ(api().contextCreate(backend, sm8850, nullptr, &ctx81), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(makeGraph(ctxSsg, "vtcm4", {vtcmConfig(4)}, &g), QNN_SUCCESS);
  std::string log = LogCapture::take();
  EXPECT_NE(log.find("VTCM size 4 MB exceeds the 2 MB of HTP V73; using 2 MB"), std::string::npos) << log;
  QnnHtpGraph_CustomConfig_t hmx = option(QNN_HTP_GRAPH_CONFIG_OPTION_HMX_BOUNDING);
  hmx.hmxBoundingInfo = {1.0e9f, 1.2e9f};
  EXPECT_EQ(makeGraph(ctxSsg, "hmx73", {hmx}, &g), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  log = LogCapture::take();
  EXPECT_NE(log.find("HMX bounding needs an HTP V81 or later; the device is HTP V73"), std::string::npos) << log;
  EXPECT_EQ(makeGraph(ctx81, "hmx81", {hmx}, &g), QNN_SUCCESS) << LogCapture::take();
  hmx.hmxBoundingInfo.targetHmxFreqHz = -1.f;
  EXPECT_EQ(makeGraph(ctx81, "hmx81bad", {hmx}, &g), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  log = LogCapture::take();
  EXPECT_NE(log.find("HMX bounding frequencies must be non-negative"), std::string::npos) << log;
  EXPECT_EQ(api().contextFree(ctxSsg, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx81, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(ssg), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(sm8850), QNN_SUCCESS);
}

// "If both SOC and ARCH are given, the backend uses the SoC and ignores the
// arch" (reference guide), with a warning, in either order.
TEST_F(HtpLenientTest, SocConfigOverridesAConflictingArch) {
  for (bool socFirst : {true, false}) {
    Qnn_DeviceHandle_t dev = nullptr;
    auto soc = socConfig(43), arch = archConfig(QNN_HTP_DEVICE_ARCH_V68);  // SM8550 is V73
    ASSERT_EQ(makeDevice(socFirst ? std::vector{soc, arch} : std::vector{arch, soc}, &dev), QNN_SUCCESS);
    std::string log = LogCapture::take();
    EXPECT_NE(log.find("QnnDevice_create: HTP device config: arch V68"), std::string::npos) << log;
    const QnnDevice_PlatformInfo_t* info = nullptr;
    ASSERT_EQ(api().deviceGetInfo(dev, &info), QNN_SUCCESS);
    auto* ext = reinterpret_cast<const QnnHtpDevice_DeviceInfoExtension_t*>(info->v1.hwDevices[0].v1.deviceInfoExtension);
    ASSERT_NE(ext, nullptr);
    EXPECT_EQ(ext->onChipDevice.arch, QNN_HTP_DEVICE_ARCH_V73) << socFirst;
    EXPECT_EQ(ext->onChipDevice.socModel, 43u);
    EXPECT_EQ(ext->onChipDevice.vtcmSize, 8u);
    EXPECT_EQ(api().deviceFree(dev), QNN_SUCCESS);
  }
}

// The device options API 2.39 added (QnnHtpDeviceConfigShared.h): accepted for device 0, each
// logging why it changes nothing off a device; another device id is refused. They arrive in 2.39's
// 24-byte layout (payload at offset 8), which include/QNN's 2.32 struct does not hold.
TEST_F(HtpLenientTest, DeviceOptionsOfApi239) {
  auto device = [&](const void* custom) {
    QnnDevice_Config_t config{};
    config.option = QNN_DEVICE_CONFIG_OPTION_CUSTOM;
    config.customConfig = const_cast<void*>(custom);
    const QnnDevice_Config_t* list[] = {&config, nullptr};
    Qnn_DeviceHandle_t dev = nullptr;
    Qnn_ErrorHandle_t rc = api().deviceCreate(log, list, &dev);
    if (rc == QNN_SUCCESS) { EXPECT_EQ(api().deviceFree(dev), QNN_SUCCESS); }
    return rc;
  };
  // Options 4-6 exist only in 2.39's headers: their configs come in 2.39's 24-byte layout.
  struct Config239 {
    QnnHtpDevice_ConfigOption_t option;
    union {
      QnnHtpDevice_AsyncExecute_t asyncExecute;
      QnnHtpDevice_UseDynamicPartitioning_t useDynamicPartitioning;
      uint32_t appUid;
    };
  };
  static_assert(offsetof(Config239, asyncExecute) == 8 && sizeof(Config239) == 24, "2.39 layout");
  Config239 async{};
  async.option = QNN_HTP_DEVICE_CONFIG_OPTION_ASYNC_EXECUTE;
  async.asyncExecute = {0, true};
  EXPECT_EQ(device(&async), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("ASYNC_EXECUTE accepted with no effect"), std::string::npos);
  async.asyncExecute.deviceId = 1;
  EXPECT_NE(device(&async), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("async execute for device 1, which does not exist"), std::string::npos);

  Config239 uid{};
  uid.option = QNN_HTP_DEVICE_CONFIG_OPTION_APP_UID;
  uid.appUid = 10123;
  EXPECT_EQ(device(&uid), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("APP_UID 10123 recorded with no effect"), std::string::npos);

  QnnHtpDevice_CustomConfig_t ext{};
  ext.option = QNN_HTP_DEVICE_CONFIG_OPTION_HTP_EXTENSION;
  EXPECT_EQ(device(&ext), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("HTP_EXTENSION accepted and ignored"), std::string::npos);

  Config239 dynamic{};
  dynamic.option = QNN_HTP_DEVICE_CONFIG_OPTION_DYNAMIC_PARTITIONING;
  dynamic.useDynamicPartitioning = {0, true, nullptr};
  EXPECT_EQ(device(&dynamic), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("DYNAMIC_PARTITIONING accepted with no effect"), std::string::npos);
  dynamic.useDynamicPartitioning.deviceId = 2;
  EXPECT_NE(device(&dynamic), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("dynamic partitioning for device 2"), std::string::npos);

  // A SOC config built with 2.39 headers (value-initialized: padding at 4..7, the SoC at offset 8)
  // configures the device as the 2.32 one does.
  struct {
    QnnHtpDevice_ConfigOption_t option;
    uint32_t padding;
    uint32_t socModel;
    uint32_t rest[3];
  } soc239{QNN_HTP_DEVICE_CONFIG_OPTION_SOC, 0, 43, {0, 0, 0}};  // SM8550, V73
  static_assert(sizeof(soc239) == 24, "2.39 layout");
  QnnDevice_Config_t config{};
  config.option = QNN_DEVICE_CONFIG_OPTION_CUSTOM;
  config.customConfig = &soc239;
  const QnnDevice_Config_t* list[] = {&config, nullptr};
  Qnn_DeviceHandle_t dev = nullptr;
  ASSERT_EQ(api().deviceCreate(log, list, &dev), QNN_SUCCESS) << LogCapture::take();
  const QnnDevice_PlatformInfo_t* info = nullptr;
  ASSERT_EQ(api().deviceGetInfo(dev, &info), QNN_SUCCESS);
  auto* chip = reinterpret_cast<const QnnHtpDevice_DeviceInfoExtension_t*>(info->v1.hwDevices[0].v1.deviceInfoExtension);
  ASSERT_NE(chip, nullptr);
  EXPECT_EQ(chip->onChipDevice.socModel, 43u);
  EXPECT_EQ(chip->onChipDevice.arch, QNN_HTP_DEVICE_ARCH_V73);
  EXPECT_EQ(api().deviceFree(dev), QNN_SUCCESS);

  // An ARCH config built with 2.39 headers (deviceId at 8, arch at 12) reads as 2.32's arch NONE:
  // accepted, with a line saying so.
  struct {
    QnnHtpDevice_ConfigOption_t option;
    uint32_t padding;
    QnnHtpDevice_Minimum_Arch_t arch;
    uint32_t rest[2];
  } arch239{QNN_HTP_DEVICE_CONFIG_OPTION_ARCH, 0, {0, QNN_HTP_DEVICE_ARCH_V75}, {0, 0}};
  static_assert(sizeof(arch239) == 24, "2.39 layout");
  EXPECT_EQ(device(&arch239), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("built with API 2.39 headers, its arch at offset 12"), std::string::npos);

  // V89 is declared (API 2.39) but, like V85, has no public parameters the simulator could model.
  QnnHtpDevice_CustomConfig_t v89 = archConfig(QNN_HTP_DEVICE_ARCH_V89);
  EXPECT_NE(device(&v89), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("HTP architecture 89 is not one of"), std::string::npos);
}

// Every QnnHtpGraph_ConfigOption_t of the 2.32 headers and the 2.39 additions (options 18-20,
// optimization types 8-9) is accepted or refused for a documented reason; malformed structs are
// refused with their reason.
TEST_F(HtpLenientTest, EveryGraphOptionOfTheNewestHeaders) {
  Qnn_GraphHandle_t g = nullptr;
  QnnHtpGraph_CustomConfig_t finalize = option(QNN_HTP_GRAPH_CONFIG_OPTION_FINALIZE_CONFIG);
  finalize.finalizeConfig.key = "P";  // ONNX Runtime's HTP performance point
  finalize.finalizeConfig.value.dataType = QNN_DATATYPE_INT_32;
  finalize.finalizeConfig.value.int32Value = 3;
  QnnHtpGraph_CustomConfig_t cores = option(QNN_HTP_GRAPH_CONFIG_OPTION_NUM_CORES);
  cores.numCores = 2;
  QnnHtpGraph_CustomConfig_t parallel = option(QNN_HTP_GRAPH_CONFIG_OPTION_PARALLEL_GRAPH_EXECUTION_CONFIG);
  parallel.parallelGraphExecutionConfig.concurrency = QNN_HTP_GRAPH_CONCURRENCY_OPTION_ALL_SHARED;
  parallel.parallelGraphExecutionConfig.vtcmConfig = {3u << 20, 1u << 20, 7u << 20, {0, 0, 0}};
  std::vector<QnnHtpGraph_CustomConfig_t> accepted = {finalize, cores, parallel};
  for (auto o : {QNN_HTP_GRAPH_CONFIG_OPTION_FOLD_RELU_ACTIVATION_INTO_CONV_OFF,
                 QNN_HTP_GRAPH_CONFIG_OPTION_SHORT_DEPTH_CONV_ON_HMX_OFF, QNN_HTP_GRAPH_CONFIG_OPTION_WEIGHTS_PACKING,
                 QNN_HTP_GRAPH_CONFIG_OPTION_ASSUME_SAME_QUANT, QNN_HTP_GRAPH_CONFIG_OPTION_SHARE_IO_BUFFER,
                 QNN_HTP_GRAPH_CONFIG_OPTION_ADVANCED_ACTIVATION_FUSION,
                 QNN_HTP_GRAPH_CONFIG_OPTION_HIGH_PRECISION_SIGMOID, QNN_HTP_GRAPH_CONFIG_OPTION_MONOLITHIC_LSTM,
                 QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION_COMPENSATION, QNN_HTP_GRAPH_CONFIG_OPTION_ENABLE_PREDICATION,
                 QNN_HTP_GRAPH_CONFIG_OPTION_FP16_CLAMP_OVERFLOW}) {
    QnnHtpGraph_CustomConfig_t c = option(o);
    c.weightsPacking = true;  // every one of these is a bool at the same place
    accepted.push_back(c);
  }
  for (auto t : {QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_DLBC_WEIGHTS,
                 QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_SPARSE_WEIGHTS_COMPRESSION,
                 QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_SLC_ALLOCATOR,
                 QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_VTCM_RETENTION,
                 QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_CACHED_WEIGHTS})
    accepted.push_back(optimizationConfig(t, 1.f));
  ASSERT_EQ(buildRelu("all", accepted, &g), QNN_SUCCESS) << LogCapture::take();
  std::string log = LogCapture::take();
  EXPECT_NE(log.find("2 cores requested; the device has 1, using 1"), std::string::npos) << log;
  // Those with no meaning off a device say so, once each, by name; FP16_CLAMP_OVERFLOW is honoured (below).
  for (const char* name : {"HIGH_PRECISION_SIGMOID", "PRECISION_COMPENSATION", "ENABLE_PREDICATION",
                           "optimization ENABLE_VTCM_RETENTION", "optimization ENABLE_CACHED_WEIGHTS"}) {
    const std::string line = std::string("HTP graph config: ") + name + " accepted with no effect in the simulator: ";
    const size_t at = log.find(line);
    EXPECT_NE(at, std::string::npos) << name << ": " << log;
    EXPECT_EQ(log.find(line, at + 1), std::string::npos) << name << ": " << log;
  }
  EXPECT_EQ(log.find("FP16_CLAMP_OVERFLOW"), std::string::npos) << log;
  // Set to false they are the default: nothing to say.
  for (auto o : {QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION_COMPENSATION, QNN_HTP_GRAPH_CONFIG_OPTION_ENABLE_PREDICATION,
                 QNN_HTP_GRAPH_CONFIG_OPTION_FP16_CLAMP_OVERFLOW, QNN_HTP_GRAPH_CONFIG_OPTION_HIGH_PRECISION_SIGMOID}) {
    Qnn_GraphHandle_t off = nullptr;
    EXPECT_EQ(makeGraph(ctx, ("off" + std::to_string(o)).c_str(), {option(o)}, &off), QNN_SUCCESS) << o;
  }
  EXPECT_EQ(makeGraph(ctx, "offopt",
                      {optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_VTCM_RETENTION, 0.f),
                       optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_CACHED_WEIGHTS, 0.f)},
                      &g),
            QNN_SUCCESS);
  EXPECT_EQ(LogCapture::take(), "");
  ASSERT_EQ(buildRelu("all2", accepted, &g), QNN_SUCCESS);
  LogCapture::take();
  std::string setup;
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("3 MB VTCM"), std::string::npos) << setup;  // the parallel-execution VTCM share

  struct Refused {
    const char* name;
    QnnHtpGraph_CustomConfig_t config;
    const char* message;
  };
  QnnHtpGraph_CustomConfig_t noKey = finalize;
  noKey.finalizeConfig.key = nullptr;
  QnnHtpGraph_CustomConfig_t badValue = finalize;
  badValue.finalizeConfig.value.dataType = QNN_DATATYPE_STRING;
  QnnHtpGraph_CustomConfig_t overlap = parallel;
  overlap.parallelGraphExecutionConfig.vtcmConfig.offsetInBytes = 5u << 20;
  QnnHtpGraph_CustomConfig_t concurrency = parallel;
  concurrency.parallelGraphExecutionConfig.concurrency = static_cast<QnnHtpGraph_ConcurrencyOption_t>(7);
  const Refused refused[] = {
      {"nokey", noKey, "a finalize config needs a key"},
      {"badvalue", badValue, "finalize config 'P' has a value of datatype"},
      {"overlap", overlap, "exceeds the addressable"},
      {"concurrency", concurrency, "unknown graph concurrency option 7"},
      {"hmx", option(QNN_HTP_GRAPH_CONFIG_OPTION_HMX_BOUNDING), "HMX bounding needs an HTP V81 or later"},
      // QnnHtpGraph.h: VTCM retention takes 0 (disabled) or 1 (enabled).
      {"retention", optimizationConfig(QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_VTCM_RETENTION, 2.f),
       "VTCM retention is enabled with 0 or 1"},
      {"opt10", optimizationConfig(static_cast<QnnHtpGraph_OptimizationType_t>(10), 1.f),
       "unknown optimization type 10"},
      {"unknown", option(static_cast<QnnHtpGraph_ConfigOption_t>(99)), "unknown option 99"},
      {"option21", option(static_cast<QnnHtpGraph_ConfigOption_t>(21)), "unknown option 21"},
  };
  for (const Refused& r : refused) {
    EXPECT_EQ(makeGraph(ctx, r.name, {r.config}, &g), QNN_GRAPH_ERROR_INVALID_ARGUMENT) << r.name;
    std::string msg = LogCapture::take();
    EXPECT_NE(msg.find(r.message), std::string::npos) << r.name << ": " << msg;
  }
}

// Float graphs run with or without a precision config. Without one, or with
// FLOAT32 (API 2.32's default; the vendor's became FP16 in QNN 2.35), floats are
// computed in fp32; with FLOAT16 every value is rounded to half.
TEST_F(HtpLenientTest, FloatPrecisionDecidesTheRounding) {
  const float x = 0.1f;
  const float half = 0.0999755859375f;  // 0.1 rounded to fp16
  struct Case {
    const char* name;
    std::vector<QnnHtpGraph_CustomConfig_t> configs;
    float want;
  };
  const Case cases[] = {{"none", {}, x},
                        {"fp32", {precisionConfig(QNN_PRECISION_FLOAT32)}, x},
                        {"fp16", {precisionConfig(QNN_PRECISION_FLOAT16)}, half}};
  for (const Case& c : cases) {
    Qnn_GraphHandle_t g = nullptr;
    ASSERT_EQ(makeGraph(ctx, c.name, c.configs, &g), QNN_SUCCESS) << c.name;
    TensorSpec in("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 1});
    TensorSpec out("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 1});
    ASSERT_EQ(api().tensorCreateGraphTensor(g, &in.tensor), QNN_SUCCESS);
    ASSERT_EQ(api().tensorCreateGraphTensor(g, &out.tensor), QNN_SUCCESS);
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &in.tensor, 1, &out.tensor};
    ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << c.name << LogCapture::take();
    ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << c.name;
    float xv = x, y = 0.f;
    in.tensor.v1.clientBuf = {&xv, sizeof xv};
    out.tensor.v1.clientBuf = {&y, sizeof y};
    ASSERT_EQ(api().graphExecute(g, &in.tensor, 1, &out.tensor, 1, nullptr, nullptr), QNN_SUCCESS) << c.name;
    EXPECT_EQ(y, c.want) << c.name;
  }
  EXPECT_EQ(LogCapture::take(), "");
}

// QNN_HTP_GRAPH_CONFIG_OPTION_FP16_CLAMP_OVERFLOW (API 2.39, a bool): in fp16 mode a result too large for
// half saturates to the largest half, +-65504, instead of becoming +-inf (ONNX Runtime's QNN EP option
// enable_htp_fp16_clamp_overflow: "saturate such overflow to the fp16 max value"). An input that is already
// inf is no overflow and stays inf; an fp32 graph has no half overflow to clamp. The setting survives a
// context binary.
TEST_F(HtpLenientTest, Fp16ClampOverflowSaturatesInsteadOfInf) {
  const float inf = std::numeric_limits<float>::infinity();
  // Products in double: 90000 and -90000 exceed half's range (rounding to inf from 65520 up); 6 and
  // 65280 = 2040 * 32 are halves.
  const float a[5] = {300.f, -300.f, 2.f, 256.f, inf}, b[5] = {300.f, 300.f, 3.f, 255.f, 1.f};
  QnnHtpGraph_CustomConfig_t clamp = option(QNN_HTP_GRAPH_CONFIG_OPTION_FP16_CLAMP_OVERFLOW);
  clamp.fp16ClampOverflow = true;
  struct Case {
    const char* name;
    std::vector<QnnHtpGraph_CustomConfig_t> configs;
    Qnn_DataType_t outType;
    float want[5];
  };
  const Case cases[] = {
      {"fp16", {precisionConfig(QNN_PRECISION_FLOAT16)}, QNN_DATATYPE_FLOAT_32, {inf, -inf, 6.f, 65280.f, inf}},
      {"fp16clamp", {precisionConfig(QNN_PRECISION_FLOAT16), clamp}, QNN_DATATYPE_FLOAT_32,
       {65504.f, -65504.f, 6.f, 65280.f, inf}},
      {"fp16clamp_h", {clamp, precisionConfig(QNN_PRECISION_FLOAT16)}, QNN_DATATYPE_FLOAT_16,
       {65504.f, -65504.f, 6.f, 65280.f, inf}},
      {"fp16_h", {precisionConfig(QNN_PRECISION_FLOAT16)}, QNN_DATATYPE_FLOAT_16, {inf, -inf, 6.f, 65280.f, inf}},
      {"fp32clamp", {precisionConfig(QNN_PRECISION_FLOAT32), clamp}, QNN_DATATYPE_FLOAT_32,
       {90000.f, -90000.f, 6.f, 65280.f, inf}},
  };
  // The bits of the halves above (IEEE binary16: 0x7BFF = 65504, 0x7C00 = inf, sign bit 0x8000).
  auto halfBits = [](float v) -> uint16_t {
    if (v == 65504.f) return 0x7BFF;
    if (v == -65504.f) return 0xFBFF;
    if (v == 6.f) return 0x4600;       // 1.5 * 2^2
    if (v == 65280.f) return 0x7BF8;   // (1 + 1016/1024) * 2^15
    return std::signbit(v) ? 0xFC00 : 0x7C00;
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Qnn_ContextHandle_t own = nullptr;
    ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &own), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    ASSERT_EQ(makeGraph(own, "mul", c.configs, &g), QNN_SUCCESS) << LogCapture::take();
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 5});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 5});
    TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, c.outType, {1, 5});
    for (TensorSpec* t : {&x, &y, &out}) ASSERT_EQ(api().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
    Qnn_Tensor_t mulIn[] = {x.tensor, y.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"mul", "qti.aisw", "ElementWiseMultiply", 0, nullptr, 2, mulIn, 1, &out.tensor};
    ASSERT_EQ(api().graphAddNode(g, op), QNN_SUCCESS) << LogCapture::take();
    ASSERT_EQ(api().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
    // Run here and once more from the context's binary.
    std::vector<uint8_t> binary;
    for (int pass = 0; pass < 2; ++pass) {
      SCOPED_TRACE(pass ? "from binary" : "created");
      float xs[5], ys[5], got[5] = {};
      uint16_t gotHalf[5] = {};
      std::copy(a, a + 5, xs), std::copy(b, b + 5, ys);
      Qnn_Tensor_t ins[] = {x.tensor, y.tensor}, outs[] = {out.tensor};
      ins[0].v1.clientBuf = {xs, sizeof xs}, ins[1].v1.clientBuf = {ys, sizeof ys};
      if (c.outType == QNN_DATATYPE_FLOAT_16) outs[0].v1.clientBuf = {gotHalf, sizeof gotHalf};
      else outs[0].v1.clientBuf = {got, sizeof got};
      ASSERT_EQ(api().graphExecute(g, ins, 2, outs, 1, nullptr, nullptr), QNN_SUCCESS) << LogCapture::take();
      for (int i = 0; i < 5; ++i) {
        if (c.outType == QNN_DATATYPE_FLOAT_16)
          EXPECT_EQ(gotHalf[i], halfBits(c.want[i])) << i;
        else
          EXPECT_EQ(got[i], c.want[i]) << i;
      }
      if (pass == 1) break;
      Qnn_ContextBinarySize_t size = 0, written = 0;
      ASSERT_EQ(api().contextGetBinarySize(own, &size), QNN_SUCCESS);
      binary.resize(size);
      ASSERT_EQ(api().contextGetBinary(own, binary.data(), size, &written), QNN_SUCCESS);
      ASSERT_EQ(api().contextFree(own, nullptr), QNN_SUCCESS);
      own = nullptr;
      ASSERT_EQ(api().contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), written, &own, nullptr),
                QNN_SUCCESS)
          << LogCapture::take();
      ASSERT_EQ(api().graphRetrieve(own, "mul", &g), QNN_SUCCESS);
    }
    EXPECT_EQ(api().contextFree(own, nullptr), QNN_SUCCESS);
  }
}

// A refused QnnGraph_setConfig leaves the graph's configuration as it was.
TEST_F(HtpLenientTest, RefusedSetConfigChangesNothing) {
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(buildRelu("keep", {hvxThreadsConfig(3)}, &g), QNN_SUCCESS);
  QnnGraph_Config_t first = QNN_GRAPH_CONFIG_INIT, second = QNN_GRAPH_CONFIG_INIT;
  QnnHtpGraph_CustomConfig_t five = hvxThreadsConfig(5), hmx = option(QNN_HTP_GRAPH_CONFIG_OPTION_HMX_BOUNDING);
  first.option = second.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
  first.customConfig = &five;
  second.customConfig = &hmx;
  const QnnGraph_Config_t* list[] = {&first, &second, nullptr};
  EXPECT_EQ(api().graphSetConfig(g, list), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(runAndReadHvxThreads(g), 3u);
}

// Every power config option of the 2.32 headers is taken (the vendor's sample
// app votes adaptive polling after RPC polling); an unknown one is refused.
TEST_F(HtpLenientTest, EveryPowerConfigOptionOfTheNewestHeaders) {
  const auto& perf = perfInfra();
  uint32_t id = 0;
  ASSERT_EQ(perf.createPowerConfigId(0, 0, &id), QNN_SUCCESS);
  QnnHtpPerfInfrastructure_PowerConfig_t polling{}, adaptive{}, hmx{}, ddr{}, unknown{};
  polling.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_POLLING_TIME;
  polling.rpcPollingTimeConfig = 9999;
  adaptive.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_ADAPTIVE_POLLING_TIME;
  adaptive.adaptivePollingTimeConfig = 1000;
  hmx.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_HMX_V2;
  hmx.hmxV2Config.hmxPickDefault = 1;
  ddr.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DDR_PERF_MODE;
  ddr.ddrPerfModeConfig = 1;
  const QnnHtpPerfInfrastructure_PowerConfig_t* all[] = {&polling, &adaptive, &hmx, &ddr, nullptr};
  EXPECT_EQ(perf.setPowerConfig(id, all), QNN_SUCCESS);
  unknown.option = static_cast<QnnHtpPerfInfrastructure_PowerConfigOption_t>(99);
  const QnnHtpPerfInfrastructure_PowerConfig_t* bad[] = {&unknown, nullptr};
  EXPECT_EQ(perf.setPowerConfig(id, bad), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_UNSUPPORTED_CONFIG);
  EXPECT_EQ(perf.destroyPowerConfigId(id), QNN_SUCCESS);
}

// API 2.39's expanded-corner votes. DCVS_V3_EXP moves the simulated clock as the DCVS vote it
// amounts to (TUR = the legacy TURBO, 1400 MHz; TUR_L1_2 lies between TUR_L1 = TURBO_PLUS and
// TUR_L2: 1500 MHz); corners outside the enum, out of order, or perf levels past D15 are refused.
// CENG and CENG_EXP votes are checked, recorded and logged once (no CENG is modelled).
TEST_F(HtpLenientTest, ExpandedCornerPowerConfigsOfApi239) {
  const auto& perf = perfInfra();
  uint32_t id = 0;
  ASSERT_EQ(perf.createPowerConfigId(0, 0, &id), QNN_SUCCESS);
  auto expVote = [&](uint32_t lo, uint32_t target, uint32_t hi, uint32_t perfMode = 0) {
    QnnHtpPerfInfrastructure_PowerConfig_t c{};
    c.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3_EXP;
    QnnHtpPerfInfrastructure_DcvsV3Exp_t& x = c.dcvsV3ExpConfig;
    x.contextId = id;
    x.powerMode = QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_PERFORMANCE_MODE;
    x.setCoreParams = 1;
    x.coreVoltageCornerMin = QnnHtpPerfInfrastructure_ExpVoltageCorner_t(lo);
    x.coreVoltageCornerTarget = QnnHtpPerfInfrastructure_ExpVoltageCorner_t(target);
    x.coreVoltageCornerMax = QnnHtpPerfInfrastructure_ExpVoltageCorner_t(hi);
    x.corePerfMode = QnnHtpPerfInfrastructure_ClkPerfMode_t(perfMode);
    const QnnHtpPerfInfrastructure_PowerConfig_t* list[] = {&c, nullptr};
    return perf.setPowerConfig(id, list);
  };
  auto clock = [&](const char* name) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(buildRelu(name, {}, &g), QNN_SUCCESS);
    std::string setup;
    runAndReadHvxThreads(g, &setup);
    return setup;
  };
  ASSERT_EQ(expVote(DCVS_EXP_VCORNER_TUR, DCVS_EXP_VCORNER_TUR, DCVS_EXP_VCORNER_TUR), QNN_SUCCESS);
  EXPECT_NE(clock("exp_tur").find("1400 MHz"), std::string::npos);
  ASSERT_EQ(expVote(DCVS_EXP_VCORNER_NOM, DCVS_EXP_VCORNER_TUR_L1_2, DCVS_EXP_VCORNER_MAX,
                    QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D15),
            QNN_SUCCESS);
  EXPECT_NE(clock("exp_tur_l1_2").find("1500 MHz"), std::string::npos);
  EXPECT_NE(LogCapture::take().find("DCVS_V3_EXP core perf level 16 recorded"), std::string::npos);
  EXPECT_EQ(expVote(DCVS_EXP_VCORNER_NOM, 0x101, DCVS_EXP_VCORNER_MAX), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  EXPECT_EQ(expVote(DCVS_EXP_VCORNER_TUR, DCVS_EXP_VCORNER_NOM, DCVS_EXP_VCORNER_MAX),
            QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  EXPECT_EQ(expVote(DCVS_EXP_VCORNER_NOM, DCVS_EXP_VCORNER_NOM, DCVS_EXP_VCORNER_NOM, 17),
            QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  EXPECT_NE(clock("still_1500").find("1500 MHz"), std::string::npos);  // refused votes change nothing

  QnnHtpPerfInfrastructure_PowerConfig_t ceng{}, cengExp{};
  ceng.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_CENG;
  ceng.cengConfig = {DCVS_VOLTAGE_VCORNER_SVS, DCVS_VOLTAGE_VCORNER_NOM, DCVS_VOLTAGE_VCORNER_TURBO,
                     QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH};
  cengExp.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_CENG_EXP;
  cengExp.cengExpConfig = {DCVS_EXP_VCORNER_SVS, DCVS_EXP_VCORNER_NOM_L0, DCVS_EXP_VCORNER_TUR,
                           QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_LOW};
  const QnnHtpPerfInfrastructure_PowerConfig_t* cengs[] = {&ceng, &cengExp, nullptr};
  LogCapture::take();
  EXPECT_EQ(perf.setPowerConfig(id, cengs), QNN_SUCCESS);
  const std::string said = LogCapture::take();
  EXPECT_NE(said.find("CENG vote recorded with no effect"), std::string::npos) << said;
  EXPECT_NE(said.find("CENG_EXP vote recorded with no effect"), std::string::npos) << said;
  EXPECT_NE(clock("ceng_keeps_1500").find("1500 MHz"), std::string::npos);
  cengExp.cengExpConfig.cengVoltageCornerTarget = QnnHtpPerfInfrastructure_ExpVoltageCorner_t(0x2FF);
  const QnnHtpPerfInfrastructure_PowerConfig_t* bad[] = {&cengExp, nullptr};
  EXPECT_EQ(perf.setPowerConfig(id, bad), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  EXPECT_EQ(perf.destroyPowerConfigId(id), QNN_SUCCESS);
  static_assert(sizeof(QnnHtpPerfInfrastructure_PowerConfig_t) == 68, "2.32 and 2.39 size");
}

// Power config id 0 is the default power context: the vendor's HTP net-run
// extension (2.25) votes on it and destroys it without ever creating it.
TEST_F(HtpLenientTest, PowerConfigIdZeroIsTheDefaultContext) {
  const auto& perf = perfInfra();
  QnnHtpPerfInfrastructure_PowerConfig_t dcvs =
      coreVote(DCVS_VOLTAGE_VCORNER_TURBO, DCVS_VOLTAGE_VCORNER_TURBO, DCVS_VOLTAGE_VCORNER_TURBO);
  const QnnHtpPerfInfrastructure_PowerConfig_t* list[] = {&dcvs, nullptr};
  EXPECT_EQ(perf.destroyPowerConfigId(0), QNN_SUCCESS);  // before any vote: nothing to withdraw
  EXPECT_EQ(perf.setPowerConfig(0, list), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(buildRelu("turbo", {}, &g), QNN_SUCCESS);
  std::string setup;
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("1400 MHz"), std::string::npos) << setup;  // the vote on id 0 counts
  EXPECT_EQ(perf.destroyPowerConfigId(0), QNN_SUCCESS);
  EXPECT_EQ(perf.setPowerConfig(0, list), QNN_SUCCESS);  // still there after destroy
  EXPECT_EQ(perf.destroyPowerConfigId(0), QNN_SUCCESS);
  uint32_t id = 0;
  ASSERT_EQ(perf.createPowerConfigId(0, 0, &id), QNN_SUCCESS);
  EXPECT_NE(id, 0u);  // never handed out
  EXPECT_EQ(perf.destroyPowerConfigId(id), QNN_SUCCESS);
}

// A DCVS vote changes only what its set* flags name. The vendor's HTP net-run
// extension (2.25) votes burst on id 0, then a partial vote (setDcvsEnable only:
// DCVS enable and power mode; setCoreParams 0, corners 0), then releases.
// Between the partial vote and the release the burst clock holds.
TEST_F(HtpLenientTest, PartialDcvsVoteKeepsTheFieldsItDoesNotSet) {
  const auto& perf = perfInfra();
  QnnHtpPerfInfrastructure_PowerConfig_t burst{};
  burst.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3;
  QnnHtpPerfInfrastructure_DcvsV3_t& b = burst.dcvsV3Config;
  b.contextId = 0;
  b.setDcvsEnable = 1;
  b.dcvsEnable = 0;
  b.powerMode = QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_PERFORMANCE_MODE;
  b.setSleepLatency = 1;
  b.sleepLatency = 40;
  b.setSleepDisable = 1;
  b.sleepDisable = 1;
  b.setBusParams = 1;
  b.busVoltageCornerMin = b.busVoltageCornerTarget = b.busVoltageCornerMax = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  b.setCoreParams = 1;
  b.coreVoltageCornerMin = b.coreVoltageCornerTarget = b.coreVoltageCornerMax = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  QnnHtpPerfInfrastructure_PowerConfig_t partial{};
  partial.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3;
  partial.dcvsV3Config.contextId = 0;
  partial.dcvsV3Config.setDcvsEnable = 1;
  partial.dcvsV3Config.dcvsEnable = 0;
  partial.dcvsV3Config.powerMode = QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_PERFORMANCE_MODE;
  const QnnHtpPerfInfrastructure_PowerConfig_t* first[] = {&burst, nullptr};
  const QnnHtpPerfInfrastructure_PowerConfig_t* second[] = {&partial, nullptr};
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(buildRelu("votes", {}, &g), QNN_SUCCESS);
  std::string setup;
  ASSERT_EQ(perf.setPowerConfig(0, first), QNN_SUCCESS);
  ASSERT_EQ(perf.setPowerConfig(0, second), QNN_SUCCESS);
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("power mode burst (1600 MHz)"), std::string::npos) << setup;
  // A later vote of only the core corners keeps DCVS off (still burst) and
  // moves the clock; a refused vote changes nothing.
  QnnHtpPerfInfrastructure_PowerConfig_t core =
      coreVote(DCVS_VOLTAGE_VCORNER_SVS, DCVS_VOLTAGE_VCORNER_TURBO, DCVS_VOLTAGE_VCORNER_TURBO);
  const QnnHtpPerfInfrastructure_PowerConfig_t* third[] = {&core, nullptr};
  ASSERT_EQ(perf.setPowerConfig(0, third), QNN_SUCCESS);
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("power mode sustained_high_performance (1400 MHz)"), std::string::npos) << setup;
  core.dcvsV3Config.coreVoltageCornerTarget = DCVS_VOLTAGE_VCORNER_SVS2;  // below min: refused
  EXPECT_EQ(perf.setPowerConfig(0, third), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("(1400 MHz)"), std::string::npos) << setup;
  // The release withdraws the whole vote.
  EXPECT_EQ(perf.destroyPowerConfigId(0), QNN_SUCCESS);
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("power mode default (1200 MHz)"), std::string::npos) << setup;
}

// QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO: "for offline operation, caller need to
// create this structure" (HTP backend guide). The platform info one device
// reports configures another the same; a hand-made one sets SoC, arch and VTCM.
TEST_F(HtpLenientTest, PlatformInfoConfiguresTheDevice) {
  auto withPlatformInfo = [&](QnnDevice_PlatformInfo_t* info, Qnn_DeviceHandle_t* dev) {
    QnnDevice_Config_t config = QNN_DEVICE_CONFIG_INIT;
    config.option = QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO;
    config.hardwareInfo = info;
    const QnnDevice_Config_t* list[] = {&config, nullptr};
    return api().deviceCreate(log, list, dev);
  };
  auto onChip = [&](Qnn_DeviceHandle_t dev) {
    const QnnDevice_PlatformInfo_t* info = nullptr;
    EXPECT_EQ(api().deviceGetInfo(dev, &info), QNN_SUCCESS);
    return reinterpret_cast<const QnnHtpDevice_DeviceInfoExtension_t*>(info->v1.hwDevices[0].v1.deviceInfoExtension)
        ->onChipDevice;
  };
  // Round trip: SM8650's description makes another SM8650 device.
  Qnn_DeviceHandle_t sm8650 = nullptr, copy = nullptr;
  ASSERT_EQ(makeDevice({socConfig(57)}, &sm8650), QNN_SUCCESS);
  const QnnDevice_PlatformInfo_t* described = nullptr;
  ASSERT_EQ(api().deviceGetInfo(sm8650, &described), QNN_SUCCESS);
  ASSERT_EQ(withPlatformInfo(const_cast<QnnDevice_PlatformInfo_t*>(described), &copy), QNN_SUCCESS);
  EXPECT_EQ(onChip(copy).socModel, 57u);
  EXPECT_EQ(onChip(copy).arch, QNN_HTP_DEVICE_ARCH_V75);

  // Hand-made: SM8550 with a 4 MB VTCM share; graphs of its contexts get that budget.
  QnnHtpDevice_DeviceInfoExtension_t ext{};
  ext.devType = QNN_HTP_DEVICE_TYPE_ON_CHIP;
  ext.onChipDevice.socModel = 43;
  ext.onChipDevice.arch = QNN_HTP_DEVICE_ARCH_V73;
  ext.onChipDevice.vtcmSize = 4;
  QnnDevice_CoreInfo_t core = QNN_DEVICE_CORE_INFO_INIT;
  QnnDevice_HardwareDeviceInfo_t hw = QNN_DEVICE_HARDWARE_DEVICE_INFO_INIT;
  hw.v1.deviceId = 0;
  hw.v1.numCores = 1;
  hw.v1.cores = &core;
  hw.v1.deviceInfoExtension = reinterpret_cast<QnnDevice_DeviceInfoExtension_t>(&ext);
  QnnDevice_PlatformInfo_t info = QNN_DEVICE_PLATFORM_INFO_INIT;
  info.v1.numHwDevices = 1;
  info.v1.hwDevices = &hw;
  Qnn_DeviceHandle_t handMade = nullptr;
  ASSERT_EQ(withPlatformInfo(&info, &handMade), QNN_SUCCESS) << LogCapture::take();
  EXPECT_EQ(onChip(handMade).socModel, 43u);
  Qnn_ContextHandle_t onDevice = nullptr;
  ASSERT_EQ(api().contextCreate(backend, handMade, nullptr, &onDevice), QNN_SUCCESS);
  std::swap(ctx, onDevice);
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(buildRelu("budget", {}, &g), QNN_SUCCESS);
  std::string setup;
  runAndReadHvxThreads(g, &setup);
  EXPECT_NE(setup.find("4 MB VTCM"), std::string::npos) << setup;
  std::swap(ctx, onDevice);
  EXPECT_EQ(api().contextFree(onDevice, nullptr), QNN_SUCCESS);

  // A SoC the table lacks: its architecture is used, with a warning.
  ext.onChipDevice.socModel = 999;
  ext.onChipDevice.arch = QNN_HTP_DEVICE_ARCH_V75;
  Qnn_DeviceHandle_t unknownSoc = nullptr;
  LogCapture::take();
  ASSERT_EQ(withPlatformInfo(&info, &unknownSoc), QNN_SUCCESS);
  EXPECT_NE(LogCapture::take().find("SoC model 999 is not in the SoC table; using architecture V75"), std::string::npos);
  EXPECT_EQ(onChip(unknownSoc).arch, QNN_HTP_DEVICE_ARCH_V75);
  // Neither known: refused; a null description too.
  ext.onChipDevice.arch = static_cast<QnnHtpDevice_Arch_t>(12);
  Qnn_DeviceHandle_t refused = nullptr;
  EXPECT_EQ(withPlatformInfo(&info, &refused), QNN_DEVICE_ERROR_INVALID_CONFIG);
  EXPECT_EQ(withPlatformInfo(nullptr, &refused), QNN_DEVICE_ERROR_INVALID_CONFIG);
  for (Qnn_DeviceHandle_t d : {sm8650, copy, handMade, unknownSoc}) EXPECT_EQ(api().deviceFree(d), QNN_SUCCESS);
}

TEST_F(HtpLenientTest, SecurePdConfigAccepted) {
  QnnHtpDevice_CustomConfig_t secure{};
  secure.option = QNN_HTP_DEVICE_CONFIG_OPTION_SECUREPD;
  secure.useSecureProcessDomain = {0, false};
  Qnn_DeviceHandle_t dev = nullptr;
  ASSERT_EQ(makeDevice({secure}, &dev), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(dev), QNN_SUCCESS);
  secure.useSecureProcessDomain.deviceId = 3;
  EXPECT_EQ(makeDevice({secure}, &dev), QNN_DEVICE_ERROR_INVALID_CONFIG);
}

}  // namespace
}  // namespace qnn::test
