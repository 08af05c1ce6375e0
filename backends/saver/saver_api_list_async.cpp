// QnnContext_createFromBinaryListAsync through the Saver. The backend loads the
// list on its workers and notifies per graph and per context; the Saver stands
// between: each entry's notify is the Saver's, which hands out Saver handles for
// the backend's contexts and graphs and passes them on to the client's notify.
// The call returns when every entry has been notified (as the backends do), and
// its record holds, per entry, the binary, configs and what the load made: the
// context and each graph by name, so replay and saver_output.c can bind them.
// Without a pass-through backend there is nothing to load: NOT_SUPPORTED.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "saver/saver_api.h"
#include "saver/saver_configs.h"
#include "saver/saver_forward.h"
#include "saver/saver_log.h"

namespace qnn::saver {

using trace::Value;

namespace {

struct ListLoad;

// One entry of the list: the client's notify, and what its load made.
struct EntryLoad {
  ListLoad* list = nullptr;
  void* backend = nullptr;  // Saver handle: the parent of the context
  QnnContext_createFromBinaryNotifyFn_t clientNotify = nullptr;
  void* clientParam = nullptr;
  void* context = nullptr;  // Saver handle, once the backend named its context
  std::vector<std::pair<std::string, void*>> graphs;  // name, Saver handle
  Qnn_ErrorHandle_t status = QNN_SUCCESS;
};

struct ListLoad {
  std::mutex m;
  std::condition_variable cv;
  size_t notified = 0;  // entries whose CONTEXT_INIT came
  std::deque<EntryLoad> entries;
};

void notifyThroughSaver(Qnn_ContextHandle_t realContext, Qnn_GraphHandle_t realGraph, const char* graphName,
                        QnnContext_createFromBinaryAsyncNotifyType_t type, void* param, Qnn_ErrorHandle_t status) {
  auto* e = static_cast<EntryLoad*>(param);
  void* context = nullptr;
  void* graph = nullptr;
  {
    std::lock_guard<std::mutex> lock(e->list->m);
    if (realContext && !e->context) e->context = handles().add(Kind::Context, realContext, e->backend);
    context = realContext ? e->context : nullptr;
    if (type == QNN_CONTEXT_NOTIFY_TYPE_GRAPH_INIT && realGraph && e->context) {
      graph = handles().add(Kind::Graph, realGraph, e->context);
      e->graphs.emplace_back(graphName ? graphName : "", graph);
    }
    if (type == QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT) e->status = status;
  }
  if (e->clientNotify) e->clientNotify(context, graph, graphName, type, e->clientParam, status);
  if (type == QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT) {
    std::lock_guard<std::mutex> lock(e->list->m);
    ++e->list->notified;
    e->list->cv.notify_all();
  }
}

}  // namespace

Qnn_ErrorHandle_t contextCreateFromBinaryListAsync(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                   const QnnContext_Params_t** contextParams,
                                                   const QnnContext_Config_t** listConfig, Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rb = nullptr, *rd = nullptr, *rs = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &rb)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "device", device, Kind::Device, true, &rd)) return QNN_DEVICE_ERROR_INVALID_HANDLE;
    a.add("config", configListValue(listConfig));
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_SIGNAL_ERROR_INVALID_HANDLE;
    if (!contextParams || !contextParams[0]) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    if (!pass()) {
      a.add("note", Value::str("not loaded: the Saver records this call only with a pass-through backend"));
      logError("QnnContext_createFromBinaryListAsync needs a pass-through backend (QNN_SAVER_BACKEND)");
      return QNN_COMMON_ERROR_NOT_SUPPORTED;
    }
    // The list as the backend gets it: the same entries with the Saver's notify.
    auto load = std::make_shared<ListLoad>();
    std::deque<QnnContext_ParamsV2_t> v2s;
    std::deque<QnnContext_Params_t> forwarded;
    Value entries = Value::list();
    for (size_t i = 0; contextParams[i]; ++i) {
      const QnnContext_Params_t& p = *contextParams[i];
      const bool v1 = p.version == QNN_CONTEXT_PARAMS_VERSION_1;
      if (!v1 && (p.version != QNN_CONTEXT_PARAMS_VERSION_2 || !p.v2)) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
      const QnnContext_Config_t** config = v1 ? p.v1.config : p.v2->config;
      const void* buffer = v1 ? p.v1.binaryBuffer : p.v2->binaryBuffer;
      const Qnn_ContextBinarySize_t size = v1 ? p.v1.binaryBufferSize : p.v2->binaryBufferSize;
      Qnn_ProfileHandle_t profile = v1 ? p.v1.profile : p.v2->profile;
      const Qnn_ContextBinaryCallback_t* callback = v1 ? nullptr : p.v2->callback;
      Value entry = Value::record();
      entry.add("config", configListValue(config));
      if (!buffer || !size) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
      entry.add("binary", SaverState::get().blob(buffer, size));
      void* rp = nullptr;
      if (!useHandle(entry, "profile", profile, Kind::Profile, true, &rp)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
      if (callback) entry.add("callbackType", Value::uint(uint32_t(callback->type)));
      entries.push(std::move(entry));
      EntryLoad& e = load->entries.emplace_back();
      e.list = load.get();
      e.backend = backend;
      e.clientNotify = v1 ? p.v1.notifyFunc : p.v2->notifyFunc;
      e.clientParam = v1 ? p.v1.notifyParam : p.v2->notifyParam;
      // Each entry keeps its version; the client's callback goes to the backend
      // as it is (it serves the client's data).
      if (v1) {
        forwarded.push_back(QnnContext_Params_t{
            QNN_CONTEXT_PARAMS_VERSION_1,
            {QnnContext_ParamsV1_t{config, buffer, size, Qnn_ProfileHandle_t(rp), notifyThroughSaver, &e}}});
      } else {
        v2s.push_back(QnnContext_ParamsV2_t{config, buffer, size, Qnn_ProfileHandle_t(rp), notifyThroughSaver, &e,
                                            callback});
        QnnContext_Params_t f{QNN_CONTEXT_PARAMS_VERSION_2, {}};
        f.v2 = &v2s.back();
        forwarded.push_back(f);
      }
    }
    std::vector<const QnnContext_Params_t*> list;
    for (const QnnContext_Params_t& f : forwarded) list.push_back(&f);
    list.push_back(nullptr);
    Qnn_ErrorHandle_t rc = forward(pass()->contextCreateFromBinaryListAsync, rb, rd, list.data(), listConfig, rs);
    if (rc == QNN_SUCCESS) {
      // Every entry is notified once; a backend may return before it has.
      std::unique_lock<std::mutex> lock(load->m);
      load->cv.wait(lock, [&] { return load->notified == load->entries.size(); });
      for (size_t i = 0; i < load->entries.size(); ++i) {
        const EntryLoad& e = load->entries[i];
        Value& entry = entries.items[i];
        entry.add("status", Value::uint(e.status));
        if (e.context) entry.add("context", handleValue(e.context));
        Value graphs = Value::list();
        for (const auto& [name, graph] : e.graphs) {
          Value g = Value::record();
          g.add("graphName", Value::str(name));
          g.add("graph", handleValue(graph));
          graphs.push(std::move(g));
        }
        entry.add("graphs", std::move(graphs));
      }
    }
    a.add("contextParams", std::move(entries));
    return rc;
  });
}

}  // namespace qnn::saver
