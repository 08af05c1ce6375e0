#include "model_loader.h"

#include "log_level.h"
#include "tool_error.h"

namespace qnn::tools {

ModelLibrary::~ModelLibrary() { release(); }

void ModelLibrary::release() {
  if (info_ && free_) free_(&info_, count_);
  info_ = nullptr;
  count_ = 0;
  graphs_.clear();
}

void ModelLibrary::load(const std::string& path, const std::string& prefix) {
  if (!lib_.open(path)) throw ToolError("cannot load model library '" + path + "': " + lib_.error());
  const std::string composeName = prefix + "_composeGraphs";
  const std::string freeName = prefix + "_freeGraphsInfo";
  compose_ = lib_.function<ComposeGraphsFnHandleType_t>(composeName.c_str());
  free_ = lib_.function<FreeGraphInfoFnHandleType_t>(freeName.c_str());
  if (!compose_ || !free_)
    throw ToolError("model library '" + path + "' does not export " + (!compose_ ? composeName : freeName) +
                    " (check --model_prefix)");
}

void ModelLibrary::compose(const QnnBackend& backend, Qnn_ContextHandle_t context,
                           const std::vector<const GraphConfigInfo_t*>& configs, bool debug,
                           const QNN_INTERFACE_VER_TYPE* api) {
  release();
  ModelError_t err = compose_(backend.backend(), api ? *api : backend.api(), context,
                              configs.empty() ? nullptr : const_cast<const GraphConfigInfo_t**>(configs.data()),
                              static_cast<uint32_t>(configs.size()), &info_, &count_, debug,
                              backend.logLevel() != 0 ? stderrLogCallback : nullptr, backend.logLevel());
  if (err != MODEL_NO_ERROR)
    throw ToolError("composing the graphs of '" + lib_.path() + "' failed (model error " + std::to_string(err) + ")");
  if (!info_ || count_ == 0) throw ToolError("model library '" + lib_.path() + "' composed no graphs");
  for (uint32_t i = 0; i < count_; ++i) {
    if (!info_[i] || !info_[i]->graphName) throw ToolError("model library '" + lib_.path() + "' returned an empty graph entry");
    graphs_.push_back(info_[i]);
  }
}

}  // namespace qnn::tools
