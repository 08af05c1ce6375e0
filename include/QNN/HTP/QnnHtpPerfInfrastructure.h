/* OpenQNN public header: HTP backend specifics: PerfInfrastructure.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_PERF_INFRASTRUCTURE_H
#define QNN_HTP_PERF_INFRASTRUCTURE_H

#include "QnnCommon.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIG_MAX_RPC_POLLING_TIME 9999
typedef enum {
  QNN_HTP_PERF_INFRASTRUCTURE_MIN_ERROR = 13000,
  QNN_HTP_PERF_INFRASTRUCTURE_NO_ERROR = 0,
  QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_HANDLE_PTR = 13000,
  QNN_HTP_PERF_INFRASTRUCTURE_ERROR_INVALID_INPUT = 13001,
  QNN_HTP_PERF_INFRASTRUCTURE_ERROR_UNSUPPORTED_CONFIG = 13002,
  QNN_HTP_PERF_INFRASTRUCTURE_ERROR_TRANSPORT = 13003,
  QNN_HTP_PERF_INFRASTRUCTURE_ERROR_UNSUPPORTED = 13004,
  QNN_HTP_PERF_INFRASTRUCTURE_ERROR_MEM_ALLOC = 13005,
  QNN_HTP_PERF_INFRASTRUCTURE_ERROR_FAILED = 13006,
  QNN_HTP_PERF_INFRASTRUCTURE_MAX_ERROR = 13999,
  QNN_HTP_PERF_INFRASTRUCTURE_ERROR_UNDEFINED = 2147483647,
} QnnHtpPerfInfrastructure_Error_t;

typedef uint32_t QnnHtpPerfInfrastructure_SetDcvsEnable_t;

typedef uint32_t QnnHtpPerfInfrastructure_DcvsEnable_t;

typedef uint32_t QnnHtpPerfInfrastructure_SetSleepLatency_t;

typedef uint32_t QnnHtpPerfInfrastructure_SleepLatency_t;

typedef uint32_t QnnHtpPerfInfrastructure_SetSleepDisable_t;

typedef uint32_t QnnHtpPerfInfrastructure_SleepDisable_t;

typedef uint32_t QnnHtpPerfInfrastructure_SetBusParams_t;

typedef uint32_t QnnHtpPerfInfrastructure_SetCoreParams_t;

typedef uint32_t QnnHtpPerfInfrastructure_RpcControlLatency_t;

typedef uint32_t QnnHtpPerfInfrastructure_RpcPollingTime_t;

typedef uint32_t QnnHtpPerfInfrastructure_AdaptivePollingTime_t;

typedef uint32_t QnnHtpPerfInfrastructure_DdrPerfMode_t;

typedef uint32_t QnnHtpPerfInfrastructure_HmxTimeoutIntervalUs_t;

typedef uint32_t QnnHtpPerfInfrastructure_MemGrowSize_t;

typedef uint32_t QnnHtpPerfInfrastructure_HmxDefault_Vote_t;

typedef enum {
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH = 0,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_LOW = 1,
  /* API 2.39: HIGH_Dn is n levels below the corner's highest frequency (expanded corners, V85+). */
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D1 = 2,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D2 = 3,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D3 = 4,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D4 = 5,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D5 = 6,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D6 = 7,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D7 = 8,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D8 = 9,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D9 = 10,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D10 = 11,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D11 = 12,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D12 = 13,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D13 = 14,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D14 = 15,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_HIGH_D15 = 16,
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_MAX = 255, /* a bound for validation, not a mode */
  QNN_HTP_PERF_INFRASTRUCTURE_CLK_PERF_UNKNOWN = 2147483647,
} QnnHtpPerfInfrastructure_ClkPerfMode_t;

