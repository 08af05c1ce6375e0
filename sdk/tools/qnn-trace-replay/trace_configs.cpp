#include "tools/qnn-trace-replay/trace_configs.h"

#include <cstring>

#include "CPU/QnnCpuCommon.h"
#include "HTP/QnnHtpCommon.h"

namespace qnn::replay {

using trace::Value;

namespace {

uint64_t num(const Value& e, const char* name) {
  const Value* f = e.field(name);
  return f ? f->u : 0;
}

// The backend whose headers define a recorded custom struct type, 0 if unknown.
uint32_t backendOfCustomType(const std::string& type) {
  if (type.rfind("QnnHtp", 0) == 0) return QNN_BACKEND_ID_HTP;
  if (type.rfind("QnnCpu", 0) == 0) return QNN_BACKEND_ID_CPU;
  return 0;
}

// Shared by every config type: the custom payload, copied so the backend may
// keep the pointer for the call's duration.
template <typename Config>
bool custom(const Value& e, const trace::Trace& t, OwnedConfigs<Config>& out, Config& c) {
  if (const Value* type = e.field("customType"); type && out.backendId) {
    uint32_t owner = backendOfCustomType(type->s);
    if (owner && owner != out.backendId) {
      out.leftOut.push_back(type->s);
      return false;
    }
  }
  const Value* ref = e.field("custom");
  const std::vector<uint8_t>* bytes = ref ? t.blob(*ref) : nullptr;
  if (!bytes) return false;
  out.payloads.push_back(*bytes);
  c.customConfig = out.payloads.back().data();
  return true;
}

template <typename Config>
const char* string(const Value* v, OwnedConfigs<Config>& out) {
  if (!v || v->kind != Value::Kind::String) return nullptr;
  out.strings.push_back(v->s);
  return out.strings.back().c_str();
}

void errorConfig(const Value& e, Qnn_ErrorReportingConfig_t& c) {
  const Value* r = e.field("errorReporting");
  c.reportingLevel = Qnn_ErrorReportingLevel_t(num(*r, "reportingLevel"));
  c.storageLimit = uint32_t(num(*r, "storageLimit"));
}

bool fill(const Value& e, const trace::Trace& t, const LiveHandle&, OwnedConfigs<QnnBackend_Config_t>& out,
          QnnBackend_Config_t& c) {
  if (e.field("errorReporting")) return errorConfig(e, c.errorConfig), true;
  if (e.field("platformOption")) return (c.platformOption = string(e.field("platformOption"), out)), true;
  return custom(e, t, out, c);
}

// A recorded name list as a null-terminated array the configs own (null when null was recorded).
template <typename Config>
const char* const* nameList(const Value* v, OwnedConfigs<Config>& out) {
  if (!v || v->kind != Value::Kind::List) return nullptr;
  std::vector<const char*>& list = out.nameLists.emplace_back();
  for (const Value& name : v->items) list.push_back(string(&name, out));
  list.push_back(nullptr);
  return list.data();
}

bool fill(const Value& e, const trace::Trace& t, const LiveHandle&, OwnedConfigs<QnnContext_Config_t>& out,
          QnnContext_Config_t& c) {
  if (e.field("priority")) return (c.priority = Qnn_Priority_t(num(e, "priority"))), true;
  if (e.field("enableGraphs")) return (c.enableGraphs = nameList(e.field("enableGraphs"), out)), true;
  if (e.field("graphRetentionOrder")) return (c.graphRetentionOrder = nameList(e.field("graphRetentionOrder"), out)), true;
  if (e.field("memoryLimitHint")) return (c.memoryLimitHint = num(e, "memoryLimitHint")), true;
  if (e.field("isPersistentBinary")) return (c.isPersistentBinary = uint8_t(num(e, "isPersistentBinary"))), true;
  if (e.field("binaryCompatibilityType"))
    return (c.binaryCompatibilityType = QnnContext_BinaryCompatibilityType_t(num(e, "binaryCompatibilityType"))), true;
  if (e.field("isGraphInitDeferred")) return (c.isGraphInitDeferred = uint8_t(num(e, "isGraphInitDeferred"))), true;
  if (e.field("errorReporting")) return errorConfig(e, c.errorConfig), true;
  if (e.field("oemString")) return (c.oemString = string(e.field("oemString"), out)), true;
  if (const Value* d = e.field("asyncQueueDepth")) {
    c.asyncExeQueueDepth.type = QnnContext_AsyncExecutionQueueDepthType_t(num(*d, "type"));
    c.asyncExeQueueDepth.depth = uint32_t(num(*d, "depth"));
    return true;
  }
  return custom(e, t, out, c);
}

bool fill(const Value& e, const trace::Trace& t, const LiveHandle& live, OwnedConfigs<QnnGraph_Config_t>& out,
          QnnGraph_Config_t& c) {
  if (e.field("priority")) return (c.priority = Qnn_Priority_t(num(e, "priority"))), true;
  if (const Value* p = e.field("profile")) return (c.profileHandle = live(*p)), true;
  if (e.field("profilingState")) return (c.profilingState = QnnGraph_ProfilingState_t(num(e, "profilingState"))), true;
  if (e.field("numProfilingExecutions"))
    return (c.numProfilingExecutions = uint32_t(num(e, "numProfilingExecutions"))), true;
  if (e.field("enableBinarySectionWeightsUpdates"))
    return (c.enableBinarySectionWeightsUpdates = uint8_t(num(e, "enableBinarySectionWeightsUpdates"))), true;
  return custom(e, t, out, c);
}

bool fill(const Value& e, const trace::Trace& t, const LiveHandle&, OwnedConfigs<QnnDevice_Config_t>& out,
          QnnDevice_Config_t& c) {
  return custom(e, t, out, c);
}

bool fill(const Value& e, const trace::Trace& t, const LiveHandle&, OwnedConfigs<QnnSignal_Config_t>& out,
          QnnSignal_Config_t& c) {
  if (e.field("timeoutUs")) return (c.timeoutDurationUs = num(e, "timeoutUs")), true;
  if (e.field("flag")) return true;
  return custom(e, t, out, c);
}

template <typename Config>
void build(const Value& recorded, const trace::Trace& t, const LiveHandle& live, OwnedConfigs<Config>& out) {
  if (recorded.kind != Value::Kind::List) return;
  for (const Value& e : recorded.items) {
    Config c;
    std::memset(&c, 0, sizeof c);
    c.option = decltype(c.option)(num(e, "option"));
    if (fill(e, t, live, out, c)) out.entries.push_back(c);
  }
  for (const Config& c : out.entries) out.list.push_back(&c);
  out.list.push_back(nullptr);
}

}  // namespace

void buildConfigs(const Value& r, const trace::Trace& t, const LiveHandle& l, OwnedConfigs<QnnBackend_Config_t>& o) { build(r, t, l, o); }
void buildConfigs(const Value& r, const trace::Trace& t, const LiveHandle& l, OwnedConfigs<QnnContext_Config_t>& o) { build(r, t, l, o); }
void buildConfigs(const Value& r, const trace::Trace& t, const LiveHandle& l, OwnedConfigs<QnnGraph_Config_t>& o) { build(r, t, l, o); }
void buildConfigs(const Value& r, const trace::Trace& t, const LiveHandle& l, OwnedConfigs<QnnDevice_Config_t>& o) { build(r, t, l, o); }
void buildConfigs(const Value& r, const trace::Trace& t, const LiveHandle& l, OwnedConfigs<QnnSignal_Config_t>& o) { build(r, t, l, o); }

}  // namespace qnn::replay
