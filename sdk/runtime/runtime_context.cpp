// QnnContext entry points: creation, binaries (save and load), free.
#include "runtime/runtime.h"

#include <cstring>
#include <set>

#include "context_binary/context_binary.h"
#include "graph/memory_needs.h"
#include "opdefs/op_catalog.h"
#include "prepared_blob/prepared_blob.h"
#include "runtime/binary_data_callback.h"
#include "runtime/context_configs.h"
#include "adapters/client_datatypes.h"
#include "runtime/qnn_convert.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

// Binaries the API writes keep large weights in the mappable weights region.
static const ContextBinaryWriteOptions kApiBinaryOptions{kDefaultWeightsRegionMinBytes};

// A null-terminated array of graph names (ENABLE_GRAPHS, GRAPH_RETENTION_ORDER).
static Status readGraphNames(const char* const* names, const char* what, std::set<std::string>* out) {
  if (!names) return invalidArgument(std::string(what) + ": the graph name list is null");
  for (size_t i = 0; names[i]; ++i) {
    if (!*names[i]) return invalidArgument(std::string(what) + ": graph name " + std::to_string(i) + " is empty");
    if (out) out->insert(names[i]);
  }
  return Status::ok();
}

Qnn_ErrorHandle_t configErrorCode(const Status& st) {
  return st.code() == StatusCode::kNotSupported ? QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE
                                                : QNN_CONTEXT_ERROR_INVALID_CONFIG;
}

Status checkContextConfig(const QnnContext_Config_t** config, BackendHooks* hooks, BackendSettings* settings,
                          const Logger* log, const char* api, BinaryLoadOptions* load) {
  if (!config) return Status::ok();
  BackendSettings scratch;
  if (!settings) settings = &scratch;
  BinaryLoadOptions unused;
  if (!load) load = &unused;
  ConfigWarnings warnings;
  for (size_t i = 0; config[i]; ++i) {
    const QnnContext_Config_t& c = *config[i];
    switch (c.option) {
      case QNN_CONTEXT_CONFIG_OPTION_CUSTOM:
        if (hooks && c.customConfig)
          QNN_SDK_RETURN_IF_ERROR(hooks->applyContextCustomConfig(c.customConfig, settings, &warnings));
        break;
      case QNN_CONTEXT_CONFIG_ASYNC_EXECUTION_QUEUE_DEPTH:
        // QnnContext.h: executions in the queue before QnnGraph_executeAsync
        // blocks, bounded by a backend maximum (300 on the vendor's HTP: more is
        // an error at context creation).
        if (c.asyncExeQueueDepth.type != QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_TYPE_NUMERIC)
          return invalidArgument("async execution queue depth type " + std::to_string(c.asyncExeQueueDepth.type) +
                                 " is not QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_TYPE_NUMERIC");
        if (c.asyncExeQueueDepth.depth == 0 || c.asyncExeQueueDepth.depth > kMaxAsyncQueueDepth)
          return invalidArgument("async execution queue depth " + std::to_string(c.asyncExeQueueDepth.depth) +
                                 " is not in 1.." + std::to_string(kMaxAsyncQueueDepth));
        (*settings)[kAsyncQueueDepthSetting] = std::to_string(c.asyncExeQueueDepth.depth);
        break;
      case QNN_CONTEXT_CONFIG_OPTION_ERROR_REPORTING:
      case QNN_CONTEXT_CONFIG_OPTION_OEM_STRING:
      case QNN_CONTEXT_CONFIG_PERSISTENT_BINARY:  // the binary is copied at load: any lifetime is fine
        break;
      case QNN_CONTEXT_CONFIG_OPTION_PRIORITY:
        // API 2.39's scale: LOWEST 0 .. CRITICAL_PLUS 500 = HIGHEST.
        if (c.priority > QNN_PRIORITY_HIGHEST)
          return invalidArgument("context priority " + std::to_string(c.priority) + " is above QNN_PRIORITY_HIGHEST (" +
                                 std::to_string(QNN_PRIORITY_HIGHEST) + ")");
        (*settings)["context.priority"] = std::to_string(c.priority);
        break;
      case QNN_CONTEXT_CONFIG_ENABLE_GRAPHS:
        load->selectGraphs = true;
        load->enableGraphs.clear();
        QNN_SDK_RETURN_IF_ERROR(readGraphNames(c.enableGraphs, "QNN_CONTEXT_CONFIG_ENABLE_GRAPHS", &load->enableGraphs));
        break;
      case QNN_CONTEXT_CONFIG_MEMORY_LIMIT_HINT:  // a hint: recorded
        (*settings)["context.memory_limit_mb"] = std::to_string(c.memoryLimitHint);
        break;
      case QNN_CONTEXT_CONFIG_BINARY_COMPATIBILITY:
        if (c.binaryCompatibilityType != QNN_CONTEXT_BINARY_COMPATIBILITY_PERMISSIVE &&
            c.binaryCompatibilityType != QNN_CONTEXT_BINARY_COMPATIBILITY_STRICT)
          return invalidArgument("unknown binary compatibility type " + std::to_string(c.binaryCompatibilityType));
        // A binary this backend loads runs as prepared: strict and permissive agree.
        break;
      case QNN_CONTEXT_CONFIG_OPTION_DEFER_GRAPH_INIT:
        load->deferGraphInit = c.isGraphInitDeferred != 0;
        break;
      case QNN_CONTEXT_CONFIG_GRAPH_RETENTION_ORDER:  // graph switching hint: every graph stays resident here
        QNN_SDK_RETURN_IF_ERROR(readGraphNames(c.graphRetentionOrder, "QNN_CONTEXT_CONFIG_GRAPH_RETENTION_ORDER", nullptr));
        break;
      default:
        return invalidArgument("unknown context config option " + std::to_string(c.option));
    }
  }
  logConfigWarnings(log, api, warnings);
  return Status::ok();
}