typedef enum {
  DCVS_VOLTAGE_CORNER_DISABLE = 16,
  DCVS_VOLTAGE_VCORNER_MIN_VOLTAGE_CORNER = 32,
  DCVS_VOLTAGE_VCORNER_SVS2 = 48,
  DCVS_VOLTAGE_VCORNER_SVS = 64,
  DCVS_VOLTAGE_VCORNER_SVS_PLUS = 80,
  DCVS_VOLTAGE_VCORNER_NOM = 96,
  DCVS_VOLTAGE_VCORNER_NOM_PLUS = 112,
  DCVS_VOLTAGE_VCORNER_TURBO = 128,
  DCVS_VOLTAGE_VCORNER_TURBO_PLUS = 144,
  DCVS_VOLTAGE_VCORNER_TURBO_L2 = 146,
  DCVS_VOLTAGE_VCORNER_TURBO_L3 = 147,
  DCVS_VOLTAGE_VCORNER_TURBO_L4 = 148,
  DCVS_VOLTAGE_VCORNER_TURBO_L5 = 149,
  DCVS_VOLTAGE_VCORNER_MAX_VOLTAGE_CORNER = 160,
  DCVS_VOLTAGE_VCORNER_UNKNOWN = 2147483647,
} QnnHtpPerfInfrastructure_VoltageCorner_t;

typedef enum {
  DCVS_EXP_VCORNER_DISABLE = 0,
  DCVS_EXP_VCORNER_MIN = 256,
  DCVS_EXP_VCORNER_RET = 272,
  DCVS_EXP_VCORNER_MIN_SVS = 304,
  DCVS_EXP_VCORNER_LOW_SVS_D3_0 = 305,
  DCVS_EXP_VCORNER_LOW_SVS_D3 = 306,
  DCVS_EXP_VCORNER_LOW_SVS_D2_1 = 307,
  DCVS_EXP_VCORNER_LOW_SVS_D2 = 308,
  DCVS_EXP_VCORNER_LOW_SVS_D1_2 = 309,
  DCVS_EXP_VCORNER_LOW_SVS_D1_1 = 310,
  DCVS_EXP_VCORNER_LOW_SVS_D1_0 = 311,
  DCVS_EXP_VCORNER_LOW_SVS_D1 = 312,
  DCVS_EXP_VCORNER_LOW_SVS_D0_1 = 314,
  DCVS_EXP_VCORNER_LOW_SVS_D0_0 = 315,
  DCVS_EXP_VCORNER_LOW_SVS_D0 = 316,
  DCVS_EXP_VCORNER_LOW_SVS = 320,
  DCVS_EXP_VCORNER_LOW_SVS_P1 = 328,
  DCVS_EXP_VCORNER_LOW_SVS_L0 = 332,
  DCVS_EXP_VCORNER_LOW_SVS_L1 = 336,
  DCVS_EXP_VCORNER_LOW_SVS_L2 = 352,
  DCVS_EXP_VCORNER_SVS = 384,
  DCVS_EXP_VCORNER_SVS_L0 = 400,
  DCVS_EXP_VCORNER_SVS_L0_1 = 401,
  DCVS_EXP_VCORNER_SVS_L0_2 = 402,
  DCVS_EXP_VCORNER_SVS_L1 = 448,
  DCVS_EXP_VCORNER_SVS_L2 = 480,
  DCVS_EXP_VCORNER_SVS_L2_0 = 481,
  DCVS_EXP_VCORNER_NOM = 512,
  DCVS_EXP_VCORNER_NOM_L0 = 544,
  DCVS_EXP_VCORNER_NOM_L0_0 = 545,
  DCVS_EXP_VCORNER_NOM_L1 = 576,
  DCVS_EXP_VCORNER_NOM_L2 = 592,
  DCVS_EXP_VCORNER_NOM_L3 = 608,
  DCVS_EXP_VCORNER_TUR = 640,
  DCVS_EXP_VCORNER_TUR_L0 = 656,
  DCVS_EXP_VCORNER_TUR_L1 = 672,
  DCVS_EXP_VCORNER_TUR_L1_0 = 673,
  DCVS_EXP_VCORNER_TUR_L1_1 = 674,
  DCVS_EXP_VCORNER_TUR_L1_2 = 675,
  DCVS_EXP_VCORNER_TUR_L2 = 688,
  DCVS_EXP_VCORNER_TUR_L3 = 704,
  DCVS_EXP_VCORNER_TUR_L3_0 = 705,
  DCVS_EXP_VCORNER_TUR_L3_1 = 706,
  DCVS_EXP_VCORNER_TUR_L3_2 = 707,
  DCVS_EXP_VCORNER_TUR_L4 = 708,
  DCVS_EXP_VCORNER_TUR_L5 = 712,
  DCVS_EXP_VCORNER_SUPER_TURBO = 720,
  DCVS_EXP_VCORNER_SUPER_TURBO_NO_CPR = 736,
  DCVS_EXP_VCORNER_DEFINED_MAX = 736,
  DCVS_EXP_VCORNER_MAX = 65535,
  DCVS_EXP_VCORNER_UNKNOWN = 2147483647,
} QnnHtpPerfInfrastructure_ExpVoltageCorner_t;

