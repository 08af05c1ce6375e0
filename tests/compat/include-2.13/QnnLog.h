/* OpenQNN public header: Logging: a client callback receives messages at or below the chosen level.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_LOG_H
#define QNN_LOG_H

#include <stdarg.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_LOG_MIN_ERROR = 11000,
  QNN_LOG_NO_ERROR = 0,
  QNN_LOG_ERROR_MEM_ALLOC = 1002,
  QNN_LOG_ERROR_INITIALIZATION = 11002,
  QNN_LOG_ERROR_INVALID_ARGUMENT = 11003,
  QNN_LOG_ERROR_INVALID_HANDLE = 11004,
  QNN_LOG_MAX_ERROR = 11999,
  QNN_LOG_ERROR_UNDEFINED = 2147483647,
} QnnLog_Error_t;

typedef enum {
  QNN_LOG_LEVEL_ERROR = 1,
  QNN_LOG_LEVEL_WARN = 2,
  QNN_LOG_LEVEL_INFO = 3,
  QNN_LOG_LEVEL_VERBOSE = 4,
  QNN_LOG_LEVEL_DEBUG = 5,
  QNN_LOG_LEVEL_MAX = 2147483647,
} QnnLog_Level_t;

typedef void (*QnnLog_Callback_t)(const char *fmt, QnnLog_Level_t level, uint64_t timestamp, va_list args);

QNN_API
Qnn_ErrorHandle_t QnnLog_create(QnnLog_Callback_t callback, QnnLog_Level_t maxLogLevel, Qnn_LogHandle_t *logger);

QNN_API
Qnn_ErrorHandle_t QnnLog_setLogLevel(Qnn_LogHandle_t logger, QnnLog_Level_t maxLogLevel);

QNN_API
Qnn_ErrorHandle_t QnnLog_free(Qnn_LogHandle_t logger);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
