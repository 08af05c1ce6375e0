// Backend, log, error, profile, device, signal and global-config calls -> C.
#include "trace/cgen/c_generator.h"
#include "trace/cgen/c_literals.h"
#include "trace/table_params.h"

namespace qnn::trace::cgen {

template <Call C>
bool CGenerator::passArgs(const CallRecord& c) {
  const Args<C> a(c);
  // Config lists are declared first (QnnGraph_Config_t for graphCreate, graphSetConfig ...);
  // the other arguments are expressions in the call.
  std::string member = callMember(C), object = member.substr(0, member.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"));
  const std::string configType = "Qnn" + std::string(1, char(object[0] - 'a' + 'A')) + object.substr(1) + "_Config_t";
  std::vector<std::string> text(std::tuple_size_v<ParamsOf<C>>);
  forEachParam<C>(a, [&](auto i, auto* type, const NamedArg& arg) {
    if constexpr (paramRole<std::remove_pointer_t<decltype(type)>>() == ParamRole::ConfigList)
      text[i] = emitConfig(arg.value, configType.c_str());
  });
  forEachParam<C>(a, [&](auto i, auto* type, const NamedArg& arg) {
    constexpr ParamRole role = paramRole<std::remove_pointer_t<decltype(type)>>();
    static_assert(role != ParamRole::Number, "a number's C type is not known here: the call needs its own handler");
    if constexpr (role == ParamRole::HandleIn) text[i] = handle(arg.value, arg.name);
    if constexpr (role == ParamRole::HandleOut) text[i] = "&" + handle(arg.value, arg.name);
    if constexpr (role == ParamRole::String) text[i] = cStringOrNull(arg.value);
  });
  std::string call = "CHECK(API(" + member;
  for (const std::string& t : text) call += ", " + t;
  line(call + "));");
  return true;
}

// Calls whose work is all in their argument list: handles passed in or
// created, config lists and names, in the API's order.
QNN_CGEN_SHARED_HANDLER(contextCreate, passArgs)
QNN_CGEN_SHARED_HANDLER(graphCreate, passArgs)
QNN_CGEN_SHARED_HANDLER(graphRetrieve, passArgs)
QNN_CGEN_SHARED_HANDLER(signalCreate, passArgs)
QNN_CGEN_SHARED_HANDLER(deviceCreate, passArgs)
QNN_CGEN_SHARED_HANDLER(backendSetConfig, passArgs)
QNN_CGEN_SHARED_HANDLER(contextSetConfig, passArgs)
QNN_CGEN_SHARED_HANDLER(graphSetConfig, passArgs)
QNN_CGEN_SHARED_HANDLER(deviceSetConfig, passArgs)
QNN_CGEN_SHARED_HANDLER(signalSetConfig, passArgs)
QNN_CGEN_SHARED_HANDLER(graphFinalize, passArgs)
QNN_CGEN_SHARED_HANDLER(contextFree, passArgs)
QNN_CGEN_SHARED_HANDLER(contextFinalize, passArgs)
QNN_CGEN_SHARED_HANDLER(backendFree, passArgs)
QNN_CGEN_SHARED_HANDLER(logFree, passArgs)
QNN_CGEN_SHARED_HANDLER(profileFree, passArgs)
QNN_CGEN_SHARED_HANDLER(signalTrigger, passArgs)
QNN_CGEN_SHARED_HANDLER(signalFree, passArgs)
QNN_CGEN_SHARED_HANDLER(deviceFree, passArgs)

template <>
bool CGenerator::on<Call::propertyHasCapability>(const CallRecord& c) {
  const Args<Call::propertyHasCapability> a(c);
  line("(void)API(propertyHasCapability, (QnnProperty_Key_t)" + literal(a.key) + ");");
  return true;
}

template <>
bool CGenerator::on<Call::backendCreate>(const CallRecord& c) {
  const Args<Call::backendCreate> a(c);
  std::string cfg = emitConfig(a.config, "QnnBackend_Config_t");
  std::string logger = a.logger.kind == Value::Kind::Handle ? handle(a.logger, "logger")
                                                                      : "commandLineLogger";
  line("CHECK(API(backendCreate, " + logger + ", " + cfg + ", &" + handle(a.backend, "backend") + "));");
  return true;
}

template <>
bool CGenerator::on<Call::backendGetApiVersion>(const CallRecord&) {
  line("Qnn_ApiVersion_t version;");
  line("CHECK(API(backendGetApiVersion, &version));");
  return true;
}

template <>
bool CGenerator::on<Call::backendGetBuildId>(const CallRecord&) {
  line("const char* id = NULL;");
  line("CHECK(API(backendGetBuildId, &id));");
  return true;
}

template <>
bool CGenerator::on<Call::backendRegisterOpPackage>(const CallRecord& c) {
  const Args<Call::backendRegisterOpPackage> a(c);
  const std::string backend = handle(a.backend, "backend");
  line("CHECK(API(backendRegisterOpPackage, " + backend + ", " + cStringOrNull(a.packagePath) + ", " +
       cStringOrNull(a.interfaceProvider) + ", " + cStringOrNull(a.target) + "));");
  return true;
}

// API 2.39: the package's recorded bytes from params.bin.
template <>
bool CGenerator::on<Call::backendRegisterOpPackageFromBinary>(const CallRecord& c) {
  const Args<Call::backendRegisterOpPackageFromBinary> a(c);
  if (!present(a.package)) return false;
  line("CHECK(API39(backendRegisterOpPackageFromBinary, " + handle(a.backend, "backend") + ", " + data(a.package) +
       ", (uint64_t)" + std::to_string(a.package.i) + "u, " + cStringOrNull(a.interfaceProvider) + ", " +
       cStringOrNull(a.target) + "));");
  return true;
}

template <>
bool CGenerator::on<Call::backendGetSupportedOperations>(const CallRecord& c) {
  const Args<Call::backendGetSupportedOperations> a(c);
  const std::string backend = handle(a.backend, "backend");
  line("uint32_t n = 0;");
  line("const QnnBackend_OperationName_t* ops = NULL;");
  line("CHECK(API(backendGetSupportedOperations, " + backend + ", &n, &ops));");
  return true;
}

template <>
bool CGenerator::on<Call::backendValidateOpConfig>(const CallRecord& c) {
  const Args<Call::backendValidateOpConfig> a(c);
  const std::string backend = handle(a.backend, "backend");
  emitOp(a.opConfig);
  line("CHECK(API(backendValidateOpConfig, " + backend + ", op));");
  return true;
}

template <>
bool CGenerator::on<Call::logCreate>(const CallRecord& c) {
  const Args<Call::logCreate> a(c);
  std::string callback = literal(a.hasCallback) == "0u" ? "NULL" : "logToStderr";
  line("CHECK(API(logCreate, " + callback + ", logLevel(" + literal(a.maxLogLevel) + "), &" +
       handle(a.logger, "logger") + "));");
  return true;
}

template <>
bool CGenerator::on<Call::logSetLogLevel>(const CallRecord& c) {
  const Args<Call::logSetLogLevel> a(c);
  line("CHECK(API(logSetLogLevel, " + handle(a.logger, "logger") + ", logLevel(" + literal(a.maxLogLevel) +
       ")));");
  return true;
}

template <>
bool CGenerator::on<Call::errorGetMessage>(const CallRecord& c) {
  const Args<Call::errorGetMessage> a(c);
  line("const char* message = NULL;");
  line("CHECK(API(errorGetMessage, (Qnn_ErrorHandle_t)" + literal(a.errorHandle) + ", &message));");
  return true;
}

template <>
bool CGenerator::on<Call::errorGetVerboseMessage>(const CallRecord& c) {
  const Args<Call::errorGetVerboseMessage> a(c);
  line("CHECK(API(errorGetVerboseMessage, (Qnn_ErrorHandle_t)" + literal(a.errorHandle) + ", &verboseMessage));");
  return true;
}

template <>
bool CGenerator::on<Call::errorFreeVerboseMessage>(const CallRecord&) {
  line("if (verboseMessage) CHECK(API(errorFreeVerboseMessage, verboseMessage));");
  line("verboseMessage = NULL;");
  return true;
}

// Calls sharing a handler.
QNN_CGEN_SHARED_HANDLER(profileSetConfig, setProfileOrGlobalConfig)
QNN_CGEN_SHARED_HANDLER(globalConfigSet, setProfileOrGlobalConfig)

template <>
bool CGenerator::on<Call::profileCreate>(const CallRecord& c) {
  const Args<Call::profileCreate> a(c);
  line("CHECK(API(profileCreate, " + handle(a.backend, "backend") + ", (QnnProfile_Level_t)" +
       literal(a.level) + ", &" + handle(a.profile, "profile") + "));");
  return true;
}

template <>
bool CGenerator::on<Call::profileGetEvents>(const CallRecord& c) {
  const Args<Call::profileGetEvents> a(c);
  line("const QnnProfile_EventId_t* events = NULL;");
  line("uint32_t n = 0;");
  line("CHECK(API(profileGetEvents, " + handle(a.profile, "profile") + ", &events, &n));");
  return true;
}

template <Call C>
bool CGenerator::setProfileOrGlobalConfig(const CallRecord& c) {
  const Args<C> a(c);
  // One NULL-terminated array of the recorded options, named after the call.
  const bool profile = C == Call::profileSetConfig;
  const ConfigArraySpec spec =
      profile ? ConfigArraySpec{"QnnProfile_Config_t", "profileConfig", "QNN_PROFILE_CONFIG_INIT", true}
              : ConfigArraySpec{"QnnGlobalConfig_t", "globalConfig", "QNN_GLOBAL_CONFIG_INIT", true};
  std::string array = configArray(a.config, spec, [&](const std::string& v, const Value& c) {
    line(v + ".option = (" + (profile ? "QnnProfile_ConfigOption_t" : "QnnGlobalConfig_ConfigOption_t") + ")" +
         field(c, "option") + ";");
    if (c.field("numMaxEvents")) line(v + ".numMaxEvents = (uint64_t)" + field(c, "numMaxEvents") + ";");
    if (c.field("enableOptrace")) line(v + ".enableOptrace = " + field(c, "enableOptrace") + ";");
    if (c.field("socModel")) line(v + ".socModel = (Qnn_SocModel_t)" + field(c, "socModel") + ";");
  });
  if constexpr (C == Call::profileSetConfig)
    line("CHECK(API(profileSetConfig, " + handle(a.profile, "profile") + ", " + array + "));");
  else
    line("CHECK(API(globalConfigSet, " + array + "));");
  return true;
}

template <>
bool CGenerator::on<Call::deviceGetPlatformInfo>(const CallRecord& c) {
  const Args<Call::deviceGetPlatformInfo> a(c);
  const std::string logger = handle(a.logger, "logger");
  line("CHECK(API(deviceGetPlatformInfo, " + logger + ", &platformInfo));");
  return true;
}

template <>
bool CGenerator::on<Call::deviceFreePlatformInfo>(const CallRecord& c) {
  const Args<Call::deviceFreePlatformInfo> a(c);
  const std::string logger = handle(a.logger, "logger");
  line("if (platformInfo) CHECK(API(deviceFreePlatformInfo, " + logger + ", platformInfo));");
  line("platformInfo = NULL;");
  return true;
}

template <>
bool CGenerator::on<Call::deviceGetInfrastructure>(const CallRecord& c) {
  const Args<Call::deviceGetInfrastructure> a(c);
  line("QnnDevice_Infrastructure_t infrastructure = NULL;");
  // An HTP perf infrastructure the Saver recorded the calls of is kept for them.
  if (a.recorded.u == 1)
    line("if (CHECK(API(deviceGetInfrastructure, &infrastructure))) perfInfra = perfOf(infrastructure);");
  else
    line("CHECK(API(deviceGetInfrastructure, &infrastructure));");
  return true;
}

template <>
bool CGenerator::on<Call::deviceGetInfo>(const CallRecord& c) {
  const Args<Call::deviceGetInfo> a(c);
  line("const QnnDevice_PlatformInfo_t* info = NULL;");
  line("CHECK(API(deviceGetInfo, " + handle(a.device, "device") + ", &info));");
  return true;
}

}  // namespace qnn::trace::cgen
