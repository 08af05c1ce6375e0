// Turns composed QnnModel objects into the malloc'ed GraphInfo_t array that
// QnnModel_composeGraphs returns and QnnModel_freeGraphsInfo frees. Plain malloc
// and deep copies, so the result outlives the QnnModel objects (locals of the
// generated composeGraphs) and needs nothing from C++ to be freed.
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "QnnModel.hpp"

namespace qnn_wrapper_api {

namespace {

// malloc'ed deep copies of `tensors` into *out (null when empty). On failure nothing
// stays allocated.
ModelError_t copyTensorArray(std::vector<Qnn_Tensor_t>& tensors, Qnn_Tensor_t** out, uint32_t* count) {
  *out = nullptr;
  *count = 0;
  if (tensors.empty()) return MODEL_NO_ERROR;
  auto* arr = static_cast<Qnn_Tensor_t*>(std::calloc(tensors.size(), sizeof(Qnn_Tensor_t)));
  if (arr == nullptr) return MODEL_MEMORY_ALLOCATE_ERROR;
  for (size_t i = 0; i < tensors.size(); ++i) {
    ModelError_t err = deepCopyQnnTensors(tensors[i], arr[i]);
    if (err != MODEL_NO_ERROR) {
      freeQnnTensors(arr, static_cast<uint32_t>(i));
      return err;
    }
  }
  *out = arr;
  *count = static_cast<uint32_t>(tensors.size());
  return MODEL_NO_ERROR;
}

}  // namespace

ModelError_t getSingleGraphInfoFromModel(QnnModel& model, GraphInfoPtr_t* graphInfoPtr) {
  if (graphInfoPtr == nullptr) return MODEL_INVALID_ARGUMENT_ERROR;
  *graphInfoPtr = nullptr;
  try {
    auto* info = static_cast<GraphInfo_t*>(std::calloc(1, sizeof(GraphInfo_t)));
    if (info == nullptr) return MODEL_MEMORY_ALLOCATE_ERROR;
    const std::string name = model.getQnnGraphName();
    info->graph = model.getQnnGraph();
    info->graphName = strnDup(name.c_str(), name.size());
    std::vector<Qnn_Tensor_t> inputs = model.getGraphInputTensors();
    std::vector<Qnn_Tensor_t> outputs = model.getGraphOutputTensors();
    ModelError_t err = info->graphName ? MODEL_NO_ERROR : MODEL_MEMORY_ALLOCATE_ERROR;
    if (err == MODEL_NO_ERROR) err = copyTensorArray(inputs, &info->inputTensors, &info->numInputTensors);
    if (err == MODEL_NO_ERROR) err = copyTensorArray(outputs, &info->outputTensors, &info->numOutputTensors);
    if (err != MODEL_NO_ERROR) {
      std::free(info->graphName);
      freeQnnTensors(info->inputTensors, info->numInputTensors);
      std::free(info);
      PRINT_ERROR("getSingleGraphInfoFromModel(): %s\n", getModelErrorName(err).c_str());
      return err;
    }
    *graphInfoPtr = info;
    return MODEL_NO_ERROR;
  } catch (...) {
    // Only the vectors and string above can throw (bad_alloc), before info is published.
    PRINT_ERROR("getSingleGraphInfoFromModel(): out of memory\n");
    return MODEL_MEMORY_ALLOCATE_ERROR;
  }
}

ModelError_t getGraphInfoFromModels(QnnModel* models, uint32_t numModels, GraphInfoPtr_t** graphsInfo) {
  if (models == nullptr || graphsInfo == nullptr || numModels == 0) {
    PRINT_ERROR("getGraphInfoFromModels(): no models or no output pointer\n");
    return MODEL_INVALID_ARGUMENT_ERROR;
  }
  auto* arr = static_cast<GraphInfoPtr_t*>(std::calloc(numModels, sizeof(GraphInfoPtr_t)));
  if (arr == nullptr) return MODEL_MEMORY_ALLOCATE_ERROR;
  for (uint32_t i = 0; i < numModels; ++i) {
    ModelError_t err = getSingleGraphInfoFromModel(models[i], &arr[i]);
    if (err != MODEL_NO_ERROR) {
      freeGraphsInfo(&arr, i);
      return err;
    }
  }
  // Composition is over: the models keep only what GraphInfo_t was built from.
  for (uint32_t i = 0; i < numModels; ++i) models[i].freeCachedTensors();
  *graphsInfo = arr;
  return MODEL_NO_ERROR;
}

}  // namespace qnn_wrapper_api
