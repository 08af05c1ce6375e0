/* OpenQNN public header: HTP device configuration types (architectures, device custom
 * configs), which API 2.39 keeps in their own header included by QnnHtpDevice.h.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef OPENQNN_HTP_QNNHTPDEVICECONFIGSHARED_H
#define OPENQNN_HTP_QNNHTPDEVICECONFIGSHARED_H

#include "QnnCommon.h"

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
  QNN_HTP_DEVICE_ARCH_V89 = 89,
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

/* SECUREPD: deprecated in 2.39 (model protection through a secure PD is gone). */
typedef struct {
  uint32_t deviceId;
  _Bool useSecureProcessDomain;
} QnnHtpDevice_UseSecureProcessDomain_t;

/* ASYNC_EXECUTE (API 2.39). */
typedef struct {
  uint32_t deviceId;
  _Bool enableAsyncExecute;
} QnnHtpDevice_AsyncExecute_t;

/* DYNAMIC_PARTITIONING (API 2.39): rsmHandle is the resource-sharing manager's context. */
typedef struct {
  uint32_t deviceId;
  _Bool useDynamicPartitioning;
  void* rsmHandle;
} QnnHtpDevice_UseDynamicPartitioning_t;

typedef enum {
  QNN_HTP_DEVICE_CONFIG_OPTION_SOC = 0,
  QNN_HTP_DEVICE_CONFIG_OPTION_ARCH = 1,
  QNN_HTP_DEVICE_CONFIG_OPTION_SIGNEDPD = 2,
  QNN_HTP_DEVICE_CONFIG_OPTION_SECUREPD = 3,
  QNN_HTP_DEVICE_CONFIG_OPTION_ASYNC_EXECUTE = 4,
  QNN_HTP_DEVICE_CONFIG_OPTION_DYNAMIC_PARTITIONING = 5,
  QNN_HTP_DEVICE_CONFIG_OPTION_APP_UID = 6,
  QNN_HTP_DEVICE_CONFIG_OPTION_HTP_EXTENSION = 2147418112,
  QNN_HTP_DEVICE_CONFIG_OPTION_UNKNOWN = 2147483647,
} QnnHtpDevice_ConfigOption_t;

/* API 2.39's struct holds the three payloads above in its union as asyncExecute,
 * useDynamicPartitioning and appUid; the pointer in the second makes it 24 bytes with the union at
 * offset 8. This one keeps API 2.32's 12 bytes, union at offset 4 (abi_facts_2_32), so those three
 * members are left out: options 4-6 exist only in 2.39's headers, and a client sends them in 2.39's
 * layout, the payload at offset 8 (docs/abi-deviations-2.39-part.txt). */
typedef struct {
  QnnHtpDevice_ConfigOption_t option;
  union {
    uint32_t socModel;
    QnnHtpDevice_Minimum_Arch_t arch;
    QnnHtpDevice_UseSignedProcessDomain_t useSignedProcessDomain;
    QnnHtpDevice_UseSecureProcessDomain_t useSecureProcessDomain;
  };
} QnnHtpDevice_CustomConfig_t;

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
