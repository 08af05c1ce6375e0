// QnnModel: graph construction through a backend's QNN interface table.
#include "QnnModel.hpp"

#include <cstring>
#include <new>

#include "QnnTypeMacros.hpp"

namespace qnn_wrapper_api {

namespace {

// Runs f, turning any exception into an error code: these members run inside
// QnnModel_composeGraphs, and no exception may cross that C boundary.
template <typename F>
ModelError_t guarded(const char* what, F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    PRINT_ERROR("QnnModel::%s(): out of memory\n", what);
    return MODEL_MEMORY_ALLOCATE_ERROR;
  } catch (...) {
    PRINT_ERROR("QnnModel::%s(): unexpected exception\n", what);
    return MODEL_UNKNOWN_ERROR;
  }
}

// Bytes per element of the data types a static tensor may carry; 0 if unknown.
size_t elementSize(Qnn_DataType_t t) {
  switch (t) {
    case QNN_DATATYPE_INT_8: case QNN_DATATYPE_UINT_8: case QNN_DATATYPE_SFIXED_POINT_8:
    case QNN_DATATYPE_UFIXED_POINT_8: case QNN_DATATYPE_BOOL_8:
    case QNN_DATATYPE_FLOAT_8:
    case QNN_DATATYPE_INT_2: case QNN_DATATYPE_UINT_2: case QNN_DATATYPE_SFIXED_POINT_2: case QNN_DATATYPE_UFIXED_POINT_2:
    case QNN_DATATYPE_INT_4: case QNN_DATATYPE_UINT_4: case QNN_DATATYPE_SFIXED_POINT_4: case QNN_DATATYPE_UFIXED_POINT_4:
    case QNN_DATATYPE_FLOAT_4:  // packed: see staticDataBytes
      return 1;
    case QNN_DATATYPE_INT_16: case QNN_DATATYPE_UINT_16: case QNN_DATATYPE_FLOAT_16:
    case QNN_DATATYPE_SFIXED_POINT_16: case QNN_DATATYPE_UFIXED_POINT_16:
      return 2;
    case QNN_DATATYPE_INT_32: case QNN_DATATYPE_UINT_32: case QNN_DATATYPE_FLOAT_32:
    case QNN_DATATYPE_SFIXED_POINT_32: case QNN_DATATYPE_UFIXED_POINT_32:
      return 4;
    case QNN_DATATYPE_INT_64: case QNN_DATATYPE_UINT_64:
      return 8;
    default:
      return 0;
  }
}

// Bytes of static data the dims need: 4-bit values are packed two per byte, 2-bit four.
unsigned long long staticDataBytes(Qnn_DataType_t t, unsigned long long elements) {
  switch (t) {
    case QNN_DATATYPE_SFIXED_POINT_4: case QNN_DATATYPE_UFIXED_POINT_4: case QNN_DATATYPE_INT_4:
    case QNN_DATATYPE_UINT_4: case QNN_DATATYPE_FLOAT_4:
      return (elements + 1) / 2;
    case QNN_DATATYPE_SFIXED_POINT_2: case QNN_DATATYPE_UFIXED_POINT_2: case QNN_DATATYPE_INT_2:
    case QNN_DATATYPE_UINT_2:
      return (elements + 3) / 4;
    default: break;
  }
  return elements * elementSize(t);
}

const char* orUnnamed(const char* s) { return s ? s : "(null)"; }

}  // namespace

QnnModel::~QnnModel() { freeTensors(); }

