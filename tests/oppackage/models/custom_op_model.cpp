// Test model "custom": input x (float32 [2,3]); soft = ScaledSoftsign(x, alpha 2)
// from the test op package, then the built-in add: out = soft + x. The model
// only names the package; the tools register it with --op_packages.
#include "tests/tools/net_run/models/model_builder.h"

namespace {

bool addSoftsign(testmodel::Builder& b, Qnn_Tensor_t in, Qnn_Tensor_t out) {
  Qnn_Param_t alpha = QNN_PARAM_INIT;
  alpha.paramType = QNN_PARAMTYPE_SCALAR;
  alpha.name = "alpha";
  alpha.scalarParam.dataType = QNN_DATATYPE_FLOAT_32;
  alpha.scalarParam.floatValue = 2.0f;
  Qnn_OpConfig_t cfg = QNN_OPCONFIG_INIT;
  cfg.v1.name = "softsign";
  cfg.v1.packageName = "openqnn.test.CpuPackage";
  cfg.v1.typeName = "ScaledSoftsign";
  cfg.v1.numOfParams = 1;
  cfg.v1.params = &alpha;
  cfg.v1.numOfInputs = 1;
  cfg.v1.inputTensors = &in;
  cfg.v1.numOfOutputs = 1;
  cfg.v1.outputTensors = &out;
  return b.api.graphAddNode(b.graph, cfg) == QNN_SUCCESS;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) ModelError_t QnnModel_composeGraphs(
    Qnn_BackendHandle_t, QNN_INTERFACE_VER_TYPE api, Qnn_ContextHandle_t ctx, const GraphConfigInfo_t** cfgs,
    const uint32_t numCfgs, GraphInfoPtr_t** graphsInfo, uint32_t* numGraphsInfo, bool debug, QnnLog_Callback_t,
    QnnLog_Level_t) {
  testmodel::Builder b(api, ctx, "custom", debug, cfgs, numCfgs);
  auto f = QNN_DATATYPE_FLOAT_32;
  auto x = b.tensor("x", QNN_TENSOR_TYPE_APP_WRITE, f, {2, 3});
  auto soft = b.tensor("soft", QNN_TENSOR_TYPE_NATIVE, f, {2, 3});
  auto out = b.tensor("out", QNN_TENSOR_TYPE_APP_READ, f, {2, 3});
  if (b.ok) b.ok = addSoftsign(b, x, soft);
  b.node("add", QNN_OP_ELEMENT_WISE_ADD, {soft, x}, out);
  return testmodel::returnOneGraph(b, "custom", graphsInfo, numGraphsInfo);
}

extern "C" __attribute__((visibility("default"))) ModelError_t QnnModel_freeGraphsInfo(GraphInfoPtr_t** graphsInfo,
                                                                                      uint32_t numGraphsInfo) {
  return testmodel::freeGraphs(graphsInfo, numGraphsInfo);
}
