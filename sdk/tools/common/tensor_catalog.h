// TensorCatalog: the UPDATEABLE_* tensors a model library creates, as the
// library creates them. A model library composes its graphs through the
// interface the tool hands it; the catalog hands a copy whose
// tensorCreateGraphTensor records each updateable tensor (graph, name, id,
// type, datatype, shape, encoding) before passing the call on. The tools use it
// to find LoRA weights by name (qnn-context-binary-generator
// --adapter_weight_config). One catalog at a time per process (the tools are
// single-threaded).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "tools/common/tensor_spec.h"

namespace qnn::tools {

class TensorCatalog {
 public:
  TensorCatalog() = default;
  ~TensorCatalog();
  TensorCatalog(const TensorCatalog&) = delete;
  TensorCatalog& operator=(const TensorCatalog&) = delete;

  // `api` with tensorCreateGraphTensor recording into this catalog.
  QNN_INTERFACE_VER_TYPE recording(const QNN_INTERFACE_VER_TYPE& api);
  // The updateable tensors of a graph, by name.
  const std::map<std::string, TensorSpec>& updateable(Qnn_GraphHandle_t graph) const;

 private:
  static Qnn_ErrorHandle_t createGraphTensor(Qnn_GraphHandle_t graph, Qnn_Tensor_t* tensor);
  QnnTensor_CreateGraphTensorFn_t next_ = nullptr;
  std::map<Qnn_GraphHandle_t, std::map<std::string, TensorSpec>> tensors_;
};

}  // namespace qnn::tools
