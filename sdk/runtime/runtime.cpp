#include "runtime/runtime.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <thread>

#include "binary/context_binary.h"
#include "binary/prepared_blob.h"
#include "opdefs/op_catalog.h"
#include "runtime/error_map.h"
#include "runtime/later_datatypes.h"
#include "runtime/objects.h"
#include "runtime/qnn_convert.h"

namespace qnn::sdk {
namespace {

// No exception crosses the C boundary: every entry runs inside this.
template <typename F>
Qnn_ErrorHandle_t guarded(F&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return QNN_COMMON_ERROR_MEM_ALLOC;
  } catch (...) {
    return QNN_COMMON_ERROR_GENERAL;
  }
}

uint64_t nowMicros() {
  using namespace std::chrono;
  return static_cast<uint64_t>(duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count());
}

const Logger* loggerOf(const std::shared_ptr<BackendObject>& b) { return b ? b->logger.get() : nullptr; }

// Logs a failure and turns it into the group's error code.
Qnn_ErrorHandle_t fail(const Logger* logger, ApiGroup group, const char* api, const Status& st) {
  logMessage(logger, QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + st.message());
  return toQnnError(group, st);
}

// The last backend created: calls that take no backend handle (e.g. profile
// event queries) log through it.
std::mutex gLastLoggerMutex;
std::weak_ptr<Logger> gLastLogger;

std::shared_ptr<Logger> anyLogger() {
  std::lock_guard<std::mutex> lock(gLastLoggerMutex);
  return gLastLogger.lock();
}

void addExtraEvents(ProfileObject& prof, QnnProfile_EventId_t parent, const std::vector<ProfileExtraEvent>& events) {
  for (const ProfileExtraEvent& e : events) prof.addEvent(parent, e.type, e.unit, e.value, e.identifier);
}

// The custom settings of a device handle (validated by the caller).
BackendSettings deviceSettings(Qnn_DeviceHandle_t device) {
  auto d = handles().get<DeviceObject>(device, HandleKind::kDevice);
  if (!d) return {};
  std::lock_guard<std::mutex> lock(d->mutex);
  return d->settings;
}

void freeGraphHandles(ContextObject& ctx) {
  for (auto& [name, handle] : ctx.graphsByName) handles().remove(handle, HandleKind::kGraph);
  ctx.graphsByName.clear();
  for (void* m : ctx.memHandles) handles().remove(m, HandleKind::kMem);
  ctx.memHandles.clear();
}

// Finds a tensor a node or execute refers to: the graph's own, else a context
// tensor (copied into the graph's IR on first use).
const TensorInfo* resolveTensor(GraphObject& g, ContextObject* ctx, uint32_t id) {
  if (const TensorInfo* t = g.ir.findTensor(id)) return t;
  if (!ctx) return nullptr;
  std::lock_guard<std::mutex> lock(ctx->mutex);
  auto it = ctx->contextTensors.find(id);
  if (it == ctx->contextTensors.end()) return nullptr;
  return &(g.ir.tensors[id] = it->second);
}

// Checks that every node's inputs are available when it runs and that no tensor
// is produced twice; nodes were added in a valid order, so a forward pass is enough.
Status checkConnectivity(const GraphIR& ir) {
  std::set<uint32_t> available;
  for (auto& [id, t] : ir.tensors)
    if (t.isGraphInput() || t.kind == TensorKind::kStatic || t.kind == TensorKind::kNull) available.insert(id);
  for (const NodeInfo& n : ir.nodes) {
    for (uint32_t in : n.inputIds)
      if (!available.count(in))
        return {StatusCode::kInvalidTensor, "node '" + n.name + "' reads tensor '" + ir.tensors.at(in).name +
                                                "' before any node produces it"};
    for (uint32_t out : n.outputIds) available.insert(out);
  }
  for (auto& [id, t] : ir.tensors)
    if (t.isGraphOutput() && !available.count(id))
      return {StatusCode::kInvalidTensor, "graph output '" + t.name + "' is not produced by any node"};
  return Status::ok();
}

}  // namespace

MemObject::~MemObject() {
  if (mapped && data) munmap(data, size);
}

Runtime::Runtime(BackendDescriptor descriptor) : desc_(std::move(descriptor)) {}

Qnn_ApiVersion_t Runtime::apiVersion() const {
  Qnn_ApiVersion_t v;
  v.coreApiVersion = {QNN_API_VERSION_MAJOR, QNN_API_VERSION_MINOR, QNN_API_VERSION_PATCH};
  v.backendApiVersion = {desc_.backendApiMajor, desc_.backendApiMinor, desc_.backendApiPatch};
  return v;
}

// ---------------------------------------------------------------- property

Qnn_ErrorHandle_t Runtime::propertyHasCapability(QnnProperty_Key_t key) {
  Qnn_ErrorHandle_t answer = QNN_PROPERTY_NOT_SUPPORTED;
  if (desc_.hooks && desc_.hooks->hasCapability(key, &answer)) return answer;
  switch (key) {
    case QNN_PROPERTY_GROUP_CORE:
    case QNN_PROPERTY_GROUP_BACKEND:
    case QNN_PROPERTY_GROUP_CONTEXT:
    case QNN_PROPERTY_CONTEXT_SUPPORT_CACHING:
    case QNN_PROPERTY_CONTEXT_SUPPORT_CONFIGURATION:
    case QNN_PROPERTY_GROUP_GRAPH:
    case QNN_PROPERTY_GRAPH_SUPPORT_CONFIG:
    case QNN_PROPERTY_GRAPH_SUPPORT_SIGNALS:
    case QNN_PROPERTY_GRAPH_SUPPORT_ASYNC_EXECUTION:
    case QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE:
    case QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_SIGNAL:
    case QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_ASYNC_SIGNAL:
    case QNN_PROPERTY_GRAPH_SUPPORT_FINALIZE_SIGNAL:
    case QNN_PROPERTY_GRAPH_SUPPORT_PRIORITY_CONTROL:
    case QNN_PROPERTY_GRAPH_SUPPORT_CONTINUOUS_PROFILING:
    case QNN_PROPERTY_GROUP_TENSOR:
    case QNN_PROPERTY_TENSOR_SUPPORT_MEMHANDLE_TYPE:
    case QNN_PROPERTY_GROUP_LOG:
    case QNN_PROPERTY_GROUP_PROFILE:
    case QNN_PROPERTY_GROUP_SIGNAL:
    case QNN_PROPERTY_SIGNAL_SUPPORT_ABORT:
    case QNN_PROPERTY_SIGNAL_SUPPORT_TIMEOUT:
    case QNN_PROPERTY_GROUP_MEMORY:
    case QNN_PROPERTY_GROUP_DEVICE:
    case QNN_PROPERTY_GROUP_ERROR:
      return QNN_PROPERTY_SUPPORTED;
    case QNN_PROPERTY_BACKEND_SUPPORT_OP_PACKAGE:
    case QNN_PROPERTY_GROUP_OP_PACKAGE:
    case QNN_PROPERTY_OP_PACKAGE_SUPPORTS_VALIDATION:
    case QNN_PROPERTY_OP_PACKAGE_SUPPORTS_OP_IMPLS:
      return desc_.opPackageInfrastructure ? QNN_PROPERTY_SUPPORTED : QNN_PROPERTY_NOT_SUPPORTED;
    case QNN_PROPERTY_BACKEND_SUPPORT_PLATFORM_OPTIONS:
    case QNN_PROPERTY_GRAPH_SUPPORT_NULL_INPUTS:
    case QNN_PROPERTY_GRAPH_SUPPORT_BATCH_MULTIPLE:
    case QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE_PER_API_PROFILING:
    case QNN_PROPERTY_DEVICE_SUPPORT_INFRASTRUCTURE:
    case QNN_PROPERTY_LOG_SUPPORTS_DEFAULT_STREAM:
    case QNN_PROPERTY_OP_PACKAGE_SUPPORTS_DUPLICATE_NAMES:  // one package per name per backend handle
    case QNN_PROPERTY_GROUP_CUSTOM:
      return QNN_PROPERTY_NOT_SUPPORTED;
    default:
      return QNN_PROPERTY_ERROR_UNKNOWN_KEY;
  }
}

