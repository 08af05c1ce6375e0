/* For the C test clients: a float32 tensor description with client memory (RAW) and no data,
 * version 1 fields, as graph tensors are created. Included by relative path, so a client whose
 * include path holds only a vendor-like header set (tests/compat) can use it too. */
#ifndef OPENQNN_TESTS_C_FLOAT_TENSOR_H
#define OPENQNN_TESTS_C_FLOAT_TENSOR_H

#include "QnnTypes.h"

static inline Qnn_Tensor_t floatTensor(const char* name, Qnn_TensorType_t type, uint32_t rank, uint32_t* dims) {
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.name = name;
  t.v1.type = type;
  t.v1.dataType = QNN_DATATYPE_FLOAT_32;
  t.v1.rank = rank;
  t.v1.dimensions = dims;
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  return t;
}

#endif
