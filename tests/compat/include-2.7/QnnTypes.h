/* OpenQNN public header: Core value types of the QNN API: datatypes, tensors, quantization, params, op configs.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_TYPES_H
#define QNN_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER 0

typedef enum {
  QNN_DATATYPE_INT_8 = 0x0008,
  QNN_DATATYPE_INT_16 = 0x0016,
  QNN_DATATYPE_INT_32 = 0x0032,
  QNN_DATATYPE_INT_64 = 0x0064,
  QNN_DATATYPE_UINT_8 = 0x0108,
  QNN_DATATYPE_UINT_16 = 0x0116,
  QNN_DATATYPE_UINT_32 = 0x0132,
  QNN_DATATYPE_UINT_64 = 0x0164,
  QNN_DATATYPE_FLOAT_16 = 0x0216,
  QNN_DATATYPE_FLOAT_32 = 0x0232,
  QNN_DATATYPE_SFIXED_POINT_8 = 0x0308,
  QNN_DATATYPE_SFIXED_POINT_16 = 0x0316,
  QNN_DATATYPE_SFIXED_POINT_32 = 0x0332,
  QNN_DATATYPE_UFIXED_POINT_8 = 0x0408,
  QNN_DATATYPE_UFIXED_POINT_16 = 0x0416,
  QNN_DATATYPE_UFIXED_POINT_32 = 0x0432,
  QNN_DATATYPE_BOOL_8 = 0x0508,
  QNN_DATATYPE_UNDEFINED = 0x7fffffff,
} Qnn_DataType_t;

typedef enum {
  QNN_DEFINITION_IMPL_GENERATED = 0,
  QNN_DEFINITION_DEFINED = 1,
  QNN_DEFINITION_UNDEFINED = 0x7fffffff,
} Qnn_Definition_t;

typedef enum {
  QNN_ERROR_REPORTING_LEVEL_BRIEF = 0,
  QNN_ERROR_REPORTING_LEVEL_DETAILED = 1,
  QNN_ERROR_REPORTING_LEVEL_UNDEFINED = 0x7fffffff,
} Qnn_ErrorReportingLevel_t;

typedef enum {
  QNN_OPCONFIG_VERSION_1 = 1,
  QNN_OPCONFIG_VERSION_UNDEFINED = 0x7fffffff,
} Qnn_OpConfigVersion_t;

/* Values above INT_MAX are part of the ABI (a 32-bit unsigned enum). */
QNN_ENUM_WIDE_BEGIN
typedef enum {
  QNN_PARAMTYPE_SCALAR = 0,
  QNN_PARAMTYPE_TENSOR = 1,
  QNN_PARAMTYPE_UNDEFINED = 0xffffffff,
} Qnn_ParamType_t;
QNN_ENUM_WIDE_END

typedef enum {
  QNN_PRECISION_FLOAT32 = 0,
  QNN_PRECISION_FLOAT16 = 1,
  QNN_PRECISION_UNDEFINED = 0x7fffffff,
} Qnn_Precision_t;

typedef enum {
  QNN_PRIORITY_LOW = 0,
  QNN_PRIORITY_NORMAL = 100,
  QNN_PRIORITY_DEFAULT = 100,
  QNN_PRIORITY_NORMAL_HIGH = 150,
  QNN_PRIORITY_HIGH = 200,
  QNN_PRIORITY_UNDEFINED = 0x7fffffff,
} Qnn_Priority_t;

typedef enum {
  QNN_QUANTIZATION_ENCODING_SCALE_OFFSET = 0,
  QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET = 1,
  QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET = 2,
  QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET = 3,
  QNN_QUANTIZATION_ENCODING_UNDEFINED = 0x7fffffff,
} Qnn_QuantizationEncoding_t;

typedef enum {
  QNN_SOC_MODEL_UNKNOWN = 0,
  QNN_SOC_MODEL_SM8350 = 30,
  QNN_SOC_MODEL_SM8325 = 34,
  QNN_SOC_MODEL_SM7350 = 32,
  QNN_SOC_MODEL_SM7325 = 35,
  QNN_SOC_MODEL_SM8450 = 36,
  QNN_SOC_MODEL_SC8280X = 37,
  QNN_SOC_MODEL_SM7315 = 38,
  QNN_SOC_MODEL_SA8295 = 39,
  QNN_SOC_MODEL_SM7450 = 41,
  QNN_SOC_MODEL_SM8475 = 42,
  QNN_SOC_MODEL_SM8550 = 43,
  QNN_SOC_MODEL_SM6450 = 50,
  QNN_SOC_MODEL_SA8255 = 52,
  QNN_SOC_MODEL_SM7475 = 54,
  QNN_SOC_MODEL_SM4450 = 59,
} Qnn_SocModel_t;

typedef enum {
  QNN_TENSORMEMTYPE_RAW = 0,
  QNN_TENSORMEMTYPE_MEMHANDLE = 1,
  QNN_TENSORMEMTYPE_UNDEFINED = 0x7fffffff,
} Qnn_TensorMemType_t;

typedef enum {
  QNN_TENSOR_TYPE_APP_WRITE = 0,
  QNN_TENSOR_TYPE_APP_READ = 1,
  QNN_TENSOR_TYPE_APP_READWRITE = 2,
  QNN_TENSOR_TYPE_NATIVE = 3,
  QNN_TENSOR_TYPE_STATIC = 4,
  QNN_TENSOR_TYPE_NULL = 5,
  QNN_TENSOR_TYPE_UNDEFINED = 0x7fffffff,
} Qnn_TensorType_t;

typedef enum {
  QNN_TENSOR_VERSION_1 = 1,
  QNN_TENSOR_VERSION_UNDEFINED = 0x7fffffff,
} Qnn_TensorVersion_t;