// ---------------------------------------------------------------- backend

Qnn_ErrorHandle_t Runtime::backendCreate(Qnn_LogHandle_t logger, const QnnBackend_Config_t** config,
                                         Qnn_BackendHandle_t* backend) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!backend) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    auto obj = std::make_shared<BackendObject>();
    if (logger) {
      auto log = handles().get<Logger>(logger, HandleKind::kLog);
      if (!log) return QNN_BACKEND_ERROR_INVALID_HANDLE;
      obj->logger = log;
    }
    if (config) {
      for (size_t i = 0; config[i]; ++i) {
        switch (config[i]->option) {
          case QNN_BACKEND_CONFIG_OPTION_CUSTOM:
            if (config[i]->customConfig && desc_.hooks) {
              Status st = desc_.hooks->applyBackendCustomConfig(config[i]->customConfig);
              if (!st.isOk()) {
                logMessage(obj->logger.get(), QNN_LOG_LEVEL_ERROR, "QnnBackend_create: " + st.message());
                return QNN_BACKEND_ERROR_INVALID_CONFIG;
              }
            }
            break;
          case QNN_BACKEND_CONFIG_OPTION_ERROR_REPORTING:
          case QNN_BACKEND_CONFIG_OPTION_PLATFORM:
            break;
          default:
            logMessage(obj->logger.get(), QNN_LOG_LEVEL_ERROR,
                       "QnnBackend_create: unknown config option " + std::to_string(config[i]->option));
            return QNN_BACKEND_ERROR_INVALID_CONFIG;
        }
      }
    }
    obj->engine = desc_.createEngine();
    if (!obj->engine) return QNN_BACKEND_ERROR_CANNOT_INITIALIZE;
    if (desc_.opPackageInfrastructure) obj->engine->setOpPackages(obj->opPackages);
    if (obj->logger) {
      std::lock_guard<std::mutex> lock(gLastLoggerMutex);
      gLastLogger = obj->logger;
    }
    logMessage(obj->logger.get(), QNN_LOG_LEVEL_INFO, std::string(desc_.providerName) + " backend created");
    *backend = handles().add(obj);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::backendSetConfig(Qnn_BackendHandle_t backend, const QnnBackend_Config_t** config) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!config) return QNN_SUCCESS;
    for (size_t i = 0; config[i]; ++i) {
      if (config[i]->option > QNN_BACKEND_CONFIG_OPTION_PLATFORM) return QNN_BACKEND_ERROR_INVALID_CONFIG;
      if (config[i]->option == QNN_BACKEND_CONFIG_OPTION_CUSTOM && config[i]->customConfig && desc_.hooks) {
        Status st = desc_.hooks->applyBackendCustomConfig(config[i]->customConfig);
        if (!st.isOk()) return fail(loggerOf(b), ApiGroup::kBackend, "QnnBackend_setConfig", st),
                               QNN_BACKEND_ERROR_INVALID_CONFIG;
      }
    }
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::backendGetApiVersion(Qnn_ApiVersion_t* version) {
  if (!version) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
  *version = apiVersion();
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t Runtime::backendGetBuildId(const char** id) {
  if (!id) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
  *id = desc_.buildId;
  return QNN_SUCCESS;
}

static bool sameIgnoringCase(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

Qnn_ErrorHandle_t Runtime::backendRegisterOpPackage(Qnn_BackendHandle_t backend, const char* path,
                                                    const char* provider, const char* target) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    const std::string api = "QnnBackend_registerOpPackage: ";
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(b);
    if (!desc_.opPackageInfrastructure) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, api + "this backend does not take op packages");
      return QNN_COMMON_ERROR_NOT_SUPPORTED;
    }
    if (!path || !*path || !provider || !*provider) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, api + "the library path and the interface provider name are required");
      return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    }
    if (target && *target && !desc_.opPackageTargets.empty() &&
        std::none_of(desc_.opPackageTargets.begin(), desc_.opPackageTargets.end(),
                     [&](const std::string& t) { return sameIgnoringCase(t, target); })) {
      logMessage(log, QNN_LOG_LEVEL_ERROR,
                 api + "op package '" + path + "' is for target '" + target + "', which this backend does not run");
      return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    }
    OpPackageHost host;
    host.infrastructure = desc_.opPackageInfrastructure;
    host.backendApiMajor = desc_.backendApiMajor;
    host.backendId = desc_.backendId;
    setOpPackageLogger(b->logger);
    OpPackageLoadResult loaded = loadOpPackage(path, provider, host, b->logger);
    if (loaded.error != QNN_SUCCESS) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, api + loaded.message);
      return loaded.error;
    }
    const std::string name = loaded.package->name();
    if (name == kBuiltinOpPackage || !b->opPackages->add(loaded.package)) {
      logMessage(log, QNN_LOG_LEVEL_ERROR,
                 api + "an op package named '" + name + "' is already registered with this backend");
      return QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE;
    }
    logMessage(log, QNN_LOG_LEVEL_INFO,
               api + "registered op package '" + name + "' (" + std::to_string(loaded.package->opNames().size()) +
                   " ops) from '" + path + "'");
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::backendGetSupportedOperations(Qnn_BackendHandle_t backend, uint32_t* num,
                                                         const QnnBackend_OperationName_t** ops) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!num || !ops) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(b->mutex);
    // Built once, and again only when packages were registered since: an array
    // handed out stays valid as long as the set of packages does not change.
    auto packages = b->opPackages->all();
    if (b->opNames.empty() || packages != b->listedOpPackages) {
      b->opNameEntries.clear();
      if (b->opNames.empty()) b->opNames = b->engine->supportedOps();
      for (auto& n : b->opNames) b->opNameEntries.push_back({kBuiltinOpPackage, n.c_str(), nullptr});
      b->listedOpPackages = std::move(packages);
      for (auto& pkg : b->listedOpPackages)
        for (auto& n : pkg->opNames()) b->opNameEntries.push_back({pkg->name().c_str(), n.c_str(), nullptr});
    }
    *num = static_cast<uint32_t>(b->opNameEntries.size());
    *ops = b->opNameEntries.data();
    return QNN_SUCCESS;
  });
}

// Reads and validates an op config against the op definitions and the engine.
// Tensors come from the op config itself (validateOpConfig) or from the graph
// (addNode, via lookup).
static Status readNode(const Qnn_OpConfig_t& op, const OpPackageSet& packages, NodeInfo* node) {
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

Qnn_ErrorHandle_t Runtime::backendValidateOpConfig(Qnn_BackendHandle_t backend, Qnn_OpConfig_t opConfig) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    NodeInfo node;
    Status st = readNode(opConfig, *b->opPackages, &node);
    if (!st.isOk()) return fail(loggerOf(b), ApiGroup::kBackend, "QnnBackend_validateOpConfig", st);
    std::vector<TensorInfo> ins(opConfig.v1.numOfInputs), outs(opConfig.v1.numOfOutputs);
    std::vector<const TensorInfo*> inPtrs, outPtrs;
    for (uint32_t i = 0; i < opConfig.v1.numOfInputs; ++i) {
      st = readTensorInfo(opConfig.v1.inputTensors[i], TensorUse::kParam, &ins[i]);
      // The op config's tensors need not carry data; only shapes and types count.
      if (!st.isOk() && ins[i].dims.empty()) {
        const Qnn_TensorV1_t& v = tensorFields(opConfig.v1.inputTensors[i]);
        ins[i].name = v.name ? v.name : "";
        // The declared type still counts (a static weight may take encodings other inputs may not).
        if (static_cast<uint32_t>(v.type) <= QNN_TENSOR_TYPE_NULL) ins[i].kind = static_cast<TensorKind>(v.type);
        ins[i].dtype = storageDType(v.dataType);  // packed 4-bit weights are judged in their 8-bit container
        for (uint32_t d = 0; v.dimensions && d < v.rank; ++d) ins[i].dims.push_back(v.dimensions[d]);
        Status q = readQuantization(v.quantizeParams, ins[i].dims, &ins[i].quant);
        if (q.isOk() && isPacked4Bit(v.dataType))
          q = applyPacked4BitWidth("input '" + ins[i].name + "'", qnnDatatypeName(v.dataType), &ins[i].quant);
        if (!q.isOk()) return fail(loggerOf(b), ApiGroup::kBackend, "QnnBackend_validateOpConfig", q);
      }
      inPtrs.push_back(&ins[i]);
    }
    for (uint32_t i = 0; i < opConfig.v1.numOfOutputs; ++i) {
      const Qnn_TensorV1_t& v = tensorFields(opConfig.v1.outputTensors[i]);
      outs[i].name = v.name ? v.name : "";
      outs[i].dtype = static_cast<DType>(v.dataType);
      for (uint32_t d = 0; v.dimensions && d < v.rank; ++d) outs[i].dims.push_back(v.dimensions[d]);
      Status q = readQuantization(v.quantizeParams, outs[i].dims, &outs[i].quant);
      if (!q.isOk()) return fail(loggerOf(b), ApiGroup::kBackend, "QnnBackend_validateOpConfig", q);
      outPtrs.push_back(&outs[i]);
    }
    st = b->engine->validateNode(node, inPtrs, outPtrs);
    if (!st.isOk()) return fail(loggerOf(b), ApiGroup::kBackend, "QnnBackend_validateOpConfig", st);
    return QNN_SUCCESS;
  });
}

