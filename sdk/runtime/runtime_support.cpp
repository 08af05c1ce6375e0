#include "runtime/runtime_support.h"

#include <chrono>
#include <mutex>

#include "core/api_members.h"
#include "opdefs/op_catalog.h"
#include "runtime/runtime.h"
#include "runtime/qnn_convert.h"

namespace qnn::sdk::rt {

uint64_t nowMicros() {
  using namespace std::chrono;
  return static_cast<uint64_t>(duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count());
}

void logConfigWarnings(const Logger* logger, const char* api, const ConfigWarnings& warnings) {
  for (const std::string& w : warnings) logMessage(logger, QNN_LOG_LEVEL_WARN, std::string(api) + ": " + w);
}

Qnn_ErrorHandle_t fail(const Logger* logger, ApiGroup group, const char* api, const Status& st) {
  logMessage(logger, QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + st.message());
  return toQnnError(group, st);
}

Qnn_ErrorHandle_t refuse(const Logger* logger, const char* api, const std::string& why, Qnn_ErrorHandle_t code) {
  std::shared_ptr<Logger> last = logger ? nullptr : anyLogger();
  logMessage(logger ? logger : last.get(), QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + why);
  return code;
}

void explainFailure(const char* member, Qnn_ErrorHandle_t rc, uint64_t errorLinesBefore, const char* detail) {
  if (errorMessagesOnThisThread() != errorLinesBefore) return;  // the entry said why already
  const char* api = interfaceApiNameOfMember(member);
  std::string line = std::string(api ? api : member) + ": " + Runtime::errorMessage(rc) + " (error " +
                     std::to_string(QNN_GET_ERROR_CODE(rc)) + ")";
  if (detail) line += ": " + std::string(detail);
  logMessage(anyLogger().get(), QNN_LOG_LEVEL_ERROR, line);
}

namespace {
std::mutex gLastLoggerMutex;
std::weak_ptr<Logger> gLastLogger;
}  // namespace

void rememberLastLogger(const std::shared_ptr<Logger>& logger) {
  std::lock_guard<std::mutex> lock(gLastLoggerMutex);
  gLastLogger = logger;
}

std::shared_ptr<Logger> anyLogger() {
  std::lock_guard<std::mutex> lock(gLastLoggerMutex);
  return gLastLogger.lock();
}

void addExtraEvents(ProfileObject& prof, QnnProfile_EventId_t parent, const std::vector<ProfileExtraEvent>& events,
                    std::vector<QnnProfile_EventId_t>* topLevel) {
  for (const ProfileExtraEvent& e : events) {
    if (e.topLevel && topLevel)
      topLevel->push_back(prof.addEvent(0, e.type, e.unit, e.value, e.identifier, e.startMicros, /*publish=*/false));
    else
      prof.addEvent(parent, e.type, e.unit, e.value, e.identifier, e.startMicros);
  }
}

BackendSettings deviceSettings(Qnn_DeviceHandle_t device) {
  auto d = handles().get<DeviceObject>(device, HandleKind::kDevice);
  if (!d) return {};
  std::lock_guard<std::mutex> lock(d->mutex);
  return d->settings;
}

void freeContextObject(const std::shared_ptr<ContextObject>& ctx) {
  std::lock_guard<std::mutex> lock(ctx->mutex);
  for (auto& [name, handle] : ctx->graphsByName) handles().remove(handle, HandleKind::kGraph);
  ctx->graphsByName.clear();
  for (void* m : ctx->memHandles) handles().remove(m, HandleKind::kMem);
  ctx->memHandles.clear();
}

Status readNode(const Qnn_OpConfig_t& op, const OpPackageSet& packages, NodeInfo* node) {
  if (op.version != QNN_OPCONFIG_VERSION_1)
    return invalidArgument("unsupported Qnn_OpConfig_t version " + std::to_string(op.version));
  const Qnn_OpConfigV1_t& v = op.v1;
  if (!v.name || !*v.name) return invalidArgument("op config has no name");
  if (!v.typeName) return unsupportedOp("node '" + std::string(v.name) + "' has no type name");
  node->name = v.name;
  node->packageName = v.packageName ? v.packageName : "";
  node->typeName = v.typeName;
  std::shared_ptr<const OpPackage> package;
  const OpDef* def = nullptr;
  if (node->packageName != kBuiltinOpPackage) {
    package = packages.find(node->packageName);
    if (!package)
      return unsupportedOp("node '" + node->name + "': op package '" + node->packageName +
                           "' is not registered with this backend");
    if (!package->hasOp(node->typeName))
      return unsupportedOp("node '" + node->name + "': op package '" + node->packageName + "' has no op '" +
                           node->typeName + "'");
  } else if (!(def = findOpDef(node->typeName))) {
    return unsupportedOp("node '" + node->name + "': unknown op type '" + node->typeName + "'");
  }
  if ((v.numOfParams && !v.params) || (v.numOfInputs && !v.inputTensors) || (v.numOfOutputs && !v.outputTensors))
    return invalidArgument("node '" + node->name + "': null params, inputs or outputs array with a non-zero count");
  for (uint32_t i = 0; i < v.numOfParams; ++i) {
    std::string name;
    ParamValue value;
    QNN_SDK_RETURN_IF_ERROR(readParam(v.params[i], &name, &value));
    if (node->params.has(name)) return invalidParam("node '" + node->name + "': param '" + name + "' given twice");
    node->params.set(name, std::move(value));
  }
  if (def) return validateAgainstOpDef(*def, node->name, node->params, v.numOfInputs, v.numOfOutputs);
  // A package op: the package checks its own op config.
  if (package->impl().validateOpConfig && OpPackage::callable()) {
    Qnn_ErrorHandle_t st = package->impl().validateOpConfig(op);
    if (st != QNN_SUCCESS)
      return invalidParam("node '" + node->name + "': op package '" + node->packageName + "' rejects its '" +
                          node->typeName + "' op config (validateOpConfig returned error " + std::to_string(st) + ")");
  }
  return Status::ok();
}

Status initializeGraph(GraphObject& g) {
  if (!g.deferredInit || g.prepared) {
    g.deferredInit = nullptr;
    return Status::ok();
  }
  std::lock_guard<std::mutex> exec(g.execMutex);
  QNN_SDK_RETURN_IF_ERROR(g.deferredInit(g));
  g.deferredInit = nullptr;
  return Status::ok();
}

Status checkOmittedInputs(const NodeInfo& node, const std::vector<const TensorInfo*>& ins) {
  const OpDef* def = node.packageName == kBuiltinOpPackage ? findOpDef(node.typeName) : nullptr;
  if (!def) return Status::ok();  // a package op judges its own inputs
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i] && ins[i]->kind == TensorKind::kNull && !def->inputIsOptional(i))
      return invalidTensor(node.typeName + " node '" + node.name + "': input " + std::to_string(i) + " ('" +
                           ins[i]->name + "') is a NULL tensor, but in[" + std::to_string(i) + "] of " +
                           node.typeName + " is mandatory");
  return Status::ok();
}

void dropTrailingOmittedInputs(std::vector<const TensorInfo*>* ins, std::vector<uint32_t>* inputIds) {
  while (!ins->empty() && ins->back() && ins->back()->kind == TensorKind::kNull) {
    ins->pop_back();
    if (inputIds && !inputIds->empty()) inputIds->pop_back();
  }
}

}  // namespace qnn::sdk::rt