typedef enum {
  QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_ADJUST_UP_DOWN = 1,
  QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_ADJUST_ONLY_UP = 2,
  QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_POWER_SAVER_MODE = 4,
  QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_POWER_SAVER_AGGRESSIVE_MODE = 8,
  QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_PERFORMANCE_MODE = 16,
  QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_DUTY_CYCLE_MODE = 32,
  QNN_HTP_PERF_INFRASTRUCTURE_POWERMODE_UNKNOWN = 2147483647,
} QnnHtpPerfInfrastructure_PowerMode_t;

typedef struct {
  uint32_t contextId;
  QnnHtpPerfInfrastructure_SetDcvsEnable_t setDcvsEnable;
  QnnHtpPerfInfrastructure_DcvsEnable_t dcvsEnable;
  QnnHtpPerfInfrastructure_PowerMode_t powerMode;
  QnnHtpPerfInfrastructure_SetSleepLatency_t setSleepLatency;
  QnnHtpPerfInfrastructure_SleepLatency_t sleepLatency;
  QnnHtpPerfInfrastructure_SetSleepDisable_t setSleepDisable;
  QnnHtpPerfInfrastructure_SleepDisable_t sleepDisable;
  QnnHtpPerfInfrastructure_SetBusParams_t setBusParams;
  QnnHtpPerfInfrastructure_VoltageCorner_t busVoltageCornerMin;
  QnnHtpPerfInfrastructure_VoltageCorner_t busVoltageCornerTarget;
  QnnHtpPerfInfrastructure_VoltageCorner_t busVoltageCornerMax;
  QnnHtpPerfInfrastructure_SetCoreParams_t setCoreParams;
  QnnHtpPerfInfrastructure_VoltageCorner_t coreVoltageCornerMin;
  QnnHtpPerfInfrastructure_VoltageCorner_t coreVoltageCornerTarget;
  QnnHtpPerfInfrastructure_VoltageCorner_t coreVoltageCornerMax;
} QnnHtpPerfInfrastructure_DcvsV3_t;

typedef struct {
  QnnHtpPerfInfrastructure_HmxDefault_Vote_t hmxPickDefault;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t hmxVoltageCornerMin;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t hmxVoltageCornerTarget;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t hmxVoltageCornerMax;
  QnnHtpPerfInfrastructure_ClkPerfMode_t hmxPerfMode;
} QnnHtpPerfInfrastructure_HmxV2_t;

/* API 2.39: CENG (option 8) votes; DCVS_V3_EXP (9) and CENG_EXP (10) carry expanded corners.
 * DcvsV3Exp_t is DcvsV3_t without the DCVS enable pair (implicitly on), with expanded corners and
 * a frequency level within the core and bus target corners. */
typedef struct {
  QnnHtpPerfInfrastructure_VoltageCorner_t cengVoltageCornerMin;
  QnnHtpPerfInfrastructure_VoltageCorner_t cengVoltageCornerTarget;
  QnnHtpPerfInfrastructure_VoltageCorner_t cengVoltageCornerMax;
  QnnHtpPerfInfrastructure_ClkPerfMode_t cengPerfMode;
} QnnHtpPerfInfrastructure_Ceng_t;

typedef struct {
  uint32_t contextId;
  QnnHtpPerfInfrastructure_PowerMode_t powerMode;
  QnnHtpPerfInfrastructure_SetSleepLatency_t setSleepLatency;
  QnnHtpPerfInfrastructure_SleepLatency_t sleepLatency;
  QnnHtpPerfInfrastructure_SetSleepDisable_t setSleepDisable;
  QnnHtpPerfInfrastructure_SleepDisable_t sleepDisable;
  QnnHtpPerfInfrastructure_SetBusParams_t setBusParams;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t busVoltageCornerMin;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t busVoltageCornerTarget;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t busVoltageCornerMax;
  QnnHtpPerfInfrastructure_SetCoreParams_t setCoreParams;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t coreVoltageCornerMin;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t coreVoltageCornerTarget;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t coreVoltageCornerMax;
  QnnHtpPerfInfrastructure_ClkPerfMode_t corePerfMode;
  QnnHtpPerfInfrastructure_ClkPerfMode_t busPerfMode;
} QnnHtpPerfInfrastructure_DcvsV3Exp_t;

