// HTP custom configs through the API: device (SoC, arch), graph (optimization
// mode, precision, VTCM, HVX threads), platform info, perf infrastructure.
#include "HTP/QnnHtpPerfInfrastructure.h"
#include "HTP/QnnHtpProperty.h"
#include "tests/htp/htp_test_util.h"

namespace qnn::test {

std::mutex LogCapture::mutex;
std::string LogCapture::text;

namespace {

const QnnHtpDevice_OnChipDeviceInfoExtension_t& onChip(const QnnDevice_PlatformInfo_t* info) {
  auto* ext = reinterpret_cast<const QnnHtpDevice_DeviceInfoExtension_t*>(info->v1.hwDevices[0].v1.deviceInfoExtension);
  EXPECT_EQ(ext->devType, QNN_HTP_DEVICE_TYPE_ON_CHIP);
  return ext->onChipDevice;
}

TEST_F(HtpTest, ProviderIsHtp) {
  const QnnInterface_t& p = htpLib().provider();
  EXPECT_EQ(p.backendId, uint32_t(QNN_BACKEND_ID_HTP));
  EXPECT_STREQ(p.providerName, QNN_HTP_INTERFACE_PROVIDER_NAME);
  EXPECT_EQ(p.apiVersion.backendApiVersion.major, uint32_t(QNN_HTP_API_VERSION_MAJOR));
  EXPECT_EQ(p.apiVersion.backendApiVersion.minor, uint32_t(QNN_HTP_API_VERSION_MINOR));
  EXPECT_EQ(api().propertyHasCapability(QNN_PROPERTY_DEVICE_SUPPORT_INFRASTRUCTURE), QNN_PROPERTY_SUPPORTED);
}

TEST_F(HtpTest, PlatformInfoDefaultsToV73) {
  const QnnDevice_PlatformInfo_t* info = nullptr;
  ASSERT_EQ(api().deviceGetPlatformInfo(log, &info), QNN_SUCCESS);
  ASSERT_EQ(info->v1.numHwDevices, 1u);
  EXPECT_EQ(onChip(info).arch, QNN_HTP_DEVICE_ARCH_V73);
  EXPECT_EQ(onChip(info).socModel, 60u);
  EXPECT_EQ(onChip(info).vtcmSize, 8u);
  EXPECT_EQ(api().deviceFreePlatformInfo(log, info), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFreePlatformInfo(log, info), QNN_DEVICE_ERROR_INVALID_ARGUMENT);  // freed twice
}

TEST_F(HtpTest, DeviceSocConfigSetsArch) {
  Qnn_DeviceHandle_t dev = nullptr;
  ASSERT_EQ(makeDevice({socConfig(30)}, &dev), QNN_SUCCESS);  // SM8350, V68
  const QnnDevice_PlatformInfo_t* info = nullptr;
  ASSERT_EQ(api().deviceGetInfo(dev, &info), QNN_SUCCESS);
  EXPECT_EQ(onChip(info).arch, QNN_HTP_DEVICE_ARCH_V68);
  EXPECT_EQ(onChip(info).socModel, 30u);
  EXPECT_EQ(onChip(info).vtcmSize, 4u);
  EXPECT_EQ(api().deviceFree(dev), QNN_SUCCESS);
  ASSERT_EQ(makeDevice({socConfig(43), archConfig(QNN_HTP_DEVICE_ARCH_V73)}, &dev), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(dev), QNN_SUCCESS);
}

TEST_F(HtpTest, DeviceConfigsRefused) {
  Qnn_DeviceHandle_t dev = nullptr;
  EXPECT_EQ(makeDevice({socConfig(999)}, &dev), QNN_DEVICE_ERROR_INVALID_CONFIG);
  EXPECT_NE(LogCapture::take().find("SoC model 999"), std::string::npos);
  EXPECT_EQ(makeDevice({socConfig(21)}, &dev), QNN_DEVICE_ERROR_INVALID_CONFIG);  // SM8250 is V66: no HTP
  EXPECT_NE(LogCapture::take().find("has no HTP"), std::string::npos);
  EXPECT_EQ(makeDevice({archConfig(static_cast<QnnHtpDevice_Arch_t>(70))}, &dev), QNN_DEVICE_ERROR_INVALID_CONFIG);
}

TEST_F(HtpTest, GraphConfigsValidatedAgainstTheDevice) {
  Qnn_DeviceHandle_t v68 = nullptr;
  ASSERT_EQ(makeDevice({archConfig(QNN_HTP_DEVICE_ARCH_V68)}, &v68), QNN_SUCCESS);
  Qnn_ContextHandle_t ctx68 = nullptr, ctx73 = nullptr;
  ASSERT_EQ(api().contextCreate(backend, v68, nullptr, &ctx68), QNN_SUCCESS);
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &ctx73), QNN_SUCCESS);
  Qnn_GraphHandle_t g = nullptr;
  using T = QnnHtpGraph_OptimizationType_t;
  const T flag = QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG;
  EXPECT_EQ(makeGraph(ctx73, "ok", {optimizationConfig(flag, 3), vtcmConfig(8), hvxThreadsConfig(6),
                                    precisionConfig(QNN_PRECISION_FLOAT16)}, &g),
            QNN_SUCCESS);
  EXPECT_EQ(makeGraph(ctx73, "mode4", {optimizationConfig(flag, 4)}, &g), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(makeGraph(ctx73, "mode1.5", {optimizationConfig(flag, 1.5f)}, &g), QNN_GRAPH_ERROR_INVALID_ARGUMENT);
  // Too much VTCM or too many HVX threads are clamped, not refused: test_htp_lenient_configs.cpp.
  // V68 has no fp16 unit, yet takes the precision config as the vendor's x86 library does (with a warning:
  // test_htp_backend.cpp FloatGraphsRunOnEveryArchitectureV68WithANote).
  EXPECT_EQ(makeGraph(ctx68, "fp16", {precisionConfig(QNN_PRECISION_FLOAT16)}, &g), QNN_SUCCESS);
  // FLOAT32 (the 2.32 default) is accepted: test_htp_lenient_configs.cpp.
  EXPECT_EQ(makeGraph(ctx73, "fp32", {precisionConfig(QNN_PRECISION_FLOAT32)}, &g), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx68, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx73, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api().deviceFree(v68), QNN_SUCCESS);
}

TEST_F(HtpTest, ContextPriorityAndCustomConfig) {
  QnnContext_Config_t prio{};
  prio.option = QNN_CONTEXT_CONFIG_OPTION_PRIORITY;
  prio.priority = QNN_PRIORITY_HIGH;
  const QnnContext_Config_t* list[] = {&prio, nullptr};
  Qnn_ContextHandle_t ctx = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, list, &ctx), QNN_SUCCESS);
  EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  // API 2.39's priorities above HIGH: HIGH_PLUS 300, CRITICAL 400, CRITICAL_PLUS 500 = HIGHEST; and below NORMAL.
  for (uint32_t p : {0u, 50u, 300u, 400u, 500u}) {
    prio.priority = static_cast<Qnn_Priority_t>(p);
    ASSERT_EQ(api().contextCreate(backend, nullptr, list, &ctx), QNN_SUCCESS) << p;
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
  }
  prio.priority = static_cast<Qnn_Priority_t>(QNN_PRIORITY_HIGHEST + 1);
  EXPECT_EQ(api().contextCreate(backend, nullptr, list, &ctx), QNN_CONTEXT_ERROR_INVALID_CONFIG);
}

