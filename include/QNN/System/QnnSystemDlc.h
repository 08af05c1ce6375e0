/* OpenQNN public header: System: QnnSystemDlc.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SYSTEM_DLC_H
#define QNN_SYSTEM_DLC_H

#include "QnnInterface.h"
#include "QnnTypes.h"
#include "System/QnnSystemCommon.h"
#include "System/QnnSystemContext.h"
#include "System/QnnSystemLog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_SYSTEM_DLC_MINERROR = 30000,
  QNN_SYSTEM_DLC_NO_ERROR = 0,
  QNN_SYSTEM_DLC_ERROR_UNSUPPORTED_FEATURE = 1000,
  QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE = 30000,
  QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT = 30001,
  QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED = 30002,
  QNN_SYSTEM_DLC_ERROR_MALFORMED_BINARY = 30010,
  QNN_SYSTEM_DLC_MAXERROR = 49999,
} QnnSystemDlc_Error_t;

typedef enum {
  QNN_SYSTEM_DLC_GRAPH_CONFIG_INFO_VERSION_1 = 1,
  QNN_SYSTEM_DLC_GRAPH_CONFIG_INFO_UNDEFINED = 2147483647,
} QnnSystemContext_GraphConfigInfoVersion_t;

typedef struct {
  const char *graphName;
  const QnnGraph_Config_t **graphConfigs;
  uint32_t numConfigs;
} QnnSystemDlc_GraphConfigInfoV1_t;

typedef struct {
  QnnSystemContext_GraphConfigInfoVersion_t version;
  union {
    QnnSystemDlc_GraphConfigInfoV1_t v1;
  };
} QnnSystemDlc_GraphConfigInfo_t;


QNN_API
Qnn_ErrorHandle_t QnnSystemDlc_createFromFile(Qnn_LogHandle_t logger, const char *dlcPath, QnnSystemDlc_Handle_t *dlcHandle);

QNN_API
Qnn_ErrorHandle_t QnnSystemDlc_createFromBinary(Qnn_LogHandle_t logger, const uint8_t *buffer, const Qnn_ContextBinarySize_t bufferSize, QnnSystemDlc_Handle_t *dlcHandle);

QNN_API
Qnn_ErrorHandle_t QnnSystemDlc_composeGraphs(QnnSystemDlc_Handle_t dlcHandle, const QnnSystemDlc_GraphConfigInfo_t **graphConfigs, const uint32_t numGraphConfigs, Qnn_BackendHandle_t backend, Qnn_ContextHandle_t context, QnnInterface_t interface, QnnSystemContext_GraphInfoVersion_t graphVersion, QnnSystemContext_GraphInfo_t **graphs, uint32_t *numGraphs);

QNN_API
Qnn_ErrorHandle_t QnnSystemDlc_getOpMappings(QnnSystemDlc_Handle_t dlcHandle, const Qnn_OpMapping_t **opMappings, uint32_t *numOpMappings);

QNN_API
Qnn_ErrorHandle_t QnnSystemDlc_free(QnnSystemDlc_Handle_t dlcHandle);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
