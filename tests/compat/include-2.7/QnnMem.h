/* OpenQNN public header: Registration of client memory (file descriptors, custom buffers) for tensors.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_MEM_H
#define QNN_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_MEM_INVALID_FD -1

typedef enum {
  QNN_MEM_MIN_ERROR = 8000,
  QNN_MEM_NO_ERROR = 0,
  QNN_MEM_ERROR_NOT_SUPPORTED = 1000,
  QNN_MEM_ERROR_INVALID_ARGUMENT = 8000,
  QNN_MEM_ERROR_INVALID_HANDLE = 8001,
  QNN_MEM_ERROR_ALREADY_REGISTERED = 8002,
  QNN_MEM_ERROR_MAPPING = 8003,
  QNN_MEM_ERROR_INVALID_SHAPE = 8004,
  QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE = 8005,
  QNN_MEM_MAX_ERROR = 8999,
  QNN_MEM_ERROR_UNDEFINED = 0x7fffffff,
} QnnMem_Error_t;

typedef enum {
  QNN_MEM_TYPE_ION = 1,
  QNN_MEM_TYPE_CUSTOM = 2,
  QNN_MEM_TYPE_UNDEFINED = 0x7fffffff,
} Qnn_MemType_t;

typedef void *Qnn_MemInfoCustom_t;

typedef struct {
  int32_t fd;
} Qnn_MemIonInfo_t;

typedef struct {
  uint32_t numDim;
  uint32_t *dimSize;
  const char *shapeConfig;
} Qnn_MemShape_t;

typedef struct {
  Qnn_MemShape_t memShape;
  Qnn_DataType_t dataType;
  Qnn_MemType_t memType;
  union {
    Qnn_MemIonInfo_t ionInfo;
    Qnn_MemInfoCustom_t customInfo;
  };
} Qnn_MemDescriptor_t;

QNN_API
Qnn_ErrorHandle_t QnnMem_deRegister(const Qnn_MemHandle_t *memHandles, uint32_t numHandles);

QNN_API
Qnn_ErrorHandle_t QnnMem_register(Qnn_ContextHandle_t context, const Qnn_MemDescriptor_t *memDescriptors, uint32_t numDescriptors, Qnn_MemHandle_t *memHandles);

#define QNN_MEM_DESCRIPTOR_INIT \
  {QNN_MEM_SHAPE_INIT, QNN_DATATYPE_UNDEFINED, QNN_MEM_TYPE_UNDEFINED, {QNN_MEM_ION_INFO_INIT}}
#define QNN_MEM_ION_INFO_INIT \
  {-1}
#define QNN_MEM_SHAPE_INIT \
  {0, NULL, NULL}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_MEM_H
