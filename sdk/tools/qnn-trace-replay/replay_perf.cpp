// QnnDevice_getInfrastructure and the HTP perf infrastructure calls the Saver
// records behind it (call ids 1001-1004): replayed on an HTP backend (id 6),
// recorded power config ids mapped to the ones the live backend creates
// (a DCVS vote names its id in contextId too). On another backend these calls
// are skipped: its infrastructure is not a QnnHtpDevice_Infrastructure_t.
#include "HTP/QnnHtpCommon.h"
#include "HTP/QnnHtpDevice.h"
#include "tools/qnn-trace-replay/replayer.h"

namespace qnn::replay {

using trace::Call;
using trace::Value;

namespace {

uint32_t u32(const Value& v, const char* name) { return uint32_t(field(v, name).u); }

}  // namespace

uint32_t Replayer::livePowerConfigId(uint64_t recorded) const {
  auto it = powerConfigIds_.find(recorded);
  return it != powerConfigIds_.end() ? it->second : uint32_t(recorded);  // id 0, or one never created here
}

template <>
bool Replayer::on<Call::deviceGetInfrastructure>(const trace::CallRecord&, Qnn_ErrorHandle_t* rc) {
  if (options_.backendId != QNN_BACKEND_ID_HTP) return false;
  QnnDevice_Infrastructure_t infra = nullptr;
  *rc = api_.deviceGetInfrastructure(&infra);
  auto* htp = reinterpret_cast<const QnnHtpDevice_Infrastructure_t*>(infra);
  if (*rc == QNN_SUCCESS && htp && htp->infraType == QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF)
    perf_ = &htp->perfInfra;
  return true;
}

template <>
bool Replayer::on<Call::htpPerfCreatePowerConfigId>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::htpPerfCreatePowerConfigId> a(c);
  if (!perf_ || !perf_->createPowerConfigId) return false;  // no HTP perf infrastructure in this replay
  uint32_t id = 0;
  *rc = perf_->createPowerConfigId(uint32_t(a.deviceId.u), uint32_t(a.coreId.u), &id);
  if (*rc == QNN_SUCCESS && present(a.powerConfigId)) powerConfigIds_[a.powerConfigId.u] = id;
  return true;
}

template <>
bool Replayer::on<Call::htpPerfDestroyPowerConfigId>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::htpPerfDestroyPowerConfigId> a(c);
  if (!perf_ || !perf_->destroyPowerConfigId) return false;  // no HTP perf infrastructure in this replay
  uint64_t recorded = a.powerConfigId.u;
  *rc = perf_->destroyPowerConfigId(livePowerConfigId(recorded));
  if (*rc == QNN_SUCCESS) powerConfigIds_.erase(recorded);
  return true;
}

