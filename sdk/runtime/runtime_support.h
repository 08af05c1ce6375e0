// Helpers every API component's entry file shares: the exception guard of the
// C boundary, failure logging, and the few pieces of state that cross
// components (the last backend's logger, freeing a context's handles, reading
// an op config). Internal to sdk/runtime.
#pragma once

#include <cstdint>
#include <memory>
#include <exception>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "core/logger.h"
#include "core/status.h"
#include "runtime/engine.h"
#include "runtime/error_map.h"
#include "runtime/objects.h"

namespace qnn::sdk::rt {

// A failed entry that logged no error line of its own gets one: "<API name>:
// <the error's text>" (`detail`, when given, says more), through the last
// backend's logger. Every failure thus says why, once.
void explainFailure(const char* member, Qnn_ErrorHandle_t rc, uint64_t errorLinesBefore, const char* detail = nullptr);

// No exception crosses the C boundary: every entry runs inside this. `member`
// is the entry's function-table member name (the calling Runtime method's
// __func__), which names the API call in the failure line.
template <typename F>
Qnn_ErrorHandle_t guarded(const char* member, F&& body) {
  const uint64_t before = errorMessagesOnThisThread();
  try {
    Qnn_ErrorHandle_t rc = body();
    if (rc != QNN_SUCCESS) explainFailure(member, rc, before);
    return rc;
  } catch (const std::bad_alloc&) {
    explainFailure(member, QNN_COMMON_ERROR_MEM_ALLOC, before, "out of memory");
    return QNN_COMMON_ERROR_MEM_ALLOC;
  } catch (const std::exception& e) {
    explainFailure(member, QNN_COMMON_ERROR_GENERAL, before, e.what());
    return QNN_COMMON_ERROR_GENERAL;
  } catch (...) {
    explainFailure(member, QNN_COMMON_ERROR_GENERAL, before, "unexpected internal error");
    return QNN_COMMON_ERROR_GENERAL;
  }
}

uint64_t nowMicros();

// An optional handle argument (profile, signal): null is fine, otherwise it must
// be live and of `kind`. False if it is not.
template <typename T>
bool lookupOptional(void* handle, HandleKind kind, std::shared_ptr<T>* out) {
  return !handle || (*out = handles().get<T>(handle, kind)) != nullptr;
}

inline const Logger* loggerOf(const std::shared_ptr<BackendObject>& b) { return b ? b->logger.get() : nullptr; }

// Logs what a config call accepted but changed (BackendHooks ConfigWarnings), one WARN line each.
void logConfigWarnings(const Logger* logger, const char* api, const ConfigWarnings& warnings);

// Logs a failure and turns it into the group's error code.
Qnn_ErrorHandle_t fail(const Logger* logger, ApiGroup group, const char* api, const Status& st);

// Logs "<api>: <why>" at ERROR (what was refused and why; through the last
// backend's logger when `logger` is null) and returns `code`.
Qnn_ErrorHandle_t refuse(const Logger* logger, const char* api, const std::string& why, Qnn_ErrorHandle_t code);

// A get-property list (QnnBackend/QnnContext/QnnGraph_getProperty): a
// null-terminated array of pointers, each a CUSTOM option with its struct (the
// only option the API defines). Checked whole before anything is answered.
template <typename Property, typename Option>
Status checkPropertyList(Property** properties, Option customOption) {
  if (!properties) return invalidArgument("properties is null");
  for (size_t i = 0; properties[i]; ++i) {
    if (properties[i]->option != customOption)
      return invalidArgument("property " + std::to_string(i) + ": unknown option " +
                             std::to_string(static_cast<uint32_t>(properties[i]->option)));
    if (!properties[i]->customProperty)
      return invalidArgument("property " + std::to_string(i) + ": customProperty is null");
  }
  return Status::ok();
}

// The last backend created: calls that take no backend handle (e.g. profile
// event queries, devices) log through it.
void rememberLastLogger(const std::shared_ptr<Logger>& logger);
std::shared_ptr<Logger> anyLogger();

// Adds `events` as sub-events of `parent`; those marked topLevel go to
// `topLevel` instead (when given) as unpublished top-level events, in order.
void addExtraEvents(ProfileObject& prof, QnnProfile_EventId_t parent, const std::vector<ProfileExtraEvent>& events,
                    std::vector<QnnProfile_EventId_t>* topLevel = nullptr);

// The custom settings of a device handle (validated by the caller).
BackendSettings deviceSettings(Qnn_DeviceHandle_t device);

// Drops the graph and mem handles a context owns.
void freeContextObject(const std::shared_ptr<ContextObject>& ctx);

// Applies tensor updates to a finalized graph and prepares it again; the
// caller holds g.mutex (execMutex is taken here: no execute sees a half-updated
// graph). On failure the graph keeps its previous values and prepared form.
// `undo` (optional) receives what rollbackGraphUpdates needs to restore them.
struct GraphUpdateUndo {
  TensorUpdates previous;
  std::unique_ptr<PreparedGraph> prepared;  // the form before, when prepared anew
  std::set<uint32_t> refreshed;             // the tensors updated
};
Status applyGraphUpdates(GraphObject& g, const TensorUpdates& updates, GraphUpdateUndo* undo);
void rollbackGraphUpdates(GraphObject& g, GraphUpdateUndo& undo);

// The context binary of a context (what QnnContext_getBinary writes).
Status serializeContext(ContextObject& ctx, const BackendDescriptor& desc, std::vector<uint8_t>* bytes);

// Initializes a graph whose initialization was deferred (no-op otherwise);
// the caller holds g.mutex.
Status initializeGraph(GraphObject& g);

// Reads and validates an op config against the op definitions and the engine.
// Tensors come from the op config itself (validateOpConfig) or from the graph
// (addNode, via lookup).
Status readNode(const Qnn_OpConfig_t& op, const OpPackageSet& packages, NodeInfo* node);
// A NULL tensor (an omitted optional input) may stand only where the op's
// definition makes the input optional (OpDef::optionalInputs); elsewhere the
// node is refused, naming the op, the node and the input.
Status checkOmittedInputs(const NodeInfo& node, const std::vector<const TensorInfo*>& ins);
// NULL tensors at the end of a node's inputs are dropped (an input past the end is
// absent to every kernel); ones in the middle stay, as rank-0 tensors kernels read
// as absent. `inputIds` (may be null) is shortened with `ins`.
void dropTrailingOmittedInputs(std::vector<const TensorInfo*>* ins, std::vector<uint32_t>* inputIds);

}  // namespace qnn::sdk::rt
