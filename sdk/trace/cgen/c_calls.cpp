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
  const Call call = c.call();
  bool done = emitGraphCall(call, c.args) || emitContextCall(call, c.args) || emitBackendCall(call, c.args) ||
              emitObjectCall(call, c.args) || emitSectionCall(call, c.args) || emitPerfCall(call, c.args);
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

bool CGenerator::emitGraphCall(trace::Call m, const Value& a) {
  if (m == Call::graphCreate) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnGraph_Config_t");
    line("CHECK(API(graphCreate, " + handle(arg(a, "context"), "context") + ", " + str(arg(a, "graphName")) + ", " + cfg +
         ", &" + handle(arg(a, "graph"), "graph") + "));");
  } else if (m == Call::graphRetrieve) {
    line("CHECK(API(graphRetrieve, " + handle(arg(a, "context"), "context") + ", " + str(arg(a, "graphName")) + ", &" +
         handle(arg(a, "graph"), "graph") + "));");
  } else if (m == Call::graphSetConfig) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnGraph_Config_t");
    line("CHECK(API(graphSetConfig, " + handle(arg(a, "graph"), "graph") + ", " + cfg + "));");
  } else if (m == Call::graphAddNode) {
    emitOp(arg(a, "opConfig"));
    line("CHECK(API(graphAddNode, " + handle(arg(a, "graph"), "graph") + ", op));");
  } else if (m == Call::graphFinalize) {
    line("CHECK(API(graphFinalize, " + handle(arg(a, "graph"), "graph") + ", " + handle(arg(a, "profile"), "profile") +
         ", " + handle(arg(a, "signal"), "signal") + "));");
  } else if (m == Call::graphExecute || m == Call::graphExecuteAsync) {
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
  } else if (m == Call::tensorCreateGraphTensor || m == Call::tensorCreateContextTensor) {
    bool graph = m == Call::tensorCreateGraphTensor;
    line("Qnn_Tensor_t t;");
    emitTensor("t", arg(a, "tensor"), TensorUse::Create);
    std::string parent = graph ? handle(arg(a, "graph"), "graph") : handle(arg(a, "context"), "context");
    // Later calls name the tensor by its recorded id.
    line("if (CHECK(API(" + std::string(callMember(m)) + ", " + parent + ", &t))) bindTensorId(" + field(a, "id") +
         ", t.v1.id);");
  } else {
    return false;
  }
  return true;
}

bool CGenerator::emitContextCall(trace::Call m, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend"), device = handle(arg(a, "device"), "device");
  auto binary = [&](const Value& ref) { return binaryArgs(ref); };
  if (m == Call::contextCreate) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
    line("CHECK(API(contextCreate, " + backend + ", " + device + ", " + cfg + ", &" + handle(arg(a, "context"), "context") +
         "));");
  } else if (m == Call::contextSetConfig) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
    line("CHECK(API(contextSetConfig, " + handle(arg(a, "context"), "context") + ", " + cfg + "));");
  } else if (m == Call::contextGetBinarySize) {
    line("Qnn_ContextBinarySize_t size = 0;");
    line("CHECK(API(contextGetBinarySize, " + handle(arg(a, "context"), "context") + ", &size));");
  } else if (m == Call::contextGetBinary) {
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
  } else if (m == Call::contextCreateFromBinaryWithCallback) {
    // The recorded client's callback is not in the trace: the program's own serves the buffer.
    std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
    line("Qnn_ContextBinaryCallback_t callback = bufferCallback(" + binary(arg(a, "binary")) + ");");
    line("CHECK(API(contextCreateFromBinaryWithCallback, " + backend + ", " + device + ", " + cfg + ", &callback, " +
         binary(arg(a, "binary")) + ", &" + handle(arg(a, "context"), "context") + ", " +
         handle(arg(a, "profile"), "profile") + ", " + handle(arg(a, "signal"), "signal") + "));");
  } else if (m == Call::contextCreateFromBinary || m == Call::contextCreateFromBinaryWithSignal) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
    std::string tail = m == Call::contextCreateFromBinaryWithSignal ? ", " + handle(arg(a, "signal"), "signal") : "";
    line("CHECK(API(" + std::string(callMember(m)) + ", " + backend + ", " + device + ", " + cfg + ", " +
         binary(arg(a, "binary")) + ", &" + handle(arg(a, "context"), "context") + ", " +
         handle(arg(a, "profile"), "profile") + tail + "));");
  } else if (m == Call::contextCreateFromBinaryListAsync) {
    return emitListAsync(a);
  } else if (m == Call::contextValidateBinary) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnContext_Config_t");
    line("CHECK(API(contextValidateBinary, " + backend + ", " + device + ", " + cfg + ", " + binary(arg(a, "binary")) +
         "));");
  } else if (m == Call::contextFree) {
    line("CHECK(API(contextFree, " + handle(arg(a, "context"), "context") + ", " + handle(arg(a, "profile"), "profile") +
         "));");
  } else if (m == Call::memRegister) {
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
  } else if (m == Call::memDeRegister) {
    const Value& handles = arg(a, "memHandles");
    if (handles.items.empty()) return false;
    std::string list;
    for (const Value& h : handles.items) list += (list.empty() ? "" : ", ") + handle(h, "mem");
    line("Qnn_MemHandle_t handles[] = {" + list + "};");
    line("CHECK(API(memDeRegister, handles, " + std::to_string(handles.items.size()) + "u));");
  } else {
    return false;
  }
  return true;
}

