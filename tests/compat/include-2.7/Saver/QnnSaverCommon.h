/* OpenQNN public header: Saver backend specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SAVER_COMMON_H
#define QNN_SAVER_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_BACKEND_ID_SAVER 2
#define QNN_SAVER_API_VERSION_MAJOR 1
#define QNN_SAVER_API_VERSION_MINOR 0
#define QNN_SAVER_API_VERSION_PATCH 0
#define QNN_SAVER_INTERFACE_PROVIDER_NAME "SAVER_QTI_AISW"

#define QNN_SAVER_API_VERSION_INIT \
  {{2, 7, 2}, {1, 0, 0}}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_SAVER_COMMON_H
