/* OpenQNN public header: System: QnnSystemTensor.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SYSTEM_TENSOR_H
#define QNN_SYSTEM_TENSOR_H

#include "QnnTypes.h"
#include "System/QnnSystemCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_SYSTEM_TENSOR_MIN_ERROR = 30000,
  QNN_SYSTEM_TENSOR_NO_ERROR = 0,
  QNN_SYSTEM_TENSOR_ERROR_UNSUPPORTED_FEATURE = 1000,
  QNN_SYSTEM_TENSOR_ERROR_INVALID_ARGUMENT = 30001,
  QNN_SYSTEM_TENSOR_ERROR_INVALID_TENSOR = 30002,
  QNN_SYSTEM_TENSOR_MAX_ERROR = 49999,
} QnnSystemTensor_Error_t;

QNN_API
Qnn_ErrorHandle_t QnnSystemTensor_getMemoryFootprint(Qnn_Tensor_t tensor, uint64_t *footprint);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
