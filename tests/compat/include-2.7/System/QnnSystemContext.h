/* OpenQNN public header: System library specifics: Context.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SYSTEM_CONTEXT_H
#define QNN_SYSTEM_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnDevice.h"
#include "QnnTypes.h"
#include "System/QnnSystemCommon.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_1 = 1,
  QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2 = 2,
  QNN_SYSTEM_CONTEXT_BINARY_INFO_UNDEFINED = 0x7fffffff,
} QnnSystemContext_BinaryInfoVersion_t;

typedef enum {
  QNN_SYSTEM_CONTEXT_MINERROR = 30000,
  QNN_SYSTEM_CONTEXT_NO_ERROR = 0,
  QNN_SYSTEM_CONTEXT_ERROR_UNSUPPORTED_FEATURE = 1000,
  QNN_SYSTEM_CONTEXT_ERROR_INVALID_HANDLE = 30000,
  QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT = 30001,
  QNN_SYSTEM_CONTEXT_ERROR_OPERATION_FAILED = 30002,
  QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY = 30010,
  QNN_SYSTEM_CONTEXT_MAXERROR = 49999,
} QnnSystemContext_Error_t;

typedef enum {
  QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1 = 1,
  QNN_SYSTEM_CONTEXT_GRAPH_INFO_UNDEFINED = 0x7fffffff,
} QnnSystemContext_GraphInfoVersion_t;

typedef void *QnnSystemContext_Handle_t;

typedef struct {
  const char *graphName;
  uint32_t numGraphInputs;
  Qnn_Tensor_t *graphInputs;
  uint32_t numGraphOutputs;
  Qnn_Tensor_t *graphOutputs;
} QnnSystemContext_GraphInfoV1_t;

typedef struct {
  QnnSystemContext_GraphInfoVersion_t version;
  union {
    QnnSystemContext_GraphInfoV1_t graphInfoV1;
  };
} QnnSystemContext_GraphInfo_t;

typedef struct {
  uint32_t backendId;
  const char *buildId;
  Qnn_Version_t coreApiVersion;
  Qnn_Version_t backendApiVersion;
  const char *socVersion;
  Qnn_Version_t hwInfoBlobVersion;
  Qnn_Version_t contextBlobVersion;
  uint32_t hwInfoBlobSize;
  void *hwInfoBlob;
  uint64_t contextBlobSize;
  uint32_t numContextTensors;
  Qnn_Tensor_t *contextTensors;
  uint32_t numGraphs;
  QnnSystemContext_GraphInfo_t *graphs;
} QnnSystemContext_BinaryInfoV1_t;

typedef struct {
  uint32_t backendId;
  const char *buildId;
  Qnn_Version_t coreApiVersion;
  Qnn_Version_t backendApiVersion;
  const char *socVersion;
  Qnn_Version_t hwInfoBlobVersion;
  Qnn_Version_t contextBlobVersion;
  uint32_t hwInfoBlobSize;
  void *hwInfoBlob;
  uint64_t contextBlobSize;
  uint32_t numContextTensors;
  Qnn_Tensor_t *contextTensors;
  uint32_t numGraphs;
  QnnSystemContext_GraphInfo_t *graphs;
  QnnDevice_PlatformInfo_t *platformInfo;
} QnnSystemContext_BinaryInfoV2_t;

typedef struct {
  QnnSystemContext_BinaryInfoVersion_t version;
  union {
    QnnSystemContext_BinaryInfoV1_t contextBinaryInfoV1;
    QnnSystemContext_BinaryInfoV2_t contextBinaryInfoV2;
  };
} QnnSystemContext_BinaryInfo_t;

QNN_API
Qnn_ErrorHandle_t QnnSystemContext_create(QnnSystemContext_Handle_t *sysCtxHandle);

QNN_API
Qnn_ErrorHandle_t QnnSystemContext_free(QnnSystemContext_Handle_t sysCtxHandle);

QNN_API
Qnn_ErrorHandle_t QnnSystemContext_getBinaryInfo(QnnSystemContext_Handle_t sysCtxHandle, void *binaryBuffer, uint64_t binaryBufferSize, const QnnSystemContext_BinaryInfo_t **binaryInfo, Qnn_ContextBinarySize_t *binaryInfoSize);

QNN_API
Qnn_ErrorHandle_t QnnSystemContext_getMetadata(QnnSystemContext_Handle_t sysCtxHandle, const void *binaryBuffer, Qnn_ContextBinarySize_t binaryBufferSize, const QnnSystemContext_BinaryInfo_t **binaryInfo);

#define QNN_SYSTEM_CONTEXT_BINARYINFO_INIT \
  {QNN_SYSTEM_CONTEXT_BINARY_INFO_UNDEFINED, {QNN_SYSTEM_CONTEXT_BINARY_INFO_V1_INIT}}
#define QNN_SYSTEM_CONTEXT_BINARY_INFO_V1_INIT \
  {0, NULL, QNN_VERSION_INIT, QNN_VERSION_INIT, NULL, QNN_VERSION_INIT, QNN_VERSION_INIT, 0, NULL, 0, 0, NULL, 0, NULL}
#define QNN_SYSTEM_CONTEXT_BINARY_INFO_V2_INIT \
  {0, NULL, QNN_VERSION_INIT, QNN_VERSION_INIT, NULL, QNN_VERSION_INIT, QNN_VERSION_INIT, 0, NULL, 0, 0, NULL, 0, NULL, NULL}
#define QNN_SYSTEM_CONTEXT_GRAPH_INFO_INIT \
  {QNN_SYSTEM_CONTEXT_GRAPH_INFO_UNDEFINED, {QNN_SYSTEM_CONTEXT_GRAPH_INFO_V1_INIT}}
#define QNN_SYSTEM_CONTEXT_GRAPH_INFO_V1_INIT \
  {NULL, 0, NULL, 0, NULL}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_SYSTEM_CONTEXT_H
