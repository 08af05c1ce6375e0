// SystemDlcObject: what a QnnSystemDlc_Handle_t names — an OpenQNN DLC (docs/dlc-format.md),
// opened from a file or a buffer or created empty, to which QnnContext_addToDlc adds graphs, and
// everything returned through the handle (graph infos of every composeGraphs call, the op
// mappings, the records and reflection handles of system API 1.14), owned until QnnSystemDlc_free.
// A DLC that graphs were added to is written anew (dlc/dlc_writer.h) and read back, so every
// reader sees one checked file; handles taken before an addition keep describing the DLC as it was.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "QnnWrapperUtils.hpp"
#include "System/QnnSystemDlc.h"
#include "core/handle_registry.h"
#include "core/logger.h"
#include "core/status.h"
#include "dlc/dlc_file.h"
#include "model_dlc/dlc_compose.h"

namespace qnn::system {

// A record (QnnSystemDlc_RecordHandle_t): a named part of the DLC's bytes, either a range of the
// file (the raw weights, read in place) or a JSON document derived from its header.
class DlcRecordObject : public sdk::HandleObject {
 public:
  sdk::HandleKind kind() const override { return sdk::HandleKind::kSystemDlcRecord; }
  std::shared_ptr<const dlc::DlcFile> file;  // keeps a mapped range alive
  std::string name;
  QnnSystemDlc_RecordType_t type = QNN_SYSTEM_DLC_RECORD_NAME_UNKNOWN;
  std::string owned;  // derived records
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  bool inFile = false;  // data points into the DLC's own bytes
};

// A tensor (QnnSystemDlc_TensorInfoHandle_t) of a composable graph or of a context binary, and
// its quantization (QnnSystemDlc_QuantParamsHandle_t: a second object on the same tensor). Both
// read a Qnn_Tensor_t (version 1) that `owner` keeps alive.
class DlcTensorInfoObject : public sdk::HandleObject {
 public:
  explicit DlcTensorInfoObject(sdk::HandleKind k) : kind_(k) {}
  sdk::HandleKind kind() const override { return kind_; }
  std::shared_ptr<const void> owner;
  const Qnn_Tensor_t* tensor = nullptr;
  void* quantHandle = nullptr;

 private:
  sdk::HandleKind kind_;
};

// A context binary kept in the DLC (QnnSystemDlc_ContextBinaryInfoHandle_t), parsed as
// QnnSystemContext_getBinaryInfo does, and one of its graphs (QnnSystemDlc_ContextGraphInfoHandle_t).
class DlcContextGraphInfoObject : public sdk::HandleObject {
 public:
  sdk::HandleKind kind() const override { return sdk::HandleKind::kSystemDlcContextGraphInfo; }
  std::shared_ptr<const void> owner;
  const QnnSystemContext_GraphInfo_t* graph = nullptr;  // V1, V2 and V3 share V1's fields first
  std::vector<void*> inputHandles, outputHandles, updateableHandles;
};

// The fields every binary info version has, wherever its version puts them (V2 extends V1; V3
// drops the hardware-info blob and adds the SoC model and context metadata).
struct BinaryInfoView {
  uint32_t backendId = 0;
  const char* buildId = nullptr;
  Qnn_Version_t coreApiVersion{}, backendApiVersion{}, contextBlobVersion{};
  const char* socVersion = nullptr;
  uint64_t contextBlobSize = 0;
  uint32_t numContextTensors = 0, numGraphs = 0;
  Qnn_Tensor_t* contextTensors = nullptr;
  QnnSystemContext_GraphInfo_t* graphs = nullptr;
  const QnnSystemContext_BinaryInfoV1_t* v1 = nullptr;  // versions 1 and 2
  const QnnSystemContext_BinaryInfoV3_t* v3 = nullptr;  // version 3
};
inline BinaryInfoView viewOf(const QnnSystemContext_BinaryInfo_t& info) {
  BinaryInfoView v;
  auto common = [&v](const auto& i) {
    v.backendId = i.backendId, v.buildId = i.buildId, v.coreApiVersion = i.coreApiVersion;
    v.backendApiVersion = i.backendApiVersion, v.contextBlobVersion = i.contextBlobVersion;
    v.socVersion = i.socVersion, v.contextBlobSize = i.contextBlobSize;
    v.numContextTensors = i.numContextTensors, v.contextTensors = i.contextTensors;
    v.numGraphs = i.numGraphs, v.graphs = i.graphs;
  };
  if (info.version == QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3) {
    common(info.contextBinaryInfoV3);
    v.v3 = &info.contextBinaryInfoV3;
  } else {
    common(info.contextBinaryInfoV1);
    v.v1 = &info.contextBinaryInfoV1;
  }
  return v;
}
class DlcContextBinaryInfoObject : public sdk::HandleObject {
 public:
  sdk::HandleKind kind() const override { return sdk::HandleKind::kSystemDlcContextBinaryInfo; }
  std::shared_ptr<const void> owner;  // the parsed info (and the DLC it was read from)
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  std::vector<void*> contextTensorHandles, graphHandles;
};

// A composable graph (QnnSystemDlc_GraphInfoHandle_t): its input/output signature.
class DlcGraphInfoObject : public sdk::HandleObject {
 public:
  sdk::HandleKind kind() const override { return sdk::HandleKind::kSystemDlcGraphInfo; }
  std::shared_ptr<const dlc::DlcFile> file;
  const dlc::Graph* graph = nullptr;
  QnnSystemDlc_ComposableGraphInfo_t info = QNN_SYSTEM_DLC_COMPOSABLE_GRAPH_INFO_INIT;
  std::vector<Qnn_Tensor_t> inputs, outputs;
  std::vector<std::unique_ptr<dlc::QuantStorage>> quant;
  std::vector<void*> inputHandles, outputHandles;  // DlcTensorInfoObject handles, by index
};

class SystemDlcObject : public sdk::HandleObject {
 public:
  // file: may be null (an empty DLC from QnnSystemDlc_createWithDestinationDir). logger: the
  // QnnSystemLog handle the DLC was opened with (may be null); later calls report through it.
  // destinationDir: the destination directory hint (empty: none), where a relative save path goes.
  SystemDlcObject(std::unique_ptr<dlc::DlcFile> file, std::shared_ptr<const sdk::Logger> logger,
                  std::string destinationDir = {})
      : file_(std::move(file)), logger_(std::move(logger)), destinationDir_(std::move(destinationDir)) {}
  ~SystemDlcObject() override;
  sdk::HandleKind kind() const override { return sdk::HandleKind::kSystemDlc; }
  const sdk::Logger* logger() const { return logger_.get(); }