ModelError_t QnnModel::initialize(const Qnn_BackendHandle_t& backendHandle,
                                  const QNN_INTERFACE_VER_TYPE& qnnInterface,
                                  const Qnn_ContextHandle_t& context, const char* graphName,
                                  bool debug, uint8_t doNodeValidations,
                                  const QnnGraph_Config_t** graphConfigs) {
  return guarded("initialize", [&]() -> ModelError_t {
    if (backendHandle == nullptr || context == nullptr) {
      PRINT_ERROR("QnnModel::initialize(): null %s handle\n", backendHandle ? "context" : "backend");
      return MODEL_CONTEXT_ERROR;
    }
    if (graphName == nullptr) {
      PRINT_ERROR("QnnModel::initialize(): null graph name\n");
      return MODEL_GRAPH_ERROR;
    }
    if (!m_graphName.empty()) {
      PRINT_ERROR("QnnModel::initialize(): this model already holds graph %s\n", m_graphName.c_str());
      return MODEL_GRAPH_ERROR;
    }
    if (qnnInterface.graphCreate == nullptr) {
      PRINT_ERROR("QnnModel::initialize(): the interface has no graphCreate\n");
      return MODEL_SETUP_ERROR;
    }
    Qnn_GraphHandle_t graph = nullptr;
    if (qnnInterface.graphCreate(context, graphName, graphConfigs, &graph) != QNN_GRAPH_NO_ERROR ||
        graph == nullptr) {
      PRINT_ERROR("QnnModel::initialize(): the backend could not create graph %s\n", graphName);
      return MODEL_GRAPH_ERROR;
    }
    m_qnnInterface = qnnInterface;
    m_backendHandle = backendHandle;
    m_graph = graph;
    m_graphName = graphName;
    m_debug = debug;
    m_doNodeValidations = doNodeValidations != 0;
    if (!m_doNodeValidations) {
      PRINT_WARNING("graph %s: node validation disabled, ops are not validated before addNode\n", graphName);
    }
    return MODEL_NO_ERROR;
  });
}

ModelError_t QnnModel::addTensor(const char* nodeName, Qnn_Tensor_t* tensor, bool saveTensor) {
  return guarded("addTensor", [&] { return addTensorImpl(nodeName, tensor, saveTensor); });
}

ModelError_t QnnModel::addTensor(const char* nodeName, Qnn_Tensor_t tensor, bool saveTensor) {
  return addTensor(nodeName, &tensor, saveTensor);
}