Qnn_ErrorHandle_t Runtime::contextCreate(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                         const QnnContext_Config_t** config, Qnn_ContextHandle_t* context) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return refuse(nullptr, "QnnContext_create", "backend is not a live backend handle", QNN_CONTEXT_ERROR_INVALID_HANDLE);
    if (device && !handles().get<DeviceObject>(device, HandleKind::kDevice))
      return refuse(loggerOf(b), "QnnContext_create", "device is not a live device handle", QNN_DEVICE_ERROR_INVALID_HANDLE);
    if (!context) return refuse(loggerOf(b), "QnnContext_create", "context (the handle out) is null", QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
    auto ctx = std::make_shared<ContextObject>();
    ctx->settings = device ? deviceSettings(device) : globalSettings();
    Status st = checkContextConfig(config, desc_.hooks.get(), &ctx->settings, loggerOf(b), "QnnContext_create");
    if (!st.isOk()) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, "QnnContext_create: " + st.message());
      return configErrorCode(st);
    }
    ctx->backend = b;
    *context = handles().add(ctx);
    std::lock_guard<std::mutex> lock(b->mutex);
    b->contexts.insert(*context);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextSetConfig(Qnn_ContextHandle_t context, const QnnContext_Config_t** config) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    BackendSettings updated;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      updated = ctx->settings;
    }
    Status st = checkContextConfig(config, desc_.hooks.get(), &updated, loggerOf(ctx->backend), "QnnContext_setConfig");
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kContext, "QnnContext_setConfig", st),
                           configErrorCode(st);
    // The queue depth is fixed when the context is made: setConfig checks it
    // and leaves it (the vendor's HTP async execution notes).
    std::lock_guard<std::mutex> lock(ctx->mutex);
    auto depth = ctx->settings.find(kAsyncQueueDepthSetting);
    if (depth == ctx->settings.end())
      updated.erase(kAsyncQueueDepthSetting);
    else
      updated[kAsyncQueueDepthSetting] = depth->second;
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
    QNN_SDK_RETURN_IF_ERROR(initializeGraph(*g));
    out->graphs.push_back(g->ir);
    std::vector<uint8_t> bytes;
    if (g->prepared && g->prepared->serialize(g->ir, &bytes)) prepared[name] = std::move(bytes);
  }
  if (!prepared.empty()) encodePreparedGraphs(prepared, &out->backendBlob);
  return Status::ok();
}

namespace rt {
Status serializeContext(ContextObject& ctx, const BackendDescriptor& desc, std::vector<uint8_t>* bytes) {
  ContextBinaryContents contents;
  QNN_SDK_RETURN_IF_ERROR(collectContext(ctx, desc, &contents));
  return writeContextBinary(contents, bytes, kApiBinaryOptions);
}
}  // namespace rt

