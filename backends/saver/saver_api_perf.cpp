// QnnDevice_getInfrastructure and the HTP perf infrastructure behind it.
//
// Only recording, the Saver has no infrastructure to give: like the vendor's
// Saver it answers QNN_SAVER_ERROR_DUMMY_RETVALUE (the client's pointer is left
// as it was, as every refusal leaves outputs), so a client that checks the code
// (ONNX Runtime's QNN EP does) goes on without power votes instead of
// dereferencing nothing.
//
// Passing through to an HTP backend (backend id 6, whose infrastructure is a
// QnnHtpDevice_Infrastructure_t), the client gets the Saver's copy of the
// backend's struct with each perf member replaced by a recording wrapper
// (call ids 1001-1004, docs/saver-trace-format.md). Any other backend's
// infrastructure is handed over as it is, and its calls are not recorded (said
// once on stderr). A backend answering success without an infrastructure is
// answered QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE.
#include <mutex>

#include "HTP/QnnHtpCommon.h"
#include "HTP/QnnHtpDevice.h"
#include "saver/saver_api.h"
#include "saver/saver_forward.h"
#include "saver/saver_log.h"

namespace qnn::saver {

using trace::Value;

namespace {

struct PerfWrap {
  std::mutex mu;
  const QnnHtpDevice_Infrastructure_t* real = nullptr;  // the backend's, as last handed out
  QnnHtpDevice_Infrastructure_t wrapped{};              // what the client gets
  QnnHtpDevice_PerfInfrastructure_t fns{};              // the backend's members the wrappers call
  bool toldUnrecorded = false;
};

PerfWrap& perf() {
  static PerfWrap* w = new PerfWrap();  // never destroyed: clients may vote from exit handlers
  return *w;
}

QnnHtpDevice_PerfInfrastructure_t realPerf() {
  std::lock_guard<std::mutex> lock(perf().mu);
  return perf().fns;
}

Value dcvsValue(const QnnHtpPerfInfrastructure_DcvsV3_t& d) {
  Value v = Value::record();
  v.add("contextId", Value::uint(d.contextId));
  v.add("setDcvsEnable", Value::uint(d.setDcvsEnable));
  v.add("dcvsEnable", Value::uint(d.dcvsEnable));
  v.add("powerMode", Value::uint(uint32_t(d.powerMode)));
  v.add("setSleepLatency", Value::uint(d.setSleepLatency));
  v.add("sleepLatency", Value::uint(d.sleepLatency));
  v.add("setSleepDisable", Value::uint(d.setSleepDisable));
  v.add("sleepDisable", Value::uint(d.sleepDisable));
  v.add("setBusParams", Value::uint(d.setBusParams));
  v.add("busVoltageCornerMin", Value::uint(uint32_t(d.busVoltageCornerMin)));
  v.add("busVoltageCornerTarget", Value::uint(uint32_t(d.busVoltageCornerTarget)));
  v.add("busVoltageCornerMax", Value::uint(uint32_t(d.busVoltageCornerMax)));
  v.add("setCoreParams", Value::uint(d.setCoreParams));
  v.add("coreVoltageCornerMin", Value::uint(uint32_t(d.coreVoltageCornerMin)));
  v.add("coreVoltageCornerTarget", Value::uint(uint32_t(d.coreVoltageCornerTarget)));
  v.add("coreVoltageCornerMax", Value::uint(uint32_t(d.coreVoltageCornerMax)));
  return v;
}

Value powerConfigValue(const QnnHtpPerfInfrastructure_PowerConfig_t& c) {
  Value v = Value::record();
  v.add("option", Value::uint(uint32_t(c.option)));
  switch (c.option) {
    case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3: v.add("dcvsV3", dcvsValue(c.dcvsV3Config)); break;
    case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_CONTROL_LATENCY:
      v.add("rpcControlLatency", Value::uint(c.rpcControlLatencyConfig));
      break;
    case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_POLLING_TIME:
      v.add("rpcPollingTime", Value::uint(c.rpcPollingTimeConfig));
      break;
    case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_HMX_TIMEOUT_INTERVAL_US:
      v.add("hmxTimeoutIntervalUs", Value::uint(c.hmxTimeoutIntervalUsConfig));
      break;
    case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_HMX_V2: {
      Value h = Value::record();
      h.add("hmxPickDefault", Value::uint(c.hmxV2Config.hmxPickDefault));
      h.add("hmxVoltageCornerMin", Value::uint(uint32_t(c.hmxV2Config.hmxVoltageCornerMin)));
      h.add("hmxVoltageCornerTarget", Value::uint(uint32_t(c.hmxV2Config.hmxVoltageCornerTarget)));
      h.add("hmxVoltageCornerMax", Value::uint(uint32_t(c.hmxV2Config.hmxVoltageCornerMax)));
      h.add("hmxPerfMode", Value::uint(uint32_t(c.hmxV2Config.hmxPerfMode)));
      v.add("hmxV2", std::move(h));
      break;
    }
    case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_ADAPTIVE_POLLING_TIME:
      v.add("adaptivePollingTime", Value::uint(c.adaptivePollingTimeConfig));
      break;
    case QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DDR_PERF_MODE:
      v.add("ddrPerfMode", Value::uint(c.ddrPerfModeConfig));
      break;
    default: break;  // the option alone: the backend decides what it makes of it
  }
  return v;
}

template <typename T, typename Fn>
Value nullTerminated(const T* const* list, Fn&& each) {
  if (!list) return Value::null();
  Value v = Value::list();
  for (size_t k = 0; list[k]; ++k) v.push(each(*list[k]));
  return v;
}

Qnn_ErrorHandle_t createPowerConfigId(uint32_t deviceId, uint32_t coreId, uint32_t* powerConfigId) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("deviceId", Value::uint(deviceId));
    a.add("coreId", Value::uint(coreId));
    Qnn_ErrorHandle_t rc = forward(realPerf().createPowerConfigId, deviceId, coreId, powerConfigId);
    if (rc == QNN_SUCCESS && powerConfigId) a.add("powerConfigId", Value::uint(*powerConfigId));
    return rc;
  });
}

