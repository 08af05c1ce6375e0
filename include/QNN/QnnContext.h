/* OpenQNN public header: Contexts: containers of graphs and tensors, serializable into context binaries.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_CONTEXT_H
#define QNN_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnMem.h"
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

/* Progress events reported by QnnContext_createFromBinaryListAsync. */
typedef enum {
  QNN_CONTEXT_NOTIFY_TYPE_GRAPH_INIT = 0,
  QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT = 1,
  QNN_CONTEXT_NOTIFY_TYPE_UNDEFINED = 0x7ffffff,
} QnnContext_createFromBinaryAsyncNotifyType_t;

/* Selects the member of QnnContext_Params_t's union. */
typedef enum {
  QNN_CONTEXT_PARAMS_VERSION_1 = 1,
  QNN_CONTEXT_PARAMS_VERSION_2 = 2,
  QNN_CONTEXT_PARAMS_VERSION_UNDEFINED = 0x7fffffff,
} QnnContext_ParamsVersion_t;

/* Which part of a context binary a section call works on. */
typedef enum {
  QNN_CONTEXT_SECTION_UPDATABLE = 1,
  QNN_CONTEXT_SECTION_UPDATABLE_WEIGHTS = 2,
  QNN_CONTEXT_SECTION_UPDATABLE_QUANT_PARAMS = 3,
  QNN_CONTEXT_SECTION_UNDEFINED = 0x7fffffff,
} QnnContext_SectionType_t;

/* How a QnnContext_BufferV1_t holds its bytes. */
typedef enum {
  QNN_CONTEXTMEMTYPE_RAW = 0,
  QNN_CONTEXTMEMTYPE_MEMHANDLE = 1,
  QNN_CONTEXTMEMTYPE_UNDEFINED = 0x7fffffff,
} QnnContext_MemType_t;

/* Selects the member of QnnContext_Buffer_t's union. */
typedef enum {
  QNN_CONTEXT_BUFFER_VERSION_1 = 1,
  QNN_CONTEXT_BUFFER_VERSION_UNDEFINED = 0x7fffffff,
} QnnContext_BufferVersion_t;

/* Which property a QnnContext_Property_t asks for. */
typedef enum {
  QNN_CONTEXT_PROPERTY_OPTION_CUSTOM = 0,
  QNN_CONTEXT_PROPERTY_OPTION_UNDEFINED = 0x7fffffff,
} QnnContext_PropertyOption_t;

/* Selects the member of Qnn_ContextBinaryRawBufferCallback_t's union. */
typedef enum {
  QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1 = 1,
  QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_UNDEFINED = 0x7fffffff,
} Qnn_ContextBinaryRawBufferCallbackVersion_t;

/* Selects the member of Qnn_ContextBinaryDmaBufferCallback_t's union. */
typedef enum {
  QNN_CONTEXT_CALLBACK_DMA_BUFFER_VERSION_1 = 1,
  QNN_CONTEXT_CALLBACK_DMA_BUFFER_VERSION_UNDEFINED = 0x7fffffff,
} Qnn_ContextBinaryDmaBufferCallbackVersion_t;

/* Which kind of callback a Qnn_ContextBinaryCallback_t holds. */
typedef enum {
  QNN_CONTEXT_CALLBACK_RAW_BUFFER = 1,
  QNN_CONTEXT_CALLBACK_DMA_BUFFER = 2,
  QNN_CONTEXT_CALLBACK_UNDEFINED = 0x7fffffff,
} Qnn_ContextBinaryCallbackType_t;

typedef void *QnnContext_CustomConfig_t;

/* Backend-specific property payload; its layout is defined by each backend. */
typedef void *QnnContext_CustomProperty_t;

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

/* Called during QnnContext_createFromBinaryListAsync as each graph / context of the list
 * becomes ready (notifyType), with the status of that step. graphName and the handles
 * are owned by the backend; notifyParam is the value the client supplied. */
typedef void (*QnnContext_createFromBinaryNotifyFn_t)(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, const char *graphName, QnnContext_createFromBinaryAsyncNotifyType_t notifyType, void *notifyParam, Qnn_ErrorHandle_t status);

/* A range of a context binary that a backend asks the client for. */
typedef struct {
  Qnn_ContextBinarySize_t offset;
  Qnn_ContextBinarySize_t size;
  uint8_t isBackendMappingNeeded;
} Qnn_ContextBinaryDataRequest_t;

/* The client's answer to a raw-memory request: where the requested bytes are. */
typedef struct {
  void *memPtr;
  Qnn_ContextBinarySize_t dataStartOffset;
  Qnn_ContextBinarySize_t alignedSize;
} Qnn_ContextBinaryRawDataResponse_t;

/* The client's answer to a dma-buf request: the buffer holding the requested bytes. */
typedef struct {
  Qnn_MemDmaBufInfo_t dmaBuffer;
  Qnn_ContextBinarySize_t dataStartOffset;
  Qnn_ContextBinarySize_t alignedSize;
} Qnn_ContextBinaryDmaDataResponse_t;

