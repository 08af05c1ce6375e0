/* OpenQNN public header: LPAI backend specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md.
 * OpenQNN ships no LPAI backend: this header lets programs that name every backend (ONNX Runtime's
 * QNN EP, the vendor's tools) compile against our SDK and tell backends apart by id. */
#ifndef QNN_LPAI_COMMON_H
#define QNN_LPAI_COMMON_H

#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_BACKEND_ID_LPAI 12
#define QNN_BACKEND_ID_LPAI_ISLAND 16
#define QNN_LPAI_INTERFACE_PROVIDER_NAME "LPAI_QTI_AISW"
#define QNN_LPAI_API_VERSION_MAJOR 2
#define QNN_LPAI_API_VERSION_MINOR 26
#define QNN_LPAI_API_VERSION_PATCH 0
#define QNN_LPAI_API_VERSION_INIT { { QNN_API_VERSION_MAJOR , QNN_API_VERSION_MINOR , QNN_API_VERSION_PATCH } , { QNN_LPAI_API_VERSION_MAJOR , QNN_LPAI_API_VERSION_MINOR , QNN_LPAI_API_VERSION_PATCH } }
#define QNN_LPAI_BINARY_VERSION_MAJOR 1
#define QNN_LPAI_BINARY_VERSION_MINOR 0
#define QNN_LPAI_BINARY_VERSION_PATCH 0
#define QNN_LPAI_CONTEXT_BLOB_VERSION_MAJOR 1
#define QNN_LPAI_CONTEXT_BLOB_VERSION_MINOR 0
#define QNN_LPAI_CONTEXT_BLOB_VERSION_PATCH 0
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
