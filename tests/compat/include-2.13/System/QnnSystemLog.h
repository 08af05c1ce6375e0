/* OpenQNN public header: System: QnnSystemLog.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SYSTEM_LOG_H
#define QNN_SYSTEM_LOG_H

#include "QnnCommon.h"
#include "QnnLog.h"
#include "System/QnnSystemCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

QNN_API
Qnn_ErrorHandle_t QnnSystemLog_create(QnnLog_Callback_t callback, QnnLog_Level_t maxLogLevel, Qnn_LogHandle_t *logger);

QNN_API
Qnn_ErrorHandle_t QnnSystemLog_setLogLevel(Qnn_LogHandle_t logger, QnnLog_Level_t maxLogLevel);

QNN_API
Qnn_ErrorHandle_t QnnSystemLog_free(Qnn_LogHandle_t logger);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
