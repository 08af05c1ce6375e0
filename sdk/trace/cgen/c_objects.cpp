// Backend, log, error, profile, device, signal and global-config calls -> C.
#include "c_generator.h"
#include "c_literals.h"

namespace qnn::trace::cgen {

bool CGenerator::onPropertyHasCapability(const CallRecord& c) {
  const Args<Call::propertyHasCapability> a(c);
  line("(void)API(propertyHasCapability, (QnnProperty_Key_t)" + literal(a.key) + ");");
  return true;
}

bool CGenerator::onBackendCreate(const CallRecord& c) {
  const Args<Call::backendCreate> a(c);
  std::string cfg = emitConfig(a.config, "QnnBackend_Config_t");
  std::string logger = a.logger.kind == Value::Kind::Handle ? handle(a.logger, "logger")
                                                                      : "commandLineLogger";
  line("CHECK(API(backendCreate, " + logger + ", " + cfg + ", &" + handle(a.backend, "backend") + "));");
  return true;
}

bool CGenerator::onBackendSetConfig(const CallRecord& c) {
  const Args<Call::backendSetConfig> a(c);
  const std::string backend = handle(a.backend, "backend");
  std::string cfg = emitConfig(a.config, "QnnBackend_Config_t");
  line("CHECK(API(backendSetConfig, " + backend + ", " + cfg + "));");
  return true;
}

bool CGenerator::onBackendGetApiVersion(const CallRecord&) {
  line("Qnn_ApiVersion_t version;");
  line("CHECK(API(backendGetApiVersion, &version));");
  return true;
}

bool CGenerator::onBackendGetBuildId(const CallRecord&) {
  line("const char* id = NULL;");
  line("CHECK(API(backendGetBuildId, &id));");
  return true;
}

bool CGenerator::onBackendRegisterOpPackage(const CallRecord& c) {
  const Args<Call::backendRegisterOpPackage> a(c);
  const std::string backend = handle(a.backend, "backend");
  line("CHECK(API(backendRegisterOpPackage, " + backend + ", " + cStringOrNull(a.packagePath) + ", " +
       cStringOrNull(a.interfaceProvider) + ", " + cStringOrNull(a.target) + "));");
  return true;
}

bool CGenerator::onBackendGetSupportedOperations(const CallRecord& c) {
  const Args<Call::backendGetSupportedOperations> a(c);
  const std::string backend = handle(a.backend, "backend");
  line("uint32_t n = 0;");
  line("const QnnBackend_OperationName_t* ops = NULL;");
  line("CHECK(API(backendGetSupportedOperations, " + backend + ", &n, &ops));");
  return true;
}

bool CGenerator::onBackendValidateOpConfig(const CallRecord& c) {
  const Args<Call::backendValidateOpConfig> a(c);
  const std::string backend = handle(a.backend, "backend");
  emitOp(a.opConfig);
  line("CHECK(API(backendValidateOpConfig, " + backend + ", op));");
  return true;
}

bool CGenerator::onBackendFree(const CallRecord& c) {
  const Args<Call::backendFree> a(c);
  const std::string backend = handle(a.backend, "backend");
  line("CHECK(API(backendFree, " + backend + "));");
  return true;
}

bool CGenerator::onLogCreate(const CallRecord& c) {
  const Args<Call::logCreate> a(c);
  std::string callback = literal(a.hasCallback) == "0u" ? "NULL" : "logToStderr";
  line("CHECK(API(logCreate, " + callback + ", logLevel(" + literal(a.maxLogLevel) + "), &" +
       handle(a.logger, "logger") + "));");
  return true;
}

bool CGenerator::onLogSetLogLevel(const CallRecord& c) {
  const Args<Call::logSetLogLevel> a(c);
  line("CHECK(API(logSetLogLevel, " + handle(a.logger, "logger") + ", logLevel(" + literal(a.maxLogLevel) +
       ")));");
  return true;
}

bool CGenerator::onLogFree(const CallRecord& c) {
  const Args<Call::logFree> a(c);
  line("CHECK(API(logFree, " + handle(a.logger, "logger") + "));");
  return true;
}

bool CGenerator::onErrorGetMessage(const CallRecord& c) {
  const Args<Call::errorGetMessage> a(c);
  line("const char* message = NULL;");
  line("CHECK(API(errorGetMessage, (Qnn_ErrorHandle_t)" + literal(a.errorHandle) + ", &message));");
  return true;
}

bool CGenerator::onErrorGetVerboseMessage(const CallRecord& c) {
  const Args<Call::errorGetVerboseMessage> a(c);
  line("CHECK(API(errorGetVerboseMessage, (Qnn_ErrorHandle_t)" + literal(a.errorHandle) + ", &verboseMessage));");
  return true;
}

bool CGenerator::onErrorFreeVerboseMessage(const CallRecord&) {
  line("if (verboseMessage) CHECK(API(errorFreeVerboseMessage, verboseMessage));");
  line("verboseMessage = NULL;");
  return true;
}

void CGenerator::addBackendHandlers(PerCall<Handler>& h) {
  h.propertyHasCapability = &CGenerator::onPropertyHasCapability;
  h.backendCreate = &CGenerator::onBackendCreate;
  h.backendSetConfig = &CGenerator::onBackendSetConfig;
  h.backendGetApiVersion = &CGenerator::onBackendGetApiVersion;
  h.backendGetBuildId = &CGenerator::onBackendGetBuildId;
  h.backendRegisterOpPackage = &CGenerator::onBackendRegisterOpPackage;
  h.backendGetSupportedOperations = &CGenerator::onBackendGetSupportedOperations;
  h.backendValidateOpConfig = &CGenerator::onBackendValidateOpConfig;
  h.backendFree = &CGenerator::onBackendFree;
  h.logCreate = &CGenerator::onLogCreate;
  h.logSetLogLevel = &CGenerator::onLogSetLogLevel;
  h.logFree = &CGenerator::onLogFree;
  h.errorGetMessage = &CGenerator::onErrorGetMessage;
  h.errorGetVerboseMessage = &CGenerator::onErrorGetVerboseMessage;
  h.errorFreeVerboseMessage = &CGenerator::onErrorFreeVerboseMessage;
}

bool CGenerator::onProfileCreate(const CallRecord& c) {
  const Args<Call::profileCreate> a(c);
  line("CHECK(API(profileCreate, " + handle(a.backend, "backend") + ", (QnnProfile_Level_t)" +
       literal(a.level) + ", &" + handle(a.profile, "profile") + "));");
  return true;
}

bool CGenerator::onProfileGetEvents(const CallRecord& c) {
  const Args<Call::profileGetEvents> a(c);
  line("const QnnProfile_EventId_t* events = NULL;");
  line("uint32_t n = 0;");
  line("CHECK(API(profileGetEvents, " + handle(a.profile, "profile") + ", &events, &n));");
  return true;
}

bool CGenerator::onProfileFree(const CallRecord& c) {
  const Args<Call::profileFree> a(c);
  line("CHECK(API(profileFree, " + handle(a.profile, "profile") + "));");
  return true;
}

template <Call C>
bool CGenerator::onProfileSetConfig(const CallRecord& c) {
  const Args<C> a(c);
  // One NULL-terminated array of the recorded options, named after the call.
  const bool profile = C == Call::profileSetConfig;
  const char* type = profile ? "QnnProfile_Config_t" : "QnnGlobalConfig_t";
  const Value& list = a.config;
  std::string array = "NULL";
  if (!list.items.empty()) {
    array = fresh(profile ? "profileConfig" : "globalConfig");
    for (size_t k = 0; k < list.items.size(); ++k) {
      const Value& c = list.items[k];
      std::string v = array + "_" + std::to_string(k);
      line(std::string(type) + " " + v + " = " + (profile ? "QNN_PROFILE_CONFIG_INIT" : "QNN_GLOBAL_CONFIG_INIT") +
           ";");
      line(v + ".option = (" + (profile ? "QnnProfile_ConfigOption_t" : "QnnGlobalConfig_ConfigOption_t") + ")" +
           field(c, "option") + ";");
      if (c.field("numMaxEvents")) line(v + ".numMaxEvents = (uint64_t)" + field(c, "numMaxEvents") + ";");
      if (c.field("enableOptrace")) line(v + ".enableOptrace = " + field(c, "enableOptrace") + ";");
      if (c.field("socModel")) line(v + ".socModel = (Qnn_SocModel_t)" + field(c, "socModel") + ";");
    }
    std::string items;
    for (size_t k = 0; k < list.items.size(); ++k) items += "&" + array + "_" + std::to_string(k) + ", ";
    line("const " + std::string(type) + "* " + array + "[] = {" + items + "NULL};");
  }
  if constexpr (C == Call::profileSetConfig)
    line("CHECK(API(profileSetConfig, " + handle(a.profile, "profile") + ", " + array + "));");
  else
    line("CHECK(API(globalConfigSet, " + array + "));");
  return true;
}

bool CGenerator::onDeviceGetPlatformInfo(const CallRecord& c) {
  const Args<Call::deviceGetPlatformInfo> a(c);
  const std::string logger = handle(a.logger, "logger");
  line("CHECK(API(deviceGetPlatformInfo, " + logger + ", &platformInfo));");
  return true;
}

bool CGenerator::onDeviceFreePlatformInfo(const CallRecord& c) {
  const Args<Call::deviceFreePlatformInfo> a(c);
  const std::string logger = handle(a.logger, "logger");
  line("if (platformInfo) CHECK(API(deviceFreePlatformInfo, " + logger + ", platformInfo));");
  line("platformInfo = NULL;");
  return true;
}

bool CGenerator::onDeviceGetInfrastructure(const CallRecord& c) {
  const Args<Call::deviceGetInfrastructure> a(c);
  line("QnnDevice_Infrastructure_t infrastructure = NULL;");
  // An HTP perf infrastructure the Saver recorded the calls of is kept for them.
  if (a.recorded.u == 1)
    line("if (CHECK(API(deviceGetInfrastructure, &infrastructure))) perfInfra = perfOf(infrastructure);");
  else
    line("CHECK(API(deviceGetInfrastructure, &infrastructure));");
  return true;
}

bool CGenerator::onDeviceCreate(const CallRecord& c) {
  const Args<Call::deviceCreate> a(c);
  const std::string logger = handle(a.logger, "logger");
  std::string cfg = emitConfig(a.config, "QnnDevice_Config_t");
  line("CHECK(API(deviceCreate, " + logger + ", " + cfg + ", &" + handle(a.device, "device") + "));");
  return true;
}

bool CGenerator::onDeviceSetConfig(const CallRecord& c) {
  const Args<Call::deviceSetConfig> a(c);
  std::string cfg = emitConfig(a.config, "QnnDevice_Config_t");
  line("CHECK(API(deviceSetConfig, " + handle(a.device, "device") + ", " + cfg + "));");
  return true;
}

bool CGenerator::onDeviceGetInfo(const CallRecord& c) {
  const Args<Call::deviceGetInfo> a(c);
  line("const QnnDevice_PlatformInfo_t* info = NULL;");
  line("CHECK(API(deviceGetInfo, " + handle(a.device, "device") + ", &info));");
  return true;
}

bool CGenerator::onDeviceFree(const CallRecord& c) {
  const Args<Call::deviceFree> a(c);
  line("CHECK(API(deviceFree, " + handle(a.device, "device") + "));");
  return true;
}

bool CGenerator::onSignalCreate(const CallRecord& c) {
  const Args<Call::signalCreate> a(c);
  std::string cfg = emitConfig(a.config, "QnnSignal_Config_t");
  line("CHECK(API(signalCreate, " + handle(a.backend, "backend") + ", " + cfg + ", &" +
       handle(a.signal, "signal") + "));");
  return true;
}

bool CGenerator::onSignalSetConfig(const CallRecord& c) {
  const Args<Call::signalSetConfig> a(c);
  std::string cfg = emitConfig(a.config, "QnnSignal_Config_t");
  line("CHECK(API(signalSetConfig, " + handle(a.signal, "signal") + ", " + cfg + "));");
  return true;
}

bool CGenerator::onSignalTrigger(const CallRecord& c) {
  const Args<Call::signalTrigger> a(c);
  line("CHECK(API(signalTrigger, " + handle(a.signal, "signal") + "));");
  return true;
}

bool CGenerator::onSignalFree(const CallRecord& c) {
  const Args<Call::signalFree> a(c);
  line("CHECK(API(signalFree, " + handle(a.signal, "signal") + "));");
  return true;
}

void CGenerator::addObjectHandlers(PerCall<Handler>& h) {
  h.profileCreate = &CGenerator::onProfileCreate;
  h.profileGetEvents = &CGenerator::onProfileGetEvents;
  h.profileFree = &CGenerator::onProfileFree;
  h.profileSetConfig = &CGenerator::onProfileSetConfig<Call::profileSetConfig>;
  h.globalConfigSet = &CGenerator::onProfileSetConfig<Call::globalConfigSet>;
  h.deviceGetPlatformInfo = &CGenerator::onDeviceGetPlatformInfo;
  h.deviceFreePlatformInfo = &CGenerator::onDeviceFreePlatformInfo;
  h.deviceGetInfrastructure = &CGenerator::onDeviceGetInfrastructure;
  h.deviceCreate = &CGenerator::onDeviceCreate;
  h.deviceSetConfig = &CGenerator::onDeviceSetConfig;
  h.deviceGetInfo = &CGenerator::onDeviceGetInfo;
  h.deviceFree = &CGenerator::onDeviceFree;
  h.signalCreate = &CGenerator::onSignalCreate;
  h.signalSetConfig = &CGenerator::onSignalSetConfig;
  h.signalTrigger = &CGenerator::onSignalTrigger;
  h.signalFree = &CGenerator::onSignalFree;
}

}  // namespace qnn::trace::cgen
