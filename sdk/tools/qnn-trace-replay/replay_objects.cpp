// Replay of backends, logs, profiles, signals, devices and global configs.
#include <tuple>
#include <type_traits>

#include "tools/qnn-trace-replay/replayer.h"
#include "trace/table_params.h"

namespace qnn::replay {

using trace::Call;
using trace::Value;

namespace {

// One parameter of a table member, made live from its recorded argument and
// kept alive until the call returns.
template <typename P>
struct LiveParam {
  static constexpr trace::ParamRole role = trace::paramRole<P>();
  const Value* recorded = nullptr;
  void* handle = nullptr;  // HandleIn: the live handle; HandleOut: the one the call returns
  std::conditional_t<role == trace::ParamRole::ConfigList, OwnedConfigs<trace::ConfigOf<P>>, char> cfg{};
  P get() {
    if constexpr (role == trace::ParamRole::HandleIn)
      return handle;
    else if constexpr (role == trace::ParamRole::HandleOut)
      return &handle;
    else if constexpr (role == trace::ParamRole::ConfigList)
      return cfg.get();
    else if constexpr (role == trace::ParamRole::String)
      return recorded->s.c_str();
    else
      return P(recorded->u);
  }
};
template <typename Params>
struct LiveParams;
template <typename... P>
struct LiveParams<std::tuple<P...>> {
  using type = std::tuple<LiveParam<P>...>;
};

}  // namespace

template <trace::Call C>
bool Replayer::passArgs(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<C> a(c);
  typename LiveParams<trace::ParamsOf<C>>::type params;
  // Config lists rebuilt first, then the handles passed in looked up.
  trace::forEachParam<C>(a, [&](auto i, auto*, const trace::NamedArg& arg) {
    auto& p = std::get<decltype(i)::value>(params);
    p.recorded = &arg.value;
    if constexpr (std::decay_t<decltype(p)>::role == trace::ParamRole::ConfigList) configs(arg.value, p.cfg);
  });
  trace::forEachParam<C>(a, [&](auto i, auto*, const trace::NamedArg& arg) {
    auto& p = std::get<decltype(i)::value>(params);
    if constexpr (std::decay_t<decltype(p)>::role == trace::ParamRole::HandleIn) p.handle = live(arg.value);
  });
  *rc = std::apply([&](auto&... p) { return (api_.*trace::TableMember<C>::ptr)(p.get()...); }, params);
  // The handles the call created stand for the recorded ones from now on.
  if (*rc == QNN_SUCCESS)
    std::apply(
        [&](auto&... p) { ((p.role == trace::ParamRole::HandleOut ? bind(*p.recorded, p.handle) : void()), ...); },
        params);
  return true;
}

// Calls whose work is all in their argument list: handles passed in or
// created, config lists, names and levels, in the API's order.
// API 2.39: the package's recorded bytes.
template <>
bool Replayer::on<trace::Call::backendRegisterOpPackageFromBinary>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<trace::Call::backendRegisterOpPackageFromBinary> a(c);
  const std::vector<uint8_t>* bytes = trace_.blob(a.package);
  if (!bytes) return false;
  *rc = api_.backendRegisterOpPackageFromBinary(live(a.backend), bytes->data(), bytes->size(),
                                                present(a.interfaceProvider) ? a.interfaceProvider.s.c_str() : nullptr,
                                                present(a.target) ? a.target.s.c_str() : nullptr);
  return true;
}

QNN_REPLAY_SHARED_HANDLER(backendCreate, passArgs)
QNN_REPLAY_SHARED_HANDLER(contextCreate, passArgs)
QNN_REPLAY_SHARED_HANDLER(graphCreate, passArgs)
QNN_REPLAY_SHARED_HANDLER(graphRetrieve, passArgs)
QNN_REPLAY_SHARED_HANDLER(profileCreate, passArgs)
QNN_REPLAY_SHARED_HANDLER(signalCreate, passArgs)
QNN_REPLAY_SHARED_HANDLER(deviceCreate, passArgs)
QNN_REPLAY_SHARED_HANDLER(logSetLogLevel, passArgs)
QNN_REPLAY_SHARED_HANDLER(contextSetConfig, passArgs)
QNN_REPLAY_SHARED_HANDLER(graphSetConfig, passArgs)
QNN_REPLAY_SHARED_HANDLER(signalSetConfig, passArgs)
QNN_REPLAY_SHARED_HANDLER(graphFinalize, passArgs)
QNN_REPLAY_SHARED_HANDLER(contextFree, passArgs)
QNN_REPLAY_SHARED_HANDLER(contextFinalize, passArgs)
QNN_REPLAY_SHARED_HANDLER(backendFree, passArgs)
QNN_REPLAY_SHARED_HANDLER(logFree, passArgs)
QNN_REPLAY_SHARED_HANDLER(profileFree, passArgs)
QNN_REPLAY_SHARED_HANDLER(signalTrigger, passArgs)
QNN_REPLAY_SHARED_HANDLER(signalFree, passArgs)
QNN_REPLAY_SHARED_HANDLER(deviceFree, passArgs)

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
  ConfigArray<QnnProfile_Config_t> cfgs(a.config, [](const Value& v) {
    QnnProfile_Config_t cfg = QNN_PROFILE_CONFIG_INIT;
    cfg.option = QnnProfile_ConfigOption_t(field(v, "option").u);
    if (const Value* n = v.field("numMaxEvents")) cfg.numMaxEvents = n->u;
    if (const Value* o = v.field("enableOptrace")) cfg.enableOptrace = uint8_t(o->u);
    return cfg;
  });
  *rc = api_.profileSetConfig(live(a.profile), cfgs.entries.empty() ? nullptr : cfgs.list.data());
  return true;
}

template <>
bool Replayer::on<Call::globalConfigSet>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) {
  const trace::Args<Call::globalConfigSet> a(c);
  ConfigArray<QnnGlobalConfig_t> cfgs(a.config, [](const Value& v) {
    QnnGlobalConfig_t cfg = QNN_GLOBAL_CONFIG_INIT;
    cfg.option = QnnGlobalConfig_ConfigOption_t(field(v, "option").u);
    if (const Value* soc = v.field("socModel")) cfg.socModel = Qnn_SocModel_t(soc->u);
    return cfg;
  });
  *rc = api_.globalConfigSet(cfgs.entries.empty() ? nullptr : cfgs.list.data());
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
