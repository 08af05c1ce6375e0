/* OpenQNN public header: GPU backend specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md.
 * OpenQNN ships no GPU backend: this header lets programs that name every backend (ONNX Runtime's
 * QNN EP, the vendor's tools) compile against our SDK and tell backends apart by id. */
#ifndef QNN_GPU_COMMON_H
#define QNN_GPU_COMMON_H

#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_BACKEND_ID_GPU 4
#define QNN_GPU_INTERFACE_PROVIDER_NAME "GPU_QTI_AISW"
#define QNN_GPU_API_VERSION_MAJOR 3
#define QNN_GPU_API_VERSION_MINOR 12
#define QNN_GPU_API_VERSION_PATCH 0
#define QNN_GPU_API_VERSION_INIT { { QNN_API_VERSION_MAJOR , QNN_API_VERSION_MINOR , QNN_API_VERSION_PATCH } , { QNN_GPU_API_VERSION_MAJOR , QNN_GPU_API_VERSION_MINOR , QNN_GPU_API_VERSION_PATCH } }

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