static void freeContextObject(const std::shared_ptr<ContextObject>& ctx) {
  std::lock_guard<std::mutex> lock(ctx->mutex);
  freeGraphHandles(*ctx);
}

Qnn_ErrorHandle_t Runtime::backendFree(Qnn_BackendHandle_t backend) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto obj = std::static_pointer_cast<BackendObject>(handles().remove(backend, HandleKind::kBackend));
    if (!obj) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    // Freeing a backend frees everything created from it that is still alive.
    std::set<void*> contexts;
    {
      std::lock_guard<std::mutex> lock(obj->mutex);
      contexts.swap(obj->contexts);
    }
    for (void* c : contexts)
      if (auto ctx = handles().remove(c, HandleKind::kContext))
        freeContextObject(std::static_pointer_cast<ContextObject>(ctx));
    // Each package is terminated and unloaded once no other backend handle or
    // prepared graph still uses it.
    obj->opPackages->clear();
    return QNN_SUCCESS;
  });
}

// ---------------------------------------------------------------- context

// Validates context configs; priority and the backend's custom configs go into
// `settings` (may be null: validate only).
static Status checkContextConfig(const QnnContext_Config_t** config, BackendHooks* hooks = nullptr,
                                 BackendSettings* settings = nullptr) {
  if (!config) return Status::ok();
  BackendSettings scratch;
  if (!settings) settings = &scratch;
  for (size_t i = 0; config[i]; ++i) {
    switch (config[i]->option) {
      case QNN_CONTEXT_CONFIG_OPTION_CUSTOM:
        if (hooks && config[i]->customConfig)
          QNN_SDK_RETURN_IF_ERROR(hooks->applyContextCustomConfig(config[i]->customConfig, settings));
        break;
      case QNN_CONTEXT_CONFIG_OPTION_ERROR_REPORTING:
      case QNN_CONTEXT_CONFIG_OPTION_OEM_STRING:
      case QNN_CONTEXT_CONFIG_ASYNC_EXECUTION_QUEUE_DEPTH:
        break;
      case QNN_CONTEXT_CONFIG_OPTION_PRIORITY:
        if (config[i]->priority > QNN_PRIORITY_HIGH) return invalidArgument("invalid context priority");
        (*settings)["context.priority"] = std::to_string(config[i]->priority);
        break;
      default:
        return invalidArgument("unknown context config option " + std::to_string(config[i]->option));
    }
  }
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::contextCreate(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                         const QnnContext_Config_t** config, Qnn_ContextHandle_t* context) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (device && !handles().get<DeviceObject>(device, HandleKind::kDevice)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    if (!context) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    auto ctx = std::make_shared<ContextObject>();
    if (device) ctx->settings = deviceSettings(device);
    Status st = checkContextConfig(config, desc_.hooks.get(), &ctx->settings);
    if (!st.isOk()) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, "QnnContext_create: " + st.message());
      return QNN_CONTEXT_ERROR_INVALID_CONFIG;
    }
    ctx->backend = b;
    *context = handles().add(ctx);
    std::lock_guard<std::mutex> lock(b->mutex);
    b->contexts.insert(*context);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextSetConfig(Qnn_ContextHandle_t context, const QnnContext_Config_t** config) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    BackendSettings updated;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      updated = ctx->settings;
    }
    Status st = checkContextConfig(config, desc_.hooks.get(), &updated);
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kContext, "QnnContext_setConfig", st),
                           QNN_CONTEXT_ERROR_INVALID_CONFIG;
    std::lock_guard<std::mutex> lock(ctx->mutex);
    ctx->settings = std::move(updated);
    return QNN_SUCCESS;
  });
}

// Collects what a context binary stores.
static Status collectContext(ContextObject& ctx, const BackendDescriptor& desc, ContextBinaryContents* out) {
  out->backendId = desc.backendId;
  out->backendBuildId = desc.buildId;
  out->coreApiMajor = QNN_API_VERSION_MAJOR;
  out->coreApiMinor = QNN_API_VERSION_MINOR;
  out->coreApiPatch = QNN_API_VERSION_PATCH;
  out->backendApiMajor = desc.backendApiMajor;
  out->backendApiMinor = desc.backendApiMinor;
  out->backendApiPatch = desc.backendApiPatch;
  // Lock order everywhere is graph, then context: copy what is needed from the
  // context first and lock each graph afterwards.
  std::map<std::string, void*> graphs;
  {
    std::lock_guard<std::mutex> lock(ctx.mutex);
    for (auto& [id, t] : ctx.contextTensors) out->contextTensors.push_back(t);
    graphs = ctx.graphsByName;
  }
  PreparedGraphBlobs prepared;
  for (auto& [name, handle] : graphs) {
    auto g = handles().get<GraphObject>(handle, HandleKind::kGraph);
    if (!g) continue;
    std::lock_guard<std::mutex> glock(g->mutex);
    if (g->state != GraphObject::State::kFinalized)
      return invalidState("graph '" + name + "' is not finalized; finalize every graph before serializing");
    out->graphs.push_back(g->ir);
    std::vector<uint8_t> bytes;
    if (g->prepared && g->prepared->serialize(&bytes)) prepared[name] = std::move(bytes);
  }
  if (!prepared.empty()) encodePreparedGraphs(prepared, &out->backendBlob);
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::contextGetBinarySize(Qnn_ContextHandle_t context, Qnn_ContextBinarySize_t* size) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!size) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    ContextBinaryContents contents;
    Status st = collectContext(*ctx, desc_, &contents);
    std::vector<uint8_t> bytes;
    if (st.isOk()) st = writeContextBinary(contents, &bytes);
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kContext, "QnnContext_getBinarySize", st);
    // The real size is known only after compression; report it exactly.
    *size = bytes.size();
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextGetBinary(Qnn_ContextHandle_t context, void* buffer,
                                            Qnn_ContextBinarySize_t bufferSize, Qnn_ContextBinarySize_t* written) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!buffer || !written) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    ContextBinaryContents contents;
    Status st = collectContext(*ctx, desc_, &contents);
    std::vector<uint8_t> bytes;
    if (st.isOk()) st = writeContextBinary(contents, &bytes);
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kContext, "QnnContext_getBinary", st);
    if (bufferSize < bytes.size()) {
      logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                 "QnnContext_getBinary: buffer of " + std::to_string(bufferSize) + " bytes is too small, need " +
                     std::to_string(bytes.size()));
      return QNN_CONTEXT_ERROR_GET_BINARY_FAILED;
    }
    std::memcpy(buffer, bytes.data(), bytes.size());
    *written = bytes.size();
    return QNN_SUCCESS;
  });
}

