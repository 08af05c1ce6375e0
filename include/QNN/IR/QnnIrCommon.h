/* OpenQNN public header: IR backend specifics: Common.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md.
 * OpenQNN ships no IR backend: this header lets programs that name every backend (ONNX Runtime's
 * QNN EP, the vendor's tools) compile against our SDK and tell backends apart by id. */
#ifndef QNN_IR_COMMON_H
#define QNN_IR_COMMON_H

#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_BACKEND_ID_IR 9
#define QNN_IR_INTERFACE_PROVIDER_NAME "IR_QTI_AISW"
#define QNN_IR_API_VERSION_MAJOR 0
#define QNN_IR_API_VERSION_MINOR 1
#define QNN_IR_API_VERSION_PATCH 0
#define QNN_IR_API_VERSION_INIT { { QNN_API_VERSION_MAJOR , QNN_API_VERSION_MINOR , QNN_API_VERSION_PATCH } , { QNN_IR_API_VERSION_MAJOR , QNN_IR_API_VERSION_MINOR , QNN_IR_API_VERSION_PATCH } }

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
