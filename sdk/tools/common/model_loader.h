// ModelLibrary: a model .so (the QnnModel contract of model_library.h) loaded
// and composed into a context. Owns the returned GraphInfo array and frees it
// through the library's own free function before the library is unloaded.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tools/common/dynamic_library.h"
#include "tools/common/model_abi.h"
#include "tools/common/model_library.h"
#include "tools/common/qnn_backend.h"

namespace qnn::adapters {
class Converted;
}

namespace qnn::tools {

class ModelLibrary {
 public:
  ModelLibrary();
  ~ModelLibrary();
  ModelLibrary(const ModelLibrary&) = delete;
  ModelLibrary& operator=(const ModelLibrary&) = delete;

  // Resolves <prefix>_composeGraphs and <prefix>_freeGraphsInfo, or with a
  // dlcPath <prefix>_composeGraphsFromDlc (libQnnModelDlc.so), which compose
  // then builds the graphs of that DLC. Throws ToolError.
  void load(const std::string& path, const std::string& prefix, const std::string& dlcPath = "");
  // Creates the library's graphs in context. configs may be empty. `api`: the
  // interface handed to the library (default: the backend's own). The table is passed in the
  // layout of the API the library was built against (model_abi.h); a library of API < 2.14
  // composes through the backend's adapters for its tensor layout (OpenQNN backends only), and
  // its graphs' tensors are converted to the current layout for graphs().
  void compose(const QnnBackend& backend, Qnn_ContextHandle_t context,
               const std::vector<const GraphConfigInfo_t*>& configs, bool debug,
               const QNN_INTERFACE_VER_TYPE* api = nullptr);
  const std::vector<GraphInfo_t*>& graphs() const { return graphs_; }
  const std::string& path() const { return lib_.path(); }
  const ModelApi& modelApi() const { return modelApi_; }

 private:
  void release();
  DynamicLibrary lib_;
  ComposeGraphsFnHandleType_t compose_ = nullptr;
  ComposeGraphsFromDlcFnHandleType_t composeFromDlc_ = nullptr;
  std::string dlcPath_;
  FreeGraphInfoFnHandleType_t free_ = nullptr;
  GraphInfoPtr_t* info_ = nullptr;
  uint32_t count_ = 0;
  std::vector<GraphInfo_t*> graphs_;
  ModelApi modelApi_;
  // For a library of an older tensor layout: current-layout copies of its graph infos.
  std::unique_ptr<adapters::Converted> converted_;
  std::vector<GraphInfo_t> convertedInfo_;
};

}  // namespace qnn::tools
