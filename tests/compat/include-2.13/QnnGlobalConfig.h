/* OpenQNN public header: Process-wide settings applied before any backend object is created.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_GLOBAL_CONFIG_H
#define QNN_GLOBAL_CONFIG_H

#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_GLOBAL_CONFIG_MIN_ERROR = 15000,
  QNN_GLOBAL_CONFIG_NO_ERROR = 0,
  QNN_GLOBAL_CONFIG_ERROR_INVALID_CONFIG = 15000,
  QNN_GLOBAL_CONFIG_MAX_ERROR = 15999,
  QNN_GLOBAL_CONFIG_ERROR_UNDEFINED = 2147483647,
} QnnGlobalConfig_Error_t;

typedef enum {
  QNN_GLOBAL_CONFIG_OPTION_SOC_MODEL = 0,
  QNN_GLOBAL_CONFIG_OPTION_UNDEFINED = 2147483647,
} QnnGlobalConfig_ConfigOption_t;

typedef struct {
  QnnGlobalConfig_ConfigOption_t option;
  union {
    Qnn_SocModel_t socModel;
  };
} QnnGlobalConfig_t;

#define QNN_GLOBAL_CONFIG_INIT { QNN_GLOBAL_CONFIG_OPTION_UNDEFINED , { QNN_SOC_MODEL_UNKNOWN } }
QNN_API
Qnn_ErrorHandle_t QnnGlobalConfig_Set(const QnnGlobalConfig_t **config);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
