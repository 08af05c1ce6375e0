/* The model-library contract (the vendor's QnnModel interface), declared here so
 * the tools depend on the ABI only, not on a particular helper implementation.
 * A model .so exports <prefix>_composeGraphs and <prefix>_freeGraphsInfo
 * (prefix "QnnModel" by default); libQnnModelDlc.so exports
 * <prefix>_composeGraphsFromDlc instead of composeGraphs. C-compatible layout. */
#ifndef QNN_TOOLS_MODEL_LIBRARY_H
#define QNN_TOOLS_MODEL_LIBRARY_H

#include <stdbool.h>
#include <stdint.h>

#include "QnnInterface.h"
#include "QnnLog.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

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
  MODEL_UNKNOWN_ERROR = 0x7FFFFFFF
} ModelError_t;

typedef struct GraphInfo {
  Qnn_GraphHandle_t graph;
  char* graphName;
  Qnn_Tensor_t* inputTensors;
  uint32_t numInputTensors;
  Qnn_Tensor_t* outputTensors;
  uint32_t numOutputTensors;
} GraphInfo_t;
typedef GraphInfo_t* GraphInfoPtr_t;

typedef struct GraphConfigInfo {
  char* graphName;
  const QnnGraph_Config_t** graphConfigs;
} GraphConfigInfo_t;

typedef ModelError_t (*ComposeGraphsFnHandleType_t)(Qnn_BackendHandle_t, QNN_INTERFACE_VER_TYPE, Qnn_ContextHandle_t,
                                                     const GraphConfigInfo_t**, const uint32_t, GraphInfoPtr_t**,
                                                     uint32_t*, bool, QnnLog_Callback_t, QnnLog_Level_t);
typedef ModelError_t (*FreeGraphInfoFnHandleType_t)(GraphInfoPtr_t**, uint32_t);
/* libQnnModelDlc.so: the arguments of composeGraphs with the DLC path after the graph configs. */
typedef ModelError_t (*ComposeGraphsFromDlcFnHandleType_t)(Qnn_BackendHandle_t, QNN_INTERFACE_VER_TYPE,
                                                            Qnn_ContextHandle_t, const GraphConfigInfo_t**,
                                                            const char*, const uint32_t, GraphInfoPtr_t**, uint32_t*,
                                                            bool, QnnLog_Callback_t, QnnLog_Level_t);

#ifdef __cplusplus
}
#endif

#endif
