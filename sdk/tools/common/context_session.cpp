#include "tools/common/context_session.h"

#include "QnnSignal.h"
#include "tools/common/profiling.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {

ContextSession::ContextSession(const QnnBackend& backend, ProfileCollector* profile)
    : backend_(backend), profile_(profile) {}

ContextSession::~ContextSession() {
  try {
    close();
  } catch (...) {
    // Destructors must not throw; close() only collects profile data.
  }
}

void ContextSession::close() {
  if (!context_) return;
  const auto& api = backend_.api();
  Qnn_ProfileHandle_t ph = profile_ ? profile_->handle() : nullptr;
  uint64_t start = profile_ ? profile_->nowUs() : 0;
  api.contextFree(context_, ph);
  context_ = nullptr;
  if (profile_) {
    profile_->collect("deinit", "", -1, start);
    profile_->addClientEvent("client: deinit", "", -1, start, profile_->nowUs() - start);
  }
  graphs_.clear();
}

void ContextSession::createContext(const QnnContext_Config_t** configs) {
  backend_.check(backend_.api().contextCreate(backend_.backend(), backend_.device(), configs, &context_),
                 "QnnContext_create");
}

void ContextSession::composeModels(const std::vector<std::string>& modelPaths, const std::string& prefix,
                                   const std::vector<const GraphConfigInfo_t*>& graphConfigs, bool debug,
                                   const QNN_INTERFACE_VER_TYPE* api, const std::vector<std::string>& dlcPaths) {
  if (!dlcPaths.empty() && modelPaths.size() != 1)
    throw ToolError("--dlc_path takes one model library (libQnnModelDlc.so) as --model");
  // One composition per model library, or per DLC through the one library.
  const std::vector<std::string>& sources = dlcPaths.empty() ? modelPaths : dlcPaths;
  for (const auto& source : sources) {
    const std::string& path = dlcPaths.empty() ? source : modelPaths.front();
    auto model = std::make_unique<ModelLibrary>();
    model->load(path, prefix, dlcPaths.empty() ? std::string() : source);
    uint64_t start = profile_ ? profile_->nowUs() : 0;
    model->compose(backend_, context_, graphConfigs, debug, api);
    for (GraphInfo_t* info : model->graphs()) {
      for (const auto& g : graphs_)
        if (g.spec.name == info->graphName) throw ToolError("two graphs are named '" + g.spec.name + "'");
      graphs_.push_back({info->graph, graphSpecFromInfo(*info)});
    }
    if (profile_) {
      profile_->collect("init", "", -1, start);
      profile_->addClientEvent("client: compose " + source, "", -1, start, profile_->nowUs() - start);
    }
    models_.push_back(std::move(model));
  }
}

void ContextSession::finalizeGraphs() {
  for (auto& g : graphs_) {
    uint64_t start = profile_ ? profile_->nowUs() : 0;
    backend_.check(backend_.api().graphFinalize(g.handle, profile_ ? profile_->handle() : nullptr, nullptr),
                   "QnnGraph_finalize of graph '" + g.spec.name + "'");
    if (profile_) {
      profile_->collect("finalize", g.spec.name, -1, start);
      profile_->addClientEvent("client: finalize", g.spec.name, -1, start, profile_->nowUs() - start);
    }
  }
}

void ContextSession::loadBinary(const std::vector<uint8_t>& binary, const std::vector<GraphSpec>& specs,
                                const QnnContext_Config_t** configs, uint64_t timeoutUs) {
  const auto& api = backend_.api();
  Qnn_ProfileHandle_t ph = profile_ ? profile_->handle() : nullptr;
  uint64_t start = profile_ ? profile_->nowUs() : 0;
  if (timeoutUs > 0) {
    if (!api.signalCreate || !api.contextCreateFromBinaryWithSignal)
      throw ToolError("backend cannot time out context creation (no QnnContext_createFromBinaryWithSignal)");
    QnnSignal_Config_t timeout{};
    timeout.option = QNN_SIGNAL_CONFIG_OPTION_TIMEOUT;
    timeout.timeoutDurationUs = timeoutUs;
    const QnnSignal_Config_t* list[] = {&timeout, nullptr};
    Qnn_SignalHandle_t signal = nullptr;
    backend_.check(api.signalCreate(backend_.backend(), list, &signal), "QnnSignal_create");
    Qnn_ErrorHandle_t st = api.contextCreateFromBinaryWithSignal(backend_.backend(), backend_.device(), configs,
                                                                 binary.data(), binary.size(), &context_, ph, signal);
    api.signalFree(signal);
    backend_.check(st, "QnnContext_createFromBinaryWithSignal");
  } else {
    backend_.check(api.contextCreateFromBinary(backend_.backend(), backend_.device(), configs, binary.data(),
                                               binary.size(), &context_, ph),
                   "QnnContext_createFromBinary");
  }
  if (profile_) {
    profile_->collect("init", "", -1, start);
    profile_->addClientEvent("client: create context from binary", "", -1, start, profile_->nowUs() - start);
  }
  for (const auto& spec : specs) {
    LoadedGraph g{nullptr, spec};
    backend_.check(api.graphRetrieve(context_, spec.name.c_str(), &g.handle),
                   "QnnGraph_retrieve of graph '" + spec.name + "'");
    graphs_.push_back(std::move(g));
  }
}

std::vector<std::string> ContextSession::graphNames() const {
  std::vector<std::string> names;
  for (const auto& g : graphs_) names.push_back(g.spec.name);
  return names;
}

std::vector<uint8_t> ContextSession::serialize() {
  const auto& api = backend_.api();
  Qnn_ContextBinarySize_t size = 0;
  backend_.check(api.contextGetBinarySize(context_, &size), "QnnContext_getBinarySize");
  std::vector<uint8_t> out(size);
  Qnn_ContextBinarySize_t written = 0;
  backend_.check(api.contextGetBinary(context_, out.data(), size, &written), "QnnContext_getBinary");
  out.resize(written);
  return out;
}

}  // namespace qnn::tools
