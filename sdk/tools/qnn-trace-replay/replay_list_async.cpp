// Replay of QnnContext_createFromBinaryListAsync: the recorded list loads again
// on the live backend (each entry's binary and configs; an entry whose client
// gave a data callback gets one serving ranges of its binary), and each
// recorded context and graph is bound to what the live backend notified for
// that entry (graphs by name).
#include <deque>
#include <map>
#include <mutex>
#include <string>

#include "tools/common/tool_error.h"
#include "tools/qnn-trace-replay/replayer.h"
#include "tools/qnn-trace-replay/trace_configs.h"

namespace qnn::replay {

using tools::ToolError;
using trace::Value;

namespace {

// What the live backend notified for one entry.
struct LiveEntry {
  std::mutex m;
  Qnn_ContextHandle_t context = nullptr;
  std::map<std::string, Qnn_GraphHandle_t> graphs;
};

void noteLoad(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, const char* graphName,
              QnnContext_createFromBinaryAsyncNotifyType_t type, void* param, Qnn_ErrorHandle_t) {
  auto* e = static_cast<LiveEntry*>(param);
  std::lock_guard<std::mutex> lock(e->m);
  if (context) e->context = context;
  if (type == QNN_CONTEXT_NOTIFY_TYPE_GRAPH_INIT && graph && graphName) e->graphs[graphName] = graph;
}

}  // namespace

Qnn_ErrorHandle_t Replayer::listAsync(const trace::CallRecord& c) {
  const trace::Args<trace::Call::contextCreateFromBinaryListAsync> a(c);
  const Value& recorded = a.contextParams;
  std::deque<LiveEntry> entries;
  std::deque<OwnedConfigs<QnnContext_Config_t>> entryConfigs;
  std::deque<Qnn_ContextBinaryCallback_t> callbacks;
  std::deque<QnnContext_ParamsV2_t> v2s;
  std::deque<QnnContext_Params_t> params;
  std::vector<const QnnContext_Params_t*> list;
  for (const Value& r : recorded.items) {
    const std::vector<uint8_t>* bin = binaryOf(field(r, "binary"));
    if (!bin) throw ToolError("call #" + std::to_string(c.seq) + ": context binary blob missing");
    OwnedConfigs<QnnContext_Config_t>& cfg = entryConfigs.emplace_back();
    configs(field(r, "config"), cfg);
    LiveEntry& e = entries.emplace_back();
    Qnn_ProfileHandle_t profile = live(field(r, "profile"));
    if (r.field("callbackType")) {
      // The recorded client's callback is gone: one that serves ranges of the binary stands in.
      callbacks.push_back(binaryRangeCallback(bin));
      v2s.push_back(QnnContext_ParamsV2_t{cfg.get(), bin->data(), bin->size(), profile, noteLoad, &e, &callbacks.back()});
      QnnContext_Params_t p{QNN_CONTEXT_PARAMS_VERSION_2, {}};
      p.v2 = &v2s.back();
      params.push_back(p);
    } else {
      params.push_back(QnnContext_Params_t{
          QNN_CONTEXT_PARAMS_VERSION_1,
          {QnnContext_ParamsV1_t{cfg.get(), bin->data(), bin->size(), profile, noteLoad, &e}}});
    }
    list.push_back(&params.back());
  }
  list.push_back(nullptr);
  OwnedConfigs<QnnContext_Config_t> listConfig;
  configs(a.config, listConfig);
  Qnn_ErrorHandle_t rc = api_.contextCreateFromBinaryListAsync(live(a.backend), live(a.device),
                                                               list.data(), listConfig.get(), live(a.signal));
  if (rc != QNN_SUCCESS) return rc;
  // The call returns when every entry has been notified.
  for (size_t i = 0; i < recorded.items.size(); ++i) {
    const Value& r = recorded.items[i];
    LiveEntry& e = entries[i];
    std::lock_guard<std::mutex> lock(e.m);
    if (!r.field("context")) continue;  // that load failed when recorded
    if (!e.context)
      throw ToolError("call #" + std::to_string(c.seq) + ": entry " + std::to_string(i) +
                      " made a context when recorded, none now");
    bind(field(r, "context"), e.context);
    for (const Value& g : field(r, "graphs").items) {
      const std::string name = field(g, "graphName").s;
      auto it = e.graphs.find(name);
      if (it == e.graphs.end())
        throw ToolError("call #" + std::to_string(c.seq) + ": graph '" + name + "' was not notified");
      bind(field(g, "graph"), it->second);
    }
  }
  return rc;
}

}  // namespace qnn::replay
