/* OpenQNN public header: Graph construction (nodes, tensors), finalization and execution.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_GRAPH_H
#define QNN_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_GRAPH_CONFIG_OPTION_CUSTOM = 0,
  QNN_GRAPH_CONFIG_OPTION_PRIORITY = 3,
  QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE = 4,
  QNN_GRAPH_CONFIG_OPTION_UNDEFINED = 0x7fffffff,
} QnnGraph_ConfigOption_t;

typedef enum {
  QNN_GRAPH_MIN_ERROR = 6000,
  QNN_GRAPH_NO_ERROR = 0,
  QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE = 1000,
  QNN_GRAPH_ERROR_MEM_ALLOC = 1002,
  QNN_GRAPH_ERROR_GENERAL = 1100,
  QNN_GRAPH_ERROR_INVALID_ARGUMENT = 6000,
  QNN_GRAPH_ERROR_INVALID_HANDLE = 6001,
  QNN_GRAPH_ERROR_GRAPH_DOES_NOT_EXIST = 6002,
  QNN_GRAPH_ERROR_INVALID_NAME = 6003,
  QNN_GRAPH_ERROR_INVALID_TENSOR = 6004,
  QNN_GRAPH_ERROR_INVALID_OP_CONFIG = 6005,
  QNN_GRAPH_ERROR_SET_PROFILE = 6006,
  QNN_GRAPH_ERROR_UNCONNECTED_NODE = 6007,
  QNN_GRAPH_ERROR_CREATE_FAILED = 6020,
  QNN_GRAPH_ERROR_OPTIMIZATION_FAILED = 6021,
  QNN_GRAPH_ERROR_FINALIZE_FAILED = 6022,
  QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED = 6023,
  QNN_GRAPH_ERROR_GRAPH_FINALIZED = 6024,
  QNN_GRAPH_ERROR_EXECUTION_ASYNC_FIFO_FULL = 6025,
  QNN_GRAPH_ERROR_SIGNAL_IN_USE = 6030,
  QNN_GRAPH_ERROR_ABORTED = 6031,
  QNN_GRAPH_ERROR_PROFILE_IN_USE = 6032,
  QNN_GRAPH_ERROR_TIMED_OUT = 6033,
  QNN_GRAPH_MAX_ERROR = 6999,
  QNN_GRAPH_ERROR_UNDEFINED = 0x7fffffff,
} QnnGraph_Error_t;

typedef void *QnnGraph_CustomConfig_t;

typedef struct {
  QnnGraph_ConfigOption_t option;
  union {
    QnnGraph_CustomConfig_t customConfig;
    Qnn_Priority_t priority;
    Qnn_ProfileHandle_t profileHandle;
  };
} QnnGraph_Config_t;

typedef struct {
  Qnn_ErrorHandle_t error;
} Qnn_NotifyStatus_t;

typedef void (*Qnn_NotifyFn_t)(void *notifyParam, Qnn_NotifyStatus_t notifyStatus);

QNN_API
Qnn_ErrorHandle_t QnnGraph_addNode(Qnn_GraphHandle_t graphHandle, Qnn_OpConfig_t opConfig);

QNN_API
Qnn_ErrorHandle_t QnnGraph_create(Qnn_ContextHandle_t contextHandle, const char *graphName, const QnnGraph_Config_t **config, Qnn_GraphHandle_t *graphHandle);

QNN_API
Qnn_ErrorHandle_t QnnGraph_execute(Qnn_GraphHandle_t graphHandle, const Qnn_Tensor_t *inputs, uint32_t numInputs, Qnn_Tensor_t *outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profileHandle, Qnn_SignalHandle_t signalHandle);

QNN_API
Qnn_ErrorHandle_t QnnGraph_executeAsync(Qnn_GraphHandle_t graphHandle, const Qnn_Tensor_t *inputs, uint32_t numInputs, Qnn_Tensor_t *outputs, uint32_t numOutputs, Qnn_ProfileHandle_t profileHandle, Qnn_SignalHandle_t signalHandle, Qnn_NotifyFn_t notifyFn, void *notifyParam);

QNN_API
Qnn_ErrorHandle_t QnnGraph_finalize(Qnn_GraphHandle_t graphHandle, Qnn_ProfileHandle_t profileHandle, Qnn_SignalHandle_t signalHandle);

QNN_API
Qnn_ErrorHandle_t QnnGraph_retrieve(Qnn_ContextHandle_t contextHandle, const char *graphName, Qnn_GraphHandle_t *graphHandle);

QNN_API
Qnn_ErrorHandle_t QnnGraph_setConfig(Qnn_GraphHandle_t graphHandle, const QnnGraph_Config_t **config);

#define QNN_GRAPH_CONFIG_INIT \
  {QNN_GRAPH_CONFIG_OPTION_UNDEFINED, {NULL}}
#define QNN_NOTIFY_STATUS_INIT \
  {0}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_GRAPH_H
