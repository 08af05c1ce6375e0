// Minimal helper for the hand-written test model libraries: creates tensors and
// nodes through the QNN interface passed to composeGraphs, and fills the
// GraphInfo_t the tools read. Public QNN headers + model_library.h only.
// debug=true makes intermediate (NATIVE) tensors APP_READ graph outputs, as the
// vendor's model helper does.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "QnnOpDef.h"
#include "tools/common/model_library.h"

namespace testmodel {

struct Builder {
  const QNN_INTERFACE_VER_TYPE& api;
  Qnn_GraphHandle_t graph = nullptr;
  bool debug;
  std::vector<Qnn_Tensor_t> inputs, outputs;
  std::vector<Qnn_Tensor_t> natives;  // freed in finish(): the backend keeps its own copy
  bool ok = true;

  Builder(const QNN_INTERFACE_VER_TYPE& a, Qnn_ContextHandle_t ctx, const char* name, bool dbg,
          const GraphConfigInfo_t** cfgs, uint32_t numCfgs)
      : api(a), debug(dbg) {
    const QnnGraph_Config_t** graphCfg = nullptr;
    for (uint32_t i = 0; i < numCfgs; ++i)
      if (cfgs[i] && std::strcmp(cfgs[i]->graphName, name) == 0) graphCfg = cfgs[i]->graphConfigs;
    ok = api.graphCreate(ctx, name, graphCfg, &graph) == QNN_SUCCESS;
  }

  // Names and dims are strdup/malloc'ed: they live in GraphInfo_t until freeGraphsInfo.
  Qnn_Tensor_t tensor(const char* name, Qnn_TensorType_t type, Qnn_DataType_t dt, std::vector<uint32_t> dims,
                      float scale = 0, int32_t offset = 0) {
    Qnn_Tensor_t t = QNN_TENSOR_INIT;
    if (debug && type == QNN_TENSOR_TYPE_NATIVE) type = QNN_TENSOR_TYPE_APP_READ;
    t.v1.name = strdup(name);
    t.v1.type = type;
    t.v1.dataType = dt;
    if (scale > 0) {
      t.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
      t.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
      t.v1.quantizeParams.scaleOffsetEncoding.scale = scale;
      t.v1.quantizeParams.scaleOffsetEncoding.offset = offset;
    }
    t.v1.rank = static_cast<uint32_t>(dims.size());
    t.v1.dimensions = static_cast<uint32_t*>(std::malloc(dims.size() * sizeof(uint32_t)));
    std::memcpy(t.v1.dimensions, dims.data(), dims.size() * sizeof(uint32_t));
    t.v1.memType = QNN_TENSORMEMTYPE_RAW;
    if (ok) ok = api.tensorCreateGraphTensor(graph, &t) == QNN_SUCCESS;
    if (type == QNN_TENSOR_TYPE_APP_WRITE) inputs.push_back(t);
    if (type == QNN_TENSOR_TYPE_APP_READ) outputs.push_back(t);
    if (type == QNN_TENSOR_TYPE_NATIVE) natives.push_back(t);
    return t;
  }

  void node(const char* name, const char* op, std::vector<Qnn_Tensor_t> in, Qnn_Tensor_t out,
            std::vector<Qnn_Param_t> params = {}) {
    Qnn_OpConfig_t cfg = QNN_OPCONFIG_INIT;
    cfg.v1.numOfParams = static_cast<uint32_t>(params.size());
    cfg.v1.params = params.empty() ? nullptr : params.data();
    cfg.v1.name = name;
    cfg.v1.packageName = QNN_OP_PACKAGE_NAME_QTI_AISW;
    cfg.v1.typeName = op;
    cfg.v1.numOfInputs = static_cast<uint32_t>(in.size());
    cfg.v1.inputTensors = in.data();
    cfg.v1.numOfOutputs = 1;
    cfg.v1.outputTensors = &out;
    if (ok) ok = api.graphAddNode(graph, cfg) == QNN_SUCCESS;
  }

  GraphInfo_t* finish(const char* name) {
    auto* info = static_cast<GraphInfo_t*>(std::calloc(1, sizeof(GraphInfo_t)));
    info->graph = graph;
    info->graphName = strdup(name);
    info->numInputTensors = static_cast<uint32_t>(inputs.size());
    info->inputTensors = static_cast<Qnn_Tensor_t*>(std::malloc(inputs.size() * sizeof(Qnn_Tensor_t)));
    std::memcpy(info->inputTensors, inputs.data(), inputs.size() * sizeof(Qnn_Tensor_t));
    info->numOutputTensors = static_cast<uint32_t>(outputs.size());
    info->outputTensors = static_cast<Qnn_Tensor_t*>(std::malloc(outputs.size() * sizeof(Qnn_Tensor_t)));
    std::memcpy(info->outputTensors, outputs.data(), outputs.size() * sizeof(Qnn_Tensor_t));
    for (auto& t : natives) {
      std::free(const_cast<char*>(t.v1.name));
      std::free(t.v1.dimensions);
    }
    natives.clear();
    return info;
  }
};

inline void freeTensors(Qnn_Tensor_t* t, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    std::free(const_cast<char*>(t[i].v1.name));
    std::free(t[i].v1.dimensions);
  }
  std::free(t);
}

inline ModelError_t freeGraphs(GraphInfoPtr_t** graphsInfo, uint32_t numGraphs) {
  if (!graphsInfo || !*graphsInfo) return MODEL_INVALID_ARGUMENT_ERROR;
  for (uint32_t i = 0; i < numGraphs; ++i) {
    GraphInfo_t* g = (*graphsInfo)[i];
    freeTensors(g->inputTensors, g->numInputTensors);
    freeTensors(g->outputTensors, g->numOutputTensors);
    std::free(g->graphName);
    std::free(g);
  }
  std::free(*graphsInfo);
  *graphsInfo = nullptr;
  return MODEL_NO_ERROR;
}

// Finishes b's graph and returns it as the library's only graph (freed again when b failed).
inline ModelError_t returnOneGraph(Builder& b, const char* name, GraphInfoPtr_t** graphsInfo,
                                   uint32_t* numGraphsInfo) {
  GraphInfo_t* info = b.finish(name);
  *graphsInfo = static_cast<GraphInfoPtr_t*>(std::malloc(sizeof(GraphInfoPtr_t)));
  (*graphsInfo)[0] = info;
  *numGraphsInfo = 1;
  if (!b.ok) {
    freeGraphs(graphsInfo, 1);
    return MODEL_GRAPH_ERROR;
  }
  return MODEL_NO_ERROR;
}

}  // namespace testmodel
