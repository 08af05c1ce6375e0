/* Hand-written test model in the style of the QNN converters' model.cpp output
 * (OpenQNN tests/tools/lora). Graph "lora_q": y = x*lora_Q, x 1x4 and y 1x4
 * float32, lora_Q 4x4 UFIXED_POINT_8 UPDATEABLE_STATIC (scale 1/16, offset -128):
 * an adapter with its own encodings file replaces both its values and its
 * encoding. Weights from model_q.bin (make_lora_data.py).
 */

#include "QnnOpDef.h"
#include "QnnModel.hpp"

#define DO_GRAPH_NODE_VALIDATIONS 1

using namespace qnn_wrapper_api;
extern "C" {
QNN_API
ModelError_t QnnModel_composeGraphs(Qnn_BackendHandle_t backendHandle,
                                    QNN_INTERFACE_VER_TYPE interface,
                                    Qnn_ContextHandle_t contextHandle,
                                    const GraphConfigInfo_t** graphsConfigInfo,
                                    const uint32_t numGraphsConfigInfo,
                                    GraphInfoPtr_t** graphsInfo,
                                    uint32_t* numGraphsInfo,
                                    bool debug,
                                    QnnLog_Callback_t logCallback,
                                    QnnLog_Level_t maxLogLevel) {

  ModelError_t err = MODEL_NO_ERROR;

  /* model/graph for lora_q*/
  QnnModel lora_q;
  const QnnGraph_Config_t** graphConfigs = nullptr;
  VALIDATE(getQnnGraphConfigFromInfo("lora_q", graphsConfigInfo, numGraphsConfigInfo, graphConfigs), err);
  VALIDATE(lora_q.initialize(backendHandle, interface, contextHandle, "lora_q", debug, DO_GRAPH_NODE_VALIDATIONS, graphConfigs), err);
  uint32_t dimensions_x[] = {1, 4};
  VALIDATE(lora_q.addTensor("x", // Node Name
      (Qnn_Tensor_t) {
          .version= QNN_TENSOR_VERSION_1,
          {.v1= {
            .id=0,
            .name= "x",
            .type= QNN_TENSOR_TYPE_APP_WRITE,
            .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
            .dataType= QNN_DATATYPE_FLOAT_32,
            .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                               QNN_QUANTIZATION_ENCODING_UNDEFINED,
                               {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
            .rank= 2,
            .dimensions=dimensions_x,
            .memType= QNN_TENSORMEMTYPE_RAW,
            {.clientBuf= { .data=nullptr, .dataSize=0}}}}}
  ), err);
  uint32_t dimensions_lora_Q[] = {4, 4};
  VALIDATE(lora_q.addTensor("lora_Q", // Node Name
      (Qnn_Tensor_t) {
          .version= QNN_TENSOR_VERSION_1,
          {.v1= {
            .id=0,
            .name= "lora_Q",
            .type= QNN_TENSOR_TYPE_UPDATEABLE_STATIC,
            .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
            .dataType= QNN_DATATYPE_UFIXED_POINT_8,
            .quantizeParams= { QNN_DEFINITION_DEFINED,
                               QNN_QUANTIZATION_ENCODING_SCALE_OFFSET,
                               {.scaleOffsetEncoding= {.scale= 0.0625000000000000f, .offset= -128}}},
            .rank= 2,
            .dimensions=dimensions_lora_Q,
            .memType= QNN_TENSORMEMTYPE_RAW,
            {.clientBuf= { .data=BINVARSTART(lora_Q), .dataSize=BINLEN(lora_Q)}}}}}
  ), err);
  const char* inputs_mm[] = {"x", "lora_Q"};
  uint32_t dimensions_y_node[] = {1, 4};
  Qnn_Tensor_t outputs_mm[] = {
      (Qnn_Tensor_t) {
          .version= QNN_TENSOR_VERSION_1,
          {.v1= {
            .id=0,
            .name= "y",
            .type= QNN_TENSOR_TYPE_APP_READ,
            .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
            .dataType= QNN_DATATYPE_FLOAT_32,
            .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                               QNN_QUANTIZATION_ENCODING_UNDEFINED,
                               {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
            .rank= 2,
            .dimensions=dimensions_y_node,
            .memType= QNN_TENSORMEMTYPE_RAW,
            {.clientBuf= { .data=nullptr, .dataSize=0}}}}}
  };
  VALIDATE(lora_q.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                          "mm", // Node Name
                          "qti.aisw", // Package Name
                          "MatMul", // Qnn Node Type
                          nullptr, // Node Params
                          0, // Num Node Params
                          inputs_mm, // Input Tensor Names
                          2, // Num Input Tensor Names
                          outputs_mm, // Output Tensors
                          1// Num Output Tensors
  ), err);

  // Add all models to array to get graphsInfo
  QnnModel* models [] = {&lora_q};
  uint32_t numModels = 1;

  // Populate the constructed graphs in provided output variables
  VALIDATE(getGraphInfoFromModels(*models, numModels, graphsInfo), err);
  *numGraphsInfo = numModels;

  return err;

} // PREPARE_GRAPHS

QNN_API
ModelError_t QnnModel_freeGraphsInfo(GraphInfoPtr_t** graphsInfo, uint32_t numGraphsInfo){
  return qnn_wrapper_api::freeGraphsInfo(graphsInfo, numGraphsInfo);
} // FREEGRAPHINFO

}
