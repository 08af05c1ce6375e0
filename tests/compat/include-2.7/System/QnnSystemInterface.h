/* OpenQNN public header: System library specifics: Interface.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_SYSTEM_INTERFACE_H
#define QNN_SYSTEM_INTERFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnDevice.h"
#include "QnnTypes.h"
#include "System/QnnSystemCommon.h"
#include "System/QnnSystemContext.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_SYSTEM_INTERFACE
/* Versioned names: the function table of API version X.Y is the struct
 * QnnSystemInterface_ImplementationVX_Y_t, reached through the union member vX_Y of the
 * interface struct. */
#define QNN_SYSTEM_INTERFACE_NAME_EVAL(prefix, body, suffix) QNN_PASTE_THREE(prefix, body, suffix)
#define QNN_SYSTEM_INTERFACE_VER_EVAL(major, minor) QNN_PASTE_THREE(major, _, minor)
#define QNN_SYSTEM_INTERFACE_VER_TYPE_EVAL(ver_major, ver_minor) \
  QNN_SYSTEM_INTERFACE_NAME_EVAL(QnnSystemInterface_ImplementationV, QNN_SYSTEM_INTERFACE_VER_EVAL(ver_major, ver_minor), _t)
#define QNN_SYSTEM_INTERFACE_VER_NAME_EVAL(ver_major, ver_minor) \
  QNN_SYSTEM_INTERFACE_NAME_EVAL(v, QNN_SYSTEM_INTERFACE_VER_EVAL(ver_major, ver_minor), )
#define QNN_SYSTEM_INTERFACE_VER_TYPE QNN_SYSTEM_INTERFACE_VER_TYPE_EVAL(QNN_SYSTEM_API_VERSION_MAJOR, QNN_SYSTEM_API_VERSION_MINOR)
#define QNN_SYSTEM_INTERFACE_VER_NAME QNN_SYSTEM_INTERFACE_VER_NAME_EVAL(QNN_SYSTEM_API_VERSION_MAJOR, QNN_SYSTEM_API_VERSION_MINOR)

typedef enum {
  QNN_SYSTEM_INTERFACE_MIN_ERROR = 30000,
  QNN_SYSTEM_INTERFACE_NO_ERROR = 0,
  QNN_SYSTEM_INTERFACE_ERROR_NOT_SUPPORTED = 1000,
  QNN_SYSTEM_INTERFACE_ERROR_INVALID_PARAMETER = 1004,
  QNN_SYSTEM_INTERFACE_MAX_ERROR = 49999,
} QnnSystemInterface_Error_t;

typedef Qnn_ErrorHandle_t (*QnnSystemContext_CreateFn_t)(QnnSystemContext_Handle_t *sysCtxHandle);

typedef Qnn_ErrorHandle_t (*QnnSystemContext_FreeFn_t)(QnnSystemContext_Handle_t sysCtxHandle);

typedef Qnn_ErrorHandle_t (*QnnSystemContext_GetBinaryInfoFn_t)(QnnSystemContext_Handle_t sysCtxHandle, void *binaryBuffer, uint64_t binaryBufferSize, const QnnSystemContext_BinaryInfo_t **binaryInfo, Qnn_ContextBinarySize_t *binaryInfoSize);

typedef Qnn_ErrorHandle_t (*QnnSystemContext_GetMetaDataFn_t)(QnnSystemContext_Handle_t sysCtxHandle, const void *binaryBuffer, uint64_t binaryBufferSize, const QnnSystemContext_BinaryInfo_t **binaryInfo);

typedef struct {
  QnnSystemContext_CreateFn_t systemContextCreate;
  QnnSystemContext_GetBinaryInfoFn_t systemContextGetBinaryInfo;
  QnnSystemContext_GetMetaDataFn_t systemContextGetMetaData;
  QnnSystemContext_FreeFn_t systemContextFree;
} QnnSystemInterface_ImplementationV1_1_t;

typedef struct {
  uint32_t backendId;
  const char *providerName;
  Qnn_Version_t systemApiVersion;
  union {
    QnnSystemInterface_ImplementationV1_1_t v1_1;
  };
} QnnSystemInterface_t;

QNN_API
Qnn_ErrorHandle_t QnnSystemInterface_getProviders(const QnnSystemInterface_t ***providerList, uint32_t *numProviders);

#define QNN_SYSTEM_INTERFACE_INIT \
  {0, NULL, QNN_VERSION_INIT, {QNN_SYSTEM_INTERFACE_VER_TYPE_INIT}}
#define QNN_SYSTEM_INTERFACE_VER_TYPE_INIT \
  {NULL, NULL, NULL, NULL}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_SYSTEM_INTERFACE_H