  // Builds every graph of the DLC in `context` through `qnn` (graph configs by graph name, as
  // QnnModel_composeGraphs takes them) and points *graphs at one info per graph in `version`'s
  // layout, owned by this object. Thread-safe; each call's infos stay valid until the handle is freed.
  sdk::Status compose(const QnnSystemDlc_GraphConfigInfo_t** configs, uint32_t numConfigs, Qnn_BackendHandle_t backend,
                      Qnn_ContextHandle_t context, const QNN_INTERFACE_VER_TYPE& qnn,
                      QnnSystemContext_GraphInfoVersion_t version, QnnSystemContext_GraphInfo_t** graphs,
                      uint32_t* numGraphs);

  // One Qnn_OpMapping_t per graph: its tensor mappings (source-model name -> the QNN tensors the
  // converter made of it); no op mappings are recorded in the DLC. Owned by this object.
  sdk::Status opMappings(const Qnn_OpMapping_t** mappings, uint32_t* count);

  // QnnContext_addToDlc through libQnnSystem's hook: the graphs of `dlcBytes` (a DLC a backend
  // wrote) join this DLC's; a graph name it has already is refused and nothing changes.
  sdk::Status addGraphs(const uint8_t* dlcBytes, uint64_t size, const std::string& origin);

  // The DLC as it stands (null: no graph yet).
  std::shared_ptr<const dlc::DlcFile> current();
  // Writes the DLC to `path` (relative paths under the destination directory, if one was given).
  sdk::Status save(const char* path);

  // Records: one new handle per found record (*handle null when there is none of that name); by
  // type, an array owned by this object (null and 0 when there is none).
  sdk::Status recordByName(const char* name, QnnSystemDlc_RecordHandle_t* handle);
  sdk::Status recordsByType(QnnSystemDlc_RecordType_t type, bool mostOptimalOnly, QnnSystemDlc_RecordHandle_t** handles,
                            uint32_t* count);
  // One handle per composable graph, the same handles on every call (until graphs are added).
  sdk::Status graphInfoHandles(QnnSystemDlc_GraphInfoHandle_t** handles, uint32_t* count);
  // One handle per context binary the DLC keeps, the same on every call (until graphs are added).
  sdk::Status contextBinaryInfoHandles(QnnSystemDlc_ContextBinaryInfoHandle_t** handles, uint32_t* count);

  // QnnSystemDlc_free: every sub-handle leaves the registry with the DLC.
  void releaseSubHandles();

 private:
  struct Composed {
    qnn_wrapper_api::GraphInfoPtr_t* infos = nullptr;  // the model library's deep copies
    uint32_t count = 0;
    std::vector<QnnSystemContext_GraphInfo_t> systemInfos;
  };
  struct Mappings {
    std::shared_ptr<const dlc::DlcFile> file;  // the strings the mappings point at
    std::vector<Qnn_OpMappingV1_t> v1;
    std::vector<Qnn_OpMapping_t> list;
    std::vector<std::vector<Qnn_Mapping_t>> tensorMappings;
    std::vector<std::vector<std::vector<Qnn_OpMappingPair_t>>> pairs;
  };
  void* registerSub(std::shared_ptr<sdk::HandleObject> obj);  // under mutex_
  std::mutex mutex_;
  std::shared_ptr<const dlc::DlcFile> file_;
  std::shared_ptr<const sdk::Logger> logger_;
  std::string destinationDir_;
  std::vector<std::unique_ptr<Composed>> composed_;
  std::unique_ptr<Mappings> mappings_;
  std::vector<std::unique_ptr<Mappings>> retiredMappings_;  // mappings of the DLC before an addition
  std::vector<void*> subHandles_;                           // records, graph/tensor infos, quant params
  std::vector<std::unique_ptr<std::vector<void*>>> handleArrays_;  // arrays handed out (by type, graph infos)
  std::vector<void*>* graphInfos_ = nullptr;                // the current DLC's graph info handles
  std::vector<void*>* contextBinaryInfos_ = nullptr;        // the current DLC's context binary info handles
  // A tensor info handle and its quant params handle for *t (kept alive by owner).
  void* tensorHandle(std::shared_ptr<const void> owner, const Qnn_Tensor_t* t);
};

}  // namespace qnn::system
