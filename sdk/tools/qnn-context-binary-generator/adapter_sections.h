// LoRA adapters as binary sections (--adapter_weight_config), the vendor's
// offline flow done by the tool: for each use case, the adapter's weights go
// into the graphs' UPDATEABLE tensors (QnnTensor_updateGraphTensors), the
// graphs are finalized again, and QnnContext_getBinarySection writes the
// section. Before each use case the context is reset to the base weights, whose
// own section is saved too (the "default adapter").
#pragma once

#include <string>
#include <vector>

#include "tools/common/adapter_config.h"
#include "tools/common/context_session.h"
#include "tools/common/tensor_catalog.h"

namespace qnn::tools {

// Writes <outputDir>/<binaryName>_default_adapter.bin and
// <outputDir>/<binaryName>_<use case>.bin; returns the paths written.
std::vector<std::string> writeAdapterSections(const QnnBackend& backend, ContextSession& session,
                                              const TensorCatalog& catalog, const std::vector<AdapterUseCase>& useCases,
                                              const std::string& outputDir, const std::string& binaryName);

}  // namespace qnn::tools