// A binary's graphs may use ops of op packages: each must be registered, with
// that op, before the binary can be loaded.
static Status checkOpPackagesRegistered(const ContextBinaryContents& contents, const OpPackageSet& packages) {
  for (const GraphIR& g : contents.graphs)
    for (const NodeInfo& n : g.nodes) {
      if (n.packageName == kBuiltinOpPackage) continue;
      auto pkg = packages.find(n.packageName);
      if (!pkg)
        return notSupported("graph '" + g.name + "' needs op package '" + n.packageName + "' (node '" + n.name +
                            "', op '" + n.typeName +
                            "'), which is not registered with this backend; register it first "
                            "(QnnBackend_registerOpPackage, or --op_packages in the tools)");
      if (!pkg->hasOp(n.typeName))
        return notSupported("graph '" + g.name + "' needs op '" + n.typeName + "' of op package '" + n.packageName +
                            "' (node '" + n.name + "'), which the registered package does not provide");
    }
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::contextCreateFromBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                   const QnnContext_Config_t** config, const void* buffer,
                                                   Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                                   Qnn_ProfileHandle_t profile) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (device && !handles().get<DeviceObject>(device, HandleKind::kDevice)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    if (!buffer || !context || size == 0) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    std::shared_ptr<ProfileObject> prof;
    if (profile && !(prof = handles().get<ProfileObject>(profile, HandleKind::kProfile)))
      return QNN_PROFILE_ERROR_INVALID_HANDLE;
    BackendSettings settings = device ? deviceSettings(device) : BackendSettings{};
    Status cst = checkContextConfig(config, desc_.hooks.get(), &settings);
    if (!cst.isOk()) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, "QnnContext_createFromBinary: " + cst.message());
      return QNN_CONTEXT_ERROR_INVALID_CONFIG;
    }
    uint64_t start = nowMicros();
    ContextBinaryContents contents;
    Status st = readContextBinary(buffer, size, &contents);
    if (!st.isOk()) return fail(loggerOf(b), ApiGroup::kContext, "QnnContext_createFromBinary", st);
    if (contents.backendId != desc_.backendId) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR,
                 "QnnContext_createFromBinary: the binary was made by backend id " +
                     std::to_string(contents.backendId) + ", this is backend id " + std::to_string(desc_.backendId));
      return QNN_CONTEXT_ERROR_BINARY_CONFIGURATION;
    }
    st = checkOpPackagesRegistered(contents, *b->opPackages);
    if (!st.isOk()) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, "QnnContext_createFromBinary: " + st.message());
      return QNN_CONTEXT_ERROR_BINARY_CONFIGURATION;
    }
    PreparedGraphBlobs prepared;
    if (!contents.backendBlob.empty()) {
      st = decodePreparedGraphs(contents.backendBlob, &prepared);
      if (!st.isOk()) return fail(loggerOf(b), ApiGroup::kContext, "QnnContext_createFromBinary", st);
    }
    auto ctx = std::make_shared<ContextObject>();
    ctx->backend = b;
    ctx->settings = settings;
    uint32_t maxId = 0;
    for (auto& t : contents.contextTensors) {
      maxId = std::max(maxId, t.id);
      ctx->tensorNames.insert(t.name);
      ctx->contextTensors[t.id] = t;
    }
    std::vector<std::shared_ptr<GraphObject>> graphs;
    for (auto& ir : contents.graphs) {
      auto g = std::make_shared<GraphObject>();
      g->context = ctx;
      g->backend = b;
      for (auto& [id, t] : ir.tensors) maxId = std::max(maxId, id);
      for (auto& n : ir.nodes) g->nodeNames.insert(n.name);
      g->ir = std::move(ir);
      g->ir.backendConfig = settings;
      // A stored prepared form is restored as is; otherwise the graph is prepared again.
      auto stored = prepared.find(g->ir.name);
      if (stored == prepared.end()) {
        st = b->engine->prepare(g->ir, &g->prepared);
        if (!st.isOk()) return fail(loggerOf(b), ApiGroup::kContext, "QnnContext_createFromBinary", st);
      } else {
        st = b->engine->restore(g->ir, stored->second.data(), stored->second.size(), &g->prepared);
        if (!st.isOk()) {
          // kInvalidArgument: prepared for another device (e.g. another HTP architecture).
          logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, "QnnContext_createFromBinary: " + st.message());
          if (st.code() == StatusCode::kInvalidArgument) return QNN_CONTEXT_ERROR_BINARY_CONFIGURATION;
          if (st.code() == StatusCode::kCorruptData) return QNN_CONTEXT_ERROR_CREATE_FROM_BINARY;
          return toQnnError(ApiGroup::kContext, st);
        }
      }
      g->state = GraphObject::State::kFinalized;
      graphs.push_back(std::move(g));
    }
    ctx->nextTensorId = maxId + 1;
    for (auto& g : graphs) ctx->graphsByName[g->ir.name] = handles().add(g);
    if (prof) {
      auto top = prof->addEvent(0, QNN_PROFILE_EVENTTYPE_INIT, QNN_PROFILE_EVENTUNIT_MICROSEC, nowMicros() - start,
                                "context create from binary");
      for (auto& g : graphs) {
        std::vector<ProfileExtraEvent> extra;
        g->prepared->finalizeEvents(&extra);
        addExtraEvents(*prof, top, extra);
      }
    }
    *context = handles().add(ctx);
    std::lock_guard<std::mutex> lock(b->mutex);
    b->contexts.insert(*context);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextFree(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (profile && !handles().get<ProfileObject>(profile, HandleKind::kProfile))
      return QNN_PROFILE_ERROR_INVALID_HANDLE;
    auto obj = handles().remove(context, HandleKind::kContext);
    if (!obj) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    auto ctx = std::static_pointer_cast<ContextObject>(obj);
    {
      std::lock_guard<std::mutex> lock(ctx->backend->mutex);
      ctx->backend->contexts.erase(context);
    }
    freeContextObject(ctx);
    return QNN_SUCCESS;
  });
}

// ---------------------------------------------------------------- graph