typedef struct {
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t cengVoltageCornerMin;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t cengVoltageCornerTarget;
  QnnHtpPerfInfrastructure_ExpVoltageCorner_t cengVoltageCornerMax;
  QnnHtpPerfInfrastructure_ClkPerfMode_t cengPerfMode;
} QnnHtpPerfInfrastructure_CengExp_t;

typedef enum {
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3 = 1,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_CONTROL_LATENCY = 2,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_RPC_POLLING_TIME = 3,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_HMX_TIMEOUT_INTERVAL_US = 4,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_HMX_V2 = 5,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_ADAPTIVE_POLLING_TIME = 6,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DDR_PERF_MODE = 7,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_CENG = 8,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_DCVS_V3_EXP = 9,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_CENG_EXP = 10,
  QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_UNKNOWN = 2147483647,
} QnnHtpPerfInfrastructure_PowerConfigOption_t;

typedef struct {
  QnnHtpPerfInfrastructure_PowerConfigOption_t option;
  union {
    QnnHtpPerfInfrastructure_DcvsV3_t dcvsV3Config;
    QnnHtpPerfInfrastructure_RpcControlLatency_t rpcControlLatencyConfig;
    QnnHtpPerfInfrastructure_RpcPollingTime_t rpcPollingTimeConfig;
    QnnHtpPerfInfrastructure_HmxTimeoutIntervalUs_t hmxTimeoutIntervalUsConfig;
    QnnHtpPerfInfrastructure_HmxV2_t hmxV2Config;
    QnnHtpPerfInfrastructure_AdaptivePollingTime_t adaptivePollingTimeConfig;
    QnnHtpPerfInfrastructure_DdrPerfMode_t ddrPerfModeConfig;
    QnnHtpPerfInfrastructure_Ceng_t cengConfig;
    QnnHtpPerfInfrastructure_DcvsV3Exp_t dcvsV3ExpConfig; /* 64 bytes, as DcvsV3_t: the struct stays 68 */
    QnnHtpPerfInfrastructure_CengExp_t cengExpConfig;
  };
} QnnHtpPerfInfrastructure_PowerConfig_t;

#define QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIG_INIT { QNN_HTP_PERF_INFRASTRUCTURE_POWER_CONFIGOPTION_UNKNOWN , { 0 } }
typedef enum {
  QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIGOPTION_GROW_SIZE = 1,
  QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIGOPTION_UNKNOWN = 2147483647,
} QnnHtpPerfInfrastructure_MemoryConfigOption_t;

typedef struct {
  QnnHtpPerfInfrastructure_MemoryConfigOption_t option;
  union {
    QnnHtpPerfInfrastructure_MemGrowSize_t memGrowSizeConfig;
  };
} QnnHtpPerfInfrastructure_MemoryConfig_t;

#define QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIG_INIT { QNN_HTP_PERF_INFRASTRUCTURE_MEMORY_CONFIGOPTION_UNKNOWN , { 0 } }
typedef Qnn_ErrorHandle_t (*QnnHtpPerfInfrastructure_CreatePowerConfigIdFn_t)(uint32_t deviceId, uint32_t coreId, uint32_t *powerConfigId);

typedef Qnn_ErrorHandle_t (*QnnHtpPerfInfrastructure_DestroyPowerConfigIdFn_t)(uint32_t powerConfigId);

typedef Qnn_ErrorHandle_t (*QnnHtpPerfInfrastructure_SetPowerConfigFn_t)(uint32_t powerConfigId, const QnnHtpPerfInfrastructure_PowerConfig_t **config);

typedef Qnn_ErrorHandle_t (*QnnHtpPerfInfrastructure_SetMemoryConfigFn_t)(uint32_t deviceId, uint32_t coreId, const QnnHtpPerfInfrastructure_MemoryConfig_t **config);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
