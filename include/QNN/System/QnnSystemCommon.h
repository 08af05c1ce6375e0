/* OpenQNN public header: System library specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SYSTEM_COMMON_H
#define QNN_SYSTEM_COMMON_H

#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_SYSTEM_COMMON_MIN_ERROR QNN_MIN_ERROR_SYSTEM
#define QNN_SYSTEM_COMMON_MAX_ERROR QNN_MIN_ERROR_SYSTEM + 999
#define QNN_SYSTEM_PROFILE_MIN_ERROR QNN_MIN_ERROR_SYSTEM + 1000
#define QNN_SYSTEM_PROFILE_MAX_ERROR QNN_MIN_ERROR_SYSTEM + 1999
typedef enum {
  QNN_SYSTEM_COMMON_NO_ERROR = 0,
  QNN_SYSTEM_COMMON_ERROR_UNSUPPORTED_FEATURE = 1000,
  QNN_SYSTEM_COMMON_ERROR_INVALID_HANDLE = 30000,
  QNN_SYSTEM_COMMON_ERROR_INVALID_ARGUMENT = 30001,
} QnnSystemCommon_Error_t;

#define QNN_SYSTEM_INTERFACE_PROVIDER_NAME "SYSTEM_QTI_AISW"
#define QNN_SYSTEM_API_VERSION_MAJOR 1
#define QNN_SYSTEM_API_VERSION_MINOR 7
#define QNN_SYSTEM_API_VERSION_PATCH 0
#define QNN_SYSTEM_CONTEXT_MIN_ERROR QNN_MIN_ERROR_SYSTEM
#define QNN_SYSTEM_CONTEXT_MAX_ERROR ( QNN_SYSTEM_CONTEXT_MIN_ERROR + 999 )
/* Size in bytes of a DLC held in memory (system API 1.14's DLC binary calls). */
typedef uint64_t Qnn_SystemDlcBinarySize_t;
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
