// Replay of backends, logs, profiles, signals, devices and global configs.
#include "replayer.h"

namespace qnn::replay {

using trace::Call;
using trace::Value;

bool Replayer::onBackendCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::backendCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnBackend_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.backendCreate(live(a.logger), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.backend)) bind(a.backend, created);
  return true;
}

bool Replayer::onBackendFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::backendFree> a(c);
  *rc = api_.backendFree(live(a.backend));
  return true;
}

bool Replayer::onLogCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::logCreate> a(c);
  void* created = nullptr;
  // Recorded messages are not replayed: the backend's own go to a sink.
  static const QnnLog_Callback_t sink = [](const char*, QnnLog_Level_t, uint64_t, va_list) {};
  *rc = api_.logCreate(a.hasCallback.u ? sink : nullptr, QnnLog_Level_t(a.maxLogLevel.u),
                       &created);
  if (*rc == QNN_SUCCESS && present(a.logger)) bind(a.logger, created);
  return true;
}

bool Replayer::onLogSetLogLevel(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::logSetLogLevel> a(c);
  *rc = api_.logSetLogLevel(live(a.logger), QnnLog_Level_t(a.maxLogLevel.u));
  return true;
}

bool Replayer::onLogFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::logFree> a(c);
  *rc = api_.logFree(live(a.logger));
  return true;
}

bool Replayer::onProfileCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileCreate> a(c);
  void* created = nullptr;
  *rc = api_.profileCreate(live(a.backend), QnnProfile_Level_t(a.level.u), &created);
  if (*rc == QNN_SUCCESS && present(a.profile)) bind(a.profile, created);
  return true;
}

bool Replayer::onProfileGetEvents(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileGetEvents> a(c);
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t n = 0;
  *rc = api_.profileGetEvents(live(a.profile), &events, &n);
  return true;
}

bool Replayer::onProfileFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileFree> a(c);
  *rc = api_.profileFree(live(a.profile));
  return true;
}

bool Replayer::onProfileSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileSetConfig> a(c);
  std::vector<QnnProfile_Config_t> cfgs;
  for (const trace::Value& c : a.config.items) {
    QnnProfile_Config_t cfg = QNN_PROFILE_CONFIG_INIT;
    cfg.option = QnnProfile_ConfigOption_t(field(c, "option").u);
    if (const trace::Value* n = c.field("numMaxEvents")) cfg.numMaxEvents = n->u;
    if (const trace::Value* o = c.field("enableOptrace")) cfg.enableOptrace = uint8_t(o->u);
    cfgs.push_back(cfg);
  }
  std::vector<const QnnProfile_Config_t*> list;
  for (const QnnProfile_Config_t& c : cfgs) list.push_back(&c);
  list.push_back(nullptr);
  *rc = api_.profileSetConfig(live(a.profile), cfgs.empty() ? nullptr : list.data());
  return true;
}

bool Replayer::onGlobalConfigSet(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::globalConfigSet> a(c);
  std::vector<QnnGlobalConfig_t> cfgs;
  for (const trace::Value& c : a.config.items) {
    QnnGlobalConfig_t cfg = QNN_GLOBAL_CONFIG_INIT;
    cfg.option = QnnGlobalConfig_ConfigOption_t(field(c, "option").u);
    if (const trace::Value* soc = c.field("socModel")) cfg.socModel = Qnn_SocModel_t(soc->u);
    cfgs.push_back(cfg);
  }
  std::vector<const QnnGlobalConfig_t*> list;
  for (const QnnGlobalConfig_t& c : cfgs) list.push_back(&c);
  list.push_back(nullptr);
  *rc = api_.globalConfigSet(cfgs.empty() ? nullptr : list.data());
  return true;
}

bool Replayer::onSignalCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnSignal_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.signalCreate(live(a.backend), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.signal)) bind(a.signal, created);
  return true;
}

bool Replayer::onSignalSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalSetConfig> a(c);
  OwnedConfigs<QnnSignal_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.signalSetConfig(live(a.signal), cfg.get());
  return true;
}

bool Replayer::onSignalTrigger(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalTrigger> a(c);
  *rc = api_.signalTrigger(live(a.signal));
  return true;
}

bool Replayer::onSignalFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalFree> a(c);
  *rc = api_.signalFree(live(a.signal));
  return true;
}

bool Replayer::onDeviceCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnDevice_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.deviceCreate(live(a.logger), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.device)) bind(a.device, created);
  return true;
}

bool Replayer::onDeviceFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceFree> a(c);
  *rc = api_.deviceFree(live(a.device));
  return true;
}

bool Replayer::onDeviceGetPlatformInfo(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceGetPlatformInfo> a(c);
  *rc = api_.deviceGetPlatformInfo(live(a.logger), &platformInfo_);
  return true;
}

bool Replayer::onDeviceFreePlatformInfo(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceFreePlatformInfo> a(c);
  if (!platformInfo_) return false;  // nothing of this replay's to free
  *rc = api_.deviceFreePlatformInfo(live(a.logger), platformInfo_);
  platformInfo_ = nullptr;
  return true;
}

void Replayer::addObjectHandlers(trace::PerCall<Handler>& h) {
  h.backendCreate = &Replayer::onBackendCreate;
  h.backendFree = &Replayer::onBackendFree;
  h.logCreate = &Replayer::onLogCreate;
  h.logSetLogLevel = &Replayer::onLogSetLogLevel;
  h.logFree = &Replayer::onLogFree;
  h.profileCreate = &Replayer::onProfileCreate;
  h.profileGetEvents = &Replayer::onProfileGetEvents;
  h.profileFree = &Replayer::onProfileFree;
  h.profileSetConfig = &Replayer::onProfileSetConfig;
  h.globalConfigSet = &Replayer::onGlobalConfigSet;
  h.signalCreate = &Replayer::onSignalCreate;
  h.signalSetConfig = &Replayer::onSignalSetConfig;
  h.signalTrigger = &Replayer::onSignalTrigger;
  h.signalFree = &Replayer::onSignalFree;
  h.deviceCreate = &Replayer::onDeviceCreate;
  h.deviceFree = &Replayer::onDeviceFree;
  h.deviceGetPlatformInfo = &Replayer::onDeviceGetPlatformInfo;
  h.deviceFreePlatformInfo = &Replayer::onDeviceFreePlatformInfo;
}

}  // namespace qnn::replay
