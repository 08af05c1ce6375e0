/* OpenQNN public header: Contexts: containers of graphs and tensors, serializable into context binaries.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_CONTEXT_H
#define QNN_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_TYPE_NUMERIC = 0,
  QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_TYPE_UNDEFINED = 0x7ffffff,
} QnnContext_AsyncExecutionQueueDepthType_t;

typedef enum {
  QNN_CONTEXT_CONFIG_OPTION_CUSTOM = 0,
  QNN_CONTEXT_CONFIG_OPTION_PRIORITY = 1,
  QNN_CONTEXT_CONFIG_OPTION_ERROR_REPORTING = 2,
  QNN_CONTEXT_CONFIG_OPTION_OEM_STRING = 3,
  QNN_CONTEXT_CONFIG_ASYNC_EXECUTION_QUEUE_DEPTH = 4,
  QNN_CONTEXT_CONFIG_UNDEFINED = 0x7fffffff,
} QnnContext_ConfigOption_t;

typedef enum {
  QNN_CONTEXT_MIN_ERROR = 5000,
  QNN_CONTEXT_NO_ERROR = 0,
  QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE = 1000,
  QNN_CONTEXT_ERROR_MEM_ALLOC = 1002,
  QNN_CONTEXT_ERROR_INVALID_ARGUMENT = 5000,
  QNN_CONTEXT_ERROR_CTX_DOES_NOT_EXIST = 5001,
  QNN_CONTEXT_ERROR_INVALID_HANDLE = 5002,
  QNN_CONTEXT_ERROR_NOT_FINALIZED = 5003,
  QNN_CONTEXT_ERROR_BINARY_VERSION = 5004,
  QNN_CONTEXT_ERROR_CREATE_FROM_BINARY = 5005,
  QNN_CONTEXT_ERROR_GET_BINARY_SIZE_FAILED = 5006,
  QNN_CONTEXT_ERROR_GET_BINARY_FAILED = 5007,
  QNN_CONTEXT_ERROR_BINARY_CONFIGURATION = 5008,
  QNN_CONTEXT_ERROR_SET_PROFILE = 5009,
  QNN_CONTEXT_ERROR_INVALID_CONFIG = 5010,
  QNN_CONTEXT_MAX_ERROR = 5999,
  QNN_CONTEXT_ERROR_UNDEFINED = 0x7fffffff,
} QnnContext_Error_t;

typedef void *QnnContext_CustomConfig_t;

typedef struct {
  QnnContext_AsyncExecutionQueueDepthType_t type;
  union {
    uint32_t depth;
  };
} QnnContext_AsyncExecutionQueueDepth_t;

typedef struct {
  QnnContext_ConfigOption_t option;
  union {
    QnnContext_CustomConfig_t customConfig;
    Qnn_Priority_t priority;
    Qnn_ErrorReportingConfig_t errorConfig;
    const char *oemString;
    QnnContext_AsyncExecutionQueueDepth_t asyncExeQueueDepth;
  };
} QnnContext_Config_t;

QNN_API
Qnn_ErrorHandle_t QnnContext_create(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, Qnn_ContextHandle_t *context);

QNN_API
Qnn_ErrorHandle_t QnnContext_createFromBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, Qnn_ContextHandle_t *context, Qnn_ProfileHandle_t profile);

QNN_API
Qnn_ErrorHandle_t QnnContext_free(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile);

QNN_API
Qnn_ErrorHandle_t QnnContext_getBinary(Qnn_ContextHandle_t context, void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, Qnn_ContextBinarySize_t *writtenBufferSize);

QNN_API
Qnn_ErrorHandle_t QnnContext_getBinarySize(Qnn_ContextHandle_t context, Qnn_ContextBinarySize_t *binaryBufferSize);

QNN_API
Qnn_ErrorHandle_t QnnContext_setConfig(Qnn_ContextHandle_t context, const QnnContext_Config_t **config);

#define QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_INIT \
  {QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_TYPE_UNDEFINED, {0}}
#define QNN_CONTEXT_CONFIG_INIT \
  {QNN_CONTEXT_CONFIG_UNDEFINED, {NULL}}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_CONTEXT_H
