// Tensor copies, graph-config lookup, GraphInfo_t freeing and error names for the
// model-library helpers. Every function returns an error code and catches
// everything: these run inside QnnModel_composeGraphs, a C entry point.
#include "QnnWrapperUtils.hpp"

#include <cstdlib>
#include <cstring>

#include "QnnModelPal.hpp"
#include "QnnTypeMacros.hpp"

namespace qnn_wrapper_api {

namespace {

// malloc'ed copy of count elements of src; null when count is 0 or src is null
// (ok stays true), null with ok = false when malloc fails.
template <typename T>
T* mallocCopy(const T* src, size_t count, bool& ok) {
  if (src == nullptr || count == 0) return nullptr;
  T* dst = static_cast<T*>(std::malloc(count * sizeof(T)));
  if (dst == nullptr) {
    ok = false;
    return nullptr;
  }
  std::memcpy(dst, src, count * sizeof(T));
  return dst;
}

bool knownTensorVersion(const Qnn_Tensor_t& t) {
  return t.version == QNN_TENSOR_VERSION_1 || t.version == QNN_TENSOR_VERSION_2;
}

}  // namespace

size_t memscpy(void* dst, size_t dstSize, const void* src, size_t copySize) {
  if (dst == nullptr || src == nullptr || dstSize == 0 || copySize == 0) return 0;
  size_t n = dstSize < copySize ? dstSize : copySize;
  std::memcpy(dst, src, n);
  return n;
}

ModelError_t getQnnGraphConfigFromInfo(const char* graphName,
                                       const GraphConfigInfo_t** graphsConfigInfo,
                                       const uint32_t numGraphsConfigInfo,
                                       const QnnGraph_Config_t**& graphConfigs) {
  if (graphsConfigInfo == nullptr || numGraphsConfigInfo == 0) return MODEL_NO_ERROR;
  if (graphName == nullptr) return MODEL_INVALID_ARGUMENT_ERROR;
  uint32_t matches = 0;
  for (uint32_t i = 0; i < numGraphsConfigInfo; ++i) {
    const GraphConfigInfo_t* info = graphsConfigInfo[i];
    if (info == nullptr) {
      PRINT_ERROR("getQnnGraphConfigFromInfo(): entry %u of %u is null (graph %s)\n", i,
                  numGraphsConfigInfo, graphName);
      return MODEL_INVALID_ARGUMENT_ERROR;
    }
    if (info->graphName != nullptr && std::strcmp(info->graphName, graphName) == 0) {
      graphConfigs = info->graphConfigs;
      ++matches;
    }
  }
  if (matches == 1) return MODEL_NO_ERROR;
  PRINT_ERROR("getQnnGraphConfigFromInfo(): %s config entry for graph %s\n",
              matches == 0 ? "no" : "more than one", graphName);
  return MODEL_INVALID_ARGUMENT_ERROR;
}

ModelError_t deepCopyQnnTensors(Qnn_Tensor_t& src, Qnn_Tensor_t& dst) {
  if (!knownTensorVersion(src)) {
    PRINT_ERROR("deepCopyQnnTensors(): unknown tensor version %d\n", static_cast<int>(src.version));
    return MODEL_TENSOR_ERROR;
  }
  // Start from a bitwise copy, then replace every pointer by an owned copy (or null)
  // so dst never shares memory with src.
  dst = src;
  QNN_TENSOR_SET_NAME(dst, nullptr);
  QNN_TENSOR_SET_DIMENSIONS(dst, nullptr);
  QNN_TENSOR_SET_IS_DYNAMIC_DIMENSIONS(dst, nullptr);
  Qnn_QuantizeParams_t q = QNN_TENSOR_GET_QUANT_PARAMS(src);
  if (q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET) {
    q.axisScaleOffsetEncoding.scaleOffset = nullptr;
  } else if (q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET) {
    q.bwAxisScaleOffsetEncoding.scales = nullptr;
    q.bwAxisScaleOffsetEncoding.offsets = nullptr;
  } else if (q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION) {
    q.blockwiseExpansion = nullptr;
  }
  QNN_TENSOR_SET_QUANT_PARAMS(dst, q);
  // The copy describes the tensor, not its data: the client binds buffers at execute.
  if (QNN_TENSOR_GET_MEM_TYPE(src) == QNN_TENSORMEMTYPE_MEMHANDLE) {
    QNN_TENSOR_SET_MEM_HANDLE(dst, nullptr);
  } else {
    QNN_TENSOR_SET_CLIENT_BUF(dst, (Qnn_ClientBuffer_t{nullptr, 0}));
  }

  bool ok = true;
  const char* name = QNN_TENSOR_GET_NAME(src);
  if (name != nullptr) {
    char* copy = strnDup(name, std::strlen(name));
    ok = copy != nullptr;
    QNN_TENSOR_SET_NAME(dst, copy);
  }
  const uint32_t rank = QNN_TENSOR_GET_RANK(src);
  QNN_TENSOR_SET_DIMENSIONS(dst, mallocCopy(QNN_TENSOR_GET_DIMENSIONS(src), rank, ok));
  QNN_TENSOR_SET_IS_DYNAMIC_DIMENSIONS(dst, mallocCopy(QNN_TENSOR_GET_IS_DYNAMIC_DIMENSIONS(src), rank, ok));
  const Qnn_QuantizeParams_t& sq = QNN_TENSOR_GET_QUANT_PARAMS(src);
  if (sq.quantizationEncoding == QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET) {
    q.axisScaleOffsetEncoding.scaleOffset = mallocCopy(
        sq.axisScaleOffsetEncoding.scaleOffset, sq.axisScaleOffsetEncoding.numScaleOffsets, ok);
  } else if (sq.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET) {
    const Qnn_BwAxisScaleOffset_t& s = sq.bwAxisScaleOffsetEncoding;
    q.bwAxisScaleOffsetEncoding.scales = mallocCopy(s.scales, s.numElements, ok);
    q.bwAxisScaleOffsetEncoding.offsets = mallocCopy(s.offsets, s.numElements, ok);
  } else if (sq.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION && sq.blockwiseExpansion) {
    // One scale/offset per channel (dims[axis]), channels x numBlocksPerAxis block scales.
    const Qnn_BlockwiseExpansion_t& s = *sq.blockwiseExpansion;
    const uint32_t* dims = QNN_TENSOR_GET_DIMENSIONS(src);
    const uint32_t channels = dims && s.axis >= 0 && static_cast<uint32_t>(s.axis) < rank ? dims[s.axis] : 0;
    const size_t blocks = static_cast<size_t>(channels) * s.numBlocksPerAxis;
    auto* e = mallocCopy(&s, 1, ok);
    if (e) {
      e->scaleOffsets = mallocCopy(s.scaleOffsets, channels, ok);
      if (s.blockScaleStorageType == QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_16)
        e->blocksScale16 = mallocCopy(s.blocksScale16, blocks, ok);
      else
        e->blocksScale8 = mallocCopy(s.blocksScale8, blocks, ok);
    }
    q.blockwiseExpansion = e;
  }
  QNN_TENSOR_SET_QUANT_PARAMS(dst, q);
  if (!ok) {
    freeQnnTensor(dst);
    PRINT_ERROR("deepCopyQnnTensors(): out of memory copying tensor %s\n", name ? name : "(unnamed)");
    return MODEL_MEMORY_ALLOCATE_ERROR;
  }
  return MODEL_NO_ERROR;
}

ModelError_t freeQnnTensor(Qnn_Tensor_t& tensor) {
  if (!knownTensorVersion(tensor)) return MODEL_TENSOR_ERROR;
  std::free(const_cast<char*>(QNN_TENSOR_GET_NAME(tensor)));
  std::free(QNN_TENSOR_GET_DIMENSIONS(tensor));
  std::free(QNN_TENSOR_GET_IS_DYNAMIC_DIMENSIONS(tensor));
  Qnn_QuantizeParams_t& q = QNN_TENSOR_GET_QUANT_PARAMS(tensor);
  if (q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET) {
    std::free(q.axisScaleOffsetEncoding.scaleOffset);
    q.axisScaleOffsetEncoding.scaleOffset = nullptr;
  } else if (q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET) {
    std::free(q.bwAxisScaleOffsetEncoding.scales);
    std::free(q.bwAxisScaleOffsetEncoding.offsets);
    q.bwAxisScaleOffsetEncoding.scales = nullptr;
    q.bwAxisScaleOffsetEncoding.offsets = nullptr;
  } else if (q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION && q.blockwiseExpansion) {
    std::free(q.blockwiseExpansion->scaleOffsets);
    // blocksScale8 and blocksScale16 share the union: one pointer either way.
    std::free(q.blockwiseExpansion->blocksScale8);
    std::free(q.blockwiseExpansion);
    q.blockwiseExpansion = nullptr;
  }
  // Null the freed pointers so a second free of the same struct is harmless.
  QNN_TENSOR_SET_NAME(tensor, nullptr);
  QNN_TENSOR_SET_DIMENSIONS(tensor, nullptr);
  QNN_TENSOR_SET_IS_DYNAMIC_DIMENSIONS(tensor, nullptr);
  return MODEL_NO_ERROR;
}

ModelError_t freeQnnTensors(Qnn_Tensor_t*& tensors, uint32_t numTensors) {
  if (tensors != nullptr) {
    for (uint32_t i = 0; i < numTensors; ++i) freeQnnTensor(tensors[i]);
  }
  std::free(tensors);
  tensors = nullptr;
  return MODEL_NO_ERROR;
}

ModelError_t freeGraphsInfo(GraphInfoPtr_t** graphsInfo, uint32_t numGraphs) {
  if (graphsInfo == nullptr || *graphsInfo == nullptr) return MODEL_INVALID_ARGUMENT_ERROR;
  // Each GraphInfo_t is its own allocation (see getGraphInfoFromModels), so arrays
  // built entry by entry with getSingleGraphInfoFromModel free the same way.
  for (uint32_t i = 0; i < numGraphs; ++i) {
    GraphInfo_t* info = (*graphsInfo)[i];
    if (info == nullptr) continue;
    std::free(info->graphName);
    freeQnnTensors(info->inputTensors, info->numInputTensors);
    freeQnnTensors(info->outputTensors, info->numOutputTensors);
    std::free(info);
  }
  std::free(*graphsInfo);
  *graphsInfo = nullptr;
  return MODEL_NO_ERROR;
}

std::string getModelErrorName(ModelError_t modelError) {
  try {
    switch (modelError) {
      case MODEL_NO_ERROR: return "MODEL_NO_ERROR";
      case MODEL_TENSOR_ERROR: return "MODEL_TENSOR_ERROR";
      case MODEL_PARAMS_ERROR: return "MODEL_PARAMS_ERROR";
      case MODEL_NODES_ERROR: return "MODEL_NODES_ERROR";
      case MODEL_GRAPH_ERROR: return "MODEL_GRAPH_ERROR";
      case MODEL_CONTEXT_ERROR: return "MODEL_CONTEXT_ERROR";
      case MODEL_GENERATION_ERROR: return "MODEL_GENERATION_ERROR";
      case MODEL_SETUP_ERROR: return "MODEL_SETUP_ERROR";
      case MODEL_INVALID_ARGUMENT_ERROR: return "MODEL_INVALID_ARGUMENT_ERROR";
      case MODEL_FILE_ERROR: return "MODEL_FILE_ERROR";
      case MODEL_MEMORY_ALLOCATE_ERROR: return "MODEL_MEMORY_ALLOCATE_ERROR";
      case MODEL_UNKNOWN_ERROR: return "MODEL_UNKNOWN_ERROR";
    }
    return "INVALID_ERROR_CODE";
  } catch (...) {
    return std::string();  // out of memory for a short string: nothing better to return
  }
}

}  // namespace qnn_wrapper_api