Qnn_ErrorHandle_t Runtime::contextGetBinarySize(Qnn_ContextHandle_t context, Qnn_ContextBinarySize_t* size) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!size)
      return refuse(loggerOf(ctx->backend), "QnnContext_getBinarySize", "binaryBufferSize (out) is null",
                    QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
    ContextBinaryContents contents;
    Status st = collectContext(*ctx, desc_, &contents);
    std::vector<uint8_t> bytes;
    if (st.isOk()) st = writeContextBinary(contents, &bytes, kApiBinaryOptions);
    if (!st.isOk()) return fail(loggerOf(ctx->backend), ApiGroup::kContext, "QnnContext_getBinarySize", st);
    // The real size is known only after compression; report it exactly.
    *size = bytes.size();
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextGetBinary(Qnn_ContextHandle_t context, void* buffer,
                                            Qnn_ContextBinarySize_t bufferSize, Qnn_ContextBinarySize_t* written) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!buffer || !written)
      return refuse(loggerOf(ctx->backend), "QnnContext_getBinary",
                    !buffer ? "binaryBuffer is null" : "writtenBufferSize (out) is null",
                    QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
    ContextBinaryContents contents;
    Status st = collectContext(*ctx, desc_, &contents);
    std::vector<uint8_t> bytes;
    if (st.isOk()) st = writeContextBinary(contents, &bytes, kApiBinaryOptions);
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

// A graph's initialization from the binary failed: the code createFromBinary documents.
static Qnn_ErrorHandle_t graphInitFailure(const Logger* log, const char* api, const Status& st) {
  logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + st.message());
  // kInvalidArgument: prepared for another device (e.g. another HTP architecture).
  if (st.code() == StatusCode::kInvalidArgument) return QNN_CONTEXT_ERROR_BINARY_CONFIGURATION;
  if (st.code() == StatusCode::kCorruptData) return QNN_CONTEXT_ERROR_CREATE_FROM_BINARY;
  return toQnnError(ApiGroup::kContext, st);
}

Qnn_ErrorHandle_t Runtime::contextCreateFromBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                   const QnnContext_Config_t** config, const void* buffer,
                                                   Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                                   Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    return createFromBinaryHoldingSignal(backend, device, config, buffer, size, context, profile, signal, nullptr);
  });
}