bool CGenerator::emitBackendCall(trace::Call m, const Value& a) {
  const std::string backend = handle(arg(a, "backend"), "backend");
  if (m == Call::propertyHasCapability) {
    line("(void)API(propertyHasCapability, (QnnProperty_Key_t)" + field(a, "key") + ");");
  } else if (m == Call::backendCreate) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnBackend_Config_t");
    std::string logger = arg(a, "logger").kind == Value::Kind::Handle ? handle(arg(a, "logger"), "logger")
                                                                        : "commandLineLogger";
    line("CHECK(API(backendCreate, " + logger + ", " + cfg + ", &" + handle(arg(a, "backend"), "backend") + "));");
  } else if (m == Call::backendSetConfig) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnBackend_Config_t");
    line("CHECK(API(backendSetConfig, " + backend + ", " + cfg + "));");
  } else if (m == Call::backendGetApiVersion) {
    line("Qnn_ApiVersion_t version;");
    line("CHECK(API(backendGetApiVersion, &version));");
  } else if (m == Call::backendGetBuildId) {
    line("const char* id = NULL;");
    line("CHECK(API(backendGetBuildId, &id));");
  } else if (m == Call::backendRegisterOpPackage) {
    line("CHECK(API(backendRegisterOpPackage, " + backend + ", " + str(arg(a, "packagePath")) + ", " +
         str(arg(a, "interfaceProvider")) + ", " + str(arg(a, "target")) + "));");
  } else if (m == Call::backendGetSupportedOperations) {
    line("uint32_t n = 0;");
    line("const QnnBackend_OperationName_t* ops = NULL;");
    line("CHECK(API(backendGetSupportedOperations, " + backend + ", &n, &ops));");
  } else if (m == Call::backendValidateOpConfig) {
    emitOp(arg(a, "opConfig"));
    line("CHECK(API(backendValidateOpConfig, " + backend + ", op));");
  } else if (m == Call::backendFree) {
    line("CHECK(API(backendFree, " + backend + "));");
  } else if (m == Call::logCreate) {
    std::string callback = field(a, "hasCallback") == "0u" ? "NULL" : "logToStderr";
    line("CHECK(API(logCreate, " + callback + ", logLevel(" + field(a, "maxLogLevel") + "), &" +
         handle(arg(a, "logger"), "logger") + "));");
  } else if (m == Call::logSetLogLevel) {
    line("CHECK(API(logSetLogLevel, " + handle(arg(a, "logger"), "logger") + ", logLevel(" + field(a, "maxLogLevel") +
         ")));");
  } else if (m == Call::logFree) {
    line("CHECK(API(logFree, " + handle(arg(a, "logger"), "logger") + "));");
  } else if (m == Call::errorGetMessage) {
    line("const char* message = NULL;");
    line("CHECK(API(errorGetMessage, (Qnn_ErrorHandle_t)" + field(a, "errorHandle") + ", &message));");
  } else if (m == Call::errorGetVerboseMessage) {
    line("CHECK(API(errorGetVerboseMessage, (Qnn_ErrorHandle_t)" + field(a, "errorHandle") + ", &verboseMessage));");
  } else if (m == Call::errorFreeVerboseMessage) {
    line("if (verboseMessage) CHECK(API(errorFreeVerboseMessage, verboseMessage));");
    line("verboseMessage = NULL;");
  } else {
    return false;
  }
  return true;
}

