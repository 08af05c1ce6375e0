#include "htp_sim/htp_perf_infra.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "htp_sim/htp_arch.h"
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
  // API 2.39: CENG votes (legacy or expanded corners) are recorded with no effect on the
  // simulated clock; DCVS_V3_EXP becomes a DCVS vote (legacyCornerFor) plus its perf levels.
  bool hasCeng = false;
  QnnHtpPerfInfrastructure_CengExp_t ceng{};
  uint32_t corePerfMode = 0, busPerfMode = 0;
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

// API 2.39's expanded voltage corners (QnnHtpPerfInfrastructure_ExpVoltageCorner_t).
bool validExpCorner(uint32_t c) {
  static const uint32_t kCorners[] = {
      DCVS_EXP_VCORNER_DISABLE,     DCVS_EXP_VCORNER_MIN,          DCVS_EXP_VCORNER_RET,
      DCVS_EXP_VCORNER_MIN_SVS,     DCVS_EXP_VCORNER_LOW_SVS_D3_0, DCVS_EXP_VCORNER_LOW_SVS_D3,
      DCVS_EXP_VCORNER_LOW_SVS_D2_1, DCVS_EXP_VCORNER_LOW_SVS_D2,  DCVS_EXP_VCORNER_LOW_SVS_D1_2,
      DCVS_EXP_VCORNER_LOW_SVS_D1_1, DCVS_EXP_VCORNER_LOW_SVS_D1_0, DCVS_EXP_VCORNER_LOW_SVS_D1,
      DCVS_EXP_VCORNER_LOW_SVS_D0_1, DCVS_EXP_VCORNER_LOW_SVS_D0_0, DCVS_EXP_VCORNER_LOW_SVS_D0,
      DCVS_EXP_VCORNER_LOW_SVS,     DCVS_EXP_VCORNER_LOW_SVS_P1,   DCVS_EXP_VCORNER_LOW_SVS_L0,
      DCVS_EXP_VCORNER_LOW_SVS_L1,  DCVS_EXP_VCORNER_LOW_SVS_L2,   DCVS_EXP_VCORNER_SVS,
      DCVS_EXP_VCORNER_SVS_L0,      DCVS_EXP_VCORNER_SVS_L0_1,     DCVS_EXP_VCORNER_SVS_L0_2,
      DCVS_EXP_VCORNER_SVS_L1,      DCVS_EXP_VCORNER_SVS_L2,       DCVS_EXP_VCORNER_SVS_L2_0,
      DCVS_EXP_VCORNER_NOM,         DCVS_EXP_VCORNER_NOM_L0,       DCVS_EXP_VCORNER_NOM_L0_0,
      DCVS_EXP_VCORNER_NOM_L1,      DCVS_EXP_VCORNER_NOM_L2,       DCVS_EXP_VCORNER_NOM_L3,
      DCVS_EXP_VCORNER_TUR,         DCVS_EXP_VCORNER_TUR_L0,       DCVS_EXP_VCORNER_TUR_L1,
      DCVS_EXP_VCORNER_TUR_L1_0,    DCVS_EXP_VCORNER_TUR_L1_1,     DCVS_EXP_VCORNER_TUR_L1_2,
      DCVS_EXP_VCORNER_TUR_L2,      DCVS_EXP_VCORNER_TUR_L3,       DCVS_EXP_VCORNER_TUR_L3_0,
      DCVS_EXP_VCORNER_TUR_L3_1,    DCVS_EXP_VCORNER_TUR_L3_2,     DCVS_EXP_VCORNER_TUR_L4,
      DCVS_EXP_VCORNER_TUR_L5,      DCVS_EXP_VCORNER_SUPER_TURBO,  DCVS_EXP_VCORNER_SUPER_TURBO_NO_CPR,
      DCVS_EXP_VCORNER_MAX};
  return std::find(std::begin(kCorners), std::end(kCorners), c) != std::end(kCorners);
}

// The legacy corner an expanded one is read as, for the simulated clock: the legacy corner of the
// same name, else the nearest named one below (LOW_SVS is the legacy SVS2, SVS_L1 SVS_PLUS, NOM_L1
// NOM_PLUS, TUR_L1 TURBO_PLUS). This project's reading: no public table relates the two scales.
uint32_t legacyCornerFor(uint32_t exp) {
  if (exp == DCVS_EXP_VCORNER_DISABLE) return DCVS_VOLTAGE_CORNER_DISABLE;
  if (exp == DCVS_EXP_VCORNER_MAX) return DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER;
  static const std::pair<uint32_t, uint32_t> kFrom[] = {
      {DCVS_EXP_VCORNER_TUR_L3, DCVS_VOLTAGE_VCORNER_TURBO_L3}, {DCVS_EXP_VCORNER_TUR_L2, DCVS_VOLTAGE_VCORNER_TURBO_L2},
      {DCVS_EXP_VCORNER_TUR_L1, DCVS_VOLTAGE_VCORNER_TURBO_PLUS}, {DCVS_EXP_VCORNER_TUR, DCVS_VOLTAGE_VCORNER_TURBO},
      {DCVS_EXP_VCORNER_NOM_L1, DCVS_VOLTAGE_VCORNER_NOM_PLUS},  {DCVS_EXP_VCORNER_NOM, DCVS_VOLTAGE_VCORNER_NOM},
      {DCVS_EXP_VCORNER_SVS_L1, DCVS_VOLTAGE_VCORNER_SVS_PLUS},  {DCVS_EXP_VCORNER_SVS, DCVS_VOLTAGE_VCORNER_SVS},
      {DCVS_EXP_VCORNER_LOW_SVS, DCVS_VOLTAGE_VCORNER_SVS2},     {DCVS_EXP_VCORNER_MIN, DCVS_VOLTAGE_VCORNER_MIN_VOLTAGE_CORNER}};
  for (const auto& [from, legacy] : kFrom)
    if (exp >= from) return legacy;
  return 0;
}