/* Raw memory handed back to the client once the backend is done with it. */
typedef struct {
  void *memPtr;
  Qnn_ContextBinarySize_t memSize;
} Qnn_ContextBinaryRawDataMem_t;

/* A dma-buf handed back to the client once the backend is done with it. */
typedef struct {
  Qnn_MemDmaBufInfo_t dmaBuffer;
  Qnn_ContextBinarySize_t memSize;
} Qnn_ContextBinaryDmaDataMem_t;

/* Client callbacks through which a backend pulls parts of a context binary instead of
 * receiving it all in one buffer. The memory a provider returns belongs to the client;
 * the backend hands it back through the matching release callback when done. */
typedef Qnn_ErrorHandle_t (*Qnn_ContextBinaryRawDataProviderFn_t)(Qnn_ContextBinaryDataRequest_t request, Qnn_ContextBinaryRawDataResponse_t *rawDataResponse, void *notifyParam);
typedef Qnn_ErrorHandle_t (*Qnn_ContextBinaryDmaDataProviderFn_t)(Qnn_ContextBinaryDataRequest_t request, Qnn_ContextBinaryDmaDataResponse_t *dmaDataResponse, void *notifyParam);
typedef Qnn_ErrorHandle_t (*Qnn_ContextBinaryRawDataReleaseFn_t)(Qnn_ContextBinaryRawDataMem_t rawDataMem, void *notifyParam);
typedef Qnn_ErrorHandle_t (*Qnn_ContextBinaryDmaDataReleaseFn_t)(Qnn_ContextBinaryDmaDataMem_t dmaDataMem, void *notifyParam);

/* Provider/release pair for raw memory, plus the client value passed back to both. */
typedef struct {
  Qnn_ContextBinaryRawDataProviderFn_t dataProvide;
  Qnn_ContextBinaryRawDataReleaseFn_t dataRelease;
  void *notifyParam;
} Qnn_ContextBinaryRawBufferCallbackV1_t;

/* Provider/release pair for dma-bufs, plus the client value passed back to both. */
typedef struct {
  Qnn_ContextBinaryDmaDataProviderFn_t dataProvide;
  Qnn_ContextBinaryDmaDataReleaseFn_t dataRelease;
  void *notifyParam;
} Qnn_ContextBinaryDmaBufferCallbackV1_t;

typedef struct {
  Qnn_ContextBinaryRawBufferCallbackVersion_t version;
  union {
    Qnn_ContextBinaryRawBufferCallbackV1_t v1;
  };
} Qnn_ContextBinaryRawBufferCallback_t;

typedef struct {
  Qnn_ContextBinaryDmaBufferCallbackVersion_t version;
  union {
    Qnn_ContextBinaryDmaBufferCallbackV1_t v1;
  };
} Qnn_ContextBinaryDmaBufferCallback_t;

/* Raw-memory or dma-buf callbacks; type selects the union member. */
typedef struct {
  Qnn_ContextBinaryCallbackType_t type;
  union {
    Qnn_ContextBinaryRawBufferCallback_t rawBufferCallback;
    Qnn_ContextBinaryDmaBufferCallback_t dmaBufferCallback;
  };
} Qnn_ContextBinaryCallback_t;

/* Everything needed to create one context from a binary, for the list call.
 * All pointers belong to the caller and must stay valid until the list call has
 * reported completion. */
typedef struct {
  const QnnContext_Config_t **config;
  const void *binaryBuffer;
  const Qnn_ContextBinarySize_t binaryBufferSize;
  Qnn_ProfileHandle_t profile;
  QnnContext_createFromBinaryNotifyFn_t notifyFunc;
  void *notifyParam;
} QnnContext_ParamsV1_t;

/* Version 2: the version-1 fields, then optional binary callbacks (may be NULL). */
typedef struct {
  const QnnContext_Config_t **config;
  const void *binaryBuffer;
  const Qnn_ContextBinarySize_t binaryBufferSize;
  Qnn_ProfileHandle_t profile;
  QnnContext_createFromBinaryNotifyFn_t notifyFunc;
  void *notifyParam;
  const Qnn_ContextBinaryCallback_t *callback;
} QnnContext_ParamsV2_t;

/* Parameters of either version; version selects the union member. */
typedef struct {
  QnnContext_ParamsVersion_t version;
  union {
    QnnContext_ParamsV1_t v1;
    QnnContext_ParamsV2_t *v2;
  };
} QnnContext_Params_t;

/* A plain memory block: data points at dataSize bytes. */
typedef struct {
  void *data;
  Qnn_ContextBinarySize_t dataSize;
} Qnn_BinaryBuffer_t;

