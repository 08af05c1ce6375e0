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

void ModelLibrary::load(const std::string& path, const std::string& prefix, const std::string& dlcPath) {
  if (!lib_.open(path)) throw ToolError("cannot load model library '" + path + "': " + lib_.error());
  dlcPath_ = dlcPath;
  const std::string composeName = prefix + (dlcPath.empty() ? "_composeGraphs" : "_composeGraphsFromDlc");
  const std::string freeName = prefix + "_freeGraphsInfo";
  if (dlcPath.empty())
    compose_ = lib_.function<ComposeGraphsFnHandleType_t>(composeName.c_str());
  else
    composeFromDlc_ = lib_.function<ComposeGraphsFromDlcFnHandleType_t>(composeName.c_str());
  free_ = lib_.function<FreeGraphInfoFnHandleType_t>(freeName.c_str());
  if ((!compose_ && !composeFromDlc_) || !free_)
    throw ToolError("model library '" + path + "' does not export " +
                    (!compose_ && !composeFromDlc_ ? composeName : freeName) +
                    (dlcPath.empty() ? " (check --model_prefix)" : " (--dlc_path needs libQnnModelDlc.so as --model)"));
}

void ModelLibrary::compose(const QnnBackend& backend, Qnn_ContextHandle_t context,
                           const std::vector<const GraphConfigInfo_t*>& configs, bool debug,
                           const QNN_INTERFACE_VER_TYPE* api) {
  release();
  const GraphConfigInfo_t** configArray =
      configs.empty() ? nullptr : const_cast<const GraphConfigInfo_t**>(configs.data());
  QnnLog_Callback_t log = backend.logLevel() != 0 ? stderrLogCallback : nullptr;
  ModelError_t err =
      composeFromDlc_
          ? composeFromDlc_(backend.backend(), api ? *api : backend.api(), context, configArray, dlcPath_.c_str(),
                            static_cast<uint32_t>(configs.size()), &info_, &count_, debug, log, backend.logLevel())
          : compose_(backend.backend(), api ? *api : backend.api(), context, configArray,
                     static_cast<uint32_t>(configs.size()), &info_, &count_, debug, log, backend.logLevel());
  const std::string what = composeFromDlc_ ? "the DLC '" + dlcPath_ + "'" : "the graphs of '" + lib_.path() + "'";
  if (err != MODEL_NO_ERROR)
    throw ToolError("composing " + what + " failed (model error " + std::to_string(err) +
                    (err == MODEL_FILE_ERROR ? ": the file is missing, damaged or not a DLC" : "") +
                    ")");
  if (!info_ || count_ == 0) throw ToolError("model library '" + lib_.path() + "' composed no graphs");
  for (uint32_t i = 0; i < count_; ++i) {
    if (!info_[i] || !info_[i]->graphName) throw ToolError("model library '" + lib_.path() + "' returned an empty graph entry");
    graphs_.push_back(info_[i]);
  }
}

}  // namespace qnn::tools
