// A CPU op package written only against the public op package API
// (QnnOpPackage.h, CPU/QnnCpuOpPackage.h), the way packages for the vendor CPU
// backend are written: it keeps pointers to the node's tensors from
// createOpImpl and reads their data pointers at each execute.
//
// Package "openqnn.test.CpuPackage", two ops:
//   ScaledSoftsign  in[0] -> out[0] = alpha * x / (1 + |x|); scalar param "alpha" (default 1)
//   WeightedSum     in[0], in[1] -> out[0] = w[0] * a + w[1] * b; tensor param "weights" (FLOAT_32 [2])
// Also exports OpenQnnTestCpuPackage_stats() so tests can check init/terminate
// and op impl lifetimes.
#include <cmath>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "CPU/QnnCpuOpPackage.h"
#include "QnnOpPackage.h"
#include "QnnSdkBuildId.h"

namespace {

const char* const kPackageName = "openqnn.test.CpuPackage";
const char* kOperationNames[] = {"ScaledSoftsign", "WeightedSum"};

struct PackageOp {
  bool weightedSum = false;
  float alpha = 1.f;
  float weights[2] = {0.f, 0.f};
  QnnCpuOpPackage_Node_t* node = nullptr;  // the backend's, valid until freeOpImpl
};

std::mutex gMutex;
bool gInitialized = false;
int gInits = 0, gTerminates = 0, gLiveImpls = 0, gExecutes = 0;
QnnCpuOpPackage_GlobalInfra_t* gInfra = nullptr;

size_t elementCount(const QnnCpuOpPackage_Tensor_t* t) {
  size_t n = 1;
  for (uint32_t i = 0; i < t->rank; ++i) n *= t->currentDimensions[i];
  return n;
}

Qnn_ErrorHandle_t initialize(QnnOpPackage_GlobalInfrastructure_t infrastructure) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (gInitialized) return QNN_OP_PACKAGE_ERROR_LIBRARY_ALREADY_INITIALIZED;
  if (!infrastructure) return QNN_OP_PACKAGE_ERROR_INVALID_INFRASTRUCTURE;
  gInfra = reinterpret_cast<QnnCpuOpPackage_GlobalInfra_t*>(infrastructure);
  gInitialized = true;
  ++gInits;
  if (gInfra->reportMessage) gInfra->reportMessage(QNN_CPU_MSG_MED, "%s initialized (%d ops)", kPackageName, 2);
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t terminate() {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!gInitialized) return QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED;
  gInitialized = false;
  gInfra = nullptr;
  ++gTerminates;
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t getInfo(const QnnOpPackage_Info_t** info) {
  static const Qnn_ApiVersion_t kApiVersion = QNN_CPU_API_VERSION_INIT;
  static QnnOpPackage_Info_t packageInfo = QNN_OP_PACKAGE_INFO_INIT;
  if (!info) return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  packageInfo.packageName = kPackageName;
  packageInfo.operationNames = kOperationNames;
  packageInfo.numOperations = 2;
  packageInfo.sdkBuildId = QNN_SDK_BUILD_ID;
  packageInfo.sdkApiVersion = &kApiVersion;
  *info = &packageInfo;
  return QNN_SUCCESS;
}

bool isFloatOrQuant8(Qnn_DataType_t t) { return t == QNN_DATATYPE_FLOAT_32 || t == QNN_DATATYPE_UFIXED_POINT_8; }

const Qnn_Param_t* findParam(const Qnn_OpConfigV1_t& op, const char* name) {
  for (uint32_t i = 0; i < op.numOfParams; ++i)
    if (op.params[i].name && std::strcmp(op.params[i].name, name) == 0) return &op.params[i];
  return nullptr;
}

Qnn_ErrorHandle_t validateOpConfig(Qnn_OpConfig_t config) {
  if (config.version != QNN_OPCONFIG_VERSION_1) return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  const Qnn_OpConfigV1_t& op = config.v1;
  if (!op.packageName || std::strcmp(op.packageName, kPackageName) != 0 || !op.typeName)
    return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
  const bool weightedSum = std::strcmp(op.typeName, "WeightedSum") == 0;
  if (!weightedSum && std::strcmp(op.typeName, "ScaledSoftsign") != 0) return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
  if (op.numOfInputs != (weightedSum ? 2u : 1u) || op.numOfOutputs != 1) return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
  for (uint32_t i = 0; i < op.numOfInputs; ++i)
    if (!isFloatOrQuant8(op.inputTensors[i].v1.dataType)) return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
  if (!isFloatOrQuant8(op.outputTensors[0].v1.dataType)) return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
  if (weightedSum) {
    const Qnn_Param_t* w = findParam(op, "weights");
    if (!w || w->paramType != QNN_PARAMTYPE_TENSOR || w->tensorParam.v1.dataType != QNN_DATATYPE_FLOAT_32 ||
        w->tensorParam.v1.rank != 1 || w->tensorParam.v1.dimensions[0] != 2)
      return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
  } else if (const Qnn_Param_t* a = findParam(op, "alpha")) {
    if (a->paramType != QNN_PARAMTYPE_SCALAR || a->scalarParam.dataType != QNN_DATATYPE_FLOAT_32)
      return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
  }
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t execute(void* userData) {
  auto* op = static_cast<PackageOp*>(userData);
  if (!op || !op->node) return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  QnnCpuOpPackage_Tensor_t* out = op->node->outputs[0];
  const size_t n = elementCount(out);
  auto* y = static_cast<float*>(out->data);
  const auto* a = static_cast<const float*>(op->node->inputs[0]->data);
  if (!y || !a) return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  if (op->weightedSum) {
    const auto* b = static_cast<const float*>(op->node->inputs[1]->data);
    if (!b) return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; ++i) y[i] = op->weights[0] * a[i] + op->weights[1] * b[i];
  } else {
    for (size_t i = 0; i < n; ++i) y[i] = op->alpha * a[i] / (1.f + std::fabs(a[i]));
  }
  std::lock_guard<std::mutex> lock(gMutex);
  ++gExecutes;
  return QNN_SUCCESS;
}

const QnnCpuOpPackage_Param_t* nodeParam(const QnnCpuOpPackage_Node_t* node, const char* name) {
  for (uint32_t i = 0; i < node->numOfParams; ++i)
    if (node->params[i]->name && std::strcmp(node->params[i]->name, name) == 0) return node->params[i];
  return nullptr;
}

Qnn_ErrorHandle_t createOpImpl(QnnOpPackage_GraphInfrastructure_t, QnnOpPackage_Node_t node,
                               QnnOpPackage_OpImpl_t* opImpl) {
  auto* cpuNode = reinterpret_cast<QnnCpuOpPackage_Node_t*>(node);
  if (!cpuNode || !opImpl || !cpuNode->typeName) return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  auto* op = new (std::nothrow) PackageOp;
  if (!op) return QNN_OP_PACKAGE_ERROR_GENERAL;
  op->node = cpuNode;
  op->weightedSum = std::strcmp(cpuNode->typeName, "WeightedSum") == 0;
  for (uint32_t i = 0; i < cpuNode->numOfInputs; ++i)
    if (cpuNode->inputs[i]->dataType != QNN_CPU_DATATYPE_FLOAT_32) {
      delete op;
      return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
  if (op->weightedSum) {
    const QnnCpuOpPackage_Param_t* w = nodeParam(cpuNode, "weights");
    if (!w || w->type != QNN_CPU_PARAMTYPE_TENSOR || w->tensorParam->dataType != QNN_CPU_DATATYPE_FLOAT_32) {
      delete op;
      return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
    std::memcpy(op->weights, w->tensorParam->data, sizeof op->weights);
  } else if (const QnnCpuOpPackage_Param_t* a = nodeParam(cpuNode, "alpha")) {
    op->alpha = static_cast<float>(a->scalarParam);
  }
  auto* impl = new (std::nothrow) QnnCpuOpPackage_OpImpl_t;
  if (!impl) {
    delete op;
    return QNN_OP_PACKAGE_ERROR_GENERAL;
  }
  impl->opImplFn = execute;
  impl->userData = op;
  *opImpl = reinterpret_cast<QnnOpPackage_OpImpl_t>(impl);
  std::lock_guard<std::mutex> lock(gMutex);
  ++gLiveImpls;
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t freeOpImpl(QnnOpPackage_OpImpl_t opImpl) {
  auto* impl = reinterpret_cast<QnnCpuOpPackage_OpImpl_t*>(opImpl);
  if (!impl) return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  delete static_cast<PackageOp*>(impl->userData);
  delete impl;
  std::lock_guard<std::mutex> lock(gMutex);
  --gLiveImpls;
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t logInitialize(QnnLog_Callback_t, QnnLog_Level_t) { return QNN_SUCCESS; }
Qnn_ErrorHandle_t logSetLevel(QnnLog_Level_t) { return QNN_SUCCESS; }
Qnn_ErrorHandle_t logTerminate() { return QNN_SUCCESS; }

}  // namespace

extern "C" __attribute__((visibility("default"))) Qnn_ErrorHandle_t OpenQnnTestCpuPackageInterfaceProvider(
    QnnOpPackage_Interface_t* interface) {
  if (!interface) return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  interface->interfaceVersion = QNN_OP_PACKAGE_API_VERSION_1_4_0;
  interface->v1_4.init = initialize;
  interface->v1_4.terminate = terminate;
  interface->v1_4.getInfo = getInfo;
  interface->v1_4.validateOpConfig = validateOpConfig;
  interface->v1_4.createOpImpl = createOpImpl;
  interface->v1_4.freeOpImpl = freeOpImpl;
  interface->v1_4.logInitialize = logInitialize;
  interface->v1_4.logSetLevel = logSetLevel;
  interface->v1_4.logTerminate = logTerminate;
  return QNN_SUCCESS;
}

// Test hook: counters since the library was loaded.
extern "C" __attribute__((visibility("default"))) void OpenQnnTestCpuPackage_stats(int* inits, int* terminates,
                                                                                   int* liveImpls, int* executes) {
  std::lock_guard<std::mutex> lock(gMutex);
  *inits = gInits;
  *terminates = gTerminates;
  *liveImpls = gLiveImpls;
  *executes = gExecutes;
}
