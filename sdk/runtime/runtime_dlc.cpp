// QnnContext_addToDlc (API 2.39): a context's graphs written into a System DLC handle. The handle
// belongs to libQnnSystem.so, so the backend writes the graphs (and its context binary, kept as a
// cache record) as a DLC in memory and hands it to libQnnSystem.so's private hook
// (dlc/system_dlc_hook.h), which merges them into the handle's DLC. Afterwards QnnSystemDlc_*
// read them (composeGraphs, op mappings, records, reflection) and, saved, `qnn-net-run
// --dlc_path` runs them.
#include <dlfcn.h>

#include "System/QnnSystemDlc.h"
#include "dlc/dlc_writer.h"
#include "dlc/system_dlc_hook.h"
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {

// The hook of the libQnnSystem.so this process loaded; null when it loaded none. A handle can only
// have come from a loaded libQnnSystem.so, so the backend never loads it itself.
OpenQnnSystem_AddGraphsToDlcFn_t findSystemHook() {
  if (void* f = dlsym(RTLD_DEFAULT, OPENQNN_SYSTEM_DLC_ADD_GRAPHS_SYMBOL))
    return reinterpret_cast<OpenQnnSystem_AddGraphsToDlcFn_t>(f);
  // Loaded with RTLD_LOCAL (the usual dlopen of a QNN library): found by name, not loaded anew.
  void* lib = dlopen("libQnnSystem.so", RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return nullptr;
  void* f = dlsym(lib, OPENQNN_SYSTEM_DLC_ADD_GRAPHS_SYMBOL);
  dlclose(lib);  // NOLOAD took a reference; the client's own keeps the library loaded
  return reinterpret_cast<OpenQnnSystem_AddGraphsToDlcFn_t>(f);
}

// The cache-record type of a backend's context binary in a DLC (QnnSystemDlc.h has one per
// accelerator and none for the CPU: the CPU's is kept under NAME_UNKNOWN, found by name).
uint32_t cacheRecordType(uint32_t backendId, const char** prefix) {
  if (backendId == 6) {  // QNN_BACKEND_ID_HTP
    *prefix = "htp_cache";
    return QNN_SYSTEM_DLC_RECORD_PREFIX_HTP_CACHE_RECORD;
  }
  *prefix = "cpu_cache";
  return QNN_SYSTEM_DLC_RECORD_NAME_UNKNOWN;
}

}  // namespace

Qnn_ErrorHandle_t Runtime::contextAddToDlc(Qnn_ContextHandle_t context, QnnSystemDlc_Handle_t dlcHandle) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(ctx->backend);
    const char* api = "QnnContext_addToDlc";
    if (!dlcHandle) return refuse(log, api, "dlcHandle is null", QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
    OpenQnnSystem_AddGraphsToDlcFn_t hook = findSystemHook();
    if (!hook)
      return refuse(log, api,
                    "no libQnnSystem.so is loaded in this process, so dlcHandle cannot be a QnnSystemDlc handle "
                    "(create it with QnnSystemDlc_createWithDestinationDir of libQnnSystem.so)",
                    QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
    // The graphs as they are built (lock order: graph, then context, as everywhere).
    std::map<std::string, void*> graphs;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      graphs = ctx->graphsByName;
    }
    if (graphs.empty()) return refuse(log, api, "the context has no graph", QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
    std::vector<GraphIR> irs;
    for (auto& [name, handle] : graphs) {
      auto g = handles().get<GraphObject>(handle, HandleKind::kGraph);
      if (!g) continue;
      std::lock_guard<std::mutex> glock(g->mutex);
      if (g->state != GraphObject::State::kFinalized)
        return refuse(log, api, "graph '" + name + "' is not finalized; finalize every graph before adding the context",
                      QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED);
      Status st = initializeGraph(*g);
      if (!st.isOk()) return fail(log, ApiGroup::kContext, api, st);
      irs.push_back(g->ir);
    }
    std::vector<dlc::Graph> dlcGraphs(irs.size());
    std::vector<const dlc::Graph*> graphPtrs;
    for (size_t i = 0; i < irs.size(); ++i) {
      Status st = dlc::graphFromIr(irs[i], &dlcGraphs[i]);
      if (!st.isOk()) return fail(log, ApiGroup::kContext, api, st);
      graphPtrs.push_back(&dlcGraphs[i]);
    }
    // The context binary, kept as the backend's cache record.
    std::vector<uint8_t> binary;
    Status st = serializeContext(*ctx, desc_, &binary);
    if (!st.isOk()) return fail(log, ApiGroup::kContext, api, st);
    dlc::ContextBinary cache;
    const char* prefix = "";
    cache.recordType = cacheRecordType(desc_.backendId, &prefix);
    cache.name = std::string(prefix) + ".0";
    cache.backendId = desc_.backendId;
    cache.data = binary.data(), cache.size = binary.size();
    dlc::Metadata metadata;
    metadata.converter = std::string("QnnContext_addToDlc (") + desc_.providerName + ")";
    metadata.modelVersion = desc_.buildId;
    std::vector<uint8_t> bytes;
    st = dlc::writeDlc(graphPtrs, metadata, &bytes, {&cache});
    if (!st.isOk()) return fail(log, ApiGroup::kContext, api, st);
    char why[512] = "";
    const Qnn_ErrorHandle_t err = hook(dlcHandle, bytes.data(), bytes.size(), desc_.providerName, why, sizeof why);
    if (err == QNN_SUCCESS) return QNN_SUCCESS;
    Qnn_ErrorHandle_t code = QNN_COMMON_ERROR_GENERAL;
    if (err == QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE || err == QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT)
      code = QNN_CONTEXT_ERROR_INVALID_ARGUMENT;  // the handle or the graphs (a name the DLC has) are wrong
    else if (err == QNN_COMMON_ERROR_MEM_ALLOC)
      code = QNN_COMMON_ERROR_MEM_ALLOC;
    return refuse(log, api, std::string("libQnnSystem.so refused the graphs: ") + why, code);
  });
}

}  // namespace qnn::sdk