ModelError_t QnnModel::addTensorImpl(const char* nodeName, Qnn_Tensor_t* tensor, bool saveTensor) {
  if (tensor == nullptr) {
    PRINT_ERROR("QnnModel::addTensor(): null tensor for node %s\n", orUnnamed(nodeName));
    return MODEL_TENSOR_ERROR;
  }
  if (m_graph == nullptr) {
    PRINT_ERROR("QnnModel::addTensor(): initialize() has not created a graph\n");
    return MODEL_GRAPH_ERROR;
  }
  if (tensor->version != QNN_TENSOR_VERSION_1 && tensor->version != QNN_TENSOR_VERSION_2) {
    PRINT_ERROR("QnnModel::addTensor(): unknown tensor version %d on node %s\n",
                static_cast<int>(tensor->version), orUnnamed(nodeName));
    return MODEL_TENSOR_ERROR;
  }
  const char* rawName = QNN_TENSOR_GET_NAME(tensor);
  if (rawName == nullptr) {
    PRINT_ERROR("QnnModel::addTensor(): unnamed tensor on node %s\n", orUnnamed(nodeName));
    return MODEL_TENSOR_ERROR;
  }
  const std::string name(rawName);
  if (m_tensors.count(name) != 0) {
    PRINT_ERROR("QnnModel::addTensor(): tensor %s (node %s) already exists\n", rawName, orUnnamed(nodeName));
    return MODEL_TENSOR_ERROR;
  }
  const size_t elemSize = elementSize(QNN_TENSOR_GET_DATA_TYPE(tensor));
  if (elemSize == 0) {
    PRINT_ERROR("QnnModel::addTensor(): tensor %s has unsupported data type 0x%x\n", rawName,
                static_cast<unsigned>(QNN_TENSOR_GET_DATA_TYPE(tensor)));
    return MODEL_TENSOR_ERROR;
  }
  if (QNN_TENSOR_GET_TYPE(tensor) == QNN_TENSOR_TYPE_STATIC ||
      QNN_TENSOR_GET_TYPE(tensor) == QNN_TENSOR_TYPE_UPDATEABLE_STATIC) {
    // Catch a weight blob that does not match its declared shape here, with the
    // tensor's name, rather than as an unexplained backend error.
    if (QNN_TENSOR_GET_MEM_TYPE(tensor) != QNN_TENSORMEMTYPE_RAW) {
      PRINT_ERROR("QnnModel::addTensor(): static tensor %s must use raw memory\n", rawName);
      return MODEL_TENSOR_ERROR;
    }
    unsigned long long elements = 1;
    for (uint32_t i = 0; i < QNN_TENSOR_GET_RANK(tensor); ++i) elements *= QNN_TENSOR_GET_DIMENSIONS(tensor)[i];
    const unsigned long long expected = staticDataBytes(QNN_TENSOR_GET_DATA_TYPE(tensor), elements);
    const uint32_t actual = QNN_TENSOR_GET_CLIENT_BUF(tensor).dataSize;
    if (expected != actual) {
      PRINT_ERROR("QnnModel::addTensor(): static tensor %s (node %s) has %u bytes of data, its dims need %llu\n",
                  rawName, orUnnamed(nodeName), actual, expected);
      return MODEL_TENSOR_ERROR;
    }
  }
  if (m_debug && QNN_TENSOR_GET_TYPE(tensor) == QNN_TENSOR_TYPE_NATIVE) {
    QNN_TENSOR_SET_TYPE(tensor, QNN_TENSOR_TYPE_APP_READ);
  }
  if (m_qnnInterface.tensorCreateGraphTensor == nullptr ||
      m_qnnInterface.tensorCreateGraphTensor(m_graph, tensor) != QNN_TENSOR_NO_ERROR) {
    PRINT_ERROR("QnnModel::addTensor(): the backend rejected tensor %s (node %s)\n", rawName, orUnnamed(nodeName));
    return MODEL_TENSOR_ERROR;
  }
  if (!saveTensor) return MODEL_NO_ERROR;

  Qnn_Tensor_t copy;
  ModelError_t err = deepCopyQnnTensors(*tensor, copy);
  if (err != MODEL_NO_ERROR) return err;
  try {
    // Reserve the list slot first so the map insert is the last thing that can throw.
    const Qnn_TensorType_t type = QNN_TENSOR_GET_TYPE(copy);
    const bool input = type == QNN_TENSOR_TYPE_APP_WRITE || type == QNN_TENSOR_TYPE_UPDATEABLE_APP_WRITE;
    const bool output = type == QNN_TENSOR_TYPE_APP_READ || type == QNN_TENSOR_TYPE_UPDATEABLE_APP_READ;
    if (input) m_inputNames.push_back(name);
    if (output) m_outputNames.push_back(name);
    try {
      m_tensors.emplace(name, copy);
    } catch (...) {
      if (input) m_inputNames.pop_back();
      if (output) m_outputNames.pop_back();
      throw;
    }
  } catch (...) {
    freeQnnTensor(copy);
    throw;
  }
  return MODEL_NO_ERROR;
}

ModelError_t QnnModel::getQnnTensor(const char*& nodeName, const char*& tensorName, Qnn_Tensor_t& tensor) {
  return guarded("getQnnTensor", [&] {
    return getQnnTensor(std::string(orUnnamed(nodeName)), std::string(orUnnamed(tensorName)), tensor);
  });
}

ModelError_t QnnModel::getQnnTensor(std::string nodeName, std::string tensorName, Qnn_Tensor_t& tensor) {
  auto it = m_tensors.find(tensorName);
  if (it == m_tensors.end()) {
    PRINT_ERROR("QnnModel::getQnnTensor(): no tensor %s (node %s)\n", tensorName.c_str(), nodeName.c_str());
    return MODEL_TENSOR_ERROR;
  }
  tensor = it->second;
  return MODEL_NO_ERROR;
}

ModelError_t QnnModel::addNode(Qnn_OpConfigVersion_t version, const char* name, const char* packageName,
                               const char* type, Qnn_Param_t* params, uint32_t numOfParams,
                               const char** inputNames, uint32_t numOfInputs, Qnn_Tensor_t* outputTensors,
                               uint32_t numOfOutputs) {
  return guarded("addNode", [&]() -> ModelError_t {
    if (numOfInputs != 0 && inputNames == nullptr) {
      PRINT_ERROR("QnnModel::addNode(): node %s: null input name list\n", orUnnamed(name));
      return MODEL_NODES_ERROR;
    }
    std::vector<const char*> names(inputNames, inputNames + numOfInputs);
    return addNodeImpl(version, name, packageName, type, params, numOfParams, names, outputTensors, numOfOutputs);
  });
}

