// One recorded call -> one C block of the generated program.
#include "c_generator.h"
#include "c_literals.h"
#include "qnn_data_bytes.h"
#include "trace_format.h"

namespace qnn::trace::cgen {
namespace {

const Value& arg(const Value& a, const char* name) {
  static const Value& null = *new Value();  // never destroyed: used from exit-time generation
  const Value* f = a.field(name);
  return f ? *f : null;
}

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
  bool done = handler && *handler && (this->**handler)(c.call(), c.args);
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

bool CGenerator::onGraphCreate(trace::Call, const Value& a) {
  std::string cfg = emitConfig(arg(a, "config"), "QnnGraph_Config_t");
  line("CHECK(API(graphCreate, " + handle(arg(a, "context"), "context") + ", " + str(arg(a, "graphName")) + ", " + cfg +
       ", &" + handle(arg(a, "graph"), "graph") + "));");
  return true;
}

bool CGenerator::onGraphRetrieve(trace::Call, const Value& a) {
  line("CHECK(API(graphRetrieve, " + handle(arg(a, "context"), "context") + ", " + str(arg(a, "graphName")) + ", &" +
       handle(arg(a, "graph"), "graph") + "));");
  return true;
}

bool CGenerator::onGraphSetConfig(trace::Call, const Value& a) {
  std::string cfg = emitConfig(arg(a, "config"), "QnnGraph_Config_t");
  line("CHECK(API(graphSetConfig, " + handle(arg(a, "graph"), "graph") + ", " + cfg + "));");
  return true;
}

bool CGenerator::onGraphAddNode(trace::Call, const Value& a) {
  emitOp(arg(a, "opConfig"));
  line("CHECK(API(graphAddNode, " + handle(arg(a, "graph"), "graph") + ", op));");
  return true;
}

bool CGenerator::onGraphFinalize(trace::Call, const Value& a) {
  line("CHECK(API(graphFinalize, " + handle(arg(a, "graph"), "graph") + ", " + handle(arg(a, "profile"), "profile") +
       ", " + handle(arg(a, "signal"), "signal") + "));");
  return true;
}

bool CGenerator::onGraphExecute(trace::Call m, const Value& a) {
  const Value& in = arg(a, "inputs");
  const Value& out = arg(a, "outputs");
  emitTensorArray("in", in, TensorUse::Input);
  emitTensorArray("out", out, TensorUse::Output);
  std::string n = std::to_string(in.items.size()) + "u", k = std::to_string(out.items.size()) + "u";
  std::string args = handle(arg(a, "graph"), "graph") + ", " + (in.items.empty() ? "NULL" : "in") + ", " + n + ", " +
                     (out.items.empty() ? "NULL" : "out") + ", " + k + ", " + handle(arg(a, "profile"), "profile") +
                     ", " + handle(arg(a, "signal"), "signal");
  std::string save = out.items.empty() ? "" : " saveOutputs(" + std::to_string(executes_) + "u, out, " + k + ");";
  if (m == Call::graphExecute)
    line("if (CHECK(API(graphExecute, " + args + ")))" + (save.empty() ? " {}" : save));
  else
    line("if (waitAsync(__LINE__, API(graphExecuteAsync, " + args + ", notifyDone, NULL)))" +
         (save.empty() ? " {}" : save));
  if (!out.items.empty()) line("freeOutputs(out, " + k + ");");
  ++executes_;
  return true;
}

bool CGenerator::onTensorCreateGraphTensor(trace::Call m, const Value& a) {
  bool graph = m == Call::tensorCreateGraphTensor;
  line("Qnn_Tensor_t t;");
  emitTensor("t", arg(a, "tensor"), TensorUse::Create);
  std::string parent = graph ? handle(arg(a, "graph"), "graph") : handle(arg(a, "context"), "context");
  // Later calls name the tensor by its recorded id.
  line("if (CHECK(API(" + std::string(callMember(m)) + ", " + parent + ", &t))) bindTensorId(" + field(a, "id") +
       ", t.v1.id);");
  return true;
}

void CGenerator::addGraphHandlers(PerCall<Handler>& h) {
  h.graphCreate = &CGenerator::onGraphCreate;
  h.graphRetrieve = &CGenerator::onGraphRetrieve;
  h.graphSetConfig = &CGenerator::onGraphSetConfig;
  h.graphAddNode = &CGenerator::onGraphAddNode;
  h.graphFinalize = &CGenerator::onGraphFinalize;
  h.graphExecute = &CGenerator::onGraphExecute;
  h.graphExecuteAsync = &CGenerator::onGraphExecute;
  h.tensorCreateGraphTensor = &CGenerator::onTensorCreateGraphTensor;
  h.tensorCreateContextTensor = &CGenerator::onTensorCreateGraphTensor;
}

bool CGenerator::onContextCreate(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  const std::string device = handle(arg(a, "device"), "device");
  std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
  line("CHECK(API(contextCreate, " + backend + ", " + device + ", " + cfg + ", &" + handle(arg(a, "context"), "context") +
       "));");
  return true;
}

bool CGenerator::onContextSetConfig(trace::Call, const Value& a) {
  std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
  line("CHECK(API(contextSetConfig, " + handle(arg(a, "context"), "context") + ", " + cfg + "));");
  return true;
}

bool CGenerator::onContextGetBinarySize(trace::Call, const Value& a) {
  line("Qnn_ContextBinarySize_t size = 0;");
  line("CHECK(API(contextGetBinarySize, " + handle(arg(a, "context"), "context") + ", &size));");
  return true;
}

bool CGenerator::onContextGetBinary(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  // The program keeps the binary it gets: a later createFromBinary of the
  // recorded bytes uses this one, made by the replaying backend.
  std::string id = std::to_string(arg(a, "binary").u), ctx = handle(arg(a, "context"), "context");
  if (liveBinaries_.insert(arg(a, "binary").u).second) {
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

bool CGenerator::onContextCreateFromBinaryWithCallback(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  const std::string device = handle(arg(a, "device"), "device");
  // The recorded client's callback is not in the trace: the program's own serves the buffer.
  std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
  line("Qnn_ContextBinaryCallback_t callback = bufferCallback(" + binaryArgs(arg(a, "binary")) + ");");
  line("CHECK(API(contextCreateFromBinaryWithCallback, " + backend + ", " + device + ", " + cfg + ", &callback, " +
       binaryArgs(arg(a, "binary")) + ", &" + handle(arg(a, "context"), "context") + ", " +
       handle(arg(a, "profile"), "profile") + ", " + handle(arg(a, "signal"), "signal") + "));");
  return true;
}

bool CGenerator::onContextCreateFromBinary(trace::Call m, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  const std::string device = handle(arg(a, "device"), "device");
  std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
  std::string tail = m == Call::contextCreateFromBinaryWithSignal ? ", " + handle(arg(a, "signal"), "signal") : "";
  line("CHECK(API(" + std::string(callMember(m)) + ", " + backend + ", " + device + ", " + cfg + ", " +
       binaryArgs(arg(a, "binary")) + ", &" + handle(arg(a, "context"), "context") + ", " +
       handle(arg(a, "profile"), "profile") + tail + "));");
  return true;
}

bool CGenerator::onContextCreateFromBinaryListAsync(trace::Call, const Value& a) {
  return emitListAsync(a);
  return true;
}

bool CGenerator::onContextValidateBinary(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  const std::string device = handle(arg(a, "device"), "device");
  std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
  line("CHECK(API(contextValidateBinary, " + backend + ", " + device + ", " + cfg + ", " + binaryArgs(arg(a, "binary")) +
       "));");
  return true;
}

bool CGenerator::onContextFree(trace::Call, const Value& a) {
  line("CHECK(API(contextFree, " + handle(arg(a, "context"), "context") + ", " + handle(arg(a, "profile"), "profile") +
       "));");
  return true;
}

bool CGenerator::onMemRegister(trace::Call, const Value& a) {
  const Value& descriptors = arg(a, "memDescriptors");
  const Value& handles = arg(a, "memHandles");
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
  line("if (CHECK(API(memRegister, " + handle(arg(a, "context"), "context") + ", desc, " + ns + "u, handles))) {");
  for (size_t k = 0; k < n; ++k) {
    std::string ks = std::to_string(k), mem = handle(handles.items[k], "mem");
    line("  " + mem + " = handles[" + ks + "];");
    line("  bindMapping(" + mem + ", mapped[" + ks + "], " + std::to_string(bufferBytes(descriptors.items[k])) +
         "u, fds[" + ks + "]);");
  }
  line("}");
  return true;
}

bool CGenerator::onMemDeRegister(trace::Call, const Value& a) {
  const Value& handles = arg(a, "memHandles");
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
  h.contextCreateFromBinary = &CGenerator::onContextCreateFromBinary;
  h.contextCreateFromBinaryWithSignal = &CGenerator::onContextCreateFromBinary;
  h.contextCreateFromBinaryListAsync = &CGenerator::onContextCreateFromBinaryListAsync;
  h.contextValidateBinary = &CGenerator::onContextValidateBinary;
  h.contextFree = &CGenerator::onContextFree;
  h.memRegister = &CGenerator::onMemRegister;
  h.memDeRegister = &CGenerator::onMemDeRegister;
}

bool CGenerator::onPropertyHasCapability(trace::Call, const Value& a) {
  line("(void)API(propertyHasCapability, (QnnProperty_Key_t)" + field(a, "key") + ");");
  return true;
}

bool CGenerator::onBackendCreate(trace::Call, const Value& a) {
  std::string cfg = emitConfig(arg(a, "config"), "QnnBackend_Config_t");
  std::string logger = arg(a, "logger").kind == Value::Kind::Handle ? handle(arg(a, "logger"), "logger")
                                                                      : "commandLineLogger";
  line("CHECK(API(backendCreate, " + logger + ", " + cfg + ", &" + handle(arg(a, "backend"), "backend") + "));");
  return true;
}

bool CGenerator::onBackendSetConfig(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  std::string cfg = emitConfig(arg(a, "config"), "QnnBackend_Config_t");
  line("CHECK(API(backendSetConfig, " + backend + ", " + cfg + "));");
  return true;
}

bool CGenerator::onBackendGetApiVersion(trace::Call, const Value&) {
  line("Qnn_ApiVersion_t version;");
  line("CHECK(API(backendGetApiVersion, &version));");
  return true;
}

bool CGenerator::onBackendGetBuildId(trace::Call, const Value&) {
  line("const char* id = NULL;");
  line("CHECK(API(backendGetBuildId, &id));");
  return true;
}

bool CGenerator::onBackendRegisterOpPackage(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  line("CHECK(API(backendRegisterOpPackage, " + backend + ", " + str(arg(a, "packagePath")) + ", " +
       str(arg(a, "interfaceProvider")) + ", " + str(arg(a, "target")) + "));");
  return true;
}

bool CGenerator::onBackendGetSupportedOperations(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  line("uint32_t n = 0;");
  line("const QnnBackend_OperationName_t* ops = NULL;");
  line("CHECK(API(backendGetSupportedOperations, " + backend + ", &n, &ops));");
  return true;
}

bool CGenerator::onBackendValidateOpConfig(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  emitOp(arg(a, "opConfig"));
  line("CHECK(API(backendValidateOpConfig, " + backend + ", op));");
  return true;
}

bool CGenerator::onBackendFree(trace::Call, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  line("CHECK(API(backendFree, " + backend + "));");
  return true;
}

bool CGenerator::onLogCreate(trace::Call, const Value& a) {
  std::string callback = field(a, "hasCallback") == "0u" ? "NULL" : "logToStderr";
  line("CHECK(API(logCreate, " + callback + ", logLevel(" + field(a, "maxLogLevel") + "), &" +
       handle(arg(a, "logger"), "logger") + "));");
  return true;
}

bool CGenerator::onLogSetLogLevel(trace::Call, const Value& a) {
  line("CHECK(API(logSetLogLevel, " + handle(arg(a, "logger"), "logger") + ", logLevel(" + field(a, "maxLogLevel") +
       ")));");
  return true;
}

bool CGenerator::onLogFree(trace::Call, const Value& a) {
  line("CHECK(API(logFree, " + handle(arg(a, "logger"), "logger") + "));");
  return true;
}

bool CGenerator::onErrorGetMessage(trace::Call, const Value& a) {
  line("const char* message = NULL;");
  line("CHECK(API(errorGetMessage, (Qnn_ErrorHandle_t)" + field(a, "errorHandle") + ", &message));");
  return true;
}

bool CGenerator::onErrorGetVerboseMessage(trace::Call, const Value& a) {
  line("CHECK(API(errorGetVerboseMessage, (Qnn_ErrorHandle_t)" + field(a, "errorHandle") + ", &verboseMessage));");
  return true;
}

bool CGenerator::onErrorFreeVerboseMessage(trace::Call, const Value&) {
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

bool CGenerator::onProfileCreate(trace::Call, const Value& a) {
  line("CHECK(API(profileCreate, " + handle(arg(a, "backend"), "backend") + ", (QnnProfile_Level_t)" +
       field(a, "level") + ", &" + handle(arg(a, "profile"), "profile") + "));");
  return true;
}

bool CGenerator::onProfileGetEvents(trace::Call, const Value& a) {
  line("const QnnProfile_EventId_t* events = NULL;");
  line("uint32_t n = 0;");
  line("CHECK(API(profileGetEvents, " + handle(arg(a, "profile"), "profile") + ", &events, &n));");
  return true;
}

bool CGenerator::onProfileFree(trace::Call, const Value& a) {
  line("CHECK(API(profileFree, " + handle(arg(a, "profile"), "profile") + "));");
  return true;
}

bool CGenerator::onProfileSetConfig(trace::Call m, const Value& a) {
  // One NULL-terminated array of the recorded options, named after the call.
  const bool profile = m == Call::profileSetConfig;
  const char* type = profile ? "QnnProfile_Config_t" : "QnnGlobalConfig_t";
  const Value& list = arg(a, "config");
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
  if (profile)
    line("CHECK(API(profileSetConfig, " + handle(arg(a, "profile"), "profile") + ", " + array + "));");
  else
    line("CHECK(API(globalConfigSet, " + array + "));");
  return true;
}

bool CGenerator::onDeviceGetPlatformInfo(trace::Call, const Value& a) {
  const std::string logger = handle(arg(a, "logger"), "logger");
  line("CHECK(API(deviceGetPlatformInfo, " + logger + ", &platformInfo));");
  return true;
}

bool CGenerator::onDeviceFreePlatformInfo(trace::Call, const Value& a) {
  const std::string logger = handle(arg(a, "logger"), "logger");
  line("if (platformInfo) CHECK(API(deviceFreePlatformInfo, " + logger + ", platformInfo));");
  line("platformInfo = NULL;");
  return true;
}

bool CGenerator::onDeviceGetInfrastructure(trace::Call, const Value& a) {
  line("QnnDevice_Infrastructure_t infrastructure = NULL;");
  // An HTP perf infrastructure the Saver recorded the calls of is kept for them.
  if (const Value* rec = a.field("recorded"); rec && rec->u == 1)
    line("if (CHECK(API(deviceGetInfrastructure, &infrastructure))) perfInfra = perfOf(infrastructure);");
  else
    line("CHECK(API(deviceGetInfrastructure, &infrastructure));");
  return true;
}

bool CGenerator::onDeviceCreate(trace::Call, const Value& a) {
  const std::string logger = handle(arg(a, "logger"), "logger");
  std::string cfg = emitConfig(arg(a, "config"), "QnnDevice_Config_t");
  line("CHECK(API(deviceCreate, " + logger + ", " + cfg + ", &" + handle(arg(a, "device"), "device") + "));");
  return true;
}

bool CGenerator::onDeviceSetConfig(trace::Call, const Value& a) {
  std::string cfg = emitConfig(arg(a, "config"), "QnnDevice_Config_t");
  line("CHECK(API(deviceSetConfig, " + handle(arg(a, "device"), "device") + ", " + cfg + "));");
  return true;
}

bool CGenerator::onDeviceGetInfo(trace::Call, const Value& a) {
  line("const QnnDevice_PlatformInfo_t* info = NULL;");
  line("CHECK(API(deviceGetInfo, " + handle(arg(a, "device"), "device") + ", &info));");
  return true;
}

bool CGenerator::onDeviceFree(trace::Call, const Value& a) {
  line("CHECK(API(deviceFree, " + handle(arg(a, "device"), "device") + "));");
  return true;
}

bool CGenerator::onSignalCreate(trace::Call, const Value& a) {
  std::string cfg = emitConfig(arg(a, "config"), "QnnSignal_Config_t");
  line("CHECK(API(signalCreate, " + handle(arg(a, "backend"), "backend") + ", " + cfg + ", &" +
       handle(arg(a, "signal"), "signal") + "));");
  return true;
}

bool CGenerator::onSignalSetConfig(trace::Call, const Value& a) {
  std::string cfg = emitConfig(arg(a, "config"), "QnnSignal_Config_t");
  line("CHECK(API(signalSetConfig, " + handle(arg(a, "signal"), "signal") + ", " + cfg + "));");
  return true;
}

bool CGenerator::onSignalTrigger(trace::Call, const Value& a) {
  line("CHECK(API(signalTrigger, " + handle(arg(a, "signal"), "signal") + "));");
  return true;
}

bool CGenerator::onSignalFree(trace::Call, const Value& a) {
  line("CHECK(API(signalFree, " + handle(arg(a, "signal"), "signal") + "));");
  return true;
}

void CGenerator::addObjectHandlers(PerCall<Handler>& h) {
  h.profileCreate = &CGenerator::onProfileCreate;
  h.profileGetEvents = &CGenerator::onProfileGetEvents;
  h.profileFree = &CGenerator::onProfileFree;
  h.profileSetConfig = &CGenerator::onProfileSetConfig;
  h.globalConfigSet = &CGenerator::onProfileSetConfig;
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
