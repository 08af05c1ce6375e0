// Builds the graphs of an OpenQNN DLC (docs/dlc-format.md) in a context through a QNN
// function table, exactly as a converter's model.cpp would: graph inputs, then per node its
// not-yet-created inputs (weights, pointing into the DLC's mapping; the backend copies them) and
// the node with its outputs. Shared by libQnnModelDlc.so (QnnModel_composeGraphsFromDlc) and
// libQnnSystem.so (QnnSystemDlc_composeGraphs).
#pragma once

#include <cstdint>
#include <vector>

#include "QnnModel.hpp"
#include "QnnWrapperUtils.hpp"
#include "dlc/dlc_file.h"

namespace qnn::dlc {

// The arrays a tensor's encoding points into (not copyable: the blockwise struct is pointed at).
struct QuantStorage {
  std::vector<Qnn_ScaleOffset_t> axisScales;
  std::vector<float> bwScales;
  std::vector<int32_t> bwOffsets;
  Qnn_BlockwiseExpansion_t blockwise = QNN_BLOCKWISE_EXPANSION_INIT;
  std::vector<uint8_t> blocks8;
  std::vector<uint16_t> blocks16;
  QuantStorage() = default;
  QuantStorage(const QuantStorage&) = delete;
  QuantStorage& operator=(const QuantStorage&) = delete;
};

// A Qnn_Tensor_t (v1) describing `t`; pointers into `t`, its dims and `st`, which must outlive its use.
Qnn_Tensor_t tensorOf(const Tensor& t, QuantStorage* st);

// Composes graph `g` of `file` into `model` (initialized here) in `context`; configs: the caller's
// per-graph configs (may be null). Each static tensor's mapped pages are released once the backend
// has taken its copy. MODEL_NO_ERROR or the first failing step's error.
qnn_wrapper_api::ModelError_t composeGraph(const DlcFile& file, const Graph& g, qnn_wrapper_api::QnnModel& model,
                                           Qnn_BackendHandle_t backend, const QNN_INTERFACE_VER_TYPE& qnn,
                                           Qnn_ContextHandle_t context,
                                           const qnn_wrapper_api::GraphConfigInfo_t** configs, uint32_t numConfigs,
                                           bool debug);

}  // namespace qnn::dlc