template <>
bool Replayer::on<Call::htpPerfSetPowerConfig>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::htpPerfSetPowerConfig> a(c);
  if (!perf_ || !perf_->setPowerConfig) return false;  // no HTP perf infrastructure in this replay
  ConfigArray<QnnHtpPerfInfrastructure_PowerConfig_t> cfgs(a.config, [&](const Value& v) {
    QnnHtpPerfInfrastructure_PowerConfig_t p{};
    p.option = QnnHtpPerfInfrastructure_PowerConfigOption_t(u32(v, "option"));
    if (const Value* d = v.field("dcvsV3")) {
      QnnHtpPerfInfrastructure_DcvsV3_t& o = p.dcvsV3Config;
      o.contextId = livePowerConfigId(field(*d, "contextId").u);
      o.setDcvsEnable = u32(*d, "setDcvsEnable");
      o.dcvsEnable = u32(*d, "dcvsEnable");
      o.powerMode = QnnHtpPerfInfrastructure_PowerMode_t(u32(*d, "powerMode"));
      o.setSleepLatency = u32(*d, "setSleepLatency");
      o.sleepLatency = u32(*d, "sleepLatency");
      o.setSleepDisable = u32(*d, "setSleepDisable");
      o.sleepDisable = u32(*d, "sleepDisable");
      o.setBusParams = u32(*d, "setBusParams");
      o.busVoltageCornerMin = QnnHtpPerfInfrastructure_VoltageCorner_t(u32(*d, "busVoltageCornerMin"));
      o.busVoltageCornerTarget = QnnHtpPerfInfrastructure_VoltageCorner_t(u32(*d, "busVoltageCornerTarget"));
      o.busVoltageCornerMax = QnnHtpPerfInfrastructure_VoltageCorner_t(u32(*d, "busVoltageCornerMax"));
      o.setCoreParams = u32(*d, "setCoreParams");
      o.coreVoltageCornerMin = QnnHtpPerfInfrastructure_VoltageCorner_t(u32(*d, "coreVoltageCornerMin"));
      o.coreVoltageCornerTarget = QnnHtpPerfInfrastructure_VoltageCorner_t(u32(*d, "coreVoltageCornerTarget"));
      o.coreVoltageCornerMax = QnnHtpPerfInfrastructure_VoltageCorner_t(u32(*d, "coreVoltageCornerMax"));
    } else if (const Value* h = v.field("hmxV2")) {
      QnnHtpPerfInfrastructure_HmxV2_t& o = p.hmxV2Config;
      o.hmxPickDefault = u32(*h, "hmxPickDefault");
      o.hmxVoltageCornerMin = QnnHtpPerfInfrastructure_ExpVoltageCorner_t(u32(*h, "hmxVoltageCornerMin"));
      o.hmxVoltageCornerTarget = QnnHtpPerfInfrastructure_ExpVoltageCorner_t(u32(*h, "hmxVoltageCornerTarget"));
      o.hmxVoltageCornerMax = QnnHtpPerfInfrastructure_ExpVoltageCorner_t(u32(*h, "hmxVoltageCornerMax"));
      o.hmxPerfMode = QnnHtpPerfInfrastructure_ClkPerfMode_t(u32(*h, "hmxPerfMode"));
    } else if (const Value* x = v.field("rpcControlLatency")) {
      p.rpcControlLatencyConfig = uint32_t(x->u);
    } else if (const Value* x = v.field("rpcPollingTime")) {
      p.rpcPollingTimeConfig = uint32_t(x->u);
    } else if (const Value* x = v.field("hmxTimeoutIntervalUs")) {
      p.hmxTimeoutIntervalUsConfig = uint32_t(x->u);
    } else if (const Value* x = v.field("adaptivePollingTime")) {
      p.adaptivePollingTimeConfig = uint32_t(x->u);
    } else if (const Value* x = v.field("ddrPerfMode")) {
      p.ddrPerfModeConfig = uint32_t(x->u);
    }
    return p;
  });
  bool none = a.config.kind == Value::Kind::Null;
  *rc = perf_->setPowerConfig(livePowerConfigId(a.powerConfigId.u), none ? nullptr : cfgs.list.data());
  return true;
}

template <>
bool Replayer::on<Call::htpPerfSetMemoryConfig>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::htpPerfSetMemoryConfig> a(c);
  if (!perf_ || !perf_->setMemoryConfig) return false;  // no HTP perf infrastructure in this replay
  ConfigArray<QnnHtpPerfInfrastructure_MemoryConfig_t> cfgs(a.config, [](const Value& v) {
    QnnHtpPerfInfrastructure_MemoryConfig_t p{};
    p.option = QnnHtpPerfInfrastructure_MemoryConfigOption_t(u32(v, "option"));
    if (const Value* x = v.field("memGrowSize")) p.memGrowSizeConfig = uint32_t(x->u);
    return p;
  });
  bool none = a.config.kind == Value::Kind::Null;
  *rc = perf_->setMemoryConfig(uint32_t(a.deviceId.u), uint32_t(a.coreId.u), none ? nullptr : cfgs.list.data());
  return true;
}

}  // namespace qnn::replay