static Status applyGraphConfig(GraphObject& g, const QnnGraph_Config_t** config) {
  if (!config) return Status::ok();
  for (size_t i = 0; config[i]; ++i) {
    switch (config[i]->option) {
      case QNN_GRAPH_CONFIG_OPTION_CUSTOM:
        if (config[i]->customConfig)
          QNN_SDK_RETURN_IF_ERROR(g.backend->engine->applyGraphCustomConfig(config[i]->customConfig, &g.ir));
        break;
      case QNN_GRAPH_CONFIG_OPTION_PRIORITY:
        if (config[i]->priority > QNN_PRIORITY_HIGH) return invalidArgument("invalid graph priority");
        g.ir.priority = config[i]->priority;
        break;
      case QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE:
        if (config[i]->profileHandle && !handles().get<ProfileObject>(config[i]->profileHandle, HandleKind::kProfile))
          return {StatusCode::kInvalidHandle, "graph config names an invalid profile handle"};
        break;
      default: return invalidArgument("unknown graph config option " + std::to_string(config[i]->option));
    }
  }
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::graphCreate(Qnn_ContextHandle_t context, const char* name,
                                       const QnnGraph_Config_t** config, Qnn_GraphHandle_t* graph) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!name || !*name) return QNN_GRAPH_ERROR_INVALID_NAME;
    if (!graph) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    auto g = std::make_shared<GraphObject>();
    g->context = ctx;
    g->backend = ctx->backend;
    g->ir.name = name;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      g->ir.backendConfig = ctx->settings;
    }
    Status st = applyGraphConfig(*g, config);
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kGraph, "QnnGraph_create", st);
    std::lock_guard<std::mutex> lock(ctx->mutex);
    if (ctx->graphsByName.count(name)) {
      logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                 std::string("QnnGraph_create: a graph named '") + name + "' already exists in this context");
      return QNN_GRAPH_ERROR_INVALID_NAME;
    }
    void* h = handles().add(g);
    ctx->graphsByName[name] = h;
    *graph = h;
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphSetConfig(Qnn_GraphHandle_t graph, const QnnGraph_Config_t** config) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    std::lock_guard<std::mutex> lock(g->mutex);
    Status st = applyGraphConfig(*g, config);
    if (!st.isOk()) return fail(loggerOf(g->backend), ApiGroup::kGraph, "QnnGraph_setConfig", st);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::tensorCreateGraphTensor(Qnn_GraphHandle_t graph, Qnn_Tensor_t* tensor) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    if (!tensor) return QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM;
    auto ctx = g->context.lock();
    if (!ctx) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    TensorInfo info;
    Status st = readTensorInfo(*tensor, TensorUse::kCreate, &info);
    if (!st.isOk()) return fail(loggerOf(g->backend), ApiGroup::kTensor, "QnnTensor_createGraphTensor", st);
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kBuilding) {
      logMessage(loggerOf(g->backend), QNN_LOG_LEVEL_ERROR, "QnnTensor_createGraphTensor: graph is finalized");
      return QNN_GRAPH_ERROR_GRAPH_FINALIZED;
    }
    std::lock_guard<std::mutex> clock(ctx->mutex);
    bool duplicate = ctx->tensorNames.count(info.name) != 0;
    for (auto& [id, t] : g->ir.tensors) duplicate = duplicate || t.name == info.name;
    if (duplicate) {
      logMessage(loggerOf(g->backend), QNN_LOG_LEVEL_ERROR,
                 "QnnTensor_createGraphTensor: a tensor named '" + info.name + "' already exists");
      return QNN_TENSOR_ERROR_ALREADY_EXISTS;
    }
    info.id = ctx->nextTensorId++;
    tensorFields(*tensor).id = info.id;
    g->ir.tensors[info.id] = std::move(info);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::tensorCreateContextTensor(Qnn_ContextHandle_t context, Qnn_Tensor_t* tensor) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    if (!tensor) return QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM;
    TensorInfo info;
    Status st = readTensorInfo(*tensor, TensorUse::kCreate, &info);
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kTensor, "QnnTensor_createContextTensor", st);
    std::lock_guard<std::mutex> lock(ctx->mutex);
    if (ctx->tensorNames.count(info.name)) return QNN_TENSOR_ERROR_ALREADY_EXISTS;
    info.isContextTensor = true;
    info.id = ctx->nextTensorId++;
    tensorFields(*tensor).id = info.id;
    ctx->tensorNames.insert(info.name);
    ctx->contextTensors[info.id] = std::move(info);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphAddNode(Qnn_GraphHandle_t graph, Qnn_OpConfig_t opConfig) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    auto ctx = g->context.lock();
    const Logger* log = loggerOf(g->backend);
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kBuilding) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_addNode: graph '" + g->ir.name + "' is already finalized");
      return QNN_GRAPH_ERROR_GRAPH_FINALIZED;
    }
    NodeInfo node;
    Status st = readNode(opConfig, *g->backend->opPackages, &node);
    if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
    if (g->nodeNames.count(node.name))
      return fail(log, ApiGroup::kGraph, "QnnGraph_addNode",
                  invalidParam("a node named '" + node.name + "' already exists in graph '" + g->ir.name + "'"));
    std::vector<const TensorInfo*> ins, outs;
    auto lookup = [&](const Qnn_Tensor_t& t, const char* role, uint32_t idx, const TensorInfo** out) -> Status {
      if (!tensorVersionSupported(t)) return invalidTensor("unsupported tensor version");
      const Qnn_TensorV1_t& v = tensorFields(t);
      const TensorInfo* info = resolveTensor(*g, ctx.get(), v.id);
      if (!info)
        return invalidTensor("node '" + node.name + "' " + role + " " + std::to_string(idx) + " (id " +
                             std::to_string(v.id) + (v.name ? ", '" + std::string(v.name) + "'" : std::string()) +
                             ") was not created in this graph or context");
      if (v.name && info->name != v.name)
        return invalidTensor("node '" + node.name + "' " + role + " " + std::to_string(idx) + ": id " +
                             std::to_string(v.id) + " belongs to tensor '" + info->name + "', not '" + v.name + "'");
      *out = info;
      return Status::ok();
    };
    for (uint32_t i = 0; i < opConfig.v1.numOfInputs; ++i) {
      const TensorInfo* t = nullptr;
      st = lookup(opConfig.v1.inputTensors[i], "input", i, &t);
      if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
      ins.push_back(t);
      node.inputIds.push_back(t->id);
    }
    for (uint32_t i = 0; i < opConfig.v1.numOfOutputs; ++i) {
      const TensorInfo* t = nullptr;
      st = lookup(opConfig.v1.outputTensors[i], "output", i, &t);
      if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
      if (t->kind == TensorKind::kStatic || t->kind == TensorKind::kAppWrite || t->kind == TensorKind::kNull)
        return fail(log, ApiGroup::kGraph, "QnnGraph_addNode",
                    invalidTensor("node '" + node.name + "' output '" + t->name + "' is a static, input or null tensor"));
      for (auto& n : g->ir.nodes)
        if (std::find(n.outputIds.begin(), n.outputIds.end(), t->id) != n.outputIds.end())
          return fail(log, ApiGroup::kGraph, "QnnGraph_addNode",
                      invalidTensor("tensor '" + t->name + "' is already produced by node '" + n.name + "'"));
      outs.push_back(t);
      node.outputIds.push_back(t->id);
    }
    st = g->backend->engine->validateNodeInGraph(g->ir, node, ins, outs);
    if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_addNode", st);
    g->nodeNames.insert(node.name);
    g->ir.nodes.push_back(std::move(node));
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphFinalize(Qnn_GraphHandle_t graph, Qnn_ProfileHandle_t profile,
                                         Qnn_SignalHandle_t signal) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    std::shared_ptr<ProfileObject> prof;
    if (profile && !(prof = handles().get<ProfileObject>(profile, HandleKind::kProfile)))
      return QNN_GRAPH_ERROR_INVALID_HANDLE;
    std::shared_ptr<SignalObject> sig;
    if (signal && !(sig = handles().get<SignalObject>(signal, HandleKind::kSignal)))
      return QNN_GRAPH_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(g->backend);
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state == GraphObject::State::kFinalized) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_finalize: graph '" + g->ir.name + "' is already finalized");
      return QNN_GRAPH_ERROR_GRAPH_FINALIZED;
    }
    if (sig && sig->triggered.exchange(false)) return QNN_GRAPH_ERROR_ABORTED;
    uint64_t start = nowMicros();
    Status st = checkConnectivity(g->ir);
    if (!st.isOk()) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_finalize: " + st.message());
      return QNN_GRAPH_ERROR_UNCONNECTED_NODE;
    }
    st = g->backend->engine->prepare(g->ir, &g->prepared);
    if (!st.isOk()) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_finalize: " + st.message());
      return st.code() == StatusCode::kOutOfMemory ? QNN_GRAPH_ERROR_MEM_ALLOC : QNN_GRAPH_ERROR_FINALIZE_FAILED;
    }
    g->state = GraphObject::State::kFinalized;
    if (prof) {
      auto top = prof->addEvent(0, QNN_PROFILE_EVENTTYPE_FINALIZE, QNN_PROFILE_EVENTUNIT_MICROSEC,
                                nowMicros() - start, "graph finalize: " + g->ir.name);
      std::vector<ProfileExtraEvent> extra;
      g->prepared->finalizeEvents(&extra);
      addExtraEvents(*prof, top, extra);
    }
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphRetrieve(Qnn_ContextHandle_t context, const char* name, Qnn_GraphHandle_t* graph) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!name || !graph) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(ctx->mutex);
    auto it = ctx->graphsByName.find(name);
    if (it == ctx->graphsByName.end()) {
      logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                 std::string("QnnGraph_retrieve: no graph named '") + name + "' in this context");
      return QNN_GRAPH_ERROR_GRAPH_DOES_NOT_EXIST;
    }
    *graph = it->second;
    return QNN_SUCCESS;
  });
}

