// SystemDlcObject: what a QnnSystemDlc_Handle_t names — one opened OpenQNN DLC
// (docs/dlc-format.md) and everything returned through the handle (graph infos of
// every composeGraphs call, the op mappings), owned until QnnSystemDlc_free.
#pragma once

#include <cstdint>
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

namespace qnn::system {

class SystemDlcObject : public sdk::HandleObject {
 public:
  // logger: the QnnSystemLog handle the DLC was opened with (may be null); later calls report through it.
  SystemDlcObject(std::unique_ptr<dlc::DlcFile> file, std::shared_ptr<const sdk::Logger> logger)
      : file_(std::move(file)), logger_(std::move(logger)) {}
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
  void opMappings(const Qnn_OpMapping_t** mappings, uint32_t* count);

 private:
  struct Composed {
    qnn_wrapper_api::GraphInfoPtr_t* infos = nullptr;  // the model library's deep copies
    uint32_t count = 0;
    std::vector<QnnSystemContext_GraphInfo_t> systemInfos;
  };
  struct Mappings {
    std::vector<Qnn_OpMappingV1_t> v1;
    std::vector<Qnn_OpMapping_t> list;
    std::vector<std::vector<Qnn_Mapping_t>> tensorMappings;
    std::vector<std::vector<std::vector<Qnn_OpMappingPair_t>>> pairs;
  };
  std::mutex mutex_;
  std::unique_ptr<dlc::DlcFile> file_;
  std::shared_ptr<const sdk::Logger> logger_;
  std::vector<std::unique_ptr<Composed>> composed_;
  std::unique_ptr<Mappings> mappings_;
};

}  // namespace qnn::system