typedef uint64_t Qnn_ContextBinarySize_t;

typedef uint32_t Qnn_TensorDataFormat_t;

typedef struct {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
} Qnn_Version_t;

typedef struct {
  Qnn_Version_t coreApiVersion;
  Qnn_Version_t backendApiVersion;
} Qnn_ApiVersion_t;

typedef struct {
  float scale;
  int32_t offset;
} Qnn_ScaleOffset_t;

typedef struct {
  int32_t axis;
  uint32_t numScaleOffsets;
  Qnn_ScaleOffset_t *scaleOffset;
} Qnn_AxisScaleOffset_t;

typedef struct {
  uint32_t bitwidth;
  int32_t axis;
  uint32_t numElements;
  float *scales;
  int32_t *offsets;
} Qnn_BwAxisScaleOffset_t;

typedef struct {
  uint32_t bitwidth;
  float scale;
  int32_t offset;
} Qnn_BwScaleOffset_t;

typedef struct {
  void *data;
  uint32_t dataSize;
} Qnn_ClientBuffer_t;

typedef struct {
  Qnn_ErrorReportingLevel_t reportingLevel;
  uint32_t storageLimit;
} Qnn_ErrorReportingConfig_t;

typedef struct {
  Qnn_DataType_t dataType;
  union {
    float floatValue;
    uint32_t uint32Value;
    int32_t int32Value;
    uint16_t uint16Value;
    int16_t int16Value;
    uint8_t uint8Value;
    int8_t int8Value;
    uint8_t bool8Value;
  };
} Qnn_Scalar_t;

typedef struct {
  Qnn_Definition_t encodingDefinition;
  Qnn_QuantizationEncoding_t quantizationEncoding;
  union {
    Qnn_ScaleOffset_t scaleOffsetEncoding;
    Qnn_AxisScaleOffset_t axisScaleOffsetEncoding;
    Qnn_BwScaleOffset_t bwScaleOffsetEncoding;
    Qnn_BwAxisScaleOffset_t bwAxisScaleOffsetEncoding;
  };
} Qnn_QuantizeParams_t;

typedef struct {
  uint32_t id;
  const char *name;
  Qnn_TensorType_t type;
  Qnn_TensorDataFormat_t dataFormat;
  Qnn_DataType_t dataType;
  Qnn_QuantizeParams_t quantizeParams;
  uint32_t rank;
  uint32_t *dimensions;
  Qnn_TensorMemType_t memType;
  union {
    Qnn_ClientBuffer_t clientBuf;
    Qnn_MemHandle_t memHandle;
  };
} Qnn_TensorV1_t;

typedef struct {
  Qnn_TensorVersion_t version;
  union {
    Qnn_TensorV1_t v1;
  };
} Qnn_Tensor_t;

typedef struct {
  Qnn_ParamType_t paramType;
  const char *name;
  union {
    Qnn_Scalar_t scalarParam;
    Qnn_Tensor_t tensorParam;
  };
} Qnn_Param_t;

typedef struct {
  const char *name;
  const char *packageName;
  const char *typeName;
  uint32_t numOfParams;
  Qnn_Param_t *params;
  uint32_t numOfInputs;
  Qnn_Tensor_t *inputTensors;
  uint32_t numOfOutputs;
  Qnn_Tensor_t *outputTensors;
} Qnn_OpConfigV1_t;

typedef struct {
  Qnn_OpConfigVersion_t version;
  union {
    Qnn_OpConfigV1_t v1;
  };
} Qnn_OpConfig_t;

#define QNN_API_VERSION_INIT \
  {{2, 7, 2}, QNN_VERSION_INIT}
#define QNN_AXIS_SCALE_OFFSET_INIT \
  {0, 0, NULL}
#define QNN_BW_AXIS_SCALE_OFFSET_INIT \
  {0, 0, 0, NULL, NULL}
#define QNN_BW_SCALE_OFFSET_INIT \
  {0, 0.0f, 0}
#define QNN_CLIENT_BUFFER_INIT \
  {NULL, 0}
#define QNN_ERROR_REPORTING_CONFIG_INIT \
  {QNN_ERROR_REPORTING_LEVEL_UNDEFINED, 0}
#define QNN_OPCONFIG_INIT \
  {QNN_OPCONFIG_VERSION_1, {QNN_OPCONFIG_V1_INIT}}
#define QNN_OPCONFIG_V1_INIT \
  {NULL, NULL, NULL, 0, NULL, 0, NULL, 0, NULL}
#define QNN_PARAM_INIT \
  {QNN_PARAMTYPE_UNDEFINED, NULL, {QNN_SCALAR_INIT}}
#define QNN_QUANTIZE_PARAMS_INIT \
  {QNN_DEFINITION_UNDEFINED, QNN_QUANTIZATION_ENCODING_UNDEFINED, {QNN_SCALE_OFFSET_INIT}}
#define QNN_SCALAR_INIT \
  {QNN_DATATYPE_UNDEFINED, {0.0f}}
#define QNN_SCALE_OFFSET_INIT \
  {0.0f, 0}
#define QNN_TENSOR_INIT \
  {QNN_TENSOR_VERSION_1, {QNN_TENSOR_V1_INIT}}
#define QNN_TENSOR_V1_INIT \
  {0, NULL, QNN_TENSOR_TYPE_UNDEFINED, 0, QNN_DATATYPE_UNDEFINED, QNN_QUANTIZE_PARAMS_INIT, 0, NULL, QNN_TENSORMEMTYPE_UNDEFINED, {QNN_CLIENT_BUFFER_INIT}}
#define QNN_VERSION_INIT \
  {0, 0, 0}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_TYPES_H
