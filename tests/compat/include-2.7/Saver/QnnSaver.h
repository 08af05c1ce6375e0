/* OpenQNN public header: Saver backend specifics: common definitions.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SAVER_H
#define QNN_SAVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_SAVER_API

typedef enum {
  QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY = 0,
  QNN_SAVER_CONFIG_OPTION_APPEND_TIMESTAMP = 1,
  QNN_SAVER_CONFIG_OPTION_BACKEND_ID = 2,
  QNN_SAVER_CONFIG_OPTION_FILE_CONFIG = 3,
  QNN_SAVER_CONFIG_OPTION_UNDEFINED = 0x7fffffff,
} QnnSaver_ConfigOption_t;

typedef enum {
  QNN_SAVER_MIN_ERROR = 4950,
  QNN_SAVER_ERROR_DUMMY_RETVALUE = 4950,
  QNN_SAVER_ERROR_ALREADY_INSTANTIATED = 4951,
  QNN_SAVER_MAX_ERROR = 4998,
} QnnSaver_Error_t;

typedef struct {
  const char *modelFileName;
  const char *dataFileName;
} QnnSaver_FileConfig_t;

typedef struct {
  QnnSaver_ConfigOption_t option;
  union {
    const char *outputDirectory;
    uint8_t appendTimestamp;
    uint32_t backendId;
    QnnSaver_FileConfig_t fileConfig;
  };
} QnnSaver_Config_t;

QNN_API
Qnn_ErrorHandle_t QnnSaver_initialize(const QnnSaver_Config_t **config);

#define QNN_SAVER_CONFIG_INIT \
  {QNN_SAVER_CONFIG_OPTION_UNDEFINED, {NULL}}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_SAVER_H
