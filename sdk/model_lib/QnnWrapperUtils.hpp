// The types, macros and helpers that converter-generated model.cpp files use
// through QnnModel.hpp: error codes, the GraphInfo_t structs a model library
// hands to its caller, VALIDATE, and the BINVARSTART/BINVAREND/BINLEN macros
// that reach the weight blobs linked into the library.
//
// OpenQNN's own implementation of the model-library contract; see
// docs/model-library.md for the contract and the public sources of each name.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "QnnContext.h"
#include "QnnGraph.h"
#include "QnnTensor.h"
#include "QnnTypes.h"

// Converters from QNN 2.2x emit ".dataFormat= QNN_TENSOR_DATA_FORMAT_DENSE"; in the
// 2.15 headers the same value (0) is called FLAT_BUFFER. Defined here, not in
// include/QNN, so the public headers stay those of the API version they claim.
#ifndef QNN_TENSOR_DATA_FORMAT_DENSE
#define QNN_TENSOR_DATA_FORMAT_DENSE QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER
#endif

namespace qnn_wrapper_api {

// Messages go to stderr: stdout belongs to the tool that loaded the model library.
#define PRINT_ERROR(fmt, ...) std::fprintf(stderr, "[ ERROR ] " fmt, ##__VA_ARGS__)
#define PRINT_WARNING(fmt, ...) std::fprintf(stderr, "[ WARNING ] " fmt, ##__VA_ARGS__)
#define PRINT_INFO(fmt, ...) std::fprintf(stderr, "[ INFO ] " fmt, ##__VA_ARGS__)
#ifdef QNN_ENABLE_DEBUG
#define PRINT_DEBUG(fmt, ...) std::fprintf(stderr, "[ DEBUG ] " fmt, ##__VA_ARGS__)
#else
#define PRINT_DEBUG(fmt, ...) \
  do {                        \
  } while (0)
#endif

// Result of every helper and of QnnModel_composeGraphs / QnnModel_freeGraphsInfo.
// The numeric values are part of the library ABI (tools compare against them).
typedef enum ModelError {
  MODEL_NO_ERROR = 0,
  MODEL_TENSOR_ERROR = 1,
  MODEL_PARAMS_ERROR = 2,
  MODEL_NODES_ERROR = 3,
  MODEL_GRAPH_ERROR = 4,
  MODEL_CONTEXT_ERROR = 5,
  MODEL_GENERATION_ERROR = 6,
  MODEL_SETUP_ERROR = 7,
  MODEL_INVALID_ARGUMENT_ERROR = 8,
  MODEL_FILE_ERROR = 9,
  MODEL_MEMORY_ALLOCATE_ERROR = 10,
  MODEL_UNKNOWN_ERROR = 0x7FFFFFFF,  // keeps the enum 32 bits wide
} ModelError_t;

// One composed graph, as returned by QnnModel_composeGraphs. Everything it points to
// (graphName, the tensor arrays and each tensor's name, dimensions and per-axis
// quantization arrays) is malloc'ed by the model library and owned by it until the
// caller passes the array to QnnModel_freeGraphsInfo. graph is the backend's handle
// and stays valid as long as the context it was created in.
typedef struct GraphInfo {
  Qnn_GraphHandle_t graph;
  char* graphName;
  Qnn_Tensor_t* inputTensors;  // the graph's APP_WRITE tensors, in creation order
  uint32_t numInputTensors;
  Qnn_Tensor_t* outputTensors;  // the graph's APP_READ tensors, in creation order
  uint32_t numOutputTensors;
} GraphInfo_t;
typedef GraphInfo_t* GraphInfoPtr_t;

// Per-graph configuration the caller passes into QnnModel_composeGraphs. Owned by
// the caller; the model library only reads it during the call.
typedef struct GraphConfigInfo {
  char* graphName;
  const QnnGraph_Config_t** graphConfigs;  // null-terminated, or null
} GraphConfigInfo_t;

// Readable name of an error code ("MODEL_TENSOR_ERROR"); "INVALID_ERROR_CODE" for
// values outside the enum.
std::string getModelErrorName(ModelError_t modelError);

// Evaluates `value`, stores it in `retStatus`, and on anything but MODEL_NO_ERROR
// prints the failing expression and returns it from the enclosing function.
#define VALIDATE(value, retStatus)                                                        \
  do {                                                                                    \
    retStatus = (value);                                                                  \
    if (retStatus != qnn_wrapper_api::MODEL_NO_ERROR) {                                   \
      PRINT_ERROR("%s expected MODEL_NO_ERROR, got %s\n", #value,                         \
                  qnn_wrapper_api::getModelErrorName(retStatus).c_str());                 \
      return retStatus;                                                                   \
    }                                                                                     \
  } while (0)

// Weight blobs. qnn-model-lib-generator links every file NAME.raw of model.bin
// into the library as a read-only byte array whose first byte and one-past-last
// byte are the symbols _binary_obj_binary_NAME_raw_start / _end (the names GNU ld
// gives "obj/binary/NAME.raw" in binary input mode). The macros take the
// sanitized tensor name that the converter wrote into model.cpp. An immediately
// invoked lambda keeps them usable inside initializers without the GNU
// statement-expression extension; the block-scope extern declarations refer to
// the unmangled global symbols as long as the macro is used outside a namespace,
// which is where generated code uses it.
#define BINVARSTART(NAME)                                         \
  ([]() -> void* {                                                \
    extern const uint8_t _binary_obj_binary_##NAME##_raw_start[]; \
    return (void*)_binary_obj_binary_##NAME##_raw_start;          \
  }())
#define BINVAREND(NAME)                                         \
  ([]() -> void* {                                              \
    extern const uint8_t _binary_obj_binary_##NAME##_raw_end[]; \
    return (void*)_binary_obj_binary_##NAME##_raw_end;          \
  }())
#define BINLEN(NAME)                                                                        \
  ([]() -> uint32_t {                                                                       \
    extern const uint8_t _binary_obj_binary_##NAME##_raw_start[];                           \
    extern const uint8_t _binary_obj_binary_##NAME##_raw_end[];                             \
    return (uint32_t)(_binary_obj_binary_##NAME##_raw_end - _binary_obj_binary_##NAME##_raw_start); \
  }())

// Copies at most copySize bytes to dst (capacity dstSize); returns the bytes
// copied, 0 if any argument is null or zero.
size_t memscpy(void* dst, size_t dstSize, const void* src, size_t copySize);

// Finds the configs for graphName in the caller's graphsConfigInfo array (numGraphsConfigInfo
// entries). No array (null or 0 entries): MODEL_NO_ERROR and graphConfigs untouched.
// An array that has no entry, or more than one, for graphName: MODEL_INVALID_ARGUMENT_ERROR
// (the vendor behaviour, kept so libraries behave the same under either SDK).
// graphConfigs points into the caller's array afterwards (not owned).
ModelError_t getQnnGraphConfigFromInfo(const char* graphName,
                                       const GraphConfigInfo_t** graphsConfigInfo,
                                       const uint32_t numGraphsConfigInfo,
                                       const QnnGraph_Config_t**& graphConfigs);

// Deep copy of a tensor's description: dst gets its own malloc'ed name, dimensions,
// isDynamicDimensions and per-axis quantization arrays (free with freeQnnTensor).
// Data is not copied: dst's client buffer is empty / its mem handle null, because the
// copy describes a graph tensor whose data the caller binds at execute time.
ModelError_t deepCopyQnnTensors(Qnn_Tensor_t& src, Qnn_Tensor_t& dst);

// Frees what deepCopyQnnTensors allocated in `tensor` (not the struct itself).
ModelError_t freeQnnTensor(Qnn_Tensor_t& tensor);

// freeQnnTensor on each of numTensors tensors, then free(tensors); tensors is set to null.
ModelError_t freeQnnTensors(Qnn_Tensor_t*& tensors, uint32_t numTensors);

// Frees the array QnnModel_composeGraphs returned (numGraphs entries) and everything in
// it; *graphsInfo is set to null. The graphs themselves belong to the backend context.
ModelError_t freeGraphsInfo(GraphInfoPtr_t** graphsInfo, uint32_t numGraphs);

}  // namespace qnn_wrapper_api
