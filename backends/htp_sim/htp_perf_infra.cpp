#include "htp_perf_infra.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "htp_arch.h"
#include "runtime/runtime_support.h"

namespace qnn::htp {
namespace {

struct Vote {
  bool hasDcvs = false;
  QnnHtpPerfInfrastructure_DcvsV3_t dcvs{};
  uint32_t rpcControlLatencyUs = 0;
  uint32_t rpcPollingTimeUs = 0;
  uint32_t hmxTimeoutUs = 0;
  // Recorded, no effect on the simulated clock: the HMX clock vote, adaptive
  // polling (a CPU-side power saving) and the DDR performance mode.
  bool hasHmx = false;
  QnnHtpPerfInfrastructure_HmxV2_t hmx{};
  uint32_t adaptivePollingUs = 0;
  uint32_t ddrPerfMode = 0;
};

std::mutex gMutex;
// Power config id -> vote. Id 0 is the process's default power context: it
// always exists, createPowerConfigId never hands it out, and destroying it
// only withdraws its vote. The vendor's own HTP net-run extension (2.25) votes
// on id 0 without creating it, so the vendor's backend takes it.
std::map<uint32_t, Vote> gVotes = {{0, Vote{}}};
uint32_t gNextId = 1;
uint32_t gMemGrowSize = 0;

bool validCorner(uint32_t c) { return clockMHzForCorner(c) != 0; }

bool validPowerMode(uint32_t m) {
  switch (m) {
    case QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_ADJUST_UP_DOWN:
    case QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_ADJUST_ONLY_UP:
    case QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_POWER_SAVER_MODE:
    case QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_POWER_SAVER_AGGRESSIVE_MODE:
    case QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_PERFORMANCE_MODE:
    case QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_DUTY_CYCLE_MODE:
      return true;
    default:
      return false;
  }
}

Qnn_ErrorHandle_t checkDcvs(const QnnHtpPerfInfrastructure_DcvsV3_t& d, uint32_t id) {
  if (d.contextId != id) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  if (d.setDcvsEnable && d.dcvsEnable > 1) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  if (d.setDcvsEnable && !validPowerMode(d.powerMode)) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  if (d.setSleepDisable && d.sleepDisable > 1) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  auto corners = [](uint32_t lo, uint32_t target, uint32_t hi) {
    return validCorner(lo) && validCorner(target) && validCorner(hi) &&
           clockMHzForCorner(lo) <= clockMHzForCorner(target) && clockMHzForCorner(target) <= clockMHzForCorner(hi);
  };
  if (d.setBusParams && !corners(d.busVoltageCornerMin, d.busVoltageCornerTarget, d.busVoltageCornerMax))
    return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  if (d.setCoreParams && !corners(d.coreVoltageCornerMin, d.coreVoltageCornerTarget, d.coreVoltageCornerMax))
    return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  return QNN_SUCCESS;
}

// A DCVS vote changes only the groups whose set* flag is 1; the others keep
// what earlier votes on the id said. The vendor's HTP net-run extension sends a
// full burst vote, then one with only setDcvsEnable (DCVS enable and power
// mode): that must not withdraw the clock of the first.
void mergeDcvs(QnnHtpPerfInfrastructure_DcvsV3_t& into, const QnnHtpPerfInfrastructure_DcvsV3_t& d) {
  into.contextId = d.contextId;
  if (d.setDcvsEnable) {
    into.setDcvsEnable = 1;
    into.dcvsEnable = d.dcvsEnable;
    into.powerMode = d.powerMode;
  }
  if (d.setSleepLatency) {
    into.setSleepLatency = 1;
    into.sleepLatency = d.sleepLatency;
  }
  if (d.setSleepDisable) {
    into.setSleepDisable = 1;
    into.sleepDisable = d.sleepDisable;
  }
  if (d.setBusParams) {
    into.setBusParams = 1;
    into.busVoltageCornerMin = d.busVoltageCornerMin;
    into.busVoltageCornerTarget = d.busVoltageCornerTarget;
    into.busVoltageCornerMax = d.busVoltageCornerMax;
  }
  if (d.setCoreParams) {
    into.setCoreParams = 1;
    into.coreVoltageCornerMin = d.coreVoltageCornerMin;
    into.coreVoltageCornerTarget = d.coreVoltageCornerTarget;
    into.coreVoltageCornerMax = d.coreVoltageCornerMax;
  }
}

Qnn_ErrorHandle_t createPowerConfigId(uint32_t deviceId, uint32_t coreId, uint32_t* powerConfigId) {
  if (!powerConfigId) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_HANDLE_PTR;
  if (deviceId != 0 || coreId != 0) {
    sdk::logMessage(sdk::rt::anyLogger().get(), QNN_LOG_LEVEL_ERROR,
                    "createPowerConfigId: device " + std::to_string(deviceId) + " core " + std::to_string(coreId) +
                        " does not exist (the simulator has one HTP, device 0 core 0)");
    return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  }
  std::lock_guard<std::mutex> lock(gMutex);
  *powerConfigId = gNextId++;
  gVotes[*powerConfigId] = Vote{};
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t destroyPowerConfigId(uint32_t powerConfigId) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (powerConfigId == 0) {
    gVotes[0] = Vote{};
    return QNN_SUCCESS;
  }
  return gVotes.erase(powerConfigId) ? QNN_SUCCESS : QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
}

// All-or-nothing: every config is checked before the vote changes. The
// other options are single values (HMX V2 has no set* flags: a vote replaces
// the previous HMX vote whole, hmxPickDefault included).
Qnn_ErrorHandle_t setPowerConfig(uint32_t powerConfigId, const QnnHtpPerfInfrastructure_PowerConfig_t** config) {
  if (!config) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  std::lock_guard<std::mutex> lock(gMutex);
  auto it = gVotes.find(powerConfigId);
  if (it == gVotes.end()) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  Vote v = it->second;
  for (size_t i = 0; config[i]; ++i) {
    const QnnHtpPerfInfrastructure_PowerConfig_t& c = *config[i];
    switch (c.option) {
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3:
        if (Qnn_ErrorHandle_t e = checkDcvs(c.dcvsV3Config, powerConfigId)) return e;
        v.hasDcvs = true;
        mergeDcvs(v.dcvs, c.dcvsV3Config);
        break;
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_CONTROL_LATENCY:
        v.rpcControlLatencyUs = c.rpcControlLatencyConfig;
        break;
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_POLLING_TIME:
        if (c.rpcPollingTimeConfig > QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIG_MAX_RPC_POLLING_TIME)
          return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
        v.rpcPollingTimeUs = c.rpcPollingTimeConfig;
        break;
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_HMX_TIMEOUT_INTERVAL_US:
        v.hmxTimeoutUs = c.hmxTimeoutIntervalUsConfig;
        break;
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_HMX_V2:
        v.hasHmx = true;
        v.hmx = c.hmxV2Config;
        break;
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_ADAPTIVE_POLLING_TIME:
        v.adaptivePollingUs = c.adaptivePollingTimeConfig;
        break;
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DDR_PERF_MODE:
        v.ddrPerfMode = static_cast<uint32_t>(c.ddrPerfModeConfig);
        break;
      default:
        return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_UNSUPPORTED_CONFIG;
    }
  }
  it->second = v;
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t setMemoryConfig(uint32_t deviceId, uint32_t coreId,
                                  const QnnHtpPerfInfrastructure_MemoryConfig_t** config) {
  if (!config) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  if (deviceId != 0 || coreId != 0) return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  uint32_t grow = 0;
  for (size_t i = 0; config[i]; ++i) {
    if (config[i]->option != QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIGOPTION_GROW_SIZE)
      return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_UNSUPPORTED_CONFIG;
    grow = config[i]->memGrowSizeConfig;
  }
  std::lock_guard<std::mutex> lock(gMutex);
  gMemGrowSize = grow;
  return QNN_SUCCESS;
}

// The name clients give the preset a vote most resembles (the presets are
// client-side: ORT's htp_performance_mode, qnn-net-run's --perf_profile).
std::string modeName(const QnnHtpPerfInfrastructure_DcvsV3_t& d) {
  uint32_t mhz = clockMHzForCorner(d.coreVoltageCornerTarget);
  bool dcvsOff = d.setDcvsEnable && d.dcvsEnable == 0;
  if (mhz >= 1600 && dcvsOff) return "burst";
  if (mhz >= 1400) return dcvsOff ? "sustained_high_performance" : "high_performance";
  if (mhz >= 1200) return "balanced";
  if (mhz >= 1000) return "low_balanced";
  if (mhz >= 800) return "power_saver";
  return "low_power_saver";
}

}  // namespace

const QnnHtpDevice_Infrastructure_t* perfInfrastructure() {
  static const QnnHtpDevice_Infrastructure_t infra = [] {
    QnnHtpDevice_Infrastructure_t i{};
    i.infraType = QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF;
    i.perfInfra.createPowerConfigId = createPowerConfigId;
    i.perfInfra.destroyPowerConfigId = destroyPowerConfigId;
    i.perfInfra.setPowerConfig = setPowerConfig;
    i.perfInfra.setMemoryConfig = setMemoryConfig;
    return i;
  }();
  return &infra;
}

PowerState currentPowerState() {
  std::lock_guard<std::mutex> lock(gMutex);
  PowerState s;
  s.clockMHz = kNominalClockMHz;
  s.mode = "default";
  uint32_t best = 0;
  for (auto& [id, v] : gVotes) {
    s.rpcControlLatencyUs = std::max(s.rpcControlLatencyUs, v.rpcControlLatencyUs);
    s.rpcPollingTimeUs = std::max(s.rpcPollingTimeUs, v.rpcPollingTimeUs);
    if (!v.hasDcvs || !v.dcvs.setCoreParams) continue;
    uint32_t mhz = clockMHzForCorner(v.dcvs.coreVoltageCornerTarget);
    if (mhz > best) {
      best = mhz;
      s.clockMHz = mhz;
      s.mode = modeName(v.dcvs);
    }
  }
  return s;
}

}  // namespace qnn::htp
