// QnnModel: builds one QNN graph from tensor and node descriptions, the way
// converter-generated model.cpp files drive it, and hands the result back as
// GraphInfo_t for QnnModel_composeGraphs.
//
// Every member returning ModelError_t catches all exceptions and reports them as an
// error code, because the whole class runs inside the C entry points of a model
// library. See docs/model-library.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "QnnLog.h"
#include "QnnModelPal.hpp"
#include "QnnWrapperUtils.hpp"

namespace qnn_wrapper_api {

class QnnModel {
 public:
  QnnModel() = default;
  // Frees every cached tensor copy. The backend graph is not freed: it belongs to the
  // context (QNN has no graph-free call) and outlives this object.
  ~QnnModel();
  // Copying would duplicate owned tensor copies; moving transfers them.
  QnnModel(const QnnModel&) = delete;
  QnnModel& operator=(const QnnModel&) = delete;
  QnnModel(QnnModel&&) = default;
  QnnModel& operator=(QnnModel&&) = delete;

  // Creates the graph graphName in `context` through qnnInterface (copied; the backend
  // library must stay loaded while this object is used). debug: every NATIVE tensor
  // is created as APP_READ so the client can read intermediates. doNodeValidations:
  // each addNode first asks the backend to validate the op. graphConfigs (may be
  // null) is only read during the call. One graph per QnnModel.
  ModelError_t initialize(const Qnn_BackendHandle_t& backendHandle,
                          const QNN_INTERFACE_VER_TYPE& qnnInterface,
                          const Qnn_ContextHandle_t& context,
                          const char* graphName,
                          bool debug,
                          uint8_t doNodeValidations = 1,
                          const QnnGraph_Config_t** graphConfigs = nullptr);

  // Creates a graph tensor. The backend writes the tensor id into *tensor. A STATIC
  // tensor's client buffer must hold exactly dims x element size bytes; the backend
  // copies it, so the buffer need only live for the call. With saveTensor the model
  // keeps its own deep copy (description only) so later addNode calls can name it,
  // and APP_WRITE / APP_READ tensors become the graph's inputs / outputs.
  // nodeName is used in messages only.
  ModelError_t addTensor(const char* nodeName, Qnn_Tensor_t* tensor, bool saveTensor = true);
  ModelError_t addTensor(const char* nodeName, Qnn_Tensor_t tensor, bool saveTensor = true);

  // Looks up a saved tensor by name. `tensor` receives a shallow view whose pointers
  // are owned by this model and valid until the tensor is freed (freeCachedTensors,
  // freeTensors or destruction).
  ModelError_t getQnnTensor(const char*& nodeName, const char*& tensorName, Qnn_Tensor_t& tensor);
  ModelError_t getQnnTensor(std::string nodeName, std::string tensorName, Qnn_Tensor_t& tensor);

  // Adds node `name` of op `type` from package `packageName`. Tensor params are
  // created as static tensors (not saved); inputs are saved tensors named by
  // inputNames; outputs are created (and saved) from outputTensors and must not exist
  // yet. All arguments are only read during the call.
  ModelError_t addNode(Qnn_OpConfigVersion_t version,
                       const char* name,
                       const char* packageName,
                       const char* type,
                       Qnn_Param_t* params,
                       uint32_t numOfParams,
                       const char** inputNames,
                       uint32_t numOfInputs,
                       Qnn_Tensor_t* outputTensors,
                       uint32_t numOfOutputs);
  ModelError_t addNode(Qnn_OpConfigVersion_t version,
                       const char* name,
                       const char* packageName,
                       const char* type,
                       Qnn_Param_t* params,
                       uint32_t numOfParams,
                       std::vector<std::string> inputNames,
                       uint32_t numOfInputs,
                       Qnn_Tensor_t* outputTensors,
                       uint32_t numOfOutputs);

  // The backend graph handle (owned by the context), null before initialize.
  Qnn_GraphHandle_t getQnnGraph() { return m_graph; }
  std::string getQnnGraphName() { return m_graphName; }
  // Shallow views of the saved input / output tensors in creation order; pointers
  // owned by this model (see getQnnTensor).
  std::vector<Qnn_Tensor_t> getGraphInputTensors();
  std::vector<Qnn_Tensor_t> getGraphOutputTensors();
  // Node name -> names of the tensors it produces.
  std::map<std::string, std::vector<std::string>> getOutputTensorMap() { return m_outputTensorMap; }

  // Finalizes the graph in the backend. Generated composeGraphs does not call it: the
  // tool that loaded the library finalizes (or retrieves a prepared binary) itself.
  ModelError_t finalize(Qnn_ProfileHandle_t profile = nullptr, Qnn_SignalHandle_t signal = nullptr);

  // Frees the saved copies of every tensor that is not a graph input or output; those
  // stay for getGraphInfoFromModels. Idempotent.
  ModelError_t freeCachedTensors();
  // Frees every saved tensor copy, inputs and outputs included.
  ModelError_t freeTensors();
  // Frees every saved tensor and forgets the graph so initialize may run again (the
  // backend graph itself stays in its context).
  ModelError_t clearGraph();

 private:
  ModelError_t addTensorImpl(const char* nodeName, Qnn_Tensor_t* tensor, bool saveTensor);
  ModelError_t addNodeImpl(Qnn_OpConfigVersion_t version, const char* name, const char* packageName,
                           const char* type, const Qnn_Param_t* params, uint32_t numOfParams,
                           const std::vector<const char*>& inputNames, Qnn_Tensor_t* outputTensors,
                           uint32_t numOfOutputs);
  bool isGraphIo(const std::string& name) const;

  QNN_INTERFACE_VER_TYPE m_qnnInterface{};
  Qnn_BackendHandle_t m_backendHandle = nullptr;
  Qnn_GraphHandle_t m_graph = nullptr;
  std::string m_graphName;
  bool m_debug = false;
  bool m_doNodeValidations = true;
  // Owned deep copies (deepCopyQnnTensors) of every saved tensor, by name.
  std::map<std::string, Qnn_Tensor_t> m_tensors;
  std::vector<std::string> m_inputNames;   // APP_WRITE tensors in creation order
  std::vector<std::string> m_outputNames;  // APP_READ tensors in creation order
  std::map<std::string, std::vector<std::string>> m_outputTensorMap;
};

// Builds the GraphInfo_t array QnnModel_composeGraphs returns: *graphsInfo receives a
// malloc'ed array of numModels pointers, one per element of the array `models` (the
// caller's QnnModel objects, contiguous), each to its own malloc'ed GraphInfo_t with
// deep copies of that model's inputs and outputs. Free with freeGraphsInfo. Afterwards
// each model's cached non-IO tensors are freed. On error nothing stays allocated.
ModelError_t getGraphInfoFromModels(QnnModel* models, uint32_t numModels, GraphInfoPtr_t** graphsInfo);

// One model's GraphInfo_t: *graphInfoPtr receives a malloc'ed GraphInfo_t owned by the
// caller (free through freeGraphsInfo as part of an array, or field by field).
ModelError_t getSingleGraphInfoFromModel(QnnModel& model, GraphInfoPtr_t* graphInfoPtr);

}  // namespace qnn_wrapper_api
