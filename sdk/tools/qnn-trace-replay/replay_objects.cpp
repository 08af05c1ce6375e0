// Replay of backends, logs, profiles, signals, devices and global configs.
#include <tuple>
#include <type_traits>

#include "replayer.h"

namespace qnn::replay {

using trace::Call;
using trace::Value;

// The table member of each call, for handlers that need no more than to call it.
template <trace::Call C>
struct TableMember;
#define QNN_REPLAY_TABLE_MEMBER_(id, member, name)                     \
  template <>                                                          \
  struct TableMember<trace::Call::member> {                            \
    static constexpr auto ptr = &QNN_INTERFACE_VER_TYPE::member;       \
  };
QNN_FOR_EACH_INTERFACE_MEMBER(QNN_REPLAY_TABLE_MEMBER_)
#undef QNN_REPLAY_TABLE_MEMBER_

template <trace::Call C>
bool Replayer::passHandles(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const auto args = trace::Args<C>(c).named();
  *rc = std::apply([&](const auto&... h) { return (api_.*TableMember<C>::ptr)(live(h.value)...); }, args);
  return true;
}

// The config type a (handle, const Config**) member takes.
template <typename MemberPtr>
struct ConfigParam;
template <typename R, typename H, typename Config>
struct ConfigParam<R (*QNN_INTERFACE_VER_TYPE::*)(H, const Config**)> {
  using type = Config;
};

template <trace::Call C>
bool Replayer::passConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const auto [object, config] = trace::Args<C>(c).named();
  OwnedConfigs<typename ConfigParam<std::remove_const_t<decltype(TableMember<C>::ptr)>>::type> cfg;
  configs(config.value, cfg);
  *rc = (api_.*TableMember<C>::ptr)(live(object.value), cfg.get());
  return true;
}

// Calls (object, config list): QnnGraph_setConfig and the like.
QNN_REPLAY_SHARED_HANDLER(contextSetConfig, passConfig)
QNN_REPLAY_SHARED_HANDLER(graphSetConfig, passConfig)
QNN_REPLAY_SHARED_HANDLER(signalSetConfig, passConfig)

// Calls whose arguments are all handles the client passed in, in the API's order.
QNN_REPLAY_SHARED_HANDLER(graphFinalize, passHandles)
QNN_REPLAY_SHARED_HANDLER(contextFree, passHandles)
QNN_REPLAY_SHARED_HANDLER(contextFinalize, passHandles)
QNN_REPLAY_SHARED_HANDLER(backendFree, passHandles)
QNN_REPLAY_SHARED_HANDLER(logFree, passHandles)
QNN_REPLAY_SHARED_HANDLER(profileFree, passHandles)
QNN_REPLAY_SHARED_HANDLER(signalTrigger, passHandles)
QNN_REPLAY_SHARED_HANDLER(signalFree, passHandles)
QNN_REPLAY_SHARED_HANDLER(deviceFree, passHandles)

template <>
bool Replayer::on<Call::backendCreate>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::backendCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnBackend_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.backendCreate(live(a.logger), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.backend)) bind(a.backend, created);
  return true;
}

template <>
bool Replayer::on<Call::logCreate>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::logCreate> a(c);
  void* created = nullptr;
  // Recorded messages are not replayed: the backend's own go to a sink.
  static const QnnLog_Callback_t sink = [](const char*, QnnLog_Level_t, uint64_t, va_list) {};
  *rc = api_.logCreate(a.hasCallback.u ? sink : nullptr, QnnLog_Level_t(a.maxLogLevel.u),
                       &created);
  if (*rc == QNN_SUCCESS && present(a.logger)) bind(a.logger, created);
  return true;
}

template <>
bool Replayer::on<Call::logSetLogLevel>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::logSetLogLevel> a(c);
  *rc = api_.logSetLogLevel(live(a.logger), QnnLog_Level_t(a.maxLogLevel.u));
  return true;
}

template <>
bool Replayer::on<Call::profileCreate>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileCreate> a(c);
  void* created = nullptr;
  *rc = api_.profileCreate(live(a.backend), QnnProfile_Level_t(a.level.u), &created);
  if (*rc == QNN_SUCCESS && present(a.profile)) bind(a.profile, created);
  return true;
}

template <>
bool Replayer::on<Call::profileGetEvents>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::profileGetEvents> a(c);
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t n = 0;
  *rc = api_.profileGetEvents(live(a.profile), &events, &n);
  return true;
}

template <>
bool Replayer::on<Call::profileSetConfig>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
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

template <>
bool Replayer::on<Call::globalConfigSet>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
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

template <>
bool Replayer::on<Call::signalCreate>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::signalCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnSignal_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.signalCreate(live(a.backend), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.signal)) bind(a.signal, created);
  return true;
}

template <>
bool Replayer::on<Call::deviceCreate>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceCreate> a(c);
  void* created = nullptr;
  OwnedConfigs<QnnDevice_Config_t> cfg;
  configs(a.config, cfg);
  *rc = api_.deviceCreate(live(a.logger), cfg.get(), &created);
  if (*rc == QNN_SUCCESS && present(a.device)) bind(a.device, created);
  return true;
}

template <>
bool Replayer::on<Call::deviceGetPlatformInfo>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceGetPlatformInfo> a(c);
  *rc = api_.deviceGetPlatformInfo(live(a.logger), &platformInfo_);
  return true;
}

template <>
bool Replayer::on<Call::deviceFreePlatformInfo>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::deviceFreePlatformInfo> a(c);
  if (!platformInfo_) return false;  // nothing of this replay's to free
  *rc = api_.deviceFreePlatformInfo(live(a.logger), platformInfo_);
  platformInfo_ = nullptr;
  return true;
}

}  // namespace qnn::replay
