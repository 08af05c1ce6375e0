/* OpenQNN public header: CPU backend specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_CPU_COMMON_H
#define QNN_CPU_COMMON_H

#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_BACKEND_ID_CPU 3
#define QNN_CPU_INTERFACE_PROVIDER_NAME "CPU_QTI_AISW"
#define QNN_CPU_API_VERSION_MAJOR 1
#define QNN_CPU_API_VERSION_MINOR 1
#define QNN_CPU_API_VERSION_PATCH 0
#define QNN_CPU_API_VERSION_INIT { { QNN_API_VERSION_MAJOR , QNN_API_VERSION_MINOR , QNN_API_VERSION_PATCH } , { QNN_CPU_API_VERSION_MAJOR , QNN_CPU_API_VERSION_MINOR , QNN_CPU_API_VERSION_PATCH } }
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
