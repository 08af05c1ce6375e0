// ContextSession: one QNN context and its graphs, built either by composing
// model libraries (then finalizing) or by restoring a context binary (then
// retrieving each graph). Profile events of each step are collected with their
// phase; the context is freed (deinit events) before the model libraries unload.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tools/common/graph_spec.h"
#include "tools/common/model_loader.h"
#include "tools/common/qnn_backend.h"

namespace qnn::tools {

class ProfileCollector;

struct LoadedGraph {
  Qnn_GraphHandle_t handle = nullptr;
  GraphSpec spec;
};

class ContextSession {
 public:
  ContextSession(const QnnBackend& backend, ProfileCollector* profile);
  ~ContextSession();
  ContextSession(const ContextSession&) = delete;
  ContextSession& operator=(const ContextSession&) = delete;

  void createContext(const QnnContext_Config_t** configs);
  // Loads each model library and composes its graphs into the context.
  // `api` (optional): the interface the libraries compose through.
  // dlcPaths: the DLCs libQnnModelDlc.so (the one model path) composes, in order.
  void composeModels(const std::vector<std::string>& modelPaths, const std::string& prefix,
                     const std::vector<const GraphConfigInfo_t*>& graphConfigs, bool debug,
                     const QNN_INTERFACE_VER_TYPE* api = nullptr, const std::vector<std::string>& dlcPaths = {});
  void finalizeGraphs();
  // Restores a binary; specs name the graphs to retrieve and their tensors.
  // timeoutUs > 0 uses QnnContext_createFromBinaryWithSignal with a timeout signal.
  void loadBinary(const std::vector<uint8_t>& binary, const std::vector<GraphSpec>& specs,
                  const QnnContext_Config_t** configs, uint64_t timeoutUs);
  std::vector<uint8_t> serialize();
  // Frees the context now (collecting deinit events); the destructor does it otherwise.
  void close();

  std::vector<LoadedGraph>& graphs() { return graphs_; }
  std::vector<std::string> graphNames() const;
  Qnn_ContextHandle_t context() const { return context_; }

 private:
  const QnnBackend& backend_;
  ProfileCollector* profile_;
  Qnn_ContextHandle_t context_ = nullptr;
  std::vector<std::unique_ptr<ModelLibrary>> models_;
  std::vector<LoadedGraph> graphs_;
};

}  // namespace qnn::tools
