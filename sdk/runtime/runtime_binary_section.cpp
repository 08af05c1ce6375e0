// Binary sections (QnnContext.h): QnnContext_getBinarySectionSize /
// getBinarySection write the UPDATEABLE_* tensors of a context's graphs;
// applyBinarySection puts them into a loaded context between executes (the
// vendor's LoRA adapters); getBinarySectionUpdate / freeBinarySectionUpdate
// change the tensors of a section the backend allocates. Format:
// context_binary/binary_section.h.
#include <cstring>
#include <mutex>
#include <set>

#include "context_binary/binary_section.h"
#include "runtime/qnn_convert.h"
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {

// Buffers handed out by QnnContext_getBinarySectionUpdate, until freed.
std::mutex gUpdateBuffersMutex;
std::set<void*> gUpdateBuffers;

Status notPermitted(const std::string& m) { return {StatusCode::kInvalidState, m}; }

// The graphs a section call covers: `graph` alone, or every graph of the context.
Status sectionGraphs(ContextObject& ctx, Qnn_GraphHandle_t graph, std::vector<std::shared_ptr<GraphObject>>* out) {
  std::vector<void*> handlesOf;
  {
    std::lock_guard<std::mutex> lock(ctx.mutex);
    for (auto& [name, handle] : ctx.graphsByName)
      if (!graph || handle == graph) handlesOf.push_back(handle);
  }
  if (graph && handlesOf.empty()) return invalidArgument("the graph handle is not a graph of this context");
  for (void* h : handlesOf)
    if (auto g = handles().get<GraphObject>(h, HandleKind::kGraph)) out->push_back(std::move(g));
  return Status::ok();
}

SectionTensor sectionTensorOf(const TensorInfo& t, SectionKind kind) {
  SectionTensor s;
  s.info = t;
  s.hasData = t.kind == TensorKind::kStatic && kind != SectionKind::kUpdatableQuantParams;
  s.hasQuant = t.quant.kind != QuantInfo::Kind::kNone && kind != SectionKind::kUpdatableWeights;
  if (!s.hasData) s.info.staticData.clear();
  return s;
}

// What QnnContext_getBinarySection writes for (context, graph).
Status collectSection(ContextObject& ctx, Qnn_GraphHandle_t graph, SectionKind kind, uint32_t backendId,
                      BinarySection* out) {
  if (ctx.fromBinary)
    return notPermitted("binary sections are made from a context built with QnnGraph_* calls, not from one re-created from a binary");
  std::vector<std::shared_ptr<GraphObject>> graphs;
  QNN_SDK_RETURN_IF_ERROR(sectionGraphs(ctx, graph, &graphs));
  out->kind = kind;
  out->backendId = backendId;
  for (auto& g : graphs) {
    std::lock_guard<std::mutex> lock(g->mutex);
    if (g->state != GraphObject::State::kFinalized || !g->pendingUpdates.empty())
      return invalidState("graph '" + g->ir.name + "' is not finalized" +
                          (g->pendingUpdates.empty() ? "" : " since its last tensor updates (call QnnGraph_finalize)"));
    SectionGraph sg;
    sg.name = g->ir.name;
    sg.weightsUpdatable = g->sectionWeightsUpdatable;
    for (auto& [id, t] : g->ir.tensors) {
      if (!t.updateable) continue;
      SectionTensor s = sectionTensorOf(t, kind);
      if (s.hasData || s.hasQuant) sg.tensors.push_back(std::move(s));
    }
    out->graphs.push_back(std::move(sg));
  }
  if (!graph) {  // the context's own record of its tensors, for graphs made later
    std::lock_guard<std::mutex> lock(ctx.mutex);
    SectionGraph own;
    own.weightsUpdatable = true;
    for (auto& [id, t] : ctx.contextTensors) {
      if (!t.updateable) continue;
      SectionTensor s = sectionTensorOf(t, kind);
      if (s.hasData || s.hasQuant) own.tensors.push_back(std::move(s));
    }
    if (!own.tensors.empty()) out->graphs.push_back(std::move(own));
  }
  return Status::ok();
}

// The updates a section entry makes to the tensors of `ir` (matched by id and name).
Status sectionUpdates(const SectionGraph& entry, const std::map<uint32_t, TensorInfo>& tensors, TensorUpdates* out) {
  for (const SectionTensor& s : entry.tensors) {
    auto it = tensors.find(s.info.id);
    if (it == tensors.end() || it->second.name != s.info.name)
      return {StatusCode::kIncompatibleUpdate, "the section's tensor '" + s.info.name + "' (id " +
                                                   std::to_string(s.info.id) + ") is not in graph '" + entry.name +
                                                   "' of this context"};
    const TensorInfo& target = it->second;
    if (target.dtype != s.info.dtype || target.dims != s.info.dims || target.kind != s.info.kind)
      return {StatusCode::kIncompatibleUpdate, "the section's tensor '" + s.info.name + "' differs from graph '" +
                                                   entry.name + "''s in datatype, shape or type"};
    TensorUpdate u;
    u.hasData = s.hasData;
    if (u.hasData) u.data = s.info.staticData.vector();
    u.hasQuant = s.hasQuant;
    if (u.hasQuant) u.quant = s.info.quant;
    QNN_SDK_RETURN_IF_ERROR(checkTensorUpdate(target, u));
    (*out)[s.info.id] = std::move(u);
  }
  return Status::ok();
}

const uint8_t* rawBuffer(const QnnContext_Buffer_t* b, size_t* size) {
  if (!b || b->version != QNN_CONTEXT_BUFFER_VERSION_1 || b->v1.memType != QNN_CONTEXTMEMTYPE_RAW ||
      !b->v1.binaryBuf.data || b->v1.binaryBuf.dataSize == 0)
    return nullptr;
  *size = static_cast<size_t>(b->v1.binaryBuf.dataSize);
  return static_cast<const uint8_t*>(b->v1.binaryBuf.data);
}

Status bufferProblem(const QnnContext_Buffer_t* b) {
  if (!b) return invalidArgument("the binary buffer is null");
  if (b->version != QNN_CONTEXT_BUFFER_VERSION_1)
    return invalidArgument("unknown QnnContext_Buffer_t version " + std::to_string(b->version));
  if (b->v1.memType != QNN_CONTEXTMEMTYPE_RAW)
    return invalidArgument("only QNN_CONTEXTMEMTYPE_RAW section buffers are supported");
  return invalidArgument("the section buffer has no data");
}

// Context-group code for a section failure: kInvalidState is "not finalized"
// or, for a context re-created from a binary, "operation not permitted".
Qnn_ErrorHandle_t sectionFailure(const Logger* log, const char* api, const Status& st, bool fromBinary) {
  if (st.code() == StatusCode::kInvalidState && fromBinary) {
    logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + st.message());
    return QNN_COMMON_ERROR_OPERATION_NOT_PERMITTED;
  }
  if (st.code() == StatusCode::kIncompatibleUpdate || st.code() == StatusCode::kCorruptData) {
    logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + st.message());
    return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
  }
  return fail(log, ApiGroup::kContext, api, st);
}

