/* A model.cpp that does not compile: the generator must report it as such. */
#include "QnnModel.hpp"

using namespace qnn_wrapper_api;
extern "C" {
QNN_API
ModelError_t QnnModel_composeGraphs(Qnn_BackendHandle_t backendHandle) {
  QnnModel model;
  return model.noSuchMember(backendHandle);
}
}
