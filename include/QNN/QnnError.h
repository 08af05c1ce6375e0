/* OpenQNN public header: Turning an error handle into human-readable text.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_ERROR_H
#define QNN_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The error codes of this API group (range QNN_MIN_ERROR_ERROR..QNN_MAX_ERROR_ERROR)
 * are not declared yet: their names and values are not established. */

/* Sets *errorMessage to a short description of errorHandle. The string belongs to the
 * backend: the caller must not free it and should copy it if it needs it later. */
QNN_API
Qnn_ErrorHandle_t QnnError_getMessage(Qnn_ErrorHandle_t errorHandle, const char **errorMessage);

/* Sets *errorMessage to a detailed description of errorHandle. The string is allocated
 * for the caller, who hands it back with QnnError_freeVerboseMessage when done. */
QNN_API
Qnn_ErrorHandle_t QnnError_getVerboseMessage(Qnn_ErrorHandle_t errorHandle, const char **errorMessage);

/* Releases a string returned by QnnError_getVerboseMessage; it must not be used after. */
QNN_API
Qnn_ErrorHandle_t QnnError_freeVerboseMessage(const char *errorMessage);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_ERROR_H
