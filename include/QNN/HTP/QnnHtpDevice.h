/* OpenQNN public header: HTP backend specifics: Device.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef OPENQNN_HTP_QNNHTPDEVICE_H
#define OPENQNN_HTP_QNNHTPDEVICE_H

#include "QnnCommon.h"
#include "QnnDevice.h"
#include "QnnHtpDeviceConfigShared.h"
#include "QnnHtpPerfInfrastructure.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

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
