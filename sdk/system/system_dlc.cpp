#include "system/system_dlc.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>

#include "QnnModel.hpp"
#include "core/dtype.h"
#include "dlc/dlc_writer.h"
#include "system/binary_info.h"
#include "system/system_context.h"

namespace qnn::system {

SystemDlcObject::~SystemDlcObject() {
  for (auto& c : composed_)
    if (c->infos) qnn_wrapper_api::freeGraphsInfo(&c->infos, c->count);
}

std::shared_ptr<const dlc::DlcFile> SystemDlcObject::current() {
  std::lock_guard<std::mutex> lock(mutex_);
  return file_;
}

static sdk::Status noGraphYet() {
  return sdk::invalidArgument("the DLC has no graph yet (created empty: add a context's graphs with QnnContext_addToDlc)");
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
  if (!file_) return noGraphYet();
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

sdk::Status SystemDlcObject::opMappings(const Qnn_OpMapping_t** mappings, uint32_t* count) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!file_) return noGraphYet();
  if (!mappings_) {
    auto m = std::make_unique<Mappings>();
    m->file = file_;
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
  return sdk::Status::ok();
}


void* SystemDlcObject::registerSub(std::shared_ptr<sdk::HandleObject> obj) {
  void* h = sdk::handles().add(std::move(obj));
  subHandles_.push_back(h);
  return h;
}

void SystemDlcObject::releaseSubHandles() {
  std::lock_guard<std::mutex> lock(mutex_);
  static constexpr sdk::HandleKind kKinds[] = {
      sdk::HandleKind::kSystemDlcRecord,          sdk::HandleKind::kSystemDlcGraphInfo,
      sdk::HandleKind::kSystemDlcContextBinaryInfo, sdk::HandleKind::kSystemDlcContextGraphInfo,
      sdk::HandleKind::kSystemDlcTensorInfo,      sdk::HandleKind::kSystemDlcQuantParams};
  for (void* h : subHandles_)
    for (sdk::HandleKind k : kKinds)
      if (sdk::handles().remove(h, k)) break;  // a record freed by the client is gone already
  subHandles_.clear();
}

sdk::Status SystemDlcObject::addGraphs(const uint8_t* dlcBytes, uint64_t size, const std::string& origin) {
  std::unique_ptr<dlc::DlcFile> incoming;
  QNN_SDK_RETURN_IF_ERROR(dlc::DlcFile::openBuffer(dlcBytes, size, origin, &incoming));
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<const dlc::Graph*> graphs;
  if (file_)
    for (const auto& g : file_->graphs()) graphs.push_back(&g);
  for (const auto& g : incoming->graphs()) {
    for (const dlc::Graph* have : graphs)
      if (have->name == g.name)
        return sdk::invalidArgument("graph '" + g.name + "' is in the DLC already (graph names in a DLC are unique)");
    graphs.push_back(&g);
  }
  // Context binaries: the DLC's, then the incoming ones, each renamed "<prefix>.<n>" so names stay unique.
  std::vector<dlc::ContextBinary> binaries;
  if (file_) binaries = file_->contextBinaries();
  for (dlc::ContextBinary c : incoming->contextBinaries()) {
    c.name = c.name.substr(0, c.name.rfind('.')) + "." + std::to_string(binaries.size());
    binaries.push_back(std::move(c));
  }
  std::vector<const dlc::ContextBinary*> binaryPtrs;
  for (const auto& c : binaries) binaryPtrs.push_back(&c);
  std::vector<uint8_t> bytes;
  QNN_SDK_RETURN_IF_ERROR(
      dlc::writeDlc(graphs, file_ ? file_->metadata() : incoming->metadata(), &bytes, binaryPtrs));
  std::unique_ptr<dlc::DlcFile> merged;
  QNN_SDK_RETURN_IF_ERROR(dlc::DlcFile::openOwned(std::move(bytes), "<system DLC>", &merged));
  file_ = std::move(merged);
  if (mappings_) retiredMappings_.push_back(std::move(mappings_));
  graphInfos_ = contextBinaryInfos_ = nullptr;  // handed-out handles stay valid and describe the DLC as it was
  return sdk::Status::ok();
}

sdk::Status SystemDlcObject::save(const char* path) {
  auto file = current();
  if (!file) return noGraphYet();
  std::string target = path;
  if (!target.empty() && target[0] != '/' && !destinationDir_.empty()) target = destinationDir_ + "/" + target;
  const std::string::size_type slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return sdk::invalidArgument("cannot save to '" + target + "': directory '" + dir + "' does not exist");
  // Written beside the target and renamed, so a failed save leaves no partial DLC behind.
  const std::string tmp = target + ".tmp" + std::to_string(::getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return sdk::invalidArgument("cannot save to '" + target + "': cannot create '" + tmp + "'");
  const bool written = std::fwrite(file->bytes(), 1, size_t(file->byteSize()), f) == file->byteSize();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed || std::rename(tmp.c_str(), target.c_str()) != 0) {
    std::remove(tmp.c_str());
    return {sdk::StatusCode::kInternal, "writing '" + target + "' failed"};
  }
  return sdk::Status::ok();
}

namespace {

using Json = nlohmann::ordered_json;

struct RecordSpec {
  const char* name;
  QnnSystemDlc_RecordType_t type;
};
// The records of an OpenQNN DLC (docs/dlc-format.md "Records"), in this order.
constexpr RecordSpec kRecords[] = {
    {"dlc.metadata", QNN_SYSTEM_DLC_RECORD_TYPE_DLC_METADATA},
    {"model", QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_TOPOLOGY},
    {"model.params", QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_PARAMS},
    {"model.raw_weights", QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_RAW_WEIGHTS},
    {"model.encodings", QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_ENCODINGS},
    {"source.mapping", QNN_SYSTEM_DLC_RECORD_TYPE_SOURCE_MAPPING},
    {"dlc.metadata.history", QNN_SYSTEM_DLC_RECORD_TYPE_DLC_METADATA_HISTORY},
};

// Record `spec` of `file` filled into *r; false when the DLC has no such record (no quantized
// tensor: no encodings; no source names: no mapping; no commands: no history).
bool makeRecord(const std::shared_ptr<const dlc::DlcFile>& file, const RecordSpec& spec, DlcRecordObject* r) {
  r->file = file;
  r->name = spec.name;
  r->type = spec.type;
  const dlc::Metadata& md = file->metadata();
  Json doc;
  switch (spec.type) {
    case QNN_SYSTEM_DLC_RECORD_TYPE_DLC_METADATA: {
      const auto header = Json::parse(file->headerJson());
      doc = header.contains("metadata") ? header.at("metadata") : Json::object();
      break;
    }
    case QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_TOPOLOGY:
      r->data = reinterpret_cast<const uint8_t*>(file->headerJson().data());
      r->size = file->headerJson().size();
      return true;
    case QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_RAW_WEIGHTS:
      r->data = file->bytes() + file->dataBegin();
      r->size = file->dataEnd() - file->dataBegin();
      r->inFile = true;
      return true;
    case QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_PARAMS:
    case QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_ENCODINGS:
    case QNN_SYSTEM_DLC_RECORD_TYPE_SOURCE_MAPPING: {
      bool any = false;
      doc = Json::object();
      for (const auto& g : file->graphs()) {
        Json entries = Json::object();
        for (const auto& t : g.tensors) {
          if (spec.type == QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_PARAMS && t.data) {
            // Offsets into the raw weights record.
            entries[t.name] = {{"data_type", std::string("QNN_DATATYPE_") +
                                                 sdk::dtypeName(static_cast<sdk::DType>(t.dataType))},
                               {"dims", t.dims},
                               {"offset", uint64_t(t.data - (file->bytes() + file->dataBegin()))},
                               {"size", t.size}};
          } else if (spec.type == QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_ENCODINGS && t.quant.defined) {
            Json q = {{"bitwidth", t.quant.bitwidth}, {"scale", t.quant.scales}, {"offset", t.quant.offsets}};
            if (t.quant.axis >= 0) q["axis"] = t.quant.axis;
            entries[t.name] = std::move(q);
          } else if (spec.type == QNN_SYSTEM_DLC_RECORD_TYPE_SOURCE_MAPPING && !t.sourceName.empty()) {
            if (!entries.contains(t.sourceName)) entries[t.sourceName] = Json::array();
            entries[t.sourceName].push_back(t.name);
          }
        }
        any = any || !entries.empty();
        doc[g.name] = std::move(entries);
      }
      if (!any && spec.type != QNN_SYSTEM_DLC_RECORD_TYPE_MODEL_PARAMS) return false;
      break;
    }
    case QNN_SYSTEM_DLC_RECORD_TYPE_DLC_METADATA_HISTORY:
      if (md.converterCommand.empty() && md.quantizerCommand.empty()) return false;
      doc = Json::array();
      if (!md.converterCommand.empty()) doc.push_back({{"tool", md.converter}, {"command", md.converterCommand}});
      if (!md.quantizerCommand.empty()) doc.push_back({{"tool", md.quantizer}, {"command", md.quantizerCommand}});
      break;
    default: return false;
  }
  r->owned = doc.dump();
  r->data = reinterpret_cast<const uint8_t*>(r->owned.data());
  r->size = r->owned.size();
  return true;
}

}  // namespace

// A context binary kept in the DLC as a record: its bytes in place.
static std::shared_ptr<DlcRecordObject> binaryRecord(const std::shared_ptr<const dlc::DlcFile>& file,
                                                     const dlc::ContextBinary& c) {
  auto r = std::make_shared<DlcRecordObject>();
  r->file = file;
  r->name = c.name;
  r->type = static_cast<QnnSystemDlc_RecordType_t>(c.recordType);
  r->data = c.data, r->size = c.size, r->inFile = true;
  return r;
}

sdk::Status SystemDlcObject::recordByName(const char* name, QnnSystemDlc_RecordHandle_t* handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  *handle = nullptr;
  if (!file_) return sdk::Status::ok();
  for (const auto& c : file_->contextBinaries())
    if (c.name == name) {
      *handle = registerSub(binaryRecord(file_, c));
      return sdk::Status::ok();
    }
  for (const RecordSpec& spec : kRecords) {
    if (std::string_view(spec.name) != name) continue;
    auto r = std::make_shared<DlcRecordObject>();
    if (makeRecord(file_, spec, r.get())) *handle = registerSub(std::move(r));
    break;
  }
  return sdk::Status::ok();
}

sdk::Status SystemDlcObject::recordsByType(QnnSystemDlc_RecordType_t type, bool mostOptimalOnly,
                                           QnnSystemDlc_RecordHandle_t** handles, uint32_t* count) {
  std::lock_guard<std::mutex> lock(mutex_);
  *handles = nullptr, *count = 0;
  if (!file_) return sdk::Status::ok();
  auto list = std::make_unique<std::vector<void*>>();
  // Context binaries of that type: every one, or with mostOptimalOnly the first (every binary here
  // was prepared for the one simulated device, so the first is as compatible as any).
  for (const auto& c : file_->contextBinaries()) {
    if (c.recordType != uint32_t(type) || (mostOptimalOnly && !list->empty())) continue;
    list->push_back(registerSub(binaryRecord(file_, c)));
  }
  for (const RecordSpec& spec : kRecords) {
    if (spec.type != type) continue;
    auto r = std::make_shared<DlcRecordObject>();
    if (makeRecord(file_, spec, r.get())) list->push_back(registerSub(std::move(r)));
  }
  if (list->empty()) return sdk::Status::ok();
  *handles = list->data();
  *count = uint32_t(list->size());
  handleArrays_.push_back(std::move(list));
  return sdk::Status::ok();
}

sdk::Status SystemDlcObject::graphInfoHandles(QnnSystemDlc_GraphInfoHandle_t** handles, uint32_t* count) {
  std::lock_guard<std::mutex> lock(mutex_);
  *handles = nullptr, *count = 0;
  if (!file_) return sdk::Status::ok();
  if (!graphInfos_) {
    auto list = std::make_unique<std::vector<void*>>();
    for (const auto& g : file_->graphs()) {
      auto info = std::make_shared<DlcGraphInfoObject>();
      info->inputs.reserve(g.inputs.size());  // tensor handles point into these arrays
      info->outputs.reserve(g.outputs.size());
      info->file = file_;
      info->graph = &g;
      // Tensors as Qnn_Tensor_t, each with its 1-based position in the graph's tensor table as id.
      auto describe = [&](const std::vector<std::string>& names, std::vector<Qnn_Tensor_t>* out) {
        for (const std::string& name : names)
          for (size_t i = 0; i < g.tensors.size(); ++i)
            if (g.tensors[i].name == name) {
              info->quant.push_back(std::make_unique<dlc::QuantStorage>());
              out->push_back(dlc::tensorOf(g.tensors[i], info->quant.back().get()));
              out->back().v1.id = uint32_t(i + 1);
              break;  // the reader checks that inputs and outputs name tensors
            }
      };
      describe(g.inputs, &info->inputs);
      describe(g.outputs, &info->outputs);
      for (const Qnn_Tensor_t& t : info->inputs) info->inputHandles.push_back(tensorHandle(info, &t));
      for (const Qnn_Tensor_t& t : info->outputs) info->outputHandles.push_back(tensorHandle(info, &t));
      info->info.version = QNN_SYSTEM_DLC_COMPOSABLE_GRAPH_INFO_VERSION_1;
      info->info.graphInfoV1 = {g.name.c_str(), uint32_t(info->inputs.size()),
                                info->inputs.empty() ? nullptr : info->inputs.data(), uint32_t(info->outputs.size()),
                                info->outputs.empty() ? nullptr : info->outputs.data()};
      list->push_back(registerSub(std::move(info)));
    }
    graphInfos_ = list.get();
    handleArrays_.push_back(std::move(list));
  }
  *handles = graphInfos_->empty() ? nullptr : graphInfos_->data();
  *count = uint32_t(graphInfos_->size());
  return sdk::Status::ok();
}


void* SystemDlcObject::tensorHandle(std::shared_ptr<const void> owner, const Qnn_Tensor_t* t) {
  auto q = std::make_shared<DlcTensorInfoObject>(sdk::HandleKind::kSystemDlcQuantParams);
  q->owner = owner, q->tensor = t;
  auto info = std::make_shared<DlcTensorInfoObject>(sdk::HandleKind::kSystemDlcTensorInfo);
  info->owner = std::move(owner), info->tensor = t;
  info->quantHandle = registerSub(std::move(q));
  return registerSub(std::move(info));
}

sdk::Status SystemDlcObject::contextBinaryInfoHandles(QnnSystemDlc_ContextBinaryInfoHandle_t** handles,
                                                      uint32_t* count) {
  std::lock_guard<std::mutex> lock(mutex_);
  *handles = nullptr, *count = 0;
  if (!file_) return sdk::Status::ok();
  if (!contextBinaryInfos_) {
    auto list = std::make_unique<std::vector<void*>>();
    for (const auto& c : file_->contextBinaries()) {
      // The parser owns the info tree; the holder keeps it and the DLC's bytes together.
      struct Holder {
        std::shared_ptr<const dlc::DlcFile> file;
        SystemContextObject parser;
      };
      auto holder = std::make_shared<Holder>();
      holder->file = file_;
      const BinaryInfoStorage* storage = nullptr;
      sdk::Status st = holder->parser.parse(c.data, c.size, &storage);
      if (!st.isOk()) return {st.code(), "context binary '" + c.name + "': " + st.message()};
      auto info = std::make_shared<DlcContextBinaryInfoObject>();
      info->owner = holder;
      info->info = storage->info();
      const BinaryInfoView v = viewOf(*info->info);
      for (uint32_t i = 0; i < v.numContextTensors; ++i)
        info->contextTensorHandles.push_back(tensorHandle(holder, &v.contextTensors[i]));
      for (uint32_t i = 0; i < v.numGraphs; ++i) {
        auto graph = std::make_shared<DlcContextGraphInfoObject>();
        graph->owner = holder;
        graph->graph = &v.graphs[i];
        const QnnSystemContext_GraphInfoV1_t& gv = v.graphs[i].graphInfoV1;  // V2/V3 begin with V1's fields
        for (uint32_t k = 0; k < gv.numGraphInputs; ++k) graph->inputHandles.push_back(tensorHandle(holder, &gv.graphInputs[k]));
        for (uint32_t k = 0; k < gv.numGraphOutputs; ++k)
          graph->outputHandles.push_back(tensorHandle(holder, &gv.graphOutputs[k]));
        if (v.graphs[i].version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1) {  // V3 begins with V2's fields
          const QnnSystemContext_GraphInfoV2_t& g2 = v.graphs[i].graphInfoV2;
          for (uint32_t k = 0; k < g2.numUpdateableTensors; ++k)
            graph->updateableHandles.push_back(tensorHandle(holder, &g2.updateableTensors[k]));
        }
        info->graphHandles.push_back(registerSub(std::move(graph)));
      }
      list->push_back(registerSub(std::move(info)));
    }
    contextBinaryInfos_ = list.get();
    handleArrays_.push_back(std::move(list));
  }
  *handles = contextBinaryInfos_->empty() ? nullptr : contextBinaryInfos_->data();
  *count = uint32_t(contextBinaryInfos_->size());
  return sdk::Status::ok();
}

}  // namespace qnn::system
