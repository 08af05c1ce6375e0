// A client that exits without freeing anything after registering an op package
// and finalizing a graph that uses it. At exit the backend library's registry
// destroys the leftovers after the package library's static destructors ran,
// so the runtime must not call into the package then (freeOpImpl, terminate).
// Passes when the process exits cleanly with status 0.
#include <cstdio>

#include "tests/api/backend_loader.h"

int main() {
  static qnn::test::LoadedBackend cpu(qnn::test::cpuBackendPath());
  if (!cpu.ok()) return std::fprintf(stderr, "%s\n", cpu.error().c_str()), 1;
  const auto& api = cpu.api();
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t context = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  if (api.backendCreate(nullptr, nullptr, &backend) != QNN_SUCCESS ||
      api.backendRegisterOpPackage(backend, TEST_CPU_PACKAGE, "OpenQnnTestCpuPackageInterfaceProvider", nullptr) !=
          QNN_SUCCESS ||
      api.contextCreate(backend, nullptr, nullptr, &context) != QNN_SUCCESS ||
      api.graphCreate(context, "g", nullptr, &graph) != QNN_SUCCESS)
    return 2;
  qnn::test::TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {4});
  qnn::test::TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {4});
  if (api.tensorCreateGraphTensor(graph, &x.tensor) != QNN_SUCCESS ||
      api.tensorCreateGraphTensor(graph, &y.tensor) != QNN_SUCCESS)
    return 3;
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1.name = "soft";
  op.v1.packageName = "openqnn.test.CpuPackage";
  op.v1.typeName = "ScaledSoftsign";
  op.v1.numOfInputs = 1;
  op.v1.inputTensors = &x.tensor;
  op.v1.numOfOutputs = 1;
  op.v1.outputTensors = &y.tensor;
  if (api.graphAddNode(graph, op) != QNN_SUCCESS || api.graphFinalize(graph, nullptr, nullptr) != QNN_SUCCESS)
    return 4;
  return 0;  // no graph, context or backend free on purpose
}
