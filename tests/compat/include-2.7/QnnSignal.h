/* OpenQNN public header: Signals that abort, or put a time limit on, long-running calls.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SIGNAL_H
#define QNN_SIGNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_SIGNAL_CONFIG_OPTION_CUSTOM = 0,
  QNN_SIGNAL_CONFIG_OPTION_ABORT = 1,
  QNN_SIGNAL_CONFIG_OPTION_TIMEOUT = 2,
  QNN_SIGNAL_CONFIG_UNDEFINED = 0x7fffffff,
} QnnSignal_ConfigOption_t;

typedef enum {
  QNN_SIGNAL_MIN_ERROR = 9000,
  QNN_SIGNAL_NO_ERROR = 0,
  QNN_SIGNAL_ERROR_UNSUPPORTED = 1000,
  QNN_SIGNAL_ERROR_SIGNAL_IN_USE = 9000,
  QNN_SIGNAL_ERROR_SIGNAL_IDLE = 9001,
  QNN_SIGNAL_ERROR_INVALID_ARGUMENT = 9002,
  QNN_SIGNAL_ERROR_INVALID_HANDLE = 9003,
  QNN_SIGNAL_ERROR_TIMEOUT = 9004,
  QNN_SIGNAL_ERROR_INCOMPATIBLE_SIGNAL_TYPE = 9005,
  QNN_SIGNAL_ERROR_MEM_ALLOC = 1002,
  QNN_SIGNAL_MAX_ERROR = 9999,
  QNN_SIGNAL_ERROR_UNDEFINED = 0x7fffffff,
} QnnSignal_Error_t;

typedef void *QnnSignal_CustomConfig_t;

typedef struct {
  QnnSignal_ConfigOption_t option;
  union {
    QnnSignal_CustomConfig_t customConfig;
    uint64_t timeoutDurationUs;
  };
} QnnSignal_Config_t;

QNN_API
Qnn_ErrorHandle_t QnnSignal_create(Qnn_BackendHandle_t backend, const QnnSignal_Config_t **config, Qnn_SignalHandle_t *signal);

QNN_API
Qnn_ErrorHandle_t QnnSignal_free(Qnn_SignalHandle_t signal);

QNN_API
Qnn_ErrorHandle_t QnnSignal_setConfig(Qnn_SignalHandle_t signal, const QnnSignal_Config_t **config);

QNN_API
Qnn_ErrorHandle_t QnnSignal_trigger(Qnn_SignalHandle_t signal);

#define QNN_SIGNAL_CONFIG_INIT \
  {QNN_SIGNAL_CONFIG_UNDEFINED, {NULL}}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_SIGNAL_H