bool CGenerator::emitObjectCall(trace::Call m, const Value& a) {
  const std::string logger = handle(arg(a, "logger"), "logger");
  if (m == Call::profileCreate) {
    line("CHECK(API(profileCreate, " + handle(arg(a, "backend"), "backend") + ", (QnnProfile_Level_t)" +
         field(a, "level") + ", &" + handle(arg(a, "profile"), "profile") + "));");
  } else if (m == Call::profileGetEvents) {
    line("const QnnProfile_EventId_t* events = NULL;");
    line("uint32_t n = 0;");
    line("CHECK(API(profileGetEvents, " + handle(arg(a, "profile"), "profile") + ", &events, &n));");
  } else if (m == Call::profileFree) {
    line("CHECK(API(profileFree, " + handle(arg(a, "profile"), "profile") + "));");
  } else if (m == Call::profileSetConfig || m == Call::globalConfigSet) {
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
  } else if (m == Call::deviceGetPlatformInfo) {
    line("CHECK(API(deviceGetPlatformInfo, " + logger + ", &platformInfo));");
  } else if (m == Call::deviceFreePlatformInfo) {
    line("if (platformInfo) CHECK(API(deviceFreePlatformInfo, " + logger + ", platformInfo));");
    line("platformInfo = NULL;");
  } else if (m == Call::deviceGetInfrastructure) {
    line("QnnDevice_Infrastructure_t infrastructure = NULL;");
    // An HTP perf infrastructure the Saver recorded the calls of is kept for them.
    if (const Value* rec = a.field("recorded"); rec && rec->u == 1)
      line("if (CHECK(API(deviceGetInfrastructure, &infrastructure))) perfInfra = perfOf(infrastructure);");
    else
      line("CHECK(API(deviceGetInfrastructure, &infrastructure));");
  } else if (m == Call::deviceCreate) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnDevice_Config_t");
    line("CHECK(API(deviceCreate, " + logger + ", " + cfg + ", &" + handle(arg(a, "device"), "device") + "));");
  } else if (m == Call::deviceSetConfig) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnDevice_Config_t");
    line("CHECK(API(deviceSetConfig, " + handle(arg(a, "device"), "device") + ", " + cfg + "));");
  } else if (m == Call::deviceGetInfo) {
    line("const QnnDevice_PlatformInfo_t* info = NULL;");
    line("CHECK(API(deviceGetInfo, " + handle(arg(a, "device"), "device") + ", &info));");
  } else if (m == Call::deviceFree) {
    line("CHECK(API(deviceFree, " + handle(arg(a, "device"), "device") + "));");
  } else if (m == Call::signalCreate) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnSignal_Config_t");
    line("CHECK(API(signalCreate, " + handle(arg(a, "backend"), "backend") + ", " + cfg + ", &" +
         handle(arg(a, "signal"), "signal") + "));");
  } else if (m == Call::signalSetConfig) {
    std::string cfg = emitConfig(arg(a, "config"), "QnnSignal_Config_t");
    line("CHECK(API(signalSetConfig, " + handle(arg(a, "signal"), "signal") + ", " + cfg + "));");
  } else if (m == Call::signalTrigger) {
    line("CHECK(API(signalTrigger, " + handle(arg(a, "signal"), "signal") + "));");
  } else if (m == Call::signalFree) {
    line("CHECK(API(signalFree, " + handle(arg(a, "signal"), "signal") + "));");
  } else {
    return false;
  }
  return true;
}

}  // namespace qnn::trace::cgen