bool validPerfMode(uint32_t m) { return m <= QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D15; }

// Expanded min <= target <= max, each a defined corner.
bool expCorners(uint32_t lo, uint32_t target, uint32_t hi) {
  return validExpCorner(lo) && validExpCorner(target) && validExpCorner(hi) && lo <= target && target <= hi;
}

// DCVS_V3_EXP as the DCVS vote it amounts to: DCVS on (implicit), corners read as legacy ones.
Qnn_ErrorHandle_t dcvsFromExp(const QnnHtpPerfInfrastructure_DcvsV3Exp_t& x, QnnHtpPerfInfrastructure_DcvsV3_t* d) {
  if ((x.setBusParams && !expCorners(x.busVoltageCornerMin, x.busVoltageCornerTarget, x.busVoltageCornerMax)) ||
      (x.setCoreParams && !expCorners(x.coreVoltageCornerMin, x.coreVoltageCornerTarget, x.coreVoltageCornerMax)) ||
      !validPerfMode(x.corePerfMode) || !validPerfMode(x.busPerfMode))
    return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
  *d = {};
  d->contextId = x.contextId;
  d->setDcvsEnable = 1;
  d->dcvsEnable = 1;
  d->powerMode = x.powerMode;
  d->setSleepLatency = x.setSleepLatency;
  d->sleepLatency = x.sleepLatency;
  d->setSleepDisable = x.setSleepDisable;
  d->sleepDisable = x.sleepDisable;
  d->setBusParams = x.setBusParams;
  d->busVoltageCornerMin = QnnHtpPerfInfrastructure_VoltageCorner_t(legacyCornerFor(x.busVoltageCornerMin));
  d->busVoltageCornerTarget = QnnHtpPerfInfrastructure_VoltageCorner_t(legacyCornerFor(x.busVoltageCornerTarget));
  d->busVoltageCornerMax = QnnHtpPerfInfrastructure_VoltageCorner_t(legacyCornerFor(x.busVoltageCornerMax));
  d->setCoreParams = x.setCoreParams;
  d->coreVoltageCornerMin = QnnHtpPerfInfrastructure_VoltageCorner_t(legacyCornerFor(x.coreVoltageCornerMin));
  d->coreVoltageCornerTarget = QnnHtpPerfInfrastructure_VoltageCorner_t(legacyCornerFor(x.coreVoltageCornerTarget));
  d->coreVoltageCornerMax = QnnHtpPerfInfrastructure_VoltageCorner_t(legacyCornerFor(x.coreVoltageCornerMax));
  return QNN_SUCCESS;
}

// One line per option per process: votes repeat with every inference.
void noteOnce(bool* said, const std::string& what) {
  if (*said) return;
  *said = true;
  sdk::logMessage(sdk::rt::anyLogger().get(), QNN_LOG_LEVEL_WARN, "setPowerConfig: " + what);
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
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3_EXP: {
        QnnHtpPerfInfrastructure_DcvsV3_t d;
        if (Qnn_ErrorHandle_t e = dcvsFromExp(c.dcvsV3ExpConfig, &d)) return e;
        if (Qnn_ErrorHandle_t e = checkDcvs(d, powerConfigId)) return e;
        v.hasDcvs = true;
        mergeDcvs(v.dcvs, d);
        v.corePerfMode = c.dcvsV3ExpConfig.corePerfMode;
        v.busPerfMode = c.dcvsV3ExpConfig.busPerfMode;
        if (v.corePerfMode != QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH) {
          static bool said = false;
          noteOnce(&said, "DCVS_V3_EXP core perf level " + std::to_string(v.corePerfMode) +
                              " recorded; the simulated clock is its target corner's highest");
        }
        break;
      }
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_CENG: {
        const QnnHtpPerfInfrastructure_Ceng_t& g = c.cengConfig;
        if (!validCorner(g.cengVoltageCornerMin) || !validCorner(g.cengVoltageCornerTarget) ||
            !validCorner(g.cengVoltageCornerMax) || !validPerfMode(g.cengPerfMode))
          return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
        v.hasCeng = true;
        v.ceng = {QnnHtpPerfInfrastructure_ExpVoltageCorner_t(g.cengVoltageCornerMin),
                  QnnHtpPerfInfrastructure_ExpVoltageCorner_t(g.cengVoltageCornerTarget),
                  QnnHtpPerfInfrastructure_ExpVoltageCorner_t(g.cengVoltageCornerMax), g.cengPerfMode};
        static bool said = false;
        noteOnce(&said, "CENG vote recorded with no effect on the simulated clock (no CENG is modelled)");
        break;
      }
      case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_CENG_EXP: {
        const QnnHtpPerfInfrastructure_CengExp_t& g = c.cengExpConfig;
        if (!expCorners(g.cengVoltageCornerMin, g.cengVoltageCornerTarget, g.cengVoltageCornerMax) ||
            !validPerfMode(g.cengPerfMode))
          return QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT;
        v.hasCeng = true;
        v.ceng = g;
        static bool said = false;
        noteOnce(&said, "CENG_EXP vote recorded with no effect on the simulated clock (no CENG is modelled)");
        break;
      }
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
