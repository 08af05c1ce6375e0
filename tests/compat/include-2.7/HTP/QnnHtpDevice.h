/* OpenQNN public header: HTP backend specifics: Device.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef OPENQNN_HTP_QNNHTPDEVICE_H
#define OPENQNN_HTP_QNNHTPDEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "HTP/QnnHtpPerfInfrastructure.h"
#include "QnnCommon.h"
#include "QnnDevice.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_HTP_DEVICE_ARCH_NONE = 0,
  QNN_HTP_DEVICE_ARCH_V68 = 68,
  QNN_HTP_DEVICE_ARCH_V69 = 69,
  QNN_HTP_DEVICE_ARCH_V73 = 73,
  QNN_HTP_DEVICE_ARCH_UNKNOWN = 0x7fffffff,
} QnnHtpDevice_Arch_t;

typedef enum {
  QNN_HTP_DEVICE_CONFIG_OPTION_SOC = 0,
  QNN_HTP_DEVICE_CONFIG_OPTION_ARCH = 1,
  QNN_HTP_DEVICE_CONFIG_OPTION_SIGNEDPD = 2,
  QNN_HTP_DEVICE_CONFIG_OPTION_UNKNOWN = 0x7fffffff,
} QnnHtpDevice_ConfigOption_t;

typedef enum {
  QNN_HTP_DEVICE_TYPE_ON_CHIP = 0,
  QNN_HTP_DEVICE_TYPE_UNKNOWN = 0x7fffffff,
} QnnHtpDevice_DeviceType_t;

typedef enum {
  QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_PERF = 0,
  QNN_HTP_DEVICE_INFRASTRUCTURE_TYPE_UNKNOWN = 0x7fffffff,
} QnnHtpDevice_InfrastructureType_t;

typedef struct {
  uint32_t deviceId;
  QnnHtpDevice_Arch_t arch;
} QnnHtpDevice_Minimum_Arch_t;

typedef struct {
  uint32_t deviceId;
  bool useSignedProcessDomain;
} QnnHtpDevice_UseSignedProcessDomain_t;

typedef struct {
  QnnHtpDevice_ConfigOption_t option;
  union {
    uint32_t socModel;
    QnnHtpDevice_Minimum_Arch_t arch;
    QnnHtpDevice_UseSignedProcessDomain_t useSignedProcessDomain;
  };
} QnnHtpDevice_CustomConfig_t;

typedef struct {
  size_t vtcmSize;
  uint32_t socModel;
  bool signedPdSupport;
  bool dlbcSupport;
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

typedef struct _QnnDevice_Infrastructure_t {
  QnnHtpDevice_InfrastructureType_t infraType;
  union {
    QnnHtpDevice_PerfInfrastructure_t perfInfra;
  };
} QnnHtpDevice_Infrastructure_t;

#define QNN_HTP_DEVICE_PERF_INFRASTRUCTURE_INIT \
  {NULL, NULL, NULL, NULL}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // OPENQNN_HTP_QNNHTPDEVICE_H
