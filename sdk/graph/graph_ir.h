// GraphIR: a backend-neutral copy of what the client built through the API —
// tensors (with static data), nodes (with params) and the graph's configs. It is
// what context binaries store and what each backend prepares into something it
// can execute. The IR owns all of its data; nothing points into client memory.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/op_params.h"
#include "core/shared_bytes.h"
#include "core/tensor_view.h"

namespace qnn::sdk {

// Values equal Qnn_TensorType_t.
enum class TensorKind : uint32_t {
  kAppWrite = 0,      // graph input
  kAppRead = 1,       // graph output
  kAppReadWrite = 2,  // input and output
  kNative = 3,        // intermediate, backend-owned
  kStatic = 4,        // constant data given at creation
  kNull = 5,          // placeholder for an absent optional input
};

struct TensorInfo {
  uint32_t id = 0;
  std::string name;
  TensorKind kind = TensorKind::kNative;
  DType dtype = DType::kUndefined;
  uint32_t dataFormat = 0;  // QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER
  QuantInfo quant;
  std::vector<uint32_t> dims;
  SharedBytes staticData;           // kStatic only; shared by the record's copies
  bool isContextTensor = false;     // created by tensorCreateContextTensor
  // Created as one of the UPDATEABLE_* types: QnnTensor_update{Graph,Context}Tensors
  // and binary sections may change its quantization (and, when static, its data).
  bool updateable = false;
  // How the client gave it when the record keeps another form (API 2.39's narrow
  // types, adapters/client_datatypes.h): its Qnn_DataType_t (0: `dtype` itself) and
  // "MICROSCALING" / "ARRAY_OF" when such an encoding was resolved at creation.
  // Creation-time facts for the backends' checks; not stored in context binaries.
  uint32_t clientDataType = 0;
  std::string clientEncoding;

  size_t numElements() const {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return n;
  }
  size_t byteSize() const { return numElements() * dtypeSize(dtype); }
  // The Qnn_TensorType_t the client created it with.
  uint32_t qnnTensorType() const {
    uint32_t k = static_cast<uint32_t>(kind);
    if (!updateable) return k;
    switch (kind) {
      case TensorKind::kStatic: return 6;        // QNN_TENSOR_TYPE_UPDATEABLE_STATIC
      case TensorKind::kNative: return 7;        // UPDATEABLE_NATIVE
      case TensorKind::kAppWrite: return 8;      // UPDATEABLE_APP_WRITE
      case TensorKind::kAppRead: return 9;       // UPDATEABLE_APP_READ
      case TensorKind::kAppReadWrite: return 10; // UPDATEABLE_APP_READWRITE
      default: return k;
    }
  }
  bool isGraphInput() const { return kind == TensorKind::kAppWrite || kind == TensorKind::kAppReadWrite; }
  bool isGraphOutput() const { return kind == TensorKind::kAppRead || kind == TensorKind::kAppReadWrite; }
};

struct NodeInfo {
  std::string name;
  std::string packageName;  // "qti.aisw" for built-in ops
  std::string typeName;     // "Conv2d", ...
  OpParams params;
  std::vector<uint32_t> inputIds;   // tensor ids, in the op's input order
  std::vector<uint32_t> outputIds;
};

struct GraphIR {
  std::string name;
  std::vector<NodeInfo> nodes;          // in the order they were added (a valid topological order)
  std::map<uint32_t, TensorInfo> tensors;  // graph tensors and the context tensors the graph uses
  // Graph configs kept as they matter to execution and round-trip through binaries.
  uint32_t priority = 0;
  uint32_t precision = 0;  // Qnn_Precision_t
  // Backend-specific settings from custom device/context/graph configs
  // ("<scope>.<name>" -> decimal text). Not part of the graph section of a
  // context binary: a backend that needs them stores its prepared form.
  std::map<std::string, std::string> backendConfig;
  // Runtime only, never stored in a binary: called by the executing backend
  // after each node with the node's output buffers (in output order), e.g. for
  // the CPU's op debug callback. Empty: nothing is called.
  std::function<void(const GraphIR&, const NodeInfo&, const std::vector<void*>& outputs)> afterNode;

  const TensorInfo* findTensor(uint32_t id) const {
    auto it = tensors.find(id);
    return it == tensors.end() ? nullptr : &it->second;
  }
  // Graph inputs / outputs in ascending id order (the order clients create them).
  std::vector<const TensorInfo*> inputs() const;
  std::vector<const TensorInfo*> outputs() const;
};

}  // namespace qnn::sdk