// The checks getBinarySection and applyBinarySection share: handles, the
// section buffer, the section type. QNN_SUCCESS when the call may go on.
struct SectionCall {
  std::shared_ptr<ContextObject> ctx;
  std::shared_ptr<ProfileObject> prof;
  std::shared_ptr<SignalObject> sig;
  const Logger* log = nullptr;
  const uint8_t* data = nullptr;  // the client's buffer
  size_t size = 0;
};

Qnn_ErrorHandle_t openSectionCall(const char* api, Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile,
                                  Qnn_SignalHandle_t signal, const QnnContext_Buffer_t* buffer, uint32_t section,
                                  SectionCall* call) {
  call->ctx = handles().get<ContextObject>(context, HandleKind::kContext);
  if (!call->ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
  if (!lookupOptional(profile, HandleKind::kProfile, &call->prof) ||
      !lookupOptional(signal, HandleKind::kSignal, &call->sig))
    return QNN_CONTEXT_ERROR_INVALID_HANDLE;
  call->log = loggerOf(call->ctx->backend);
  call->data = rawBuffer(buffer, &call->size);
  if (!call->data) return fail(call->log, ApiGroup::kContext, api, bufferProblem(buffer));
  if (!sectionKindKnown(section))
    return fail(call->log, ApiGroup::kContext, api, invalidArgument("unknown section type " + std::to_string(section)));
  return QNN_SUCCESS;
}

}  // namespace

