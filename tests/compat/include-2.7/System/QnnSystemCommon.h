/* OpenQNN public header: System library specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SYSTEM_COMMON_H
#define QNN_SYSTEM_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_SYSTEM_API
#define QNN_SYSTEM_API_VERSION_MAJOR 1
#define QNN_SYSTEM_API_VERSION_MINOR 1
#define QNN_SYSTEM_API_VERSION_PATCH 0
#define QNN_SYSTEM_CONTEXT_MAX_ERROR 30999
#define QNN_SYSTEM_CONTEXT_MIN_ERROR 30000
#define QNN_SYSTEM_INTERFACE_PROVIDER_NAME "SYSTEM_QTI_AISW"


#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_SYSTEM_COMMON_H
