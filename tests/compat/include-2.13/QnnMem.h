/* OpenQNN public header: Registration of client memory (file descriptors, custom buffers) for tensors.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_MEM_H
#define QNN_MEM_H

#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_MEM_INVALID_FD - 1
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
  QNN_MEM_ERROR_UNDEFINED = 2147483647,
} QnnMem_Error_t;

typedef struct {
  uint32_t numDim;
  uint32_t *dimSize;
  const char *shapeConfig;
} Qnn_MemShape_t;

#define SHAPE_CONFIG_DATA_FORMAT_UBWC_RGBA8888 "DATA_FORMAT_UBWC_RGBA8888"
#define SHAPE_CONFIG_DATA_FORMAT_UBWC_NV12 "DATA_FORMAT_UBWC_NV12"
#define SHAPE_CONFIG_DATA_FORMAT_UBWC_NV12_Y "DATA_FORMAT_UBWC_NV12_Y"
#define SHAPE_CONFIG_DATA_FORMAT_UBWC_NV12_UV "DATA_FORMAT_UBWC_NV12_UV"
#define SHAPE_CONFIG_DATA_FORMAT_UBWC_NV124R "DATA_FORMAT_UBWC_NV124R"
#define SHAPE_CONFIG_DATA_FORMAT_UBWC_NV124R_Y "DATA_FORMAT_UBWC_NV124R_Y"
#define SHAPE_CONFIG_DATA_FORMAT_UBWC_NV124R_UV "DATA_FORMAT_UBWC_NV124R_UV"
#define QNN_MEM_SHAPE_INIT { 0u , NULL , NULL }
typedef enum {
  QNN_MEM_TYPE_ION = 1,
  QNN_MEM_TYPE_CUSTOM = 2,
  QNN_MEM_TYPE_DMA_BUF = 3,
  QNN_MEM_TYPE_UNDEFINED = 2147483647,
} Qnn_MemType_t;

typedef struct {
  int32_t fd;
} Qnn_MemIonInfo_t;

#define QNN_MEM_ION_INFO_INIT { QNN_MEM_INVALID_FD }
typedef void *Qnn_MemInfoCustom_t;

typedef struct {
  int32_t fd;
  void *data;
} Qnn_MemDmaBufInfo_t;

#define QNN_MEM_DMA_BUF_INFO_INIT { QNN_MEM_INVALID_FD , NULL }
typedef struct {
  Qnn_MemShape_t memShape;
  Qnn_DataType_t dataType;
  Qnn_MemType_t memType;
  union {
    Qnn_MemIonInfo_t ionInfo;
    Qnn_MemInfoCustom_t customInfo;
  };
} Qnn_MemDescriptor_t;

#define QNN_MEM_DESCRIPTOR_INIT { QNN_MEM_SHAPE_INIT , QNN_DATATYPE_UNDEFINED , QNN_MEM_TYPE_UNDEFINED , { QNN_MEM_ION_INFO_INIT } }
QNN_API
Qnn_ErrorHandle_t QnnMem_register(Qnn_ContextHandle_t context, const Qnn_MemDescriptor_t *memDescriptors, uint32_t numDescriptors, Qnn_MemHandle_t *memHandles);

QNN_API
Qnn_ErrorHandle_t QnnMem_deRegister(const Qnn_MemHandle_t *memHandles, uint32_t numHandles);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