// Resolves the client's execute tensors to graph tensors and their memory.
static Status bindTensors(GraphObject& g, const Qnn_Tensor_t* tensors, uint32_t count, bool inputs,
                          std::vector<TensorBinding>* out) {
  const char* role = inputs ? "input" : "output";
  if (count && !tensors) return invalidArgument(std::string("null ") + role + " array");
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < count; ++i) {
    if (!tensorVersionSupported(tensors[i])) return invalidTensor(std::string(role) + " has an unsupported version");
    const Qnn_TensorV1_t& v = tensorFields(tensors[i]);
    const TensorInfo* info = g.ir.findTensor(v.id);
    if (!info && v.name) {
      for (auto& [id, t] : g.ir.tensors)
        if (t.name == v.name) info = &t;
    }
    if (!info)
      return invalidTensor(std::string(role) + " " + std::to_string(i) + " (id " + std::to_string(v.id) +
                           ") is not a tensor of graph '" + g.ir.name + "'");
    if (inputs ? !info->isGraphInput() : !info->isGraphOutput())
      return invalidTensor("tensor '" + info->name + "' is not a graph " + role);
    if (!seen.insert(info->id).second) return invalidTensor("tensor '" + info->name + "' given twice");
    TensorBinding b;
    b.tensorId = info->id;
    size_t need = info->byteSize();
    if (v.memType == QNN_TENSORMEMTYPE_RAW) {
      if (!v.clientBuf.data) return invalidTensor(std::string(role) + " '" + info->name + "' has no data buffer");
      b.data = v.clientBuf.data;
      b.size = v.clientBuf.dataSize;
    } else if (v.memType == QNN_TENSORMEMTYPE_MEMHANDLE) {
      auto mem = handles().get<MemObject>(v.memHandle, HandleKind::kMem);
      if (!mem) return invalidTensor(std::string(role) + " '" + info->name + "' has an invalid mem handle");
      b.data = mem->data;
      b.size = mem->size;
    } else {
      return invalidTensor(std::string(role) + " '" + info->name + "' has an unknown memory type");
    }
    if (b.size < need)
      return invalidTensor(std::string(role) + " '" + info->name + "' buffer is " + std::to_string(b.size) +
                           " bytes, the tensor needs " + std::to_string(need));
    if (static_cast<DType>(v.dataType) != info->dtype)
      return invalidTensor(std::string(role) + " '" + info->name + "' has datatype " +
                           qnnDatatypeName(v.dataType) + ", the graph expects " + dtypeName(info->dtype));
    out->push_back(b);
  }
  size_t expected = inputs ? g.ir.inputs().size() : g.ir.outputs().size();
  if (out->size() != expected)
    return invalidTensor(std::string("graph '") + g.ir.name + "' has " + std::to_string(expected) + " " + role +
                         "s, got " + std::to_string(out->size()));
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::graphExecute(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs, uint32_t numInputs,
                                        Qnn_Tensor_t* outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profile,
                                        Qnn_SignalHandle_t signal) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(g->backend);
    std::shared_ptr<ProfileObject> prof;
    if (profile && !(prof = handles().get<ProfileObject>(profile, HandleKind::kProfile)))
      return QNN_GRAPH_ERROR_INVALID_HANDLE;
    std::shared_ptr<SignalObject> sig;
    if (signal && !(sig = handles().get<SignalObject>(signal, HandleKind::kSignal)))
      return QNN_GRAPH_ERROR_INVALID_HANDLE;
    {
      std::lock_guard<std::mutex> lock(g->mutex);
      if (g->state != GraphObject::State::kFinalized) {
        logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnGraph_execute: graph '" + g->ir.name + "' is not finalized");
        return QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED;
      }
    }
    std::vector<TensorBinding> in, out;
    Status st = bindTensors(*g, inputs, numInputs, true, &in);
    if (st.isOk()) st = bindTensors(*g, outputs, numOutputs, false, &out);
    if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_execute", st);

    if (sig && sig->inUse.exchange(true)) return QNN_GRAPH_ERROR_SIGNAL_IN_USE;
    struct SignalRelease {
      SignalObject* s;
      ~SignalRelease() {
        if (s) s->inUse = false;
      }
    } release{sig.get()};
    if (sig) sig->triggered = false;
    uint64_t start = nowMicros();
    ExecuteOptions options;
    options.collectNodeTimings = prof && prof->detailed();
    if (sig) {
      uint64_t deadline = sig->timeoutUs ? start + sig->timeoutUs : 0;
      SignalObject* s = sig.get();
      options.checkCancel = [s, deadline]() -> Status {
        if (s->triggered.load()) return {StatusCode::kAborted, "execution aborted by a signal"};
        if (deadline && nowMicros() > deadline) return {StatusCode::kTimedOut, "execution timed out"};
        return Status::ok();
      };
    }
    std::vector<NodeTiming> timings;
    std::vector<ProfileExtraEvent> graphEvents;
    if (prof) options.graphEvents = &graphEvents;
    {
      std::lock_guard<std::mutex> exec(g->execMutex);
      st = g->prepared->execute(in, out, options, &timings);
    }
    if (!st.isOk()) return fail(log, ApiGroup::kGraph, "QnnGraph_execute", st);
    if (prof) {
      uint64_t total = nowMicros() - start;
      auto top = prof->addEvent(0, QNN_PROFILE_EVENTTYPE_EXECUTE, QNN_PROFILE_EVENTUNIT_MICROSEC, total,
                                "graph execute: " + g->ir.name);
      addExtraEvents(*prof, top, graphEvents);
      for (auto& t : timings) {
        auto node = prof->addEvent(top, QNN_PROFILE_EVENTTYPE_NODE, QNN_PROFILE_EVENTUNIT_MICROSEC, t.micros,
                                   t.nodeName + " (" + t.opType + ")");
        addExtraEvents(*prof, node, t.extra);
      }
    }
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::graphExecuteAsync(Qnn_GraphHandle_t graph, const Qnn_Tensor_t* inputs,
                                             uint32_t numInputs, Qnn_Tensor_t* outputs, uint32_t numOutputs,
                                             Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal,
                                             Qnn_NotifyFn_t notifyFn, void* notifyParam) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto g = handles().get<GraphObject>(graph, HandleKind::kGraph);
    if (!g) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    // The client keeps its tensor arrays and buffers alive until notified; the
    // arrays are copied so the call may return before execution starts.
    std::vector<Qnn_Tensor_t> in(inputs, inputs + (inputs ? numInputs : 0));
    std::vector<Qnn_Tensor_t> out(outputs, outputs + (outputs ? numOutputs : 0));
    if ((numInputs && !inputs) || (numOutputs && !outputs)) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    std::thread([this, graph, in = std::move(in), out = std::move(out), profile, signal, notifyFn,
                 notifyParam]() mutable {
      Qnn_NotifyStatus_t status;
      status.error = graphExecute(graph, in.data(), static_cast<uint32_t>(in.size()), out.data(),
                                  static_cast<uint32_t>(out.size()), profile, signal);
      if (notifyFn) notifyFn(notifyParam, status);
    }).detach();
    return QNN_SUCCESS;
  });
}

// ---------------------------------------------------------------- log

Qnn_ErrorHandle_t Runtime::logCreate(QnnLog_Callback_t callback, QnnLog_Level_t level, Qnn_LogHandle_t* logger) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!logger) return QNN_LOG_ERROR_INVALID_ARGUMENT;
    if (level < QNN_LOG_LEVEL_ERROR || level > QNN_LOG_LEVEL_DEBUG) return QNN_LOG_ERROR_INVALID_ARGUMENT;
    *logger = handles().add(std::make_shared<LogObject>(callback, level));
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::logSetLogLevel(Qnn_LogHandle_t logger, QnnLog_Level_t level) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto l = handles().get<Logger>(logger, HandleKind::kLog);
    if (!l) return QNN_LOG_ERROR_INVALID_HANDLE;
    if (level < QNN_LOG_LEVEL_ERROR || level > QNN_LOG_LEVEL_DEBUG) return QNN_LOG_ERROR_INVALID_ARGUMENT;
    l->setLevel(level);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::logFree(Qnn_LogHandle_t logger) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    return handles().remove(logger, HandleKind::kLog) ? QNN_SUCCESS : QNN_LOG_ERROR_INVALID_HANDLE;
  });
}

