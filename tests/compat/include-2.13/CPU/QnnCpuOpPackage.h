/* OpenQNN public header: CPU backend specifics: OpPackage.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_CPU_OP_PACKAGE_H
#define QNN_CPU_OP_PACKAGE_H

#include "CPU/QnnCpuCommon.h"
#include "QnnGraph.h"
#include "QnnOpPackage.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_CPUOPPACKAGE_TENSOR_DATA_FORMAT_FLAT_BUFFER 0
typedef uint32_t QnnCpuOpPackage_TensorDataFormat_t;

typedef double QnnCpuOpPackage_ProfileData_t;

/* Values above INT_MAX are part of the ABI (a 32-bit unsigned enum). */
QNN_ENUM_WIDE_BEGIN
typedef enum {
  QNN_CPU_PARAMTYPE_SCALAR = 0,
  QNN_CPU_PARAMTYPE_TENSOR = 1,
  QNN_CPU_PARAMTYPE_STRING = 2,
  QNN_CPU_PARAMTYPE_UNDEFINED = 0xffffffff,
} QnnCpuOpPackage_ParamType_t;
QNN_ENUM_WIDE_END

typedef enum {
  QNN_CPU_DATATYPE_BOOL_8 = 1288,
  QNN_CPU_DATATYPE_INT_8 = 8,
  QNN_CPU_DATATYPE_INT_32 = 50,
  QNN_CPU_DATATYPE_UINT_8 = 264,
  QNN_CPU_DATATYPE_UINT_32 = 306,
  QNN_CPU_DATATYPE_FLOAT_32 = 562,
  QNN_CPU_DATATYPE_UNDEFINED = 2147483647,
} QnnCpuOpPackage_DataType_t;

typedef enum {
  QNN_CPU_MSG_ERROR = 1,
  QNN_CPU_MSG_DEBUG = 2,
  QNN_CPU_MSG_LOW = 3,
  QNN_CPU_MSG_MED = 4,
  QNN_CPU_MSG_HIGH = 5,
  QNN_CPU_MSG_UNDEFINED = 2147483647,
} QnnCpuOpPackage_MsgType_t;

typedef enum {
  QNN_CPU_PROFILE_BASIC = 1,
  QNN_CPU_PROFILE_DETAILED = 2,
  QNN_CPU_PROFILE_UNDEFINED = 2147483647,
} QnnCpuOpPackage_ProfileType_t;

typedef struct _QnnOpPackage_GlobalInfrastructure_t {
  void (*reportMessage)(QnnCpuOpPackage_MsgType_t, const char *, ...);
  void (*profile)(QnnCpuOpPackage_ProfileType_t, QnnCpuOpPackage_ProfileData_t);
} QnnCpuOpPackage_GlobalInfra_t;

#define QNN_CPU_OP_PACKAGE_GLOBAL_INFRA_INIT { NULL , NULL }
typedef Qnn_ErrorHandle_t (*QnnCpuOpPackage_OpImplFn_t)(void *opPkgNodeData);

typedef struct _QnnOpPackage_OpImpl_t {
  QnnCpuOpPackage_OpImplFn_t opImplFn;
  void *userData;
} QnnCpuOpPackage_OpImpl_t;

#define QNN_CPU_OP_PACKAGE_OPIMPL_INIT { NULL , NULL }
typedef struct {
  QnnCpuOpPackage_TensorDataFormat_t dataFormat;
  QnnCpuOpPackage_DataType_t dataType;
  uint32_t rank;
  uint32_t *maxDimensions;
  uint32_t *currentDimensions;
  void *data;
  Qnn_QuantizeParams_t quantizeParams;
} QnnCpuOpPackage_Tensor_t;

#define QNN_CPU_OP_PACKAGE_TENSOR_INIT { QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER , QNN_CPU_DATATYPE_UNDEFINED , 0 , NULL , NULL , NULL , QNN_QUANTIZE_PARAMS_INIT }
typedef struct {
  QnnCpuOpPackage_ParamType_t type;
  const char *name;
  union {
    double scalarParam;
    const char *string;
    QnnCpuOpPackage_Tensor_t *tensorParam;
  };
} QnnCpuOpPackage_Param_t;

#define QNN_CPU_OP_PACKAGE_PARAM_INIT { QNN_CPU_PARAMTYPE_UNDEFINED , NULL , { 0 } }
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

#define QNN_CPU_OP_PACKAGE_NODE_INIT { NULL , NULL , NULL , 0 , NULL , 0 , NULL , 0 , NULL }
typedef struct _QnnOpPackage_GraphInfrastructure_t QnnCpuOpPackage_GraphInfrastructure_t;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