Qnn_ErrorHandle_t destroyPowerConfigId(uint32_t powerConfigId) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("powerConfigId", Value::uint(powerConfigId));
    return forward(realPerf().destroyPowerConfigId, powerConfigId);
  });
}

Qnn_ErrorHandle_t setPowerConfig(uint32_t powerConfigId, const QnnHtpPerfInfrastructure_PowerConfig_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("powerConfigId", Value::uint(powerConfigId));
    a.add("config", nullTerminated(config, powerConfigValue));
    return forward(realPerf().setPowerConfig, powerConfigId, config);
  });
}

Qnn_ErrorHandle_t setMemoryConfig(uint32_t deviceId, uint32_t coreId,
                                  const QnnHtpPerfInfrastructure_MemoryConfig_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("deviceId", Value::uint(deviceId));
    a.add("coreId", Value::uint(coreId));
    a.add("config", nullTerminated(config, [](const QnnHtpPerfInfrastructure_MemoryConfig_t& c) {
            Value v = Value::record();
            v.add("option", Value::uint(uint32_t(c.option)));
            if (c.option == QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIGOPTION_GROW_SIZE)
              v.add("memGrowSize", Value::uint(c.memGrowSizeConfig));
            return v;
          }));
    return forward(realPerf().setMemoryConfig, deviceId, coreId, config);
  });
}

template <typename Fn>
Fn wrapIfPresent(Fn real, Fn wrapper) {
  return real ? wrapper : nullptr;
}

// The infrastructure the client gets for the backend's `got`; `a` records what it is.
QnnDevice_Infrastructure_t wrapInfrastructure(QnnDevice_Infrastructure_t got, Value& a) {
  if (SaverState::get().realBackendId() != QNN_BACKEND_ID_HTP) {
    a.add("recorded", Value::uint(0));
    std::lock_guard<std::mutex> lock(perf().mu);
    if (!perf().toldUnrecorded)
      logError("QnnDevice_getInfrastructure: backend id " + std::to_string(SaverState::get().realBackendId()) +
               " has an infrastructure layout the Saver does not know; it is passed through and its calls are "
               "not recorded");
    perf().toldUnrecorded = true;
    return got;
  }
  const auto* real = reinterpret_cast<const QnnHtpDevice_Infrastructure_t*>(got);
  a.add("infraType", Value::uint(uint32_t(real->infraType)));
  std::lock_guard<std::mutex> lock(perf().mu);
  if (real->infraType != QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF) {
    a.add("recorded", Value::uint(0));
    if (!perf().toldUnrecorded)
      logError("QnnDevice_getInfrastructure: HTP infrastructure type " + std::to_string(uint32_t(real->infraType)) +
               " is not the perf infrastructure; it is passed through and its calls are not recorded");
    perf().toldUnrecorded = true;
    return got;
  }
  a.add("recorded", Value::uint(1));
  PerfWrap& w = perf();
  if (w.real != real) {  // the backend's struct lives as long as its library: wrap it once
    w.real = real;
    w.fns = real->perfInfra;
    w.wrapped.infraType = QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF;
    QnnHtpDevice_PerfInfrastructure_t& p = w.wrapped.perfInfra;
    p.createPowerConfigId = wrapIfPresent(w.fns.createPowerConfigId, &Entry<trace::Call::htpPerfCreatePowerConfigId, &createPowerConfigId>::call);
    p.destroyPowerConfigId = wrapIfPresent(w.fns.destroyPowerConfigId, &Entry<trace::Call::htpPerfDestroyPowerConfigId, &destroyPowerConfigId>::call);
    p.setPowerConfig = wrapIfPresent(w.fns.setPowerConfig, &Entry<trace::Call::htpPerfSetPowerConfig, &setPowerConfig>::call);
    p.setMemoryConfig = wrapIfPresent(w.fns.setMemoryConfig, &Entry<trace::Call::htpPerfSetMemoryConfig, &setMemoryConfig>::call);
  }
  return reinterpret_cast<QnnDevice_Infrastructure_t>(&w.wrapped);
}

}  // namespace

Qnn_ErrorHandle_t deviceGetInfrastructure(const QnnDevice_Infrastructure_t* infra) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    if (!infra) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    if (!pass()) return QNN_SAVER_ERROR_DUMMY_RETVALUE;
    QnnDevice_Infrastructure_t got = nullptr;
    Qnn_ErrorHandle_t rc = forward(pass()->deviceGetInfrastructure, &got);
    if (rc != QNN_SUCCESS) return rc;
    if (!got) {
      logError("QnnDevice_getInfrastructure: the pass-through backend answered success without an infrastructure");
      return QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE;
    }
    *const_cast<QnnDevice_Infrastructure_t*>(infra) = wrapInfrastructure(got, a);
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::saver
