// A QNN client for the Saver tests that votes through the HTP perf
// infrastructure the way ONNX Runtime's QNN EP does: QnnDevice_getInfrastructure,
// createPowerConfigId(0, 0), setPowerConfig with a DCVS v3 vote and the RPC
// control latency / polling time, setMemoryConfig, destroyPowerConfigId; then
// one vote the backend must refuse (an unknown power config id).
// Prints the build id, "infrastructure <code>" and, when one was given, one line
// per perf call with its result, so the test compares them with the trace.
// Usage: saver_perf_client SAVER.so SAVER_DIR
#include <cstdio>

#include "HTP/QnnHtpDevice.h"
#include "Saver/QnnSaver.h"
#include "tests/api/backend_loader.h"

using namespace qnn::test;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: saver_perf_client SAVER.so SAVER_DIR\n");
    return 2;
  }
  {
    void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) return 3;
    using Init = Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**);
    auto init = reinterpret_cast<Init>(dlsym(lib, "QnnSaver_initialize"));
    QnnSaver_Config_t dir = QNN_SAVER_CONFIG_INIT;
    dir.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
    dir.outputDirectory = argv[2];
    const QnnSaver_Config_t* cfg[] = {&dir, nullptr};
    if (!init || init(cfg) != QNN_SUCCESS) return 4;
  }
  LoadedBackend saver(argv[1]);
  if (!saver.ok()) return 5;
  const char* buildId = nullptr;
  if (saver.api().backendGetBuildId(&buildId) != QNN_SUCCESS || !buildId) return 9;
  std::printf("%s\n", buildId);
  auto* const kUntouched = reinterpret_cast<QnnDevice_Infrastructure_t>(0x5e5e5e5e5e5eull);
  QnnDevice_Infrastructure_t infra = kUntouched;
  Qnn_ErrorHandle_t rc = saver.api().deviceGetInfrastructure(&infra);
  std::printf("infrastructure %llu\n", (unsigned long long)rc);
  if (rc != QNN_SUCCESS) return infra == kUntouched ? 0 : 6;  // a refusal leaves the output as it was
  if (!infra) return 7;
  auto* htp = reinterpret_cast<QnnHtpDevice_Infrastructure_t*>(infra);
  if (htp->infraType != QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF) return 8;
  QnnHtpDevice_PerfInfrastructure_t& perf = htp->perfInfra;
  uint32_t id = 0;
  rc = perf.createPowerConfigId(0, 0, &id);
  std::printf("createPowerConfigId %llu id %u\n", (unsigned long long)rc, id);

  QnnHtpPerfInfrastructure_PowerConfig_t dcvs{};
  dcvs.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3;
  dcvs.dcvsV3Config.contextId = id;
  dcvs.dcvsV3Config.setDcvsEnable = 1;
  dcvs.dcvsV3Config.dcvsEnable = 0;
  dcvs.dcvsV3Config.powerMode = QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_PERFORMANCE_MODE;
  dcvs.dcvsV3Config.setSleepLatency = 1;
  dcvs.dcvsV3Config.sleepLatency = 40;
  dcvs.dcvsV3Config.setBusParams = 1;
  dcvs.dcvsV3Config.busVoltageCornerMin = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  dcvs.dcvsV3Config.busVoltageCornerTarget = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  dcvs.dcvsV3Config.busVoltageCornerMax = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  dcvs.dcvsV3Config.setCoreParams = 1;
  dcvs.dcvsV3Config.coreVoltageCornerMin = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  dcvs.dcvsV3Config.coreVoltageCornerTarget = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  dcvs.dcvsV3Config.coreVoltageCornerMax = DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  QnnHtpPerfInfrastructure_PowerConfig_t latency{};
  latency.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_CONTROL_LATENCY;
  latency.rpcControlLatencyConfig = 100;
  QnnHtpPerfInfrastructure_PowerConfig_t polling{};
  polling.option = QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_POLLING_TIME;
  polling.rpcPollingTimeConfig = 9999;
  const QnnHtpPerfInfrastructure_PowerConfig_t* votes[] = {&dcvs, &latency, &polling, nullptr};
  rc = perf.setPowerConfig(id, votes);
  std::printf("setPowerConfig %llu\n", (unsigned long long)rc);

  QnnHtpPerfInfrastructure_MemoryConfig_t grow{};
  grow.option = QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIGOPTION_GROW_SIZE;
  grow.memGrowSizeConfig = 4096;
  const QnnHtpPerfInfrastructure_MemoryConfig_t* memory[] = {&grow, nullptr};
  rc = perf.setMemoryConfig(0, 0, memory);
  std::printf("setMemoryConfig %llu\n", (unsigned long long)rc);

  rc = perf.destroyPowerConfigId(id);
  std::printf("destroyPowerConfigId %llu\n", (unsigned long long)rc);
  // The id is gone: the backend refuses a vote on it, and the Saver records the refusal.
  const QnnHtpPerfInfrastructure_PowerConfig_t* late[] = {&latency, nullptr};
  rc = perf.setPowerConfig(id, late);
  std::printf("setPowerConfig %llu\n", (unsigned long long)rc);
  return 0;
}