Qnn_ErrorHandle_t Runtime::createFromBinaryHoldingSignal(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                         const QnnContext_Config_t** config, const void* buffer,
                                                         Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                                         Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal,
                                                         const Qnn_ContextBinaryCallback_t* dataCallback) {
  {
    std::shared_ptr<SignalObject> sig;
    if (!lookupOptional(signal, HandleKind::kSignal, &sig)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    // The signal is in use for the whole call (QnnContext.h).
    SignalHold signalHold(sig.get());
    if (signalHold.busy()) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    return loadContextBinary(backend, device, config, buffer, size, context, profile, sig.get(), nowMicros(),
                             nullptr, dataCallback);
  }
}

Qnn_ErrorHandle_t Runtime::loadContextBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                             const QnnContext_Config_t** config, const void* buffer,
                                             Qnn_ContextBinarySize_t size, Qnn_ContextHandle_t* context,
                                             Qnn_ProfileHandle_t profile, SignalObject* sig, uint64_t begun,
                                             std::vector<std::pair<std::string, void*>>* loadedGraphs,
                                             const Qnn_ContextBinaryCallback_t* dataCallback) {
  {
    // Abort (QnnSignal_trigger) and timeout, checked between the steps of the load.
    auto interrupted = [&](const std::string& before) -> Qnn_ErrorHandle_t {
      if (!sig) return QNN_SUCCESS;
      const SignalObject::Stop why = sig->stopFor(begun);
      const Qnn_ErrorHandle_t stop = why == SignalObject::Stop::kAborted    ? QNN_CONTEXT_ERROR_ABORTED
                                     : why == SignalObject::Stop::kTimedOut ? QNN_CONTEXT_ERROR_TIMED_OUT
                                                                            : QNN_SUCCESS;
      if (stop)
        logMessage(loggerOf(handles().get<BackendObject>(backend, HandleKind::kBackend)), QNN_LOG_LEVEL_ERROR,
                   std::string("QnnContext_createFromBinaryWithSignal: ") +
                       (stop == QNN_CONTEXT_ERROR_ABORTED ? "aborted by the signal" : "the signal's timeout expired") +
                       " before " + before);
      return stop;
    };
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    const char* api = "QnnContext_createFromBinary";
    if (!b) return refuse(nullptr, api, "backend is not a live backend handle", QNN_CONTEXT_ERROR_INVALID_HANDLE);
    if (device && !handles().get<DeviceObject>(device, HandleKind::kDevice))
      return refuse(loggerOf(b), api, "device is not a live device handle", QNN_DEVICE_ERROR_INVALID_HANDLE);
    if (!buffer || !context || size == 0)
      return refuse(loggerOf(b), api,
                    !buffer ? "binaryBuffer is null" : !context ? "context (the handle out) is null" : "binaryBufferSize is 0",
                    QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
    std::shared_ptr<ProfileObject> prof;
    if (profile && !(prof = handles().get<ProfileObject>(profile, HandleKind::kProfile)))
      return refuse(loggerOf(b), api, "profile is not a live profile handle", QNN_PROFILE_ERROR_INVALID_HANDLE);
    BackendSettings settings = device ? deviceSettings(device) : globalSettings();
    BinaryLoadOptions load;
    Status cst =
        checkContextConfig(config, desc_.hooks.get(), &settings, loggerOf(b), "QnnContext_createFromBinary", &load);
    if (!cst.isOk()) {
      logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR, "QnnContext_createFromBinary: " + cst.message());
      return configErrorCode(cst);
    }
    uint64_t start = nowMicros();
    ContextBinaryContents contents;
    // With the client's data callback the weights region is the client's
    // memory, used in place; otherwise it is copied from the buffer.
    Status st = readContextBinary(buffer, size, &contents,
                                  dataCallback ? weightsFromClient(*dataCallback) : WeightsRegionProvider());
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
    ctx->fromBinary = true;
    uint32_t maxId = 0;
    for (auto& t : contents.contextTensors) {
      maxId = std::max(maxId, t.id);
      ctx->tensorNames.insert(t.name);
      ctx->contextTensors[t.id] = t;
    }
    if (load.selectGraphs) {
      // "An error is generated if an invalid graph name is provided" (QnnContext.h).
      for (const std::string& name : load.enableGraphs) {
        bool found = false;
        for (auto& ir : contents.graphs) found = found || ir.name == name;
        if (!found) {
          logMessage(loggerOf(b), QNN_LOG_LEVEL_ERROR,
                     "QnnContext_createFromBinary: QNN_CONTEXT_CONFIG_ENABLE_GRAPHS names graph '" + name +
                         "', which the binary does not hold");
          return QNN_CONTEXT_ERROR_INVALID_CONFIG;
        }
      }
    }
    std::vector<std::shared_ptr<GraphObject>> graphs;
    for (auto& ir : contents.graphs) {
      if (load.selectGraphs && !load.enableGraphs.count(ir.name)) continue;  // not deserialized
      if (Qnn_ErrorHandle_t stop = interrupted("graph '" + ir.name + "' was loaded")) return stop;
      logMessage(loggerOf(b), QNN_LOG_LEVEL_DEBUG, "QnnContext_createFromBinary: loading graph '" + ir.name + "'");
      auto g = std::make_shared<GraphObject>();
      g->context = ctx;
      g->backend = b;
      for (auto& [id, t] : ir.tensors) maxId = std::max(maxId, id);
      for (auto& n : ir.nodes) g->nodeNames.insert(n.name);
      g->ir = std::move(ir);
      g->ir.backendConfig = settings;
      // A stored prepared form is restored as is; otherwise the graph is prepared again.
      auto stored = prepared.find(g->ir.name);
      std::vector<uint8_t> blob;
      if (stored != prepared.end()) blob = std::move(stored->second);
      g->deferredInit = [b, blob = std::move(blob)](GraphObject& graph) -> Status {
        if (blob.empty()) return b->engine->prepare(graph.ir, &graph.prepared);
        return b->engine->restore(graph.ir, blob.data(), blob.size(), &graph.prepared);
      };
      if (!load.deferGraphInit) {
        st = initializeGraph(*g);
        if (!st.isOk()) return graphInitFailure(loggerOf(b), "QnnContext_createFromBinary", st);
      }
      g->state = GraphObject::State::kFinalized;
      g->fromBinary = true;
      graphs.push_back(std::move(g));
    }
    if (Qnn_ErrorHandle_t stop = interrupted("the context was made")) return stop;
    ctx->nextTensorId = maxId + 1;
    for (auto& g : graphs) {
      void* h = handles().add(g);
      ctx->graphsByName[g->ir.name] = h;
      if (loadedGraphs) loadedGraphs->emplace_back(g->ir.name, h);
    }
    if (prof) {
      auto top = prof->addEvent(0, QNN_PROFILE_EVENTTYPE_INIT, QNN_PROFILE_EVENTUNIT_MICROSEC, nowMicros() - start,
                                kLoadBinaryEventIdentifier, 0, /*publish=*/false);
      for (auto& g : graphs) {
        if (!g->prepared) continue;  // deferred: its events come with its initialization
        std::vector<ProfileExtraEvent> extra;
        g->prepared->finalizeEvents(&extra);
        addExtraEvents(*prof, top, extra);
      }
      prof->publish(top);
    }
    *context = handles().add(ctx);
    std::lock_guard<std::mutex> lock(b->mutex);
    b->contexts.insert(*context);
    return QNN_SUCCESS;
  }
}

