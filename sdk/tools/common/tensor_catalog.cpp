#include "tools/common/tensor_catalog.h"

#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {
TensorCatalog* gActive = nullptr;  // the catalog the recording entry writes to
}

TensorCatalog::~TensorCatalog() {
  if (gActive == this) gActive = nullptr;
}

QNN_INTERFACE_VER_TYPE TensorCatalog::recording(const QNN_INTERFACE_VER_TYPE& api) {
  if (gActive && gActive != this) throw ToolError("internal: two tensor catalogs at once");
  gActive = this;
  next_ = api.tensorCreateGraphTensor;
  QNN_INTERFACE_VER_TYPE copy = api;
  copy.tensorCreateGraphTensor = createGraphTensor;
  return copy;
}

Qnn_ErrorHandle_t TensorCatalog::createGraphTensor(Qnn_GraphHandle_t graph, Qnn_Tensor_t* tensor) {
  TensorCatalog* self = gActive;
  if (!self || !self->next_) return QNN_COMMON_ERROR_GENERAL;
  Qnn_ErrorHandle_t rc = self->next_(graph, tensor);
  if (rc == QNN_SUCCESS && tensor && tensor->v1.type >= QNN_TENSOR_TYPE_UPDATEABLE_STATIC &&
      tensor->v1.type <= QNN_TENSOR_TYPE_UPDATEABLE_APP_READWRITE && tensor->v1.name) {
    TensorSpec spec = TensorSpec::fromQnn(*tensor);
    self->tensors_[graph][spec.name] = std::move(spec);
  }
  return rc;
}

const std::map<std::string, TensorSpec>& TensorCatalog::updateable(Qnn_GraphHandle_t graph) const {
  static const std::map<std::string, TensorSpec> none;
  auto it = tensors_.find(graph);
  return it == tensors_.end() ? none : it->second;
}

}  // namespace qnn::tools
