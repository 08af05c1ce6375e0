/* OpenQNN public header: HTP-QEMU backend specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md.
 * OpenQNN ships no HTP-QEMU backend: this header lets programs that name every backend (ONNX Runtime's
 * QNN EP, the vendor's tools) compile against our SDK and tell backends apart by id. */
#ifndef QNN_HTP_QEMU_COMMON_H
#define QNN_HTP_QEMU_COMMON_H

#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_BACKEND_ID_HTP_QEMU 13
#define QNN_HTP_QEMU_INTERFACE_PROVIDER_NAME "HTP_QEMU_QTI_AISW"
#define QNN_HTP_QEMU_API_VERSION_MAJOR 1
#define QNN_HTP_QEMU_API_VERSION_MINOR 0
#define QNN_HTP_QEMU_API_VERSION_PATCH 0
#define QNN_HTP_QEMU_API_VERSION_INIT { { QNN_API_VERSION_MAJOR , QNN_API_VERSION_MINOR , QNN_API_VERSION_PATCH } , { QNN_HTP_QEMU_API_VERSION_MAJOR , QNN_HTP_QEMU_API_VERSION_MINOR , QNN_HTP_QEMU_API_VERSION_PATCH } }
#define QNN_HTP_QEMU_CONTEXT_BLOB_VERSION_MAJOR 3
#define QNN_HTP_QEMU_CONTEXT_BLOB_VERSION_MINOR 3
#define QNN_HTP_QEMU_CONTEXT_BLOB_VERSION_PATCH 3
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