Qnn_ErrorHandle_t Runtime::contextFree(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    std::shared_ptr<ProfileObject> prof;
    if (!lookupOptional(profile, HandleKind::kProfile, &prof)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    const uint64_t start = nowMicros();
    auto obj = handles().remove(context, HandleKind::kContext);
    if (!obj) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    auto ctx = std::static_pointer_cast<ContextObject>(obj);
    {
      std::lock_guard<std::mutex> lock(ctx->backend->mutex);
      ctx->backend->contexts.erase(context);
    }
    freeContextObject(ctx);
    // The vendor's backends report the free of a context as the deinit event.
    if (prof)
      prof->addEvent(0, QNN_PROFILE_EVENTTYPE_DEINIT, QNN_PROFILE_EVENTUNIT_MICROSEC, nowMicros() - start,
                     kDeinitEventIdentifier, start);
    return QNN_SUCCESS;
  });
}

namespace {

// Weights and scratch of a context's graphs; context tensors counted once.
ContextMemoryFacts contextMemoryFacts(ContextObject& ctx, uint64_t alignment) {
  ContextMemoryFacts facts;
  std::vector<void*> graphs;
  {
    std::lock_guard<std::mutex> lock(ctx.mutex);
    for (const auto& [id, t] : ctx.contextTensors)
      if (t.kind == TensorKind::kStatic) facts.weightsBytes += alignedBytes(t.byteSize(), alignment);
    for (const auto& [name, handle] : ctx.graphsByName) graphs.push_back(handle);
  }
  for (void* handle : graphs) {
    auto g = handles().get<GraphObject>(handle, HandleKind::kGraph);
    if (!g) continue;
    std::lock_guard<std::mutex> lock(g->mutex);
    GraphMemoryNeeds needs = graphMemoryNeeds(g->ir, alignment);
    facts.weightsBytes += needs.staticBytes;
    facts.maxScratchBytes = std::max(facts.maxScratchBytes, needs.peakNativeBytes);
  }
  return facts;
}

}  // namespace

Qnn_ErrorHandle_t Runtime::contextGetProperty(Qnn_ContextHandle_t context, QnnContext_Property_t** properties) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(ctx->backend);
    Status st = checkPropertyList(properties, QNN_CONTEXT_PROPERTY_OPTION_CUSTOM);
    if (!st.isOk()) return fail(log, ApiGroup::kContext, "QnnContext_getProperty", st);
    if (!properties[0]) return QNN_SUCCESS;
    BackendHooks* hooks = desc_.hooks.get();
    for (size_t i = 0; properties[i]; ++i) {
      st = hooks ? hooks->checkContextCustomProperty(properties[i]->customProperty)
                 : Status{StatusCode::kNotSupported, "this backend defines no custom context properties"};
      if (st.code() == StatusCode::kNotSupported) {
        logMessage(log, QNN_LOG_LEVEL_ERROR, "QnnContext_getProperty: " + st.message());
        return QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE;
      }
      if (!st.isOk()) return fail(log, ApiGroup::kContext, "QnnContext_getProperty", st);
    }
    ContextMemoryFacts facts = contextMemoryFacts(*ctx, hooks->bufferAlignment());
    for (size_t i = 0; properties[i]; ++i) hooks->answerContextCustomProperty(properties[i]->customProperty, facts);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextValidateBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                const QnnContext_Config_t** config, const void* buffer,
                                                Qnn_ContextBinarySize_t size) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    // The check reads only the binary: a null backend is accepted (clients have
    // called it so); a handle that is given must be a live backend of this library.
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (backend && !b) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (device && !handles().get<DeviceObject>(device, HandleKind::kDevice)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    const char* api = "QnnContext_validateBinary";
    std::shared_ptr<Logger> anyLog = b ? nullptr : anyLogger();
    const Logger* log = b ? loggerOf(b) : anyLog.get();
    if (!buffer || size == 0)
      return fail(log, ApiGroup::kContext, api, invalidArgument("the binary buffer is null or empty"));
    if (Status st = checkContextConfig(config, desc_.hooks.get(), nullptr, log, api); !st.isOk())
      return fail(log, ApiGroup::kContext, api, st), configErrorCode(st);
    if (Status st = validateContextBinary(buffer, size); !st.isOk()) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + st.message());
      return QNN_CONTEXT_ERROR_CREATE_FROM_BINARY;
    }
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::sdk