// ---------------------------------------------------------------- profile

Qnn_ErrorHandle_t Runtime::profileCreate(Qnn_BackendHandle_t backend, QnnProfile_Level_t level,
                                         Qnn_ProfileHandle_t* profile) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!handles().get<BackendObject>(backend, HandleKind::kBackend)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!profile) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    if (level != QNN_PROFILE_LEVEL_BASIC && level != QNN_PROFILE_LEVEL_DETAILED) return QNN_PROFILE_ERROR_UNSUPPORTED;
    *profile = handles().add(std::make_shared<ProfileObject>(level));
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetEvents(Qnn_ProfileHandle_t profile, const QnnProfile_EventId_t** events,
                                            uint32_t* numEvents) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto p = handles().get<ProfileObject>(profile, HandleKind::kProfile);
    if (!p) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    if (!events || !numEvents) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    const auto& top = p->topLevelEvents();
    *events = top.data();
    *numEvents = static_cast<uint32_t>(top.size());
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetSubEvents(QnnProfile_EventId_t event, const QnnProfile_EventId_t** subEvents,
                                               uint32_t* numSubEvents) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!subEvents || !numSubEvents) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    const std::vector<QnnProfile_EventId_t>* subs = nullptr;
    if (!getProfileEvent(event, nullptr, &subs)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    *subEvents = subs->data();
    *numSubEvents = static_cast<uint32_t>(subs->size());
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::profileGetEventData(QnnProfile_EventId_t event, QnnProfile_EventData_t* data) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!data) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    return getProfileEvent(event, data, nullptr) ? QNN_SUCCESS : QNN_PROFILE_ERROR_INVALID_HANDLE;
  });
}

Qnn_ErrorHandle_t Runtime::profileFree(Qnn_ProfileHandle_t profile) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    return handles().remove(profile, HandleKind::kProfile) ? QNN_SUCCESS : QNN_PROFILE_ERROR_INVALID_HANDLE;
  });
}

// ---------------------------------------------------------------- mem

Qnn_ErrorHandle_t Runtime::memRegister(Qnn_ContextHandle_t context, const Qnn_MemDescriptor_t* descriptors,
                                       uint32_t numDescriptors, Qnn_MemHandle_t* memHandles) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_MEM_ERROR_INVALID_HANDLE;
    if (!descriptors || !memHandles || numDescriptors == 0) return QNN_MEM_ERROR_INVALID_ARGUMENT;
    std::vector<std::shared_ptr<MemObject>> made;
    for (uint32_t i = 0; i < numDescriptors; ++i) {
      const Qnn_MemDescriptor_t& d = descriptors[i];
      if (d.memType != QNN_MEM_TYPE_ION) {
        logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                   "QnnMem_register: only file-descriptor (ION/dma-buf style) memory is supported");
        return QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE;
      }
      if (!dtypeIsKnown(static_cast<uint32_t>(d.dataType))) {
        logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                   "QnnMem_register: descriptor " + std::to_string(i) + " has datatype " +
                       qnnDatatypeName(d.dataType) + ", which registered memory does not support");
        return QNN_MEM_ERROR_INVALID_SHAPE;
      }
      if (d.memShape.numDim == 0 || !d.memShape.dimSize) return QNN_MEM_ERROR_INVALID_SHAPE;
      auto m = std::make_shared<MemObject>();
      m->context = ctx;
      m->dtype = static_cast<DType>(d.dataType);
      size_t bytes = dtypeSize(m->dtype);
      for (uint32_t k = 0; k < d.memShape.numDim; ++k) {
        if (d.memShape.dimSize[k] == 0) return QNN_MEM_ERROR_INVALID_SHAPE;
        m->dims.push_back(d.memShape.dimSize[k]);
        bytes *= d.memShape.dimSize[k];
      }
      off_t fdSize = d.ionInfo.fd >= 0 ? lseek(d.ionInfo.fd, 0, SEEK_END) : -1;
      if (fdSize < 0 || static_cast<size_t>(fdSize) < bytes) {
        logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                   "QnnMem_register: fd " + std::to_string(d.ionInfo.fd) + " is invalid or smaller than the shape");
        return QNN_MEM_ERROR_MAPPING;
      }
      void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, d.ionInfo.fd, 0);
      if (p == MAP_FAILED) return QNN_MEM_ERROR_MAPPING;
      m->data = p;
      m->size = bytes;
      m->fd = d.ionInfo.fd;
      m->mapped = true;
      made.push_back(std::move(m));
    }
    std::lock_guard<std::mutex> lock(ctx->mutex);
    for (uint32_t i = 0; i < numDescriptors; ++i) {
      memHandles[i] = handles().add(made[i]);
      ctx->memHandles.insert(memHandles[i]);
    }
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::memDeRegister(const Qnn_MemHandle_t* memHandles, uint32_t numHandles) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!memHandles || numHandles == 0) return QNN_MEM_ERROR_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < numHandles; ++i)
      if (!handles().get<MemObject>(memHandles[i], HandleKind::kMem)) return QNN_MEM_ERROR_INVALID_HANDLE;
    for (uint32_t i = 0; i < numHandles; ++i) {
      auto obj = std::static_pointer_cast<MemObject>(handles().remove(memHandles[i], HandleKind::kMem));
      if (!obj) continue;
      if (auto ctx = obj->context.lock()) {
        std::lock_guard<std::mutex> lock(ctx->mutex);
        ctx->memHandles.erase(memHandles[i]);
      }
    }
    return QNN_SUCCESS;
  });
}

// ---------------------------------------------------------------- device

namespace {
// One host device with one core: what the CPU-style backends report.
struct HostPlatformInfo {
  QnnDevice_CoreInfo_t core = QNN_DEVICE_CORE_INFO_INIT;
  QnnDevice_HardwareDeviceInfo_t device = QNN_DEVICE_HARDWARE_DEVICE_INFO_INIT;
  QnnDevice_PlatformInfo_t info = QNN_DEVICE_PLATFORM_INFO_INIT;
  HostPlatformInfo() {
    core.v1.coreId = 0;
    core.v1.coreType = 0;
    device.v1.deviceId = 0;
    device.v1.deviceType = 0;
    device.v1.numCores = 1;
    device.v1.cores = &core;
    info.v1.numHwDevices = 1;
    info.v1.hwDevices = &device;
  }
};
const HostPlatformInfo& hostPlatformInfo() {
  static const HostPlatformInfo info;
  return info;
}

// Validates device configs; the backend's custom configs go into `settings`.
Status applyDeviceConfig(BackendHooks* hooks, const QnnDevice_Config_t** config, BackendSettings* settings) {
  if (!config) return Status::ok();
  for (size_t i = 0; config[i]; ++i) {
    if (config[i]->option == QNN_DEVICE_CONFIG_OPTION_CUSTOM) {
      if (hooks && config[i]->customConfig)
        QNN_SDK_RETURN_IF_ERROR(hooks->applyDeviceCustomConfig(config[i]->customConfig, settings));
    } else if (config[i]->option != QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO) {
      return invalidArgument("unknown device config option " + std::to_string(config[i]->option));
    }
  }
  return Status::ok();
}

// Platform infos handed out by QnnDevice_getPlatformInfo until the client frees them.
std::mutex gPlatformInfoMutex;
std::map<const QnnDevice_PlatformInfo_t*, std::unique_ptr<PlatformInfoStorage>> gPlatformInfos;
}  // namespace