ModelError_t QnnModel::addNode(Qnn_OpConfigVersion_t version, const char* name, const char* packageName,
                               const char* type, Qnn_Param_t* params, uint32_t numOfParams,
                               std::vector<std::string> inputNames, uint32_t numOfInputs,
                               Qnn_Tensor_t* outputTensors, uint32_t numOfOutputs) {
  return guarded("addNode", [&]() -> ModelError_t {
    if (numOfInputs > inputNames.size()) {
      PRINT_ERROR("QnnModel::addNode(): node %s: %u inputs announced, %zu named\n", orUnnamed(name),
                  numOfInputs, inputNames.size());
      return MODEL_NODES_ERROR;
    }
    std::vector<const char*> names;
    for (uint32_t i = 0; i < numOfInputs; ++i) names.push_back(inputNames[i].c_str());
    return addNodeImpl(version, name, packageName, type, params, numOfParams, names, outputTensors, numOfOutputs);
  });
}

ModelError_t QnnModel::addNodeImpl(Qnn_OpConfigVersion_t version, const char* name, const char* packageName,
                                   const char* type, const Qnn_Param_t* params, uint32_t numOfParams,
                                   const std::vector<const char*>& inputNames, Qnn_Tensor_t* outputTensors,
                                   uint32_t numOfOutputs) {
  if (version != QNN_OPCONFIG_VERSION_1) {
    PRINT_ERROR("QnnModel::addNode(): node %s: unknown op config version %d\n", orUnnamed(name),
                static_cast<int>(version));
    return MODEL_NODES_ERROR;
  }
  if (name == nullptr || packageName == nullptr || type == nullptr ||
      (numOfParams != 0 && params == nullptr) || (numOfOutputs != 0 && outputTensors == nullptr)) {
    PRINT_ERROR("QnnModel::addNode(): node %s: null name, package, type, params or outputs\n", orUnnamed(name));
    return MODEL_NODES_ERROR;
  }
  ModelError_t err = MODEL_NO_ERROR;

  // Params are copied so the caller's array is left as it was; tensor params become
  // static graph tensors that nothing else refers to, hence not saved.
  std::vector<Qnn_Param_t> nodeParams(params, params + numOfParams);
  for (Qnn_Param_t& p : nodeParams) {
    if (p.paramType == QNN_PARAMTYPE_TENSOR) {
      err = addTensorImpl(name, &p.tensorParam, false);
      if (err != MODEL_NO_ERROR) {
        PRINT_ERROR("QnnModel::addNode(): node %s: tensor param %s failed\n", name, orUnnamed(p.name));
        return err;
      }
    } else if (p.paramType != QNN_PARAMTYPE_SCALAR) {
      PRINT_ERROR("QnnModel::addNode(): node %s: param %s has unknown type %d\n", name, orUnnamed(p.name),
                  static_cast<int>(p.paramType));
      return MODEL_PARAMS_ERROR;
    }
  }

  std::vector<Qnn_Tensor_t> inputs(inputNames.size());
  for (size_t i = 0; i < inputNames.size(); ++i) {
    err = getQnnTensor(name, orUnnamed(inputNames[i]), inputs[i]);
    if (err != MODEL_NO_ERROR) return err;
  }

  std::vector<Qnn_Tensor_t> outputs(numOfOutputs);
  std::vector<std::string>& produced = m_outputTensorMap[name];
  for (uint32_t k = 0; k < numOfOutputs; ++k) {
    Qnn_Tensor_t out = outputTensors[k];  // addTensor writes the id into its argument
    err = addTensorImpl(name, &out, true);
    if (err != MODEL_NO_ERROR) return err;
    const char* outName = QNN_TENSOR_GET_NAME(out);
    produced.push_back(outName);
    err = getQnnTensor(name, outName, outputs[k]);
    if (err != MODEL_NO_ERROR) return err;
  }

  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.version = version;
  QNN_OP_CFG_SET_NAME(op, name);
  QNN_OP_CFG_SET_PACKAGE_NAME(op, packageName);
  QNN_OP_CFG_SET_TYPE_NAME(op, type);
  QNN_OP_CFG_SET_PARAMS(op, numOfParams, nodeParams.empty() ? nullptr : nodeParams.data());
  QNN_OP_CFG_SET_INPUTS(op, static_cast<uint32_t>(inputs.size()), inputs.empty() ? nullptr : inputs.data());
  QNN_OP_CFG_SET_OUTPUTS(op, numOfOutputs, outputs.empty() ? nullptr : outputs.data());

  if (m_doNodeValidations && m_qnnInterface.backendValidateOpConfig != nullptr) {
    const Qnn_ErrorHandle_t status = m_qnnInterface.backendValidateOpConfig(m_backendHandle, op);
    // A backend that cannot validate says NOT_SUPPORTED; graphAddNode still checks the node.
    if (status != QNN_SUCCESS && status != QNN_BACKEND_ERROR_NOT_SUPPORTED) {
      PRINT_ERROR("QnnModel::addNode(): the backend rejected node %s (%s, error %llu)\n", name, type,
                  static_cast<unsigned long long>(status));
      return MODEL_NODES_ERROR;
    }
  }
  if (m_qnnInterface.graphAddNode == nullptr || m_qnnInterface.graphAddNode(m_graph, op) != QNN_GRAPH_NO_ERROR) {
    PRINT_ERROR("QnnModel::addNode(): the backend could not add node %s (%s)\n", name, type);
    return MODEL_NODES_ERROR;
  }
  return MODEL_NO_ERROR;
}

