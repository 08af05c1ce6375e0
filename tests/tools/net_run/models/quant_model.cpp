// Test model "quant": one graph with a single uint8 fixed-point input
// "q_in" [4] (scale 0.05, offset -100, i.e. real = 0.05 * (q - 100)) and
// "q_out" = relu(q_in) with the same encoding. Exported with the prefix
// "Quant" to exercise --model_prefix.
#include "tests/tools/net_run/models/model_builder.h"

extern "C" __attribute__((visibility("default"))) ModelError_t Quant_composeGraphs(
    Qnn_BackendHandle_t, QNN_INTERFACE_VER_TYPE api, Qnn_ContextHandle_t ctx, const GraphConfigInfo_t** cfgs,
    const uint32_t numCfgs, GraphInfoPtr_t** graphsInfo, uint32_t* numGraphsInfo, bool debug, QnnLog_Callback_t,
    QnnLog_Level_t) {
  testmodel::Builder b(api, ctx, "quant", debug, cfgs, numCfgs);
  auto u8 = QNN_DATATYPE_UFIXED_POINT_8;
  auto in = b.tensor("q_in", QNN_TENSOR_TYPE_APP_WRITE, u8, {4}, 0.05f, -100);
  auto out = b.tensor("q_out", QNN_TENSOR_TYPE_APP_READ, u8, {4}, 0.05f, -100);
  b.node("relu_q", QNN_OP_RELU, {in}, out);
  return testmodel::returnOneGraph(b, "quant", graphsInfo, numGraphsInfo);
}

extern "C" __attribute__((visibility("default"))) ModelError_t Quant_freeGraphsInfo(GraphInfoPtr_t** graphsInfo,
                                                                                   uint32_t numGraphsInfo) {
  return testmodel::freeGraphs(graphsInfo, numGraphsInfo);
}

// The same graph under the default prefix, so it can join a comma list of models.
extern "C" __attribute__((visibility("default"))) ModelError_t QnnModel_composeGraphs(
    Qnn_BackendHandle_t backend, QNN_INTERFACE_VER_TYPE api, Qnn_ContextHandle_t ctx, const GraphConfigInfo_t** cfgs,
    const uint32_t numCfgs, GraphInfoPtr_t** graphsInfo, uint32_t* numGraphsInfo, bool debug, QnnLog_Callback_t cb,
    QnnLog_Level_t level) {
  return Quant_composeGraphs(backend, api, ctx, cfgs, numCfgs, graphsInfo, numGraphsInfo, debug, cb, level);
}

extern "C" __attribute__((visibility("default"))) ModelError_t QnnModel_freeGraphsInfo(GraphInfoPtr_t** graphsInfo,
                                                                                      uint32_t numGraphsInfo) {
  return testmodel::freeGraphs(graphsInfo, numGraphsInfo);
}
