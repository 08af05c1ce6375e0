#include "tools/qnn-platform-validator/validation_graph.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "QnnContext.h"
#include "QnnGraph.h"
#include "QnnOpDef.h"
#include "QnnTensor.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

constexpr uint32_t kElements = 4;

// The context is freed (with its graph) on every path out.
struct ContextGuard {
  const QNN_INTERFACE_VER_TYPE& api;
  Qnn_ContextHandle_t handle = nullptr;
  ~ContextGuard() {
    if (handle && api.contextFree) api.contextFree(handle, nullptr);
  }
};

Qnn_Tensor_t makeTensor(const char* name, Qnn_TensorType_t type, ValidationGraphKind kind, uint32_t* dims) {
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.name = name;
  t.v1.type = type;
  t.v1.rank = 2;
  t.v1.dimensions = dims;
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  if (kind == ValidationGraphKind::Float32) {
    t.v1.dataType = QNN_DATATYPE_FLOAT_32;
  } else {
    // real = scale * (q + offset): 0.1 steps from 0.
    t.v1.dataType = QNN_DATATYPE_UFIXED_POINT_8;
    t.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
    t.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
    t.v1.quantizeParams.scaleOffsetEncoding.scale = 0.1f;
    t.v1.quantizeParams.scaleOffsetEncoding.offset = 0;
  }
  return t;
}

}  // namespace

std::string runValidationGraph(const QnnBackend& backend, ValidationGraphKind kind, bool checkValues) {
  const QNN_INTERFACE_VER_TYPE& api = backend.api();
  if (!api.contextCreate || !api.graphCreate || !api.tensorCreateGraphTensor || !api.graphAddNode ||
      !api.graphFinalize || !api.graphExecute)
    return "the backend's function table lacks a context or graph entry";
  auto failed = [&](Qnn_ErrorHandle_t st, const char* call) -> std::string {
    return st == QNN_SUCCESS ? std::string() : std::string(call) + " failed: " + backend.describe(st);
  };
  ContextGuard context{api};
  std::string error = failed(api.contextCreate(backend.backend(), backend.device(), nullptr, &context.handle),
                             "QnnContext_create");
  if (!error.empty()) return error;
  Qnn_GraphHandle_t graph = nullptr;
  if (!(error = failed(api.graphCreate(context.handle, "platform_validator", nullptr, &graph), "QnnGraph_create"))
           .empty())
    return error;

  uint32_t dims[3][2] = {{1, kElements}, {1, kElements}, {1, kElements}};
  Qnn_Tensor_t tensors[3] = {makeTensor("a", QNN_TENSOR_TYPE_APP_WRITE, kind, dims[0]),
                             makeTensor("b", QNN_TENSOR_TYPE_APP_WRITE, kind, dims[1]),
                             makeTensor("sum", QNN_TENSOR_TYPE_APP_READ, kind, dims[2])};
  for (Qnn_Tensor_t& t : tensors)
    if (!(error = failed(api.tensorCreateGraphTensor(graph, &t), "QnnTensor_createGraphTensor")).empty())
      return error;

  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1.name = "add";
  op.v1.packageName = QNN_OP_PACKAGE_NAME_QTI_AISW;
  op.v1.typeName = QNN_OP_ELEMENT_WISE_ADD;
  op.v1.numOfInputs = 2;
  op.v1.inputTensors = tensors;
  op.v1.numOfOutputs = 1;
  op.v1.outputTensors = &tensors[2];
  if (!(error = failed(api.graphAddNode(graph, op), "QnnGraph_addNode")).empty()) return error;
  if (!(error = failed(api.graphFinalize(graph, nullptr, nullptr), "QnnGraph_finalize")).empty()) return error;

  // a = 1, 2, 3, 4; b = 0.5 each; the sum is exact in both kinds (uint8: 10 + 5 = 15 steps of 0.1).
  const float a[kElements] = {1.f, 2.f, 3.f, 4.f};
  const float b = 0.5f;
  std::vector<uint8_t> bufA, bufB, bufOut;
  const size_t elemBytes = kind == ValidationGraphKind::Float32 ? 4 : 1;
  bufA.resize(kElements * elemBytes);
  bufB.resize(kElements * elemBytes);
  bufOut.assign(kElements * elemBytes, 0xFF);
  for (uint32_t i = 0; i < kElements; ++i) {
    if (kind == ValidationGraphKind::Float32) {
      std::memcpy(&bufA[i * 4], &a[i], 4);
      std::memcpy(&bufB[i * 4], &b, 4);
    } else {
      bufA[i] = static_cast<uint8_t>(std::lround(a[i] / 0.1f));
      bufB[i] = static_cast<uint8_t>(std::lround(b / 0.1f));
    }
  }
  Qnn_Tensor_t inputs[2] = {tensors[0], tensors[1]};
  Qnn_Tensor_t output = tensors[2];
  inputs[0].v1.clientBuf = {bufA.data(), static_cast<uint32_t>(bufA.size())};
  inputs[1].v1.clientBuf = {bufB.data(), static_cast<uint32_t>(bufB.size())};
  output.v1.clientBuf = {bufOut.data(), static_cast<uint32_t>(bufOut.size())};
  if (!(error = failed(api.graphExecute(graph, inputs, 2, &output, 1, nullptr, nullptr), "QnnGraph_execute")).empty())
    return error;
  if (!checkValues) return "";

  for (uint32_t i = 0; i < kElements; ++i) {
    float got = 0.f;
    if (kind == ValidationGraphKind::Float32)
      std::memcpy(&got, &bufOut[i * 4], 4);
    else
      got = bufOut[i] * 0.1f;
    if (std::fabs(got - (a[i] + b)) > 1e-4f)
      return "the graph ran but output " + std::to_string(i) + " is " + std::to_string(got) + ", expected " +
             std::to_string(a[i] + b);
  }
  return "";
}

}  // namespace qnn::tools