std::vector<Qnn_Tensor_t> QnnModel::getGraphInputTensors() {
  std::vector<Qnn_Tensor_t> out;
  for (const std::string& n : m_inputNames) {
    auto it = m_tensors.find(n);
    if (it != m_tensors.end()) out.push_back(it->second);
  }
  return out;
}

std::vector<Qnn_Tensor_t> QnnModel::getGraphOutputTensors() {
  std::vector<Qnn_Tensor_t> out;
  for (const std::string& n : m_outputNames) {
    auto it = m_tensors.find(n);
    if (it != m_tensors.end()) out.push_back(it->second);
  }
  return out;
}

ModelError_t QnnModel::finalize(Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal) {
  return guarded("finalize", [&]() -> ModelError_t {
    if (m_graph == nullptr || m_qnnInterface.graphFinalize == nullptr ||
        m_qnnInterface.graphFinalize(m_graph, profile, signal) != QNN_GRAPH_NO_ERROR) {
      PRINT_ERROR("QnnModel::finalize(): finalizing graph %s failed\n", m_graphName.c_str());
      return MODEL_GRAPH_ERROR;
    }
    return MODEL_NO_ERROR;
  });
}

bool QnnModel::isGraphIo(const std::string& name) const {
  for (const std::string& n : m_inputNames)
    if (n == name) return true;
  for (const std::string& n : m_outputNames)
    if (n == name) return true;
  return false;
}

ModelError_t QnnModel::freeCachedTensors() {
  for (auto it = m_tensors.begin(); it != m_tensors.end();) {
    if (isGraphIo(it->first)) {
      ++it;
      continue;
    }
    freeQnnTensor(it->second);
    it = m_tensors.erase(it);
  }
  return MODEL_NO_ERROR;
}

ModelError_t QnnModel::freeTensors() {
  for (auto& entry : m_tensors) freeQnnTensor(entry.second);
  m_tensors.clear();
  m_inputNames.clear();
  m_outputNames.clear();
  return MODEL_NO_ERROR;
}

ModelError_t QnnModel::clearGraph() {
  freeTensors();
  m_outputTensorMap.clear();
  m_graph = nullptr;
  m_graphName.clear();
  return MODEL_NO_ERROR;
}

}  // namespace qnn_wrapper_api
