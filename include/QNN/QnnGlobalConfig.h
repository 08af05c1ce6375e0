/* OpenQNN public header: Process-wide settings applied before any backend object is created.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_GLOBAL_CONFIG_H
#define QNN_GLOBAL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
  QNN_GLOBAL_CONFIG_ERROR_UNDEFINED = 0x7fffffff,
} QnnGlobalConfig_Error_t;

/* Which setting a QnnGlobalConfig_t carries. */
typedef enum {
  /* Target SoC for work done without a device (e.g. preparing binaries offline). */
  QNN_GLOBAL_CONFIG_OPTION_SOC_MODEL = 0,
  QNN_GLOBAL_CONFIG_OPTION_UNDEFINED = 0x7fffffff,
} QnnGlobalConfig_ConfigOption_t;

/* One global setting; option selects the union member. */
typedef struct {
  QnnGlobalConfig_ConfigOption_t option;
  union {
    Qnn_SocModel_t socModel;
  };
} QnnGlobalConfig_t;

/* Applies process-wide settings. config is a NULL-terminated array of pointers owned by
 * the caller; values are copied, so it may be freed when the call returns. */
QNN_API
Qnn_ErrorHandle_t QnnGlobalConfig_Set(const QnnGlobalConfig_t **config);

#define QNN_GLOBAL_CONFIG_INIT \
  {QNN_GLOBAL_CONFIG_OPTION_UNDEFINED, {QNN_SOC_MODEL_UNKNOWN}}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_GLOBAL_CONFIG_H