Qnn_ErrorHandle_t Runtime::deviceGetPlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t** info) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (logger && !handles().get<Logger>(logger, HandleKind::kLog)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    if (!info) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    std::unique_ptr<PlatformInfoStorage> storage = desc_.hooks ? desc_.hooks->platformInfo({}) : nullptr;
    if (!storage) {
      *info = &hostPlatformInfo().info;
      return QNN_SUCCESS;
    }
    std::lock_guard<std::mutex> lock(gPlatformInfoMutex);
    const QnnDevice_PlatformInfo_t* p = storage->info();
    gPlatformInfos[p] = std::move(storage);
    *info = p;
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceFreePlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t* info) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (logger && !handles().get<Logger>(logger, HandleKind::kLog)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    if (info == &hostPlatformInfo().info) return QNN_SUCCESS;
    std::lock_guard<std::mutex> lock(gPlatformInfoMutex);
    return gPlatformInfos.erase(info) ? QNN_SUCCESS : QNN_DEVICE_ERROR_INVALID_ARGUMENT;
  });
}

Qnn_ErrorHandle_t Runtime::deviceGetInfrastructure(const QnnDevice_Infrastructure_t* infra) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!desc_.hooks) {
      logMessage(anyLogger().get(), QNN_LOG_LEVEL_WARN, "QnnDevice_getInfrastructure: this backend has none");
      return QNN_COMMON_ERROR_NOT_SUPPORTED;
    }
    if (!infra) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    Status st = desc_.hooks->getInfrastructure(infra);
    if (!st.isOk()) return fail(anyLogger().get(), ApiGroup::kDevice, "QnnDevice_getInfrastructure", st);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceCreate(Qnn_LogHandle_t logger, const QnnDevice_Config_t** config,
                                        Qnn_DeviceHandle_t* device) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!device) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    auto d = std::make_shared<DeviceObject>();
    if (logger && !(d->logger = handles().get<Logger>(logger, HandleKind::kLog))) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    Status st = applyDeviceConfig(desc_.hooks.get(), config, &d->settings);
    if (!st.isOk()) {
      logMessage(d->logger ? d->logger.get() : anyLogger().get(), QNN_LOG_LEVEL_ERROR, "QnnDevice_create: " + st.message());
      return QNN_DEVICE_ERROR_INVALID_CONFIG;
    }
    *device = handles().add(d);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceSetConfig(Qnn_DeviceHandle_t device, const QnnDevice_Config_t** config) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto d = handles().get<DeviceObject>(device, HandleKind::kDevice);
    if (!d) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    std::lock_guard<std::mutex> lock(d->mutex);
    BackendSettings updated = d->settings;
    Status st = applyDeviceConfig(desc_.hooks.get(), config, &updated);
    if (!st.isOk()) {
      logMessage(d->logger ? d->logger.get() : anyLogger().get(), QNN_LOG_LEVEL_ERROR,
                 "QnnDevice_setConfig: " + st.message());
      return QNN_DEVICE_ERROR_INVALID_CONFIG;
    }
    d->settings = std::move(updated);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceGetInfo(Qnn_DeviceHandle_t device, const QnnDevice_PlatformInfo_t** info) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto d = handles().get<DeviceObject>(device, HandleKind::kDevice);
    if (!d) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    if (!info) return QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(d->mutex);
    if (d->infos.empty() || d->infoSettings != d->settings) {
      std::unique_ptr<PlatformInfoStorage> storage = desc_.hooks ? desc_.hooks->platformInfo(d->settings) : nullptr;
      if (!storage) {
        *info = &hostPlatformInfo().info;
        return QNN_SUCCESS;
      }
      d->infos.push_back(std::move(storage));
      d->infoSettings = d->settings;
    }
    *info = d->infos.back()->info();
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::deviceFree(Qnn_DeviceHandle_t device) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    return handles().remove(device, HandleKind::kDevice) ? QNN_SUCCESS : QNN_DEVICE_ERROR_INVALID_HANDLE;
  });
}

// ---------------------------------------------------------------- signal

static Status applySignalConfig(SignalObject& s, const QnnSignal_Config_t** config) {
  if (!config) return Status::ok();
  for (size_t i = 0; config[i]; ++i) {
    if (config[i]->option == QNN_SIGNAL_CONFIG_OPTION_TIMEOUT) s.timeoutUs = config[i]->timeoutDurationUs;
    else if (config[i]->option != QNN_SIGNAL_CONFIG_OPTION_CUSTOM)
      return invalidArgument("unknown signal config option");
  }
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::signalCreate(Qnn_BackendHandle_t backend, const QnnSignal_Config_t** config,
                                        Qnn_SignalHandle_t* signal) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!handles().get<BackendObject>(backend, HandleKind::kBackend)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if (!signal) return QNN_SIGNAL_ERROR_INVALID_ARGUMENT;
    auto s = std::make_shared<SignalObject>();
    if (!applySignalConfig(*s, config).isOk()) return QNN_SIGNAL_ERROR_INVALID_ARGUMENT;
    *signal = handles().add(s);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::signalSetConfig(Qnn_SignalHandle_t signal, const QnnSignal_Config_t** config) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto s = handles().get<SignalObject>(signal, HandleKind::kSignal);
    if (!s) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if (s->inUse) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    return applySignalConfig(*s, config).isOk() ? QNN_SUCCESS : QNN_SIGNAL_ERROR_INVALID_ARGUMENT;
  });
}

Qnn_ErrorHandle_t Runtime::signalTrigger(Qnn_SignalHandle_t signal) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto s = handles().get<SignalObject>(signal, HandleKind::kSignal);
    if (!s) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if (!s->inUse) return QNN_SIGNAL_ERROR_SIGNAL_IDLE;
    s->triggered = true;
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::signalFree(Qnn_SignalHandle_t signal) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto s = handles().get<SignalObject>(signal, HandleKind::kSignal);
    if (!s) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if (s->inUse) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    handles().remove(signal, HandleKind::kSignal);
    return QNN_SUCCESS;
  });
}

const char* Runtime::errorMessage(Qnn_ErrorHandle_t error) {
  switch (QNN_GET_ERROR_CODE(error)) {
    case QNN_SUCCESS: return "success";
    case QNN_COMMON_ERROR_NOT_SUPPORTED: return "not supported";
    case QNN_COMMON_ERROR_MEM_ALLOC: return "memory allocation failed";
    case QNN_COMMON_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case QNN_COMMON_ERROR_GENERAL: return "general error";
    case QNN_BACKEND_ERROR_INVALID_HANDLE: return "invalid backend handle";
    case QNN_BACKEND_ERROR_INVALID_ARGUMENT: return "invalid argument to a backend call";
    case QNN_BACKEND_ERROR_NOT_SUPPORTED: return "not supported by this backend";
    case QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND: return "op package library not found or not loadable";
    case QNN_BACKEND_ERROR_OP_PACKAGE_IF_PROVIDER_NOT_FOUND: return "op package interface provider not found";
    case QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED: return "op package registration failed";
    case QNN_BACKEND_ERROR_OP_PACKAGE_UNSUPPORTED_VERSION: return "op package built for an unsupported API version";
    case QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE: return "an op package of that name is already registered";
    case QNN_CONTEXT_ERROR_INVALID_HANDLE: return "invalid context handle";
    case QNN_CONTEXT_ERROR_CREATE_FROM_BINARY: return "context binary is invalid or corrupted";
    case QNN_CONTEXT_ERROR_BINARY_CONFIGURATION:
      return "context binary was made for another backend or needs an op package that is not registered";
    case QNN_CONTEXT_ERROR_NOT_FINALIZED: return "graphs of the context are not finalized";
    case QNN_GRAPH_ERROR_INVALID_HANDLE: return "invalid graph handle";
    case QNN_GRAPH_ERROR_INVALID_TENSOR: return "invalid tensor";
    case QNN_GRAPH_ERROR_INVALID_OP_CONFIG: return "invalid op config";
    case QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED: return "graph is not finalized";
    case QNN_GRAPH_ERROR_GRAPH_FINALIZED: return "graph is already finalized";
    case QNN_GRAPH_ERROR_ABORTED: return "execution aborted";
    case QNN_GRAPH_ERROR_TIMED_OUT: return "execution timed out";
    case QNN_TENSOR_ERROR_ALREADY_EXISTS: return "a tensor with that name already exists";
    case QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM: return "invalid tensor";
    default: return "error (see the QNN error code tables)";
  }
}

}  // namespace qnn::sdk
