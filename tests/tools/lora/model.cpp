/* Hand-written test model in the style of the QNN converters' model.cpp output
 * (OpenQNN tests/tools/lora). Graph "lora": y = x*W + (x*lora_A)*lora_B, float32,
 * x 1x4, W 4x4 STATIC, lora_A 4x2 and lora_B 2x4 UPDATEABLE_STATIC (the LoRA
 * branch an adapter replaces), weights from model.bin (make_lora_data.py).
 * Generated once by hand from a template; this file is the test input itself.
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

  /* model/graph for lora*/
  QnnModel lora;
  const QnnGraph_Config_t** graphConfigs = nullptr;
  VALIDATE(getQnnGraphConfigFromInfo("lora", graphsConfigInfo, numGraphsConfigInfo, graphConfigs), err);
  VALIDATE(lora.initialize(backendHandle, interface, contextHandle, "lora", debug, DO_GRAPH_NODE_VALIDATIONS, graphConfigs), err);
  uint32_t dimensions_x[] = {1, 4};
  VALIDATE(lora.addTensor("x", // Node Name
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
                                    {.clientBuf= { .data=nullptr,
                                                    .dataSize=0}}}}}
  ), err);
  uint32_t dimensions_W[] = {4, 4};
  VALIDATE(lora.addTensor("W", // Node Name
                              (Qnn_Tensor_t) {
                                  .version= QNN_TENSOR_VERSION_1,
                                  {.v1= {
                                    .id=0,
                                    .name= "W",
                                    .type= QNN_TENSOR_TYPE_STATIC,
                                    .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                                    .dataType= QNN_DATATYPE_FLOAT_32,
                                    .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                       QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                       {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                    .rank= 2,
                                    .dimensions=dimensions_W,
                                    .memType= QNN_TENSORMEMTYPE_RAW,
                                    {.clientBuf= { .data=BINVARSTART(W),
                                                    .dataSize=BINLEN(W)}}}}}
  ), err);
  uint32_t dimensions_lora_A[] = {4, 2};
  VALIDATE(lora.addTensor("lora_A", // Node Name
                              (Qnn_Tensor_t) {
                                  .version= QNN_TENSOR_VERSION_1,
                                  {.v1= {
                                    .id=0,
                                    .name= "lora_A",
                                    .type= QNN_TENSOR_TYPE_UPDATEABLE_STATIC,
                                    .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                                    .dataType= QNN_DATATYPE_FLOAT_32,
                                    .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                       QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                       {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                    .rank= 2,
                                    .dimensions=dimensions_lora_A,
                                    .memType= QNN_TENSORMEMTYPE_RAW,
                                    {.clientBuf= { .data=BINVARSTART(lora_A),
                                                    .dataSize=BINLEN(lora_A)}}}}}
  ), err);
  uint32_t dimensions_lora_B[] = {2, 4};
  VALIDATE(lora.addTensor("lora_B", // Node Name
                              (Qnn_Tensor_t) {
                                  .version= QNN_TENSOR_VERSION_1,
                                  {.v1= {
                                    .id=0,
                                    .name= "lora_B",
                                    .type= QNN_TENSOR_TYPE_UPDATEABLE_STATIC,
                                    .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                                    .dataType= QNN_DATATYPE_FLOAT_32,
                                    .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                       QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                       {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                    .rank= 2,
                                    .dimensions=dimensions_lora_B,
                                    .memType= QNN_TENSORMEMTYPE_RAW,
                                    {.clientBuf= { .data=BINVARSTART(lora_B),
                                                    .dataSize=BINLEN(lora_B)}}}}}
  ), err);
  const char* inputs_mm_w[] = {"x", "W"};
  uint32_t dimensions_xw_node[] = {1, 4};
  Qnn_Tensor_t outputs_mm_w[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "xw",
          .type= QNN_TENSOR_TYPE_NATIVE,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 2,
          .dimensions=dimensions_xw_node,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                          .dataSize=0}}}}}
  };
  VALIDATE(lora.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                        "mm_w", // Node Name
                        "qti.aisw", // Package Name
                        "MatMul", // Qnn Node Type
                        nullptr, // Node Params
                        0, // Num Node Params
                        inputs_mm_w, // Input Tensor Names
                        2, // Num Input Tensor Names
                        outputs_mm_w, // Output Tensors
                        1// Num Output Tensors
  ), err);
  const char* inputs_mm_a[] = {"x", "lora_A"};
  uint32_t dimensions_xa_node[] = {1, 2};
  Qnn_Tensor_t outputs_mm_a[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "xa",
          .type= QNN_TENSOR_TYPE_NATIVE,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 2,
          .dimensions=dimensions_xa_node,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                          .dataSize=0}}}}}
  };
  VALIDATE(lora.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                        "mm_a", // Node Name
                        "qti.aisw", // Package Name
                        "MatMul", // Qnn Node Type
                        nullptr, // Node Params
                        0, // Num Node Params
                        inputs_mm_a, // Input Tensor Names
                        2, // Num Input Tensor Names
                        outputs_mm_a, // Output Tensors
                        1// Num Output Tensors
  ), err);
  const char* inputs_mm_b[] = {"xa", "lora_B"};
  uint32_t dimensions_xab_node[] = {1, 4};
  Qnn_Tensor_t outputs_mm_b[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "xab",
          .type= QNN_TENSOR_TYPE_NATIVE,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 2,
          .dimensions=dimensions_xab_node,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                          .dataSize=0}}}}}
  };
  VALIDATE(lora.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                        "mm_b", // Node Name
                        "qti.aisw", // Package Name
                        "MatMul", // Qnn Node Type
                        nullptr, // Node Params
                        0, // Num Node Params
                        inputs_mm_b, // Input Tensor Names
                        2, // Num Input Tensor Names
                        outputs_mm_b, // Output Tensors
                        1// Num Output Tensors
  ), err);
  const char* inputs_add[] = {"xw", "xab"};
  uint32_t dimensions_y_node[] = {1, 4};
  Qnn_Tensor_t outputs_add[] = {
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
          {.clientBuf= { .data=nullptr,
                          .dataSize=0}}}}}
  };
  VALIDATE(lora.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                        "add", // Node Name
                        "qti.aisw", // Package Name
                        "ElementWiseAdd", // Qnn Node Type
                        nullptr, // Node Params
                        0, // Num Node Params
                        inputs_add, // Input Tensor Names
                        2, // Num Input Tensor Names
                        outputs_add, // Output Tensors
                        1// Num Output Tensors
  ), err);

  // Add all models to array to get graphsInfo
  QnnModel* models [] = {&lora};
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
