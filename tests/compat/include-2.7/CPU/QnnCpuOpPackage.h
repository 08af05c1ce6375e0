/* OpenQNN public header: CPU backend specifics: OpPackage.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_CPU_OP_PACKAGE_H
#define QNN_CPU_OP_PACKAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "CPU/QnnCpuCommon.h"
#include "QnnCommon.h"
#include "QnnGraph.h"
#include "QnnLog.h"
#include "QnnOpPackage.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_CPU_DATATYPE_BOOL_8 = 0x0508,
  QNN_CPU_DATATYPE_INT_8 = 0x0008,
  QNN_CPU_DATATYPE_INT_32 = 0x0032,
  QNN_CPU_DATATYPE_UINT_8 = 0x0108,
  QNN_CPU_DATATYPE_UINT_32 = 0x0132,
  QNN_CPU_DATATYPE_FLOAT_32 = 0x0232,
  QNN_CPU_DATATYPE_UNDEFINED = 0x7fffffff,
} QnnCpuOpPackage_DataType_t;

typedef enum {
  QNN_CPU_MSG_ERROR = 1,
  QNN_CPU_MSG_DEBUG = 2,
  QNN_CPU_MSG_LOW = 3,
  QNN_CPU_MSG_MED = 4,
  QNN_CPU_MSG_HIGH = 5,
  QNN_CPU_MSG_UNDEFINED = 0x7fffffff,
} QnnCpuOpPackage_MsgType_t;

/* Values above INT_MAX are part of the ABI (a 32-bit unsigned enum). */
QNN_ENUM_WIDE_BEGIN
typedef enum {
  QNN_CPU_PARAMTYPE_SCALAR = 0,
  QNN_CPU_PARAMTYPE_TENSOR = 1,
  QNN_CPU_PARAMTYPE_UNDEFINED = 0xffffffff,
} QnnCpuOpPackage_ParamType_t;
QNN_ENUM_WIDE_END

typedef enum {
  QNN_CPU_PROFILE_BASIC = 1,
  QNN_CPU_PROFILE_DETAILED = 2,
  QNN_CPU_PROFILE_UNDEFINED = 0x7fffffff,
} QnnCpuOpPackage_ProfileType_t;

typedef struct _QnnOpPackage_GraphInfrastructure_t QnnCpuOpPackage_GraphInfrastructure_t;

typedef double QnnCpuOpPackage_ProfileData_t;

typedef uint32_t QnnCpuOpPackage_TensorDataFormat_t;

typedef struct _QnnOpPackage_GlobalInfrastructure_t {
  void (*reportMessage)(QnnCpuOpPackage_MsgType_t, const char *, ...);
  void (*profile)(QnnCpuOpPackage_ProfileType_t, QnnCpuOpPackage_ProfileData_t);
} QnnCpuOpPackage_GlobalInfra_t;

typedef struct {
  QnnCpuOpPackage_TensorDataFormat_t dataFormat;
  QnnCpuOpPackage_DataType_t dataType;
  uint32_t rank;
  uint32_t *maxDimensions;
  uint32_t *currentDimensions;
  void *data;
} QnnCpuOpPackage_Tensor_t;

typedef struct {
  QnnCpuOpPackage_ParamType_t type;
  const char *name;
  union {
    double scalarParam;
    QnnCpuOpPackage_Tensor_t *tensorParam;
  };
} QnnCpuOpPackage_Param_t;

typedef struct _QnnOpPackage_Node_t {
  const char *name;
  const char *packageName;
  const char *typeName;
  uint32_t numOfParams;
  QnnCpuOpPackage_Param_t **params;
  uint32_t numOfInputs;
  QnnCpuOpPackage_Tensor_t **inputs;
  uint32_t numOfOutputs;
  QnnCpuOpPackage_Tensor_t **outputs;
} QnnCpuOpPackage_Node_t;

typedef Qnn_ErrorHandle_t (*QnnCpuOpPackage_OpImplFn_t)(void *opPkgNodeData);

typedef struct _QnnOpPackage_OpImpl_t {
  QnnCpuOpPackage_OpImplFn_t opImplFn;
  void *userData;
} QnnCpuOpPackage_OpImpl_t;

#define QNN_CPU_OP_PACKAGE_GLOBAL_INFRA_INIT \
  {NULL, NULL}
#define QNN_CPU_OP_PACKAGE_NODE_INIT \
  {NULL, NULL, NULL, 0, NULL, 0, NULL, 0, NULL}
#define QNN_CPU_OP_PACKAGE_OPIMPL_INIT \
  {NULL, NULL}
#define QNN_CPU_OP_PACKAGE_PARAM_INIT \
  {QNN_CPU_PARAMTYPE_UNDEFINED, NULL, {0.0}}
#define QNN_CPU_OP_PACKAGE_TENSOR_INIT \
  {0, QNN_CPU_DATATYPE_UNDEFINED, 0, NULL, NULL, NULL}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_CPU_OP_PACKAGE_H
