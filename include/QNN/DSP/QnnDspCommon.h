/* OpenQNN public header: DSP backend specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md.
 * OpenQNN ships no DSP backend: this header lets programs that name every backend (ONNX Runtime's
 * QNN EP, the vendor's tools) compile against our SDK and tell backends apart by id. */
#ifndef QNN_DSP_COMMON_H
#define QNN_DSP_COMMON_H

#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_BACKEND_ID_DSP 5
#define QNN_DSP_INTERFACE_PROVIDER_NAME "DSP_QTI_AISW"
#define QNN_DSP_API_VERSION_MAJOR 5
#define QNN_DSP_API_VERSION_MINOR 0
#define QNN_DSP_API_VERSION_PATCH 1
#define QNN_DSP_API_VERSION_INIT { { QNN_API_VERSION_MAJOR , QNN_API_VERSION_MINOR , QNN_API_VERSION_PATCH } , { QNN_DSP_API_VERSION_MAJOR , QNN_DSP_API_VERSION_MINOR , QNN_DSP_API_VERSION_PATCH } }
#define QNN_DSP_BINARY_VERSION_MAJOR 1
#define QNN_DSP_BINARY_VERSION_MINOR 0
#define QNN_DSP_BINARY_VERSION_PATCH 0
#define QNN_DSP_CONTEXT_BLOB_VERSION_MAJOR 1
#define QNN_DSP_CONTEXT_BLOB_VERSION_MINOR 0
#define QNN_DSP_CONTEXT_BLOB_VERSION_PATCH 0
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
