/* OpenQNN public header: Devices and platform information (cores, SoC, infrastructure).
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_DEVICE_H
#define QNN_DEVICE_H

#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_DEVICE_DEFAULT_DEVICE_ID 0xFFFFFFFF
#define QNN_DEVICE_DEFAULT_CORE_ID 0xFFFFFFFF
typedef enum {
  QNN_DEVICE_MIN_ERROR = 14000,
  QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE = 1000,
  QNN_DEVICE_ERROR_MEM_ALLOC = 1002,
  QNN_DEVICE_ERROR_INVALID_ARGUMENT = 1004,
  QNN_DEVICE_ERROR_INVALID_HANDLE = 14000,
  QNN_DEVICE_ERROR_INVALID_CONFIG = 14001,
  QNN_DEVICE_ERROR_HARDWARE_UNAVAILABLE = 14002,
  QNN_DEVICE_ERROR_ASSOCIATED_TO_CONTEXT = 14003,
  QNN_DEVICE_ERROR_ACCESS_DENIED = 14004, /* API 2.39: access to the hardware is banned */
  QNN_DEVICE_NO_ERROR = 0,
  QNN_DEVICE_MAX_ERROR = 14999,
  QNN_DEVICE_ERROR_UNDEFINED = 2147483647,
} QnnDevice_Error_t;

typedef struct _QnnDevice_Infrastructure_t *QnnDevice_Infrastructure_t;

typedef struct _QnnDevice_CoreInfoExtension_t *QnnDevice_CoreInfoExtension_t;

typedef struct {
  uint32_t coreId;
  uint32_t coreType;
  QnnDevice_CoreInfoExtension_t coreInfoExtension;
} QnnDevice_CoreInfoV1_t;

#define QNN_DEVICE_CORE_INFO_V1_INIT { QNN_DEVICE_DEFAULT_CORE_ID , 0u , NULL }
typedef enum {
  QNN_DEVICE_CORE_INFO_VERSION_1 = 1,
  QNN_DEVICE_CORE_INFO_VERSION_UNDEFINED = 2147483647,
} QnnDevice_CoreInfoVersion_t;

typedef struct {
  QnnDevice_CoreInfoVersion_t version;
  union {
    QnnDevice_CoreInfoV1_t v1;
  };
} QnnDevice_CoreInfo_t;

#define QNN_DEVICE_CORE_INFO_INIT { QNN_DEVICE_CORE_INFO_VERSION_1 , { QNN_DEVICE_CORE_INFO_V1_INIT } }
typedef struct _QnnDevice_DeviceInfoExtension_t *QnnDevice_DeviceInfoExtension_t;

typedef struct {
  uint32_t deviceId;
  uint32_t deviceType;
  uint32_t numCores;
  QnnDevice_CoreInfo_t *cores;
  QnnDevice_DeviceInfoExtension_t deviceInfoExtension;
} QnnDevice_HardwareDeviceInfoV1_t;

#define QNN_DEVICE_HARDWARE_DEVICE_INFO_V1_INIT { QNN_DEVICE_DEFAULT_DEVICE_ID , 0u , 0u , NULL , NULL }
typedef enum {
  QNN_DEVICE_HARDWARE_DEVICE_INFO_VERSION_1 = 1,
  QNN_DEVICE_HARDWARE_DEVICE_INFO_VERSION_UNDEFINED = 2147483647,
} QnnDevice_HardwareDeviceInfoVersion_t;

typedef struct {
  QnnDevice_HardwareDeviceInfoVersion_t version;
  union {
    QnnDevice_HardwareDeviceInfoV1_t v1;
  };
} QnnDevice_HardwareDeviceInfo_t;

#define QNN_DEVICE_HARDWARE_DEVICE_INFO_INIT { QNN_DEVICE_HARDWARE_DEVICE_INFO_VERSION_1 , { QNN_DEVICE_HARDWARE_DEVICE_INFO_V1_INIT } }
typedef struct {
  uint32_t numHwDevices;
  QnnDevice_HardwareDeviceInfo_t *hwDevices;
} QnnDevice_PlatformInfoV1_t;

#define QNN_DEVICE_PLATFORM_INFO_V1_INIT { 0u , NULL }
typedef enum {
  QNN_DEVICE_PLATFORM_INFO_VERSION_1 = 1,
  QNN_DEVICE_PLATFORM_INFO_VERSION_UNDEFINED = 2147483647,
} QnnDevice_PlatformInfoVersion_t;

typedef struct {
  QnnDevice_PlatformInfoVersion_t version;
  union {
    QnnDevice_PlatformInfoV1_t v1;
  };
} QnnDevice_PlatformInfo_t;

#define QNN_DEVICE_PLATFORM_INFO_INIT { QNN_DEVICE_PLATFORM_INFO_VERSION_1 , { QNN_DEVICE_PLATFORM_INFO_V1_INIT } }
typedef void *QnnDevice_CustomConfig_t;

typedef enum {
  QNN_DEVICE_CONFIG_OPTION_CUSTOM = 0,
  QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO = 1,
  QNN_DEVICE_CONFIG_OPTION_UNDEFINED = 2147483647,
} QnnDevice_ConfigOption_t;

typedef struct {
  QnnDevice_ConfigOption_t option;
  union {
    QnnDevice_CustomConfig_t customConfig;
    QnnDevice_PlatformInfo_t *hardwareInfo;
  };
} QnnDevice_Config_t;

#define QNN_DEVICE_CONFIG_INIT { QNN_DEVICE_CONFIG_OPTION_UNDEFINED , { NULL } }
QNN_API
Qnn_ErrorHandle_t QnnDevice_getPlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t **platformInfo);

QNN_API
Qnn_ErrorHandle_t QnnDevice_freePlatformInfo(Qnn_LogHandle_t logger, const QnnDevice_PlatformInfo_t *platformInfo);

QNN_API
Qnn_ErrorHandle_t QnnDevice_getInfrastructure(const QnnDevice_Infrastructure_t *deviceInfra);

QNN_API
Qnn_ErrorHandle_t QnnDevice_create(Qnn_LogHandle_t logger, const QnnDevice_Config_t **config, Qnn_DeviceHandle_t *device);

QNN_API
Qnn_ErrorHandle_t QnnDevice_setConfig(Qnn_DeviceHandle_t device, const QnnDevice_Config_t **config);

QNN_API
Qnn_ErrorHandle_t QnnDevice_getInfo(Qnn_DeviceHandle_t device, const QnnDevice_PlatformInfo_t **platformInfo);

QNN_API
Qnn_ErrorHandle_t QnnDevice_free(Qnn_DeviceHandle_t device);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
