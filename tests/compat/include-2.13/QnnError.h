/* OpenQNN public header: Turning an error handle into human-readable text.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_ERROR_H
#define QNN_ERROR_H

#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_ERROR_MIN_ERROR = 10000,
  QNN_ERROR_NO_ERROR = 0,
  QNN_ERROR_INVALID_ARGUMENT = 10000,
  QNN_ERROR_INVALID_ERROR_HANDLE = 10001,
  QNN_ERROR_MAX_ERROR = 10999,
  QNN_ERROR_UNDEFINED = 2147483647,
} QnnError_Error_t;

QNN_API
Qnn_ErrorHandle_t QnnError_getMessage(Qnn_ErrorHandle_t errorHandle, const char **errorMessage);

QNN_API
Qnn_ErrorHandle_t QnnError_getVerboseMessage(Qnn_ErrorHandle_t errorHandle, const char **errorMessage);

QNN_API
Qnn_ErrorHandle_t QnnError_freeVerboseMessage(const char *errorMessage);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