const QnnHtpDevice_PerfInfrastructure_t& perfInfra() {
  QnnDevice_Infrastructure_t infra = nullptr;
  EXPECT_EQ(htpLib().api().deviceGetInfrastructure(&infra), QNN_SUCCESS);
  auto* htp = reinterpret_cast<QnnHtpDevice_Infrastructure_t*>(infra);
  EXPECT_EQ(htp->infraType, QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF);
  return htp->perfInfra;
}

TEST_F(HtpTest, PerfInfrastructureValidatesVotes) {
  const auto& perf = perfInfra();
  uint32_t id = 0;
  LogCapture::take();
  EXPECT_EQ(perf.createPowerConfigId(1, 0, &id), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  EXPECT_NE(LogCapture::take().find("device 1 core 0 does not exist"), std::string::npos);  // said, not silent
  ASSERT_EQ(perf.createPowerConfigId(0, 0, &id), QNN_SUCCESS);
  QnnHtpPerfInfrastructure_PowerConfig_t dcvs{};  // the C INIT macro does not compile as C++
  dcvs.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3;
  dcvs.dcvsV3Config.contextId = id;
  dcvs.dcvsV3Config.setDcvsEnable = 1;
  dcvs.dcvsV3Config.dcvsEnable = 0;
  dcvs.dcvsV3Config.powerMode = QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_PERFORMANCE_MODE;
  dcvs.dcvsV3Config.setCoreParams = 1;
  dcvs.dcvsV3Config.coreVoltageCornerMin = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  dcvs.dcvsV3Config.coreVoltageCornerTarget = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  dcvs.dcvsV3Config.coreVoltageCornerMax = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  QnnHtpPerfInfrastructure_PowerConfig_t rpc{};  // the C INIT macro does not compile as C++
  rpc.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_CONTROL_LATENCY;
  rpc.rpcControlLatencyConfig = 100;
  const QnnHtpPerfInfrastructure_PowerConfig_t* burst[] = {&dcvs, &rpc, nullptr};
  EXPECT_EQ(perf.setPowerConfig(id, burst), QNN_SUCCESS);
  // Min above target, unknown corner, polling past the maximum, wrong context id: refused.
  dcvs.dcvsV3Config.coreVoltageCornerTarget = DCVS_VOLTAGE_VCORNER_SVS;
  EXPECT_EQ(perf.setPowerConfig(id, burst), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  dcvs.dcvsV3Config.coreVoltageCornerTarget = static_cast<QnnHtpPerfInfrastructure_VoltageCorner_t>(97);
  EXPECT_EQ(perf.setPowerConfig(id, burst), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  dcvs.dcvsV3Config.coreVoltageCornerTarget = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  dcvs.dcvsV3Config.contextId = id + 1000;
  EXPECT_EQ(perf.setPowerConfig(id, burst), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  QnnHtpPerfInfrastructure_PowerConfig_t poll{};  // the C INIT macro does not compile as C++
  poll.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_POLLING_TIME;
  poll.rpcPollingTimeConfig = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIG_MAX_RPC_POLLING_TIME + 1;
  const QnnHtpPerfInfrastructure_PowerConfig_t* polling[] = {&poll, nullptr};
  EXPECT_EQ(perf.setPowerConfig(id, polling), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
  QnnHtpPerfInfrastructure_MemoryConfig_t grow = QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIG_INIT;
  grow.option = QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIGOPTION_GROW_SIZE;
  grow.memGrowSizeConfig = 16;
  const QnnHtpPerfInfrastructure_MemoryConfig_t* mem[] = {&grow, nullptr};
  EXPECT_EQ(perf.setMemoryConfig(0, 0, mem), QNN_SUCCESS);
  EXPECT_EQ(perf.destroyPowerConfigId(id), QNN_SUCCESS);
  EXPECT_EQ(perf.destroyPowerConfigId(id), QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT);
}

}  // namespace
}  // namespace qnn::test
