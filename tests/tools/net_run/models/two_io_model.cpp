// Test model "two_io": inputs x, y (float32 [2,3]); sum = x + y and
// prod = x * y are intermediates; outputs "out/relu:0" = relu(sum) and
// "diff" = prod - y. Four ops; the odd output name checks name sanitizing.
#include "tests/tools/net_run/models/model_builder.h"

extern "C" __attribute__((visibility("default"))) ModelError_t QnnModel_composeGraphs(
    Qnn_BackendHandle_t, QNN_INTERFACE_VER_TYPE api, Qnn_ContextHandle_t ctx, const GraphConfigInfo_t** cfgs,
    const uint32_t numCfgs, GraphInfoPtr_t** graphsInfo, uint32_t* numGraphsInfo, bool debug, QnnLog_Callback_t,
    QnnLog_Level_t) {
  testmodel::Builder b(api, ctx, "two_io", debug, cfgs, numCfgs);
  auto f = QNN_DATATYPE_FLOAT_32;
  auto x = b.tensor("x", QNN_TENSOR_TYPE_APP_WRITE, f, {2, 3});
  auto y = b.tensor("y", QNN_TENSOR_TYPE_APP_WRITE, f, {2, 3});
  auto sum = b.tensor("sum", QNN_TENSOR_TYPE_NATIVE, f, {2, 3});
  auto prod = b.tensor("prod", QNN_TENSOR_TYPE_NATIVE, f, {2, 3});
  auto relu = b.tensor("out/relu:0", QNN_TENSOR_TYPE_APP_READ, f, {2, 3});
  auto diff = b.tensor("diff", QNN_TENSOR_TYPE_APP_READ, f, {2, 3});
  b.node("add", QNN_OP_ELEMENT_WISE_ADD, {x, y}, sum);
  b.node("mul", QNN_OP_ELEMENT_WISE_MULTIPLY, {x, y}, prod);
  b.node("relu", QNN_OP_RELU, {sum}, relu);
  b.node("sub", QNN_OP_ELEMENT_WISE_SUBTRACT, {prod, y}, diff);
  return testmodel::returnOneGraph(b, "two_io", graphsInfo, numGraphsInfo);
}

extern "C" __attribute__((visibility("default"))) ModelError_t QnnModel_freeGraphsInfo(GraphInfoPtr_t** graphsInfo,
                                                                                      uint32_t numGraphsInfo) {
  return testmodel::freeGraphs(graphsInfo, numGraphsInfo);
}
