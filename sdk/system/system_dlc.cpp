#include "system_dlc.h"

#include <map>
#include <string_view>

#include "QnnModel.hpp"
#include "dlc_compose.h"

namespace qnn::system {

SystemDlcObject::~SystemDlcObject() {
  for (auto& c : composed_)
    if (c->infos) qnn_wrapper_api::freeGraphsInfo(&c->infos, c->count);
}

sdk::Status SystemDlcObject::compose(const QnnSystemDlc_GraphConfigInfo_t** configs, uint32_t numConfigs,
                                     Qnn_BackendHandle_t backend, Qnn_ContextHandle_t context,
                                     const QNN_INTERFACE_VER_TYPE& qnn, QnnSystemContext_GraphInfoVersion_t version,
                                     QnnSystemContext_GraphInfo_t** graphs, uint32_t* numGraphs) {
  if (version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1 && version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_2 &&
      version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3)
    return sdk::invalidArgument("graph info version " + std::to_string(int(version)) + " is not 1, 2 or 3");
  // The configs in the model library's form (graph name -> null-terminated config list).
  std::vector<qnn_wrapper_api::GraphConfigInfo_t> modelConfigs;
  std::vector<const qnn_wrapper_api::GraphConfigInfo_t*> modelConfigPtrs;
  for (uint32_t i = 0; i < numConfigs; ++i) {
    const QnnSystemDlc_GraphConfigInfo_t* c = configs ? configs[i] : nullptr;
    if (!c || c->version != QNN_SYSTEM_DLC_GRAPH_CONFIG_INFO_VERSION_1 || !c->v1.graphName)
      return sdk::invalidArgument("graph config " + std::to_string(i) + " is null, unnamed or not version 1");
    modelConfigs.push_back({const_cast<char*>(c->v1.graphName), c->v1.graphConfigs});
  }
  for (auto& c : modelConfigs) modelConfigPtrs.push_back(&c);

  std::lock_guard<std::mutex> lock(mutex_);
  const auto& dlcGraphs = file_->graphs();
  std::vector<qnn_wrapper_api::QnnModel> models(dlcGraphs.size());
  for (size_t i = 0; i < dlcGraphs.size(); ++i) {
    const auto err = dlc::composeGraph(*file_, dlcGraphs[i], models[i], backend, qnn, context,
                                       modelConfigPtrs.empty() ? nullptr : modelConfigPtrs.data(), numConfigs, false);
    if (err != qnn_wrapper_api::MODEL_NO_ERROR)
      return {err == qnn_wrapper_api::MODEL_INVALID_ARGUMENT_ERROR ? sdk::StatusCode::kInvalidArgument
                                                                   : sdk::StatusCode::kInternal,
              "DLC '" + file_->path() + "': composing graph '" + dlcGraphs[i].name + "' failed (model error " +
                  std::to_string(int(err)) + "; the backend's log says why)"};
  }
  auto composed = std::make_unique<Composed>();
  if (qnn_wrapper_api::getGraphInfoFromModels(models.data(), uint32_t(models.size()), &composed->infos) !=
      qnn_wrapper_api::MODEL_NO_ERROR)
    return {sdk::StatusCode::kOutOfMemory, "out of memory for the graph infos"};
  composed->count = uint32_t(models.size());
  for (uint32_t i = 0; i < composed->count; ++i) {
    const qnn_wrapper_api::GraphInfo_t& g = *composed->infos[i];
    QnnSystemContext_GraphInfo_t info{};
    info.version = version;
    // V2 and V3 extend V1 with fields a composed graph leaves empty (no updateable tensors, no blob info).
    info.graphInfoV3 = QNN_SYSTEM_CONTEXT_GRAPH_INFO_V3_INIT;
    info.graphInfoV3.graphName = g.graphName;
    info.graphInfoV3.numGraphInputs = g.numInputTensors;
    info.graphInfoV3.graphInputs = g.inputTensors;
    info.graphInfoV3.numGraphOutputs = g.numOutputTensors;
    info.graphInfoV3.graphOutputs = g.outputTensors;
    composed->systemInfos.push_back(info);
  }
  *graphs = composed->systemInfos.data();
  *numGraphs = composed->count;
  composed_.push_back(std::move(composed));
  return sdk::Status::ok();
}

void SystemDlcObject::opMappings(const Qnn_OpMapping_t** mappings, uint32_t* count) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!mappings_) {
    auto m = std::make_unique<Mappings>();
    const auto& graphs = file_->graphs();
    m->tensorMappings.resize(graphs.size());
    m->pairs.resize(graphs.size());
    for (size_t g = 0; g < graphs.size(); ++g) {
      // Source name (a view of the DLC's own string, which outlives the mappings) -> QNN tensors.
      std::map<std::string_view, std::vector<Qnn_OpMappingPair_t>> bySource;
      for (const auto& t : graphs[g].tensors)
        if (!t.sourceName.empty()) bySource[t.sourceName].push_back({t.name.c_str(), QNN_OP_MAPPING_TYPE_TENSOR});
      m->pairs[g].reserve(bySource.size());
      for (auto& [source, pairs] : bySource) {
        m->pairs[g].push_back(std::move(pairs));
        auto& stored = m->pairs[g].back();
        m->tensorMappings[g].push_back({source.data(), stored.data(), uint32_t(stored.size())});
      }
      Qnn_OpMappingV1_t v1{};
      v1.graphName = graphs[g].name.c_str();
      v1.opMappings = nullptr;
      v1.numOpMappings = 0;
      v1.tensorMappings = m->tensorMappings[g].empty() ? nullptr : m->tensorMappings[g].data();
      v1.numTensorMappings = uint32_t(m->tensorMappings[g].size());
      m->v1.push_back(v1);
    }
    for (auto& v1 : m->v1) {
      Qnn_OpMapping_t om{};
      om.version = QNN_OP_MAPPING_VERSION_1;
      om.v1 = &v1;
      m->list.push_back(om);
    }
    mappings_ = std::move(m);
  }
  *mappings = mappings_->list.data();
  *count = uint32_t(mappings_->list.size());
}

}  // namespace qnn::system
