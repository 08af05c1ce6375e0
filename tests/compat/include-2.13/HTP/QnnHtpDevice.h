/* OpenQNN public header: HTP backend specifics: Device.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef OPENQNN_HTP_QNNHTPDEVICE_H
#define OPENQNN_HTP_QNNHTPDEVICE_H

#include "QnnCommon.h"
#include "QnnDevice.h"
#include "QnnHtpPerfInfrastructure.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_HTP_DEVICE_ARCH_NONE = 0,
  QNN_HTP_DEVICE_ARCH_V68 = 68,
  QNN_HTP_DEVICE_ARCH_V69 = 69,
  QNN_HTP_DEVICE_ARCH_V73 = 73,
  QNN_HTP_DEVICE_ARCH_V75 = 75,
  QNN_HTP_DEVICE_ARCH_V79 = 79,
  QNN_HTP_DEVICE_ARCH_V81 = 81,
  QNN_HTP_DEVICE_ARCH_V85 = 85,
  QNN_HTP_DEVICE_ARCH_UNKNOWN = 2147483647,
} QnnHtpDevice_Arch_t;

typedef struct {
  uint32_t deviceId;
  QnnHtpDevice_Arch_t arch;
} QnnHtpDevice_Minimum_Arch_t;

typedef struct {
  uint32_t deviceId;
  _Bool useSignedProcessDomain;
} QnnHtpDevice_UseSignedProcessDomain_t;

typedef struct {
  uint32_t deviceId;
  _Bool useSecureProcessDomain;
} QnnHtpDevice_UseSecureProcessDomain_t;

typedef enum {
  QNN_HTP_DEVICE_CONFIG_OPTION_SOC = 0,
  QNN_HTP_DEVICE_CONFIG_OPTION_ARCH = 1,
  QNN_HTP_DEVICE_CONFIG_OPTION_SIGNEDPD = 2,
  QNN_HTP_DEVICE_CONFIG_OPTION_SECUREPD = 3,
  QNN_HTP_DEVICE_CONFIG_OPTION_UNKNOWN = 2147483647,
} QnnHtpDevice_ConfigOption_t;

typedef struct {
  QnnHtpDevice_ConfigOption_t option;
  union {
    uint32_t socModel;
    QnnHtpDevice_Minimum_Arch_t arch;
    QnnHtpDevice_UseSignedProcessDomain_t useSignedProcessDomain;
    QnnHtpDevice_UseSecureProcessDomain_t useSecureProcessDomain;
  };
} QnnHtpDevice_CustomConfig_t;

typedef enum {
  QNN_HTP_DEVICE_TYPE_ON_CHIP = 0,
  QNN_HTP_DEVICE_TYPE_UNKNOWN = 2147483647,
} QnnHtpDevice_DeviceType_t;

typedef enum {
  QNN_HTP_CORE_TYPE_NSP = 0,
  QNN_HTP_CORE_TYPE_HPASS = 1,
  QNN_HTP_CORE_TYPE_MAX = 2,
  QNN_HTP_CORE_TYPE_UNKNOWN = 2147483647,
} QnnHtpDevice_CoreType_t;

typedef struct {
  size_t vtcmSize;
  uint32_t socModel;
  _Bool signedPdSupport;
  _Bool dlbcSupport;
  QnnHtpDevice_Arch_t arch;
} QnnHtpDevice_OnChipDeviceInfoExtension_t;

typedef struct _QnnDevice_DeviceInfoExtension_t {
  QnnHtpDevice_DeviceType_t devType;
  union {
    QnnHtpDevice_OnChipDeviceInfoExtension_t onChipDevice;
  };
} QnnHtpDevice_DeviceInfoExtension_t;

typedef struct {
  QnnHtpPerfInfrastructure_CreatePowerConfigIdFn_t createPowerConfigId;
  QnnHtpPerfInfrastructure_DestroyPowerConfigIdFn_t destroyPowerConfigId;
  QnnHtpPerfInfrastructure_SetPowerConfigFn_t setPowerConfig;
  QnnHtpPerfInfrastructure_SetMemoryConfigFn_t setMemoryConfig;
} QnnHtpDevice_PerfInfrastructure_t;

#define QNN_HTP_DEVICE_PERF_INFRASTRUCTURE_INIT { NULL , NULL , NULL , NULL }
typedef enum {
  QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF = 0,
  QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_UNKNOWN = 2147483647,
} QnnHtpDevice_InfrastructureType_t;

typedef struct _QnnDevice_Infrastructure_t {
  QnnHtpDevice_InfrastructureType_t infraType;
  union {
    QnnHtpDevice_PerfInfrastructure_t perfInfra;
  };
} QnnHtpDevice_Infrastructure_t;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
