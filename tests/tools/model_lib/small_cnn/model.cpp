/* Hand-written test model in the style of the QNN converters' model.cpp output
 * (OpenQNN tests/tools/model_lib/small_cnn; see README.md next to this file).
 * Graph "small_cnn": Conv2d(3x3, static weights+bias from model.bin) -> Relu ->
 * PoolMax2d(2x2) -> ElementWiseAdd(second input) -> Reshape -> FullyConnected
 * (output "logits") -> Softmax (output "probs"). float32, NHWC.
 * Regenerate nothing: this file is the test input itself and must compile unchanged
 * against the model-library helpers, like a converter's file would.
 */

#include "QnnOpDef.h"
#include "QnnModel.hpp"

// Flag to determine if Backend should do node validation for each opNode added
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

  /* model/graph for small_cnn*/
  QnnModel small_cnn;
  const QnnGraph_Config_t** graphConfigs = nullptr;
  VALIDATE(getQnnGraphConfigFromInfo("small_cnn", graphsConfigInfo, numGraphsConfigInfo, graphConfigs), err);
  VALIDATE(small_cnn.initialize(backendHandle, interface, contextHandle, "small_cnn", debug, DO_GRAPH_NODE_VALIDATIONS, graphConfigs), err);
  uint32_t dimensions_input[] = {1, 8, 8, 3};
  VALIDATE(small_cnn.addTensor("input", // Node Name
                                   (Qnn_Tensor_t) {
                                       .version= QNN_TENSOR_VERSION_1,
                                       {.v1= {
                                         .id=0,
                                         .name= "input",
                                         .type= QNN_TENSOR_TYPE_APP_WRITE,
                                         .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                                         .dataType= QNN_DATATYPE_FLOAT_32,
                                         .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                            QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                            {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                         .rank= 4,
                                         .dimensions=dimensions_input,
                                         .memType= QNN_TENSORMEMTYPE_RAW,
                                         {.clientBuf= { .data=nullptr,
                                                            .dataSize=0}}}}}
  ), err);
  uint32_t dimensions_conv1_weight[] = {3, 3, 3, 4};
  VALIDATE(small_cnn.addTensor("conv1_weight", // Node Name
                                   (Qnn_Tensor_t) {
                                       .version= QNN_TENSOR_VERSION_1,
                                       {.v1= {
                                         .id=0,
                                         .name= "conv1_weight",
                                         .type= QNN_TENSOR_TYPE_STATIC,
                                         .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                                         .dataType= QNN_DATATYPE_FLOAT_32,
                                         .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                            QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                            {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                         .rank= 4,
                                         .dimensions=dimensions_conv1_weight,
                                         .memType= QNN_TENSORMEMTYPE_RAW,
                                         {.clientBuf= { .data=BINVARSTART(conv1_weight),
                                                            .dataSize=BINLEN(conv1_weight)}}}}}
  ), err);
  uint32_t dimensions_conv1_bias[] = {4};
  VALIDATE(small_cnn.addTensor("conv1_bias", // Node Name
                                   (Qnn_Tensor_t) {
                                       .version= QNN_TENSOR_VERSION_1,
                                       {.v1= {
                                         .id=0,
                                         .name= "conv1_bias",
                                         .type= QNN_TENSOR_TYPE_STATIC,
                                         .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                                         .dataType= QNN_DATATYPE_FLOAT_32,
                                         .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                            QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                            {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                         .rank= 1,
                                         .dimensions=dimensions_conv1_bias,
                                         .memType= QNN_TENSORMEMTYPE_RAW,
                                         {.clientBuf= { .data=BINVARSTART(conv1_bias),
                                                            .dataSize=BINLEN(conv1_bias)}}}}}
  ), err);

  /* ADDING NODE FOR conv1 */
  uint32_t dimensions_conv1_dilation[] = {2};
  uint32_t conv1_dilation[] = {1, 1};
  uint32_t dimensions_conv1_pad_amount[] = {2, 2};
  uint32_t conv1_pad_amount[] = {1, 1, 1, 1};
  uint32_t dimensions_conv1_stride[] = {2};
  uint32_t conv1_stride[] = {1, 1};
  Qnn_Param_t params_conv1[] = {
    {.paramType=QNN_PARAMTYPE_TENSOR,
     .name="dilation",
     {.tensorParam=(Qnn_Tensor_t) {
              .version= QNN_TENSOR_VERSION_1,
              {.v1= {
                .id=0,
                .name= "conv1_dilation",
                .type= QNN_TENSOR_TYPE_STATIC,
                .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                .dataType= QNN_DATATYPE_UINT_32,
                .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                   QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                   {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                .rank= 1,
                .dimensions=dimensions_conv1_dilation,
                .memType= QNN_TENSORMEMTYPE_RAW,
                {.clientBuf= { .data=(uint8_t*)conv1_dilation,
                                   .dataSize=8}}}}}}},
    {.paramType=QNN_PARAMTYPE_TENSOR,
     .name="pad_amount",
     {.tensorParam=(Qnn_Tensor_t) {
              .version= QNN_TENSOR_VERSION_1,
              {.v1= {
                .id=0,
                .name= "conv1_pad_amount",
                .type= QNN_TENSOR_TYPE_STATIC,
                .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                .dataType= QNN_DATATYPE_UINT_32,
                .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                   QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                   {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                .rank= 2,
                .dimensions=dimensions_conv1_pad_amount,
                .memType= QNN_TENSORMEMTYPE_RAW,
                {.clientBuf= { .data=(uint8_t*)conv1_pad_amount,
                                   .dataSize=16}}}}}}},
    {.paramType=QNN_PARAMTYPE_TENSOR,
     .name="stride",
     {.tensorParam=(Qnn_Tensor_t) {
              .version= QNN_TENSOR_VERSION_1,
              {.v1= {
                .id=0,
                .name= "conv1_stride",
                .type= QNN_TENSOR_TYPE_STATIC,
                .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                .dataType= QNN_DATATYPE_UINT_32,
                .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                   QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                   {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                .rank= 1,
                .dimensions=dimensions_conv1_stride,
                .memType= QNN_TENSORMEMTYPE_RAW,
                {.clientBuf= { .data=(uint8_t*)conv1_stride,
                                   .dataSize=8}}}}}}},
    {.paramType=QNN_PARAMTYPE_SCALAR,
     .name="group",
     {.scalarParam= (Qnn_Scalar_t) {QNN_DATATYPE_UINT_32, {.uint32Value = 1}}}}
  };
  const char*  inputs_conv1[] = {
    "input",
    "conv1_weight",
    "conv1_bias"
  };
  uint32_t dimensions_conv1_out[] = {1, 8, 8, 4};
  Qnn_Tensor_t outputs_conv1[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "conv1_out",
          .type= QNN_TENSOR_TYPE_NATIVE,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 4,
          .dimensions=dimensions_conv1_out,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                             .dataSize=0}}}}}
  };
  VALIDATE(small_cnn.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                             "conv1", // Node Name
                             "qti.aisw", // Package Name
                             "Conv2d", // Qnn Node Type
                             params_conv1, // Node Params
                             4, // Num Node Params
                             inputs_conv1, // Input Tensor Names
                             3, // Num Input Tensor Names
                             outputs_conv1, // Output Tensors 
                             1// Num Output Tensors 
  ), err);

  /* ADDING NODE FOR relu1 */
  const char*  inputs_relu1[] = {
    "conv1_out"
  };
  uint32_t dimensions_relu1_out[] = {1, 8, 8, 4};
  Qnn_Tensor_t outputs_relu1[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "relu1_out",
          .type= QNN_TENSOR_TYPE_NATIVE,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 4,
          .dimensions=dimensions_relu1_out,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                             .dataSize=0}}}}}
  };
  VALIDATE(small_cnn.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                             "relu1", // Node Name
                             "qti.aisw", // Package Name
                             "Relu", // Qnn Node Type
                             nullptr, // Node Params
                             0, // Num Node Params
                             inputs_relu1, // Input Tensor Names
                             1, // Num Input Tensor Names
                             outputs_relu1, // Output Tensors 
                             1// Num Output Tensors 
  ), err);

  /* ADDING NODE FOR pool1 */
  uint32_t dimensions_pool1_filter_size[] = {2};
  uint32_t pool1_filter_size[] = {2, 2};
  uint32_t dimensions_pool1_pad_amount[] = {2, 2};
  uint32_t pool1_pad_amount[] = {0, 0, 0, 0};
  uint32_t dimensions_pool1_stride[] = {2};
  uint32_t pool1_stride[] = {2, 2};
  Qnn_Param_t params_pool1[] = {
    {.paramType=QNN_PARAMTYPE_TENSOR,
     .name="filter_size",
     {.tensorParam=(Qnn_Tensor_t) {
              .version= QNN_TENSOR_VERSION_1,
              {.v1= {
                .id=0,
                .name= "pool1_filter_size",
                .type= QNN_TENSOR_TYPE_STATIC,
                .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                .dataType= QNN_DATATYPE_UINT_32,
                .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                   QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                   {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                .rank= 1,
                .dimensions=dimensions_pool1_filter_size,
                .memType= QNN_TENSORMEMTYPE_RAW,
                {.clientBuf= { .data=(uint8_t*)pool1_filter_size,
                                   .dataSize=8}}}}}}},
    {.paramType=QNN_PARAMTYPE_TENSOR,
     .name="pad_amount",
     {.tensorParam=(Qnn_Tensor_t) {
              .version= QNN_TENSOR_VERSION_1,
              {.v1= {
                .id=0,
                .name= "pool1_pad_amount",
                .type= QNN_TENSOR_TYPE_STATIC,
                .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                .dataType= QNN_DATATYPE_UINT_32,
                .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                   QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                   {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                .rank= 2,
                .dimensions=dimensions_pool1_pad_amount,
                .memType= QNN_TENSORMEMTYPE_RAW,
                {.clientBuf= { .data=(uint8_t*)pool1_pad_amount,
                                   .dataSize=16}}}}}}},
    {.paramType=QNN_PARAMTYPE_TENSOR,
     .name="stride",
     {.tensorParam=(Qnn_Tensor_t) {
              .version= QNN_TENSOR_VERSION_1,
              {.v1= {
                .id=0,
                .name= "pool1_stride",
                .type= QNN_TENSOR_TYPE_STATIC,
                .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                .dataType= QNN_DATATYPE_UINT_32,
                .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                   QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                   {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                .rank= 1,
                .dimensions=dimensions_pool1_stride,
                .memType= QNN_TENSORMEMTYPE_RAW,
                {.clientBuf= { .data=(uint8_t*)pool1_stride,
                                   .dataSize=8}}}}}}}
  };
  const char*  inputs_pool1[] = {
    "relu1_out"
  };
  uint32_t dimensions_pool1_out[] = {1, 4, 4, 4};
  Qnn_Tensor_t outputs_pool1[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "pool1_out",
          .type= QNN_TENSOR_TYPE_NATIVE,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 4,
          .dimensions=dimensions_pool1_out,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                             .dataSize=0}}}}}
  };
  VALIDATE(small_cnn.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                             "pool1", // Node Name
                             "qti.aisw", // Package Name
                             "PoolMax2d", // Qnn Node Type
                             params_pool1, // Node Params
                             3, // Num Node Params
                             inputs_pool1, // Input Tensor Names
                             1, // Num Input Tensor Names
                             outputs_pool1, // Output Tensors 
                             1// Num Output Tensors 
  ), err);

  /* second graph input, written the way QNN 2.2x converters write tensors (version 2) */
  uint32_t dimensions_residual[] = {1, 4, 4, 4};
  VALIDATE(small_cnn.addTensor("residual", // Node Name
                                   (Qnn_Tensor_t) {
                                       .version= QNN_TENSOR_VERSION_2,
                                       {.v2= {
                                         .id=0,
                                         .name= "residual",
                                         .type= QNN_TENSOR_TYPE_APP_WRITE,
                                         .dataFormat= QNN_TENSOR_DATA_FORMAT_DENSE,
                                         .dataType= QNN_DATATYPE_FLOAT_32,
                                         .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                            QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                            {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                         .rank= 4,
                                         .dimensions=dimensions_residual,
                                         .memType= QNN_TENSORMEMTYPE_RAW,
                                         {.clientBuf= { .data=nullptr,
                                                            .dataSize=0}},
                                         .isDynamicDimensions= nullptr,
                                         .sparseParams= { QNN_SPARSE_LAYOUT_UNDEFINED,
                                                          .hybridCoo= {.numSpecifiedElements= 0, .numSparseDimensions= 0}},
                                         .isProduced= 0}}}
  ), err);

  /* ADDING NODE FOR add1 */
  const char*  inputs_add1[] = {
    "pool1_out",
    "residual"
  };
  uint32_t dimensions_add1_out[] = {1, 4, 4, 4};
  Qnn_Tensor_t outputs_add1[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "add1_out",
          .type= QNN_TENSOR_TYPE_NATIVE,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 4,
          .dimensions=dimensions_add1_out,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                             .dataSize=0}}}}}
  };
  VALIDATE(small_cnn.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                             "add1", // Node Name
                             "qti.aisw", // Package Name
                             "ElementWiseAdd", // Qnn Node Type
                             nullptr, // Node Params
                             0, // Num Node Params
                             inputs_add1, // Input Tensor Names
                             2, // Num Input Tensor Names
                             outputs_add1, // Output Tensors 
                             1// Num Output Tensors 
  ), err);

  /* ADDING NODE FOR flatten */
  const char*  inputs_flatten[] = {
    "add1_out"
  };
  uint32_t dimensions_flat[] = {1, 64};
  Qnn_Tensor_t outputs_flatten[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "flat",
          .type= QNN_TENSOR_TYPE_NATIVE,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 2,
          .dimensions=dimensions_flat,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                             .dataSize=0}}}}}
  };
  VALIDATE(small_cnn.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                             "flatten", // Node Name
                             "qti.aisw", // Package Name
                             "Reshape", // Qnn Node Type
                             nullptr, // Node Params
                             0, // Num Node Params
                             inputs_flatten, // Input Tensor Names
                             1, // Num Input Tensor Names
                             outputs_flatten, // Output Tensors 
                             1// Num Output Tensors 
  ), err);
  uint32_t dimensions_fc1_weight[] = {10, 64};
  VALIDATE(small_cnn.addTensor("fc1_weight", // Node Name
                                   (Qnn_Tensor_t) {
                                       .version= QNN_TENSOR_VERSION_1,
                                       {.v1= {
                                         .id=0,
                                         .name= "fc1_weight",
                                         .type= QNN_TENSOR_TYPE_STATIC,
                                         .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                                         .dataType= QNN_DATATYPE_FLOAT_32,
                                         .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                            QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                            {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                         .rank= 2,
                                         .dimensions=dimensions_fc1_weight,
                                         .memType= QNN_TENSORMEMTYPE_RAW,
                                         {.clientBuf= { .data=BINVARSTART(fc1_weight),
                                                            .dataSize=BINLEN(fc1_weight)}}}}}
  ), err);
  uint32_t dimensions_fc1_bias[] = {10};
  VALIDATE(small_cnn.addTensor("fc1_bias", // Node Name
                                   (Qnn_Tensor_t) {
                                       .version= QNN_TENSOR_VERSION_1,
                                       {.v1= {
                                         .id=0,
                                         .name= "fc1_bias",
                                         .type= QNN_TENSOR_TYPE_STATIC,
                                         .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
                                         .dataType= QNN_DATATYPE_FLOAT_32,
                                         .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                                                            QNN_QUANTIZATION_ENCODING_UNDEFINED,
                                                            {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
                                         .rank= 1,
                                         .dimensions=dimensions_fc1_bias,
                                         .memType= QNN_TENSORMEMTYPE_RAW,
                                         {.clientBuf= { .data=BINVARSTART(fc1_bias),
                                                            .dataSize=BINLEN(fc1_bias)}}}}}
  ), err);

  /* ADDING NODE FOR fc1 */
  const char*  inputs_fc1[] = {
    "flat",
    "fc1_weight",
    "fc1_bias"
  };
  uint32_t dimensions_logits[] = {1, 10};
  Qnn_Tensor_t outputs_fc1[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "logits",
          .type= QNN_TENSOR_TYPE_APP_READ,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 2,
          .dimensions=dimensions_logits,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                             .dataSize=0}}}}}
  };
  VALIDATE(small_cnn.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                             "fc1", // Node Name
                             "qti.aisw", // Package Name
                             "FullyConnected", // Qnn Node Type
                             nullptr, // Node Params
                             0, // Num Node Params
                             inputs_fc1, // Input Tensor Names
                             3, // Num Input Tensor Names
                             outputs_fc1, // Output Tensors 
                             1// Num Output Tensors 
  ), err);

  /* ADDING NODE FOR softmax */
  Qnn_Param_t params_softmax[] = {
    {.paramType=QNN_PARAMTYPE_SCALAR,
     .name="axis",
     {.scalarParam= (Qnn_Scalar_t) {QNN_DATATYPE_UINT_32, {.uint32Value = 1}}}},
    {.paramType=QNN_PARAMTYPE_SCALAR,
     .name="beta",
     {.scalarParam= (Qnn_Scalar_t) {QNN_DATATYPE_FLOAT_32, {.floatValue = 1.000000000000f}}}}
  };
  const char*  inputs_softmax[] = {
    "logits"
  };
  uint32_t dimensions_probs[] = {1, 10};
  Qnn_Tensor_t outputs_softmax[] = {
    (Qnn_Tensor_t) {
        .version= QNN_TENSOR_VERSION_1,
        {.v1= {
          .id=0,
          .name= "probs",
          .type= QNN_TENSOR_TYPE_APP_READ,
          .dataFormat= QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER,
          .dataType= QNN_DATATYPE_FLOAT_32,
          .quantizeParams= { QNN_DEFINITION_UNDEFINED,
                             QNN_QUANTIZATION_ENCODING_UNDEFINED,
                             {.scaleOffsetEncoding= {.scale= 0.0000000000000000f, .offset= 0}}},
          .rank= 2,
          .dimensions=dimensions_probs,
          .memType= QNN_TENSORMEMTYPE_RAW,
          {.clientBuf= { .data=nullptr,
                             .dataSize=0}}}}}
  };
  VALIDATE(small_cnn.addNode(QNN_OPCONFIG_VERSION_1, // Op_Config_t Version
                             "softmax", // Node Name
                             "qti.aisw", // Package Name
                             "Softmax", // Qnn Node Type
                             params_softmax, // Node Params
                             2, // Num Node Params
                             inputs_softmax, // Input Tensor Names
                             1, // Num Input Tensor Names
                             outputs_softmax, // Output Tensors 
                             1// Num Output Tensors 
  ), err);


  // Add all models to array to get graphsInfo
  QnnModel* models [] = {&small_cnn};
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
