/* OpenQNN public header: Creation of context-scoped and graph-scoped tensors.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_TENSOR_H
#define QNN_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_TENSOR_MIN_ERROR = 7000,
  QNN_TENSOR_NO_ERROR = 0,
  QNN_TENSOR_ERROR_INVALID_HANDLE = 7001,
  QNN_TENSOR_ERROR_DOES_NOT_EXIST = 7002,
  QNN_TENSOR_ERROR_ALREADY_EXISTS = 7003,
  QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM = 7004,
  QNN_TENSOR_ERROR_UNSUPPORTED_TENSOR_PARAM = 7005,
  QNN_TENSOR_ERROR_NAME_HASH_COLLISION = 7006,
  QNN_TENSOR_MAX_ERROR = 7999,
  QNN_TENSOR_ERROR_UNDEFINED = 0x7fffffff,
} QnnTensor_Error_t;

QNN_API
Qnn_ErrorHandle_t QnnTensor_createContextTensor(Qnn_ContextHandle_t context, Qnn_Tensor_t *tensor);

QNN_API
Qnn_ErrorHandle_t QnnTensor_createGraphTensor(Qnn_GraphHandle_t graph, Qnn_Tensor_t *tensor);


#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_TENSOR_H