/* A buffer for binary sections, as plain memory or as a registered memory handle. */
typedef struct {
  QnnContext_MemType_t memType;
  union {
    Qnn_BinaryBuffer_t binaryBuf;
    Qnn_MemHandle_t memHandle;
  };
} QnnContext_BufferV1_t;

/* A section buffer of either version; version selects the union member. */
typedef struct {
  QnnContext_BufferVersion_t version;
  union {
    QnnContext_BufferV1_t v1;
  };
} QnnContext_Buffer_t;

/* One context property query; option selects the union member. */
typedef struct {
  QnnContext_PropertyOption_t option;
  union {
    QnnContext_CustomProperty_t customProperty;
  };
} QnnContext_Property_t;

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

/* Checks whether binaryBuffer could be loaded by this backend/device with the given
 * configuration, without creating a context. Nothing is retained after the call. */
QNN_API
Qnn_ErrorHandle_t QnnContext_validateBinary(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize);

/* QnnContext_createFromBinary that can be aborted or time-limited through signal
 * (may be NULL). The binary is only read during the call. */
QNN_API
Qnn_ErrorHandle_t QnnContext_createFromBinaryWithSignal(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, Qnn_ContextHandle_t *context, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);

/* Creates several contexts from binaries, one per entry of the NULL-terminated
 * contextParams array, and reports progress through each entry's notifyFunc. listConfig
 * (NULL-terminated, may be NULL) applies to the whole list. The caller keeps the arrays,
 * binaries and parameter structs valid until every notification has arrived. */
QNN_API
Qnn_ErrorHandle_t QnnContext_createFromBinaryListAsync(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Params_t **contextParams, const QnnContext_Config_t **listConfig, Qnn_SignalHandle_t signal);

/* Size in bytes a buffer needs to hold the given section of a context / graph. */
QNN_API
Qnn_ErrorHandle_t QnnContext_getBinarySectionSize(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, QnnContext_SectionType_t section, Qnn_ContextBinarySize_t *binaryBufferSize);

/* Writes the given section into the caller's buffer and reports the bytes written in
 * *writtenBufferSize. The buffer stays the caller's. */
QNN_API
Qnn_ErrorHandle_t QnnContext_getBinarySection(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, QnnContext_SectionType_t section, const QnnContext_Buffer_t *binaryBuffer, Qnn_ContextBinarySize_t *writtenBufferSize, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);

/* Applies a section previously obtained with QnnContext_getBinarySection (e.g. new
 * weights) to the context. The backend copies what it needs; the buffer stays the
 * caller's. */
QNN_API
Qnn_ErrorHandle_t QnnContext_applyBinarySection(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph, QnnContext_SectionType_t section, const QnnContext_Buffer_t *binaryBuffer, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);

/* Fills in the properties requested by a NULL-terminated array of pointers; the array
 * and the structs belong to the caller. */
QNN_API
Qnn_ErrorHandle_t QnnContext_getProperty(Qnn_ContextHandle_t contextHandle, QnnContext_Property_t **properties);

/* Returns in *binaryBuffer a backend-owned view of the context binary produced so far,
 * with its start offset and size. The memory stays valid until it is handed back with
 * QnnContext_releaseIncrementalBinary (or the context is freed). */
QNN_API
Qnn_ErrorHandle_t QnnContext_getIncrementalBinary(Qnn_ContextHandle_t context, const void **binaryBuffer, Qnn_ContextBinarySize_t *startOffset, Qnn_ContextBinarySize_t *writtenBufferSize);

/* Hands back a buffer obtained from QnnContext_getIncrementalBinary; it must not be
 * used afterwards. */
QNN_API
Qnn_ErrorHandle_t QnnContext_releaseIncrementalBinary(Qnn_ContextHandle_t context, const void *binaryBuffer, Qnn_ContextBinarySize_t startOffset);

/* Finishes a context whose creation left work pending (e.g. one built up through the
 * incremental-binary calls). profile may be NULL. */
QNN_API
Qnn_ErrorHandle_t QnnContext_finalize(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile);

/* QnnContext_createFromBinaryWithSignal where parts of the binary are pulled through
 * the client callbacks in *callback. The client keeps the callbacks and their
 * notifyParam usable until the backend has released every piece it requested; at the
 * latest that happens when the context is freed. */
QNN_API
Qnn_ErrorHandle_t QnnContext_createFromBinaryWithCallback(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device, const QnnContext_Config_t **config, const Qnn_ContextBinaryCallback_t *callback, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, Qnn_ContextHandle_t *context, Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal);

#define QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_INIT \
  {QNN_CONTEXT_ASYNC_EXECUTION_QUEUE_DEPTH_TYPE_UNDEFINED, {0}}
#define QNN_CONTEXT_CONFIG_INIT \
  {QNN_CONTEXT_CONFIG_UNDEFINED, {NULL}}
#define QNN_CONTEXT_PROPERTY_INIT \
  {QNN_CONTEXT_PROPERTY_OPTION_UNDEFINED, {NULL}}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_CONTEXT_H
