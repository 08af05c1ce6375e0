/* OpenQNN public header: HTP backend specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_COMMON_H
#define QNN_HTP_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_BACKEND_ID_HTP 6
#define QNN_HTP_API_VERSION_MAJOR 5
#define QNN_HTP_API_VERSION_MINOR 13
#define QNN_HTP_API_VERSION_PATCH 0
#define QNN_HTP_CONTEXT_BLOB_VERSION_MAJOR 3
#define QNN_HTP_CONTEXT_BLOB_VERSION_MINOR 0
#define QNN_HTP_CONTEXT_BLOB_VERSION_PATCH 0
#define QNN_HTP_INTERFACE_PROVIDER_NAME "HTP_QTI_AISW"
#define QNN_HTP_NATIVE_LIB_SECURITY_VERSIONING_MIN_ARCH 73
#define QNN_HTP_V73_NATIVE_LIB_SECURITY_VERSION_MAJOR 1
#define QNN_HTP_V73_NATIVE_LIB_SECURITY_VERSION_MINOR 0
#define QNN_HTP_V73_NATIVE_LIB_SECURITY_VERSION_PATCH 0

#define QNN_HTP_API_VERSION_INIT \
  {{2, 7, 2}, {5, 13, 0}}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_HTP_COMMON_H
