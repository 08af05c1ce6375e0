// Version-independent accessors for Qnn_Tensor_t and Qnn_OpConfig_t, under the
// macro names generated code and the helper sources use (QNN_TENSOR_GET_NAME, ...).
//
// Qnn_TensorV2_t starts with exactly the fields of Qnn_TensorV1_t, so the fields
// both versions have are read through v1 whatever the version; the V2-only fields
// (isDynamicDimensions, sparseParams, isProduced) read as "absent" on a V1 tensor
// and their setters ignore V1 tensors. Each accessor takes a reference or a pointer
// (the macros are used both ways); nothing is allocated or freed here.
#pragma once

#include "QnnTypes.h"

namespace qnn_type_access {

inline Qnn_TensorV1_t& common(Qnn_Tensor_t& t) { return t.v1; }
inline const Qnn_TensorV1_t& common(const Qnn_Tensor_t& t) { return t.v1; }
inline bool isV2(const Qnn_Tensor_t& t) { return t.version == QNN_TENSOR_VERSION_2; }

template <typename T>
inline T& ref(T& t) { return t; }
template <typename T>
inline T& ref(T* t) { return *t; }

}  // namespace qnn_type_access

// ---- tensor getters ----
#define QNN_TENSOR_GET_ID(tensor) (qnn_type_access::common(qnn_type_access::ref(tensor)).id)
#define QNN_TENSOR_GET_NAME(tensor) (qnn_type_access::common(qnn_type_access::ref(tensor)).name)
#define QNN_TENSOR_GET_TYPE(tensor) (qnn_type_access::common(qnn_type_access::ref(tensor)).type)
#define QNN_TENSOR_GET_DATA_FORMAT(tensor) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).dataFormat)
#define QNN_TENSOR_GET_DATA_TYPE(tensor) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).dataType)
#define QNN_TENSOR_GET_QUANT_PARAMS(tensor) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).quantizeParams)
#define QNN_TENSOR_GET_RANK(tensor) (qnn_type_access::common(qnn_type_access::ref(tensor)).rank)
#define QNN_TENSOR_GET_DIMENSIONS(tensor) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).dimensions)
#define QNN_TENSOR_GET_MEM_TYPE(tensor) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).memType)
#define QNN_TENSOR_GET_CLIENT_BUF(tensor) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).clientBuf)
#define QNN_TENSOR_GET_MEM_HANDLE(tensor) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).memHandle)
#define QNN_TENSOR_GET_IS_DYNAMIC_DIMENSIONS(tensor)                          \
  (qnn_type_access::isV2(qnn_type_access::ref(tensor))                        \
       ? qnn_type_access::ref(tensor).v2.isDynamicDimensions                  \
       : static_cast<uint8_t*>(nullptr))
#define QNN_TENSOR_GET_SPARSE_PARAMS(tensor)                                  \
  (qnn_type_access::isV2(qnn_type_access::ref(tensor))                        \
       ? qnn_type_access::ref(tensor).v2.sparseParams                         \
       : Qnn_SparseParams_t QNN_SPARSE_PARAMS_INIT)
#define QNN_TENSOR_GET_IS_PRODUCED(tensor)                                    \
  (qnn_type_access::isV2(qnn_type_access::ref(tensor))                        \
       ? qnn_type_access::ref(tensor).v2.isProduced                           \
       : static_cast<uint8_t>(0))

// ---- tensor setters ----
#define QNN_TENSOR_SET_ID(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).id = (value))
#define QNN_TENSOR_SET_NAME(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).name = (value))
#define QNN_TENSOR_SET_TYPE(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).type = (value))
#define QNN_TENSOR_SET_DATA_FORMAT(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).dataFormat = (value))
#define QNN_TENSOR_SET_DATA_TYPE(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).dataType = (value))
#define QNN_TENSOR_SET_QUANT_PARAMS(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).quantizeParams = (value))
#define QNN_TENSOR_SET_RANK(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).rank = (value))
#define QNN_TENSOR_SET_DIMENSIONS(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).dimensions = (value))
#define QNN_TENSOR_SET_MEM_TYPE(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).memType = (value))
#define QNN_TENSOR_SET_CLIENT_BUF(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).clientBuf = (value))
#define QNN_TENSOR_SET_MEM_HANDLE(tensor, value) \
  (qnn_type_access::common(qnn_type_access::ref(tensor)).memHandle = (value))
#define QNN_TENSOR_SET_IS_DYNAMIC_DIMENSIONS(tensor, value)                                  \
  do {                                                                                       \
    if (qnn_type_access::isV2(qnn_type_access::ref(tensor)))                                 \
      qnn_type_access::ref(tensor).v2.isDynamicDimensions = (value);                         \
  } while (0)
#define QNN_TENSOR_SET_SPARSE_PARAMS(tensor, value)                                          \
  do {                                                                                       \
    if (qnn_type_access::isV2(qnn_type_access::ref(tensor)))                                 \
      qnn_type_access::ref(tensor).v2.sparseParams = (value);                                \
  } while (0)
#define QNN_TENSOR_SET_IS_PRODUCED(tensor, value)                                            \
  do {                                                                                       \
    if (qnn_type_access::isV2(qnn_type_access::ref(tensor)))                                 \
      qnn_type_access::ref(tensor).v2.isProduced = (value);                                  \
  } while (0)

// ---- op config (only version 1 exists) ----
#define QNN_OP_CFG_GET_NAME(op) (qnn_type_access::ref(op).v1.name)
#define QNN_OP_CFG_GET_PACKAGE_NAME(op) (qnn_type_access::ref(op).v1.packageName)
#define QNN_OP_CFG_GET_TYPE_NAME(op) (qnn_type_access::ref(op).v1.typeName)
#define QNN_OP_CFG_GET_NUM_PARAMS(op) (qnn_type_access::ref(op).v1.numOfParams)
#define QNN_OP_CFG_GET_PARAMS(op) (qnn_type_access::ref(op).v1.params)
#define QNN_OP_CFG_GET_NUM_INPUTS(op) (qnn_type_access::ref(op).v1.numOfInputs)
#define QNN_OP_CFG_GET_INPUTS(op) (qnn_type_access::ref(op).v1.inputTensors)
#define QNN_OP_CFG_GET_NUM_OUTPUTS(op) (qnn_type_access::ref(op).v1.numOfOutputs)
#define QNN_OP_CFG_GET_OUTPUTS(op) (qnn_type_access::ref(op).v1.outputTensors)

#define QNN_OP_CFG_SET_NAME(op, value) (qnn_type_access::ref(op).v1.name = (value))
#define QNN_OP_CFG_SET_PACKAGE_NAME(op, value) (qnn_type_access::ref(op).v1.packageName = (value))
#define QNN_OP_CFG_SET_TYPE_NAME(op, value) (qnn_type_access::ref(op).v1.typeName = (value))
#define QNN_OP_CFG_SET_PARAMS(op, num, value)          \
  do {                                                 \
    qnn_type_access::ref(op).v1.numOfParams = (num);   \
    qnn_type_access::ref(op).v1.params = (value);      \
  } while (0)
#define QNN_OP_CFG_SET_INPUTS(op, num, value)          \
  do {                                                 \
    qnn_type_access::ref(op).v1.numOfInputs = (num);   \
    qnn_type_access::ref(op).v1.inputTensors = (value); \
  } while (0)
#define QNN_OP_CFG_SET_OUTPUTS(op, num, value)          \
  do {                                                  \
    qnn_type_access::ref(op).v1.numOfOutputs = (num);   \
    qnn_type_access::ref(op).v1.outputTensors = (value); \
  } while (0)
