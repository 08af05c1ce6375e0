// One recorded call -> one C block of the generated program.
#include "c_generator.h"
#include "c_literals.h"
#include "qnn_data_bytes.h"
#include "trace_format.h"

namespace qnn::trace::cgen {
namespace {

std::string str(const Value& v) { return v.kind == Value::Kind::String ? cString(v.s) : "NULL"; }

// Bytes of a registered buffer, from its recorded descriptor.
uint64_t bufferBytes(const Value& descriptor) {
  size_t elements = 1;
  if (const Value* dims = descriptor.field("dims"))
    for (const Value& d : dims->items) elements *= d.u;
  const Value* type = descriptor.field("dataType");
  return qnnDataBytes(type ? uint32_t(type->u) : 0x0008, elements);
}

}  // namespace

const PerCall<CGenerator::Handler>& CGenerator::handlers() {
  static const PerCall<Handler> table = [] {
    PerCall<Handler> h;
    addGraphHandlers(h);
    addContextHandlers(h);
    addBackendHandlers(h);
    addObjectHandlers(h);
    addSectionHandlers(h);
    addPerfHandlers(h);
    return h;
  }();
  return table;
}

void CGenerator::emitCall(const CallRecord& c) {
  std::string head = "/* #" + std::to_string(c.seq) + " " + callName(c.callId);
  if (c.callId == kCallSaverInitialize) {
    line(head + ": Saver configuration, nothing to replay */");
    return;
  }
  if (c.result != 0) {
    line(head + " returned " + std::to_string(c.result) + " when recorded: not replayed */");
    return;
  }
  std::ostringstream block;
  std::swap(block, body_);
  ++indent_;
  const Handler* handler = handlers().of(c.callId);
  bool done = handler && *handler && (this->**handler)(c);
  --indent_;
  std::swap(block, body_);
  if (!done) {
    line(head + ": not replayed by saver_output.c */");
    return;
  }
  line(head + " */");
  line("{");
  body_ << block.str();
  line("}");
}

bool CGenerator::onGraphCreate(const CallRecord& c) {
  const Args<Call::graphCreate> a(c);
  std::string cfg = emitConfig(a.config, "QnnGraph_Config_t");
  line("CHECK(API(graphCreate, " + handle(a.context, "context") + ", " + str(a.graphName) + ", " + cfg +
       ", &" + handle(a.graph, "graph") + "));");
  return true;
}

bool CGenerator::onGraphRetrieve(const CallRecord& c) {
  const Args<Call::graphRetrieve> a(c);
  line("CHECK(API(graphRetrieve, " + handle(a.context, "context") + ", " + str(a.graphName) + ", &" +
       handle(a.graph, "graph") + "));");
  return true;
}

bool CGenerator::onGraphSetConfig(const CallRecord& c) {
  const Args<Call::graphSetConfig> a(c);
  std::string cfg = emitConfig(a.config, "QnnGraph_Config_t");
  line("CHECK(API(graphSetConfig, " + handle(a.graph, "graph") + ", " + cfg + "));");
  return true;
}

bool CGenerator::onGraphAddNode(const CallRecord& c) {
  const Args<Call::graphAddNode> a(c);
  emitOp(a.opConfig);
  line("CHECK(API(graphAddNode, " + handle(a.graph, "graph") + ", op));");
  return true;
}

bool CGenerator::onGraphFinalize(const CallRecord& c) {
  const Args<Call::graphFinalize> a(c);
  line("CHECK(API(graphFinalize, " + handle(a.graph, "graph") + ", " + handle(a.profile, "profile") +
       ", " + handle(a.signal, "signal") + "));");
  return true;
}

template <Call C>
bool CGenerator::onGraphExecute(const CallRecord& c) {
  const Args<C> a(c);
  const Value& in = a.inputs;
  const Value& out = a.outputs;
  emitTensorArray("in", in, TensorUse::Input);
  emitTensorArray("out", out, TensorUse::Output);
  std::string n = std::to_string(in.items.size()) + "u", k = std::to_string(out.items.size()) + "u";
  std::string args = handle(a.graph, "graph") + ", " + (in.items.empty() ? "NULL" : "in") + ", " + n + ", " +
                     (out.items.empty() ? "NULL" : "out") + ", " + k + ", " + handle(a.profile, "profile") +
                     ", " + handle(a.signal, "signal");
  std::string save = out.items.empty() ? "" : " saveOutputs(" + std::to_string(executes_) + "u, out, " + k + ");";
  if constexpr (C == Call::graphExecute)
    line("if (CHECK(API(graphExecute, " + args + ")))" + (save.empty() ? " {}" : save));
  else
    line("if (waitAsync(__LINE__, API(graphExecuteAsync, " + args + ", notifyDone, NULL)))" +
         (save.empty() ? " {}" : save));
  if (!out.items.empty()) line("freeOutputs(out, " + k + ");");
  ++executes_;
  return true;
}

template <Call C>
bool CGenerator::onTensorCreateGraphTensor(const CallRecord& c) {
  const Args<C> a(c);
  line("Qnn_Tensor_t t;");
  emitTensor("t", a.tensor, TensorUse::Create);
  std::string parent;
  if constexpr (C == Call::tensorCreateGraphTensor)
    parent = handle(a.graph, "graph");
  else
    parent = handle(a.context, "context");
  // Later calls name the tensor by its recorded id.
  line("if (CHECK(API(" + std::string(callMember(C)) + ", " + parent + ", &t))) bindTensorId(" + literal(a.id) +
       ", t.v1.id);");
  return true;
}

void CGenerator::addGraphHandlers(PerCall<Handler>& h) {
  h.graphCreate = &CGenerator::onGraphCreate;
  h.graphRetrieve = &CGenerator::onGraphRetrieve;
  h.graphSetConfig = &CGenerator::onGraphSetConfig;
  h.graphAddNode = &CGenerator::onGraphAddNode;
  h.graphFinalize = &CGenerator::onGraphFinalize;
  h.graphExecute = &CGenerator::onGraphExecute<Call::graphExecute>;
  h.graphExecuteAsync = &CGenerator::onGraphExecute<Call::graphExecuteAsync>;
  h.tensorCreateGraphTensor = &CGenerator::onTensorCreateGraphTensor<Call::tensorCreateGraphTensor>;
  h.tensorCreateContextTensor = &CGenerator::onTensorCreateGraphTensor<Call::tensorCreateContextTensor>;
}

bool CGenerator::onContextCreate(const CallRecord& c) {
  const Args<Call::contextCreate> a(c);
  const std::string backend = handle(a.backend, "backend");
  const std::string device = handle(a.device, "device");
  std::string cfg = emitConfig(a.config, "QnnContext_Config_t");
  line("CHECK(API(contextCreate, " + backend + ", " + device + ", " + cfg + ", &" + handle(a.context, "context") +
       "));");
  return true;
}

bool CGenerator::onContextSetConfig(const CallRecord& c) {
  const Args<Call::contextSetConfig> a(c);
  std::string cfg = emitConfig(a.config, "QnnContext_Config_t");
  line("CHECK(API(contextSetConfig, " + handle(a.context, "context") + ", " + cfg + "));");
  return true;
}

bool CGenerator::onContextGetBinarySize(const CallRecord& c) {
  const Args<Call::contextGetBinarySize> a(c);
  line("Qnn_ContextBinarySize_t size = 0;");
  line("CHECK(API(contextGetBinarySize, " + handle(a.context, "context") + ", &size));");
  return true;
}

bool CGenerator::onContextGetBinary(const CallRecord& c) {
  const Args<Call::contextGetBinary> a(c);
  // The program keeps the binary it gets: a later createFromBinary of the
  // recorded bytes uses this one, made by the replaying backend.
  std::string id = std::to_string(a.binary.u), ctx = handle(a.context, "context");
  if (liveBinaries_.insert(a.binary.u).second) {
    globals_.push_back("static void* binary_" + id + ";");
    globals_.push_back("static Qnn_ContextBinarySize_t binarySize_" + id + ";");
  }
  line("Qnn_ContextBinarySize_t size = 0;");
  line("CHECK(API(contextGetBinarySize, " + ctx + ", &size));");
  line("free(binary_" + id + ");");
  line("binary_" + id + " = outputBuffer((uint32_t)size);");
  line("CHECK(API(contextGetBinary, " + ctx + ", binary_" + id + ", size, &binarySize_" + id + "));");
  return true;
}

bool CGenerator::onContextCreateFromBinaryWithCallback(const CallRecord& c) {
  const Args<Call::contextCreateFromBinaryWithCallback> a(c);
  const std::string backend = handle(a.backend, "backend");
  const std::string device = handle(a.device, "device");
  // The recorded client's callback is not in the trace: the program's own serves the buffer.
  std::string cfg = emitConfig(a.config, "QnnContext_Config_t");
  line("Qnn_ContextBinaryCallback_t callback = bufferCallback(" + binaryArgs(a.binary) + ");");
  line("CHECK(API(contextCreateFromBinaryWithCallback, " + backend + ", " + device + ", " + cfg + ", &callback, " +
       binaryArgs(a.binary) + ", &" + handle(a.context, "context") + ", " +
       handle(a.profile, "profile") + ", " + handle(a.signal, "signal") + "));");
  return true;
}

template <Call C>
bool CGenerator::onContextCreateFromBinary(const CallRecord& c) {
  const Args<C> a(c);
  const std::string backend = handle(a.backend, "backend");
  const std::string device = handle(a.device, "device");
  std::string cfg = emitConfig(a.config, "QnnContext_Config_t");
  std::string tail;
  if constexpr (C == Call::contextCreateFromBinaryWithSignal) tail = ", " + handle(a.signal, "signal");
  line("CHECK(API(" + std::string(callMember(C)) + ", " + backend + ", " + device + ", " + cfg + ", " +
       binaryArgs(a.binary) + ", &" + handle(a.context, "context") + ", " +
       handle(a.profile, "profile") + tail + "));");
  return true;
}

bool CGenerator::onContextCreateFromBinaryListAsync(const CallRecord& c) {
  const Args<Call::contextCreateFromBinaryListAsync> a(c);
  return emitListAsync(a);
  return true;
}

bool CGenerator::onContextValidateBinary(const CallRecord& c) {
  const Args<Call::contextValidateBinary> a(c);
  const std::string backend = handle(a.backend, "backend");
  const std::string device = handle(a.device, "device");
  std::string cfg = emitConfig(a.config, "QnnContext_Config_t");
  line("CHECK(API(contextValidateBinary, " + backend + ", " + device + ", " + cfg + ", " + binaryArgs(a.binary) +
       "));");
  return true;
}

bool CGenerator::onContextFree(const CallRecord& c) {
  const Args<Call::contextFree> a(c);
  line("CHECK(API(contextFree, " + handle(a.context, "context") + ", " + handle(a.profile, "profile") +
       "));");
  return true;
}

bool CGenerator::onMemRegister(const CallRecord& c) {
  const Args<Call::memRegister> a(c);
  const Value& descriptors = a.memDescriptors;
  const Value& handles = a.memHandles;
  size_t n = descriptors.items.size();
  for (const Value& d : descriptors.items)  // custom memory (no fd) is not replayable
    if (!d.field("fd") || !d.field("dims") || handles.items.size() != n) return false;
  if (n == 0) return false;
  std::string ns = std::to_string(n);
  line("Qnn_MemDescriptor_t desc[" + ns + "];");
  line("Qnn_MemHandle_t handles[" + ns + "];");
  line("void* mapped[" + ns + "];");
  line("int fds[" + ns + "];");
  line("memset(desc, 0, sizeof desc);");
  for (size_t k = 0; k < n; ++k) {
    const Value& d = descriptors.items[k];
    std::string dk = "desc[" + std::to_string(k) + "]", ks = std::to_string(k);
    std::string dims = fresh("dims");
    std::string init;
    for (const Value& x : d.field("dims")->items) init += (init.empty() ? "" : ", ") + std::to_string(x.u) + "u";
    line("static uint32_t " + dims + "[] = {" + (init.empty() ? "1u" : init) + "};");
    line(dk + ".memShape.numDim = " + std::to_string(d.field("dims")->items.size()) + "u;");
    line(dk + ".memShape.dimSize = " + dims + ";");
    line(dk + ".dataType = (Qnn_DataType_t)" + field(d, "dataType") + ";");
    line(dk + ".memType = QNN_MEM_TYPE_ION;");
    line("fds[" + ks + "] = sharedBuffer(" + std::to_string(bufferBytes(d)) + "u, &mapped[" + ks + "]);");
    line(dk + ".ionInfo.fd = fds[" + ks + "];");
  }
  line("if (CHECK(API(memRegister, " + handle(a.context, "context") + ", desc, " + ns + "u, handles))) {");
  for (size_t k = 0; k < n; ++k) {
    std::string ks = std::to_string(k), mem = handle(handles.items[k], "mem");
    line("  " + mem + " = handles[" + ks + "];");
    line("  bindMapping(" + mem + ", mapped[" + ks + "], " + std::to_string(bufferBytes(descriptors.items[k])) +
         "u, fds[" + ks + "]);");
  }
  line("}");
  return true;
}

bool CGenerator::onMemDeRegister(const CallRecord& c) {
  const Args<Call::memDeRegister> a(c);
  const Value& handles = a.memHandles;
  if (handles.items.empty()) return false;
  std::string list;
  for (const Value& h : handles.items) list += (list.empty() ? "" : ", ") + handle(h, "mem");
  line("Qnn_MemHandle_t handles[] = {" + list + "};");
  line("CHECK(API(memDeRegister, handles, " + std::to_string(handles.items.size()) + "u));");
  return true;
}

void CGenerator::addContextHandlers(PerCall<Handler>& h) {
  h.contextCreate = &CGenerator::onContextCreate;
  h.contextSetConfig = &CGenerator::onContextSetConfig;
  h.contextGetBinarySize = &CGenerator::onContextGetBinarySize;
  h.contextGetBinary = &CGenerator::onContextGetBinary;
  h.contextCreateFromBinaryWithCallback = &CGenerator::onContextCreateFromBinaryWithCallback;
  h.contextCreateFromBinary = &CGenerator::onContextCreateFromBinary<Call::contextCreateFromBinary>;
  h.contextCreateFromBinaryWithSignal = &CGenerator::onContextCreateFromBinary<Call::contextCreateFromBinaryWithSignal>;
  h.contextCreateFromBinaryListAsync = &CGenerator::onContextCreateFromBinaryListAsync;
  h.contextValidateBinary = &CGenerator::onContextValidateBinary;
  h.contextFree = &CGenerator::onContextFree;
  h.memRegister = &CGenerator::onMemRegister;
  h.memDeRegister = &CGenerator::onMemDeRegister;
}

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
  line("CHECK(API(backendRegisterOpPackage, " + backend + ", " + str(a.packagePath) + ", " +
       str(a.interfaceProvider) + ", " + str(a.target) + "));");
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