Qnn_ErrorHandle_t Runtime::contextGetBinarySectionSize(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                                       QnnContext_SectionType_t section,
                                                       Qnn_ContextBinarySize_t* size) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(ctx->backend);
    const char* api = "QnnContext_getBinarySectionSize";
    if (!size) return fail(log, ApiGroup::kContext, api, invalidArgument("binaryBufferSize is null"));
    if (!sectionKindKnown(section))
      return fail(log, ApiGroup::kContext, api, invalidArgument("unknown section type " + std::to_string(section)));
    BinarySection s;
    std::vector<uint8_t> bytes;
    Status st = collectSection(*ctx, graph, static_cast<SectionKind>(section), desc_.backendId, &s);
    if (st.isOk()) st = writeBinarySection(s, &bytes);
    if (!st.isOk()) return sectionFailure(log, api, st, ctx->fromBinary);
    *size = bytes.size();
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextGetBinarySection(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                                   QnnContext_SectionType_t section,
                                                   const QnnContext_Buffer_t* buffer,
                                                   Qnn_ContextBinarySize_t* written, Qnn_ProfileHandle_t profile,
                                                   Qnn_SignalHandle_t signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    const char* api = "QnnContext_getBinarySection";
    SectionCall call;
    if (Qnn_ErrorHandle_t rc = openSectionCall(api, context, profile, signal, buffer, section, &call)) return rc;
    auto& [ctx, prof, sig, log, dest, capacity] = call;
    SignalHold signalHold(sig.get());  // in use for the call's duration, as for the other calls
    if (signalHold.busy()) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    if (!written) return fail(log, ApiGroup::kContext, api, invalidArgument("writtenBufferSize is null"));
    if (sig && sig->triggered()) return QNN_CONTEXT_ERROR_ABORTED;
    uint64_t start = nowMicros();
    BinarySection s;
    std::vector<uint8_t> bytes;
    Status st = collectSection(*ctx, graph, static_cast<SectionKind>(section), desc_.backendId, &s);
    if (st.isOk()) st = writeBinarySection(s, &bytes);
    if (!st.isOk()) return sectionFailure(log, api, st, ctx->fromBinary);
    if (capacity < bytes.size())
      return fail(log, ApiGroup::kContext, api,
                  invalidArgument("the buffer holds " + std::to_string(capacity) + " bytes, the section needs " +
                                  std::to_string(bytes.size()) + " (QnnContext_getBinarySectionSize)"));
    std::memcpy(const_cast<uint8_t*>(dest), bytes.data(), bytes.size());
    *written = bytes.size();
    if (prof)
      prof->addEvent(0, QNN_PROFILE_EVENTTYPE_INIT, QNN_PROFILE_EVENTUNIT_MICROSEC, nowMicros() - start,
                     "context get binary section");
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextApplyBinarySection(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                                     QnnContext_SectionType_t section,
                                                     const QnnContext_Buffer_t* buffer, Qnn_ProfileHandle_t profile,
                                                     Qnn_SignalHandle_t signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    const char* api = "QnnContext_applyBinarySection";
    SectionCall call;
    if (Qnn_ErrorHandle_t rc = openSectionCall(api, context, profile, signal, buffer, section, &call)) return rc;
    auto& [ctx, prof, sig, log, data, size] = call;
    SignalHold signalHold(sig.get());  // in use for the call's duration, as for the other calls
    if (signalHold.busy()) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    uint64_t start = nowMicros();
    BinarySection s;
    Status st = readBinarySection(data, size, &s);
    if (st.isOk() && static_cast<uint32_t>(s.kind) != static_cast<uint32_t>(section))
      st = invalidArgument("the buffer holds a section of type " + std::to_string(static_cast<uint32_t>(s.kind)) +
                           ", the call names type " + std::to_string(section));
    if (st.isOk() && s.backendId != desc_.backendId)
      st = invalidArgument("the section was made by backend id " + std::to_string(s.backendId) +
                           ", this is backend id " + std::to_string(desc_.backendId));
    std::vector<std::shared_ptr<GraphObject>> graphs;
    if (st.isOk()) st = sectionGraphs(*ctx, graph, &graphs);
    if (!st.isOk()) return sectionFailure(log, api, st, false);
    // Match every entry before anything changes.
    struct Target {
      std::shared_ptr<GraphObject> graph;
      TensorUpdates updates;
    };
    std::vector<Target> targets;
    TensorUpdates contextOwn;
    for (const SectionGraph& entry : s.graphs) {
      if (entry.name.empty()) {
        if (graph) continue;  // only the graph's own tensors were asked for
        std::lock_guard<std::mutex> lock(ctx->mutex);
        st = sectionUpdates(entry, ctx->contextTensors, &contextOwn);
        if (!st.isOk()) return sectionFailure(log, api, st, false);
        continue;
      }
      std::shared_ptr<GraphObject> g;
      for (auto& candidate : graphs)
        if (candidate->ir.name == entry.name) g = candidate;
      if (!g) {
        if (graph) continue;  // an entry for another graph of a full-context section
        return sectionFailure(log, api, invalidArgument("the section names graph '" + entry.name + "', which this context does not hold"), false);
      }
      Target t{g, {}};
      {
        std::lock_guard<std::mutex> lock(g->mutex);
        if (g->state != GraphObject::State::kFinalized)
          return sectionFailure(log, api, invalidState("graph '" + g->ir.name + "' is not finalized"), false);
        st = sectionUpdates(entry, g->ir.tensors, &t.updates);
      }
      if (!st.isOk()) return sectionFailure(log, api, st, false);
      targets.push_back(std::move(t));
    }
    if (graph && targets.empty())
      return sectionFailure(log, api, invalidArgument("the section holds nothing for this graph"), false);
    if (sig && sig->triggered()) return QNN_CONTEXT_ERROR_ABORTED;
    // Apply graph by graph; a failure restores the graphs already changed, so the
    // context "retains its prior state" (QnnContext.h).
    std::vector<GraphUpdateUndo> undos(targets.size());
    for (size_t i = 0; i < targets.size(); ++i) {
      std::lock_guard<std::mutex> lock(targets[i].graph->mutex);
      st = applyGraphUpdates(*targets[i].graph, targets[i].updates, &undos[i]);
      if (!st.isOk()) {
        for (size_t j = 0; j < i; ++j) {
          std::lock_guard<std::mutex> back(targets[j].graph->mutex);
          rollbackGraphUpdates(*targets[j].graph, undos[j]);
        }
        logMessage(log, QNN_LOG_LEVEL_ERROR,
                   std::string(api) + ": graph '" + targets[i].graph->ir.name + "' could not take the section: " + st.message());
        return st.code() == StatusCode::kOutOfMemory ? Qnn_ErrorHandle_t(QNN_CONTEXT_ERROR_MEM_ALLOC)
                                                     : Qnn_ErrorHandle_t(QNN_COMMON_ERROR_GENERAL);
      }
    }
    if (!contextOwn.empty()) {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      GraphIR own;
      own.tensors.swap(ctx->contextTensors);
      applyTensorUpdates(own, contextOwn, nullptr);
      own.tensors.swap(ctx->contextTensors);
    }
    if (prof)
      prof->addEvent(0, QNN_PROFILE_EVENTTYPE_INIT, QNN_PROFILE_EVENTUNIT_MICROSEC, nowMicros() - start,
                     "context apply binary section");
    logMessage(log, QNN_LOG_LEVEL_DEBUG,
               std::string(api) + ": applied to " + std::to_string(targets.size()) + " graph(s)");
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextGetBinarySectionUpdate(const QnnContext_Buffer_t* buffer,
                                                         const QnnContext_Buffer_t* auxiliary,
                                                         const Qnn_Tensor_t** tensors, uint64_t numTensors,
                                                         uint8_t keepUpdatable, Qnn_LogHandle_t logger,
                                                         Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal,
                                                         QnnContext_Buffer_t* update) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    std::shared_ptr<Logger> client;
    std::shared_ptr<ProfileObject> prof;
    std::shared_ptr<SignalObject> sig;
    if (!lookupOptional(logger, HandleKind::kLog, &client) || !lookupOptional(profile, HandleKind::kProfile, &prof) ||
        !lookupOptional(signal, HandleKind::kSignal, &sig))
      return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = client ? client.get() : anyLogger().get();
    SignalHold signalHold(sig.get());  // in use for the call's duration, as for the other calls
    if (signalHold.busy()) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    const char* api = "QnnContext_getBinarySectionUpdate";
    size_t size = 0;
    const uint8_t* data = rawBuffer(buffer, &size);
    if (!data) return fail(log, ApiGroup::kContext, api, bufferProblem(buffer));
    if (auxiliary) return fail(log, ApiGroup::kContext, api, invalidArgument("auxiliaryBuffer must be NULL"));
    if (!tensors || numTensors == 0) return fail(log, ApiGroup::kContext, api, invalidArgument("no tensors given"));
    if (!update) return fail(log, ApiGroup::kContext, api, invalidArgument("binarySectionUpdate is null"));
    BinarySection s;
    Status st = readBinarySection(data, size, &s);
    if (!st.isOk()) return sectionFailure(log, api, st, false);
    if (!s.updatable) {
      logMessage(log, QNN_LOG_LEVEL_ERROR,
                 std::string(api) + ": the section was made with keepUpdatable = 0 and can no longer be updated");
      return QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE;
    }
    if (sig && sig->triggered()) return QNN_CONTEXT_ERROR_ABORTED;
    for (uint64_t i = 0; i < numTensors; ++i) {
      if (!tensors[i]) return fail(log, ApiGroup::kContext, api, invalidArgument("tensor " + std::to_string(i) + " is null"));
      const uint32_t id = tensorVersionSupported(*tensors[i]) ? tensorFields(*tensors[i]).id : 0;
      bool found = false;
      // A context tensor appears once per graph using it: all copies change.
      for (SectionGraph& g : s.graphs)
        for (SectionTensor& t : g.tensors) {
          if (t.info.id != id) continue;
          found = true;
          if (!g.weightsUpdatable)
            st = {StatusCode::kIncompatibleUpdate,
                  "graph '" + g.name + "' was not created with QNN_GRAPH_CONFIG_OPTION_ENABLE_BINARY_SECTION_WEIGHTS_UPDATES"};
          TensorUpdate u;
          if (st.isOk()) st = readTensorUpdate(t.info, *tensors[i], &u);
          if (st.isOk() && u.hasData && s.kind == SectionKind::kUpdatableQuantParams)
            st = {StatusCode::kIncompatibleUpdate, "a quantization-only section takes no tensor data"};
          if (st.isOk() && u.hasQuant && s.kind == SectionKind::kUpdatableWeights)
            st = {StatusCode::kIncompatibleUpdate, "a weights-only section takes no quantization"};
          if (!st.isOk()) {
            logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + st.message());
            return st.code() == StatusCode::kIncompatibleUpdate
                       ? Qnn_ErrorHandle_t(QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE)
                       : Qnn_ErrorHandle_t(QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
          }
          if (u.hasData) {
            t.info.staticData = std::move(u.data);
            t.hasData = true;
          }
          if (u.hasQuant) {
            t.info.quant = u.quant;
            t.hasQuant = true;
          }
        }
      if (!found) {
        logMessage(log, QNN_LOG_LEVEL_ERROR,
                   std::string(api) + ": the section holds no tensor with id " + std::to_string(id));
        return QNN_TENSOR_ERROR_DOES_NOT_EXIST;
      }
    }
    s.updatable = keepUpdatable != 0;
    if (!s.updatable)
      for (SectionGraph& g : s.graphs) g.weightsUpdatable = false;
    std::vector<uint8_t> bytes;
    st = writeBinarySection(s, &bytes);
    if (!st.isOk()) return sectionFailure(log, api, st, false);
    auto* out = new (std::nothrow) uint8_t[bytes.size()];
    if (!out) return QNN_CONTEXT_ERROR_MEM_ALLOC;
    std::memcpy(out, bytes.data(), bytes.size());
    {
      std::lock_guard<std::mutex> lock(gUpdateBuffersMutex);
      gUpdateBuffers.insert(out);
    }
    *update = QnnContext_Buffer_t{};
    update->version = QNN_CONTEXT_BUFFER_VERSION_1;
    update->v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    update->v1.binaryBuf.data = out;
    update->v1.binaryBuf.dataSize = bytes.size();
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextFreeBinarySectionUpdate(QnnContext_Buffer_t update, Qnn_LogHandle_t logger) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    std::shared_ptr<Logger> client;
    if (!lookupOptional(logger, HandleKind::kLog, &client)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = client ? client.get() : anyLogger().get();
    void* data = update.version == QNN_CONTEXT_BUFFER_VERSION_1 ? update.v1.binaryBuf.data : nullptr;
    {
      std::lock_guard<std::mutex> lock(gUpdateBuffersMutex);
      if (data && gUpdateBuffers.erase(data)) {
        delete[] static_cast<uint8_t*>(data);
        return QNN_SUCCESS;
      }
    }
    logMessage(log, QNN_LOG_LEVEL_ERROR,
               "QnnContext_freeBinarySectionUpdate: the buffer is null or was not made by QnnContext_getBinarySectionUpdate");
    return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
  });
}

}  // namespace qnn::sdk
