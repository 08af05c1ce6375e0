/* OpenQNN public header: HTP: QnnHtpContext.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_CONTEXT_H
#define QNN_HTP_CONTEXT_H

#include "QnnContext.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_HTP_CONTEXT_CONFIG_OPTION_WEIGHT_SHARING_ENABLED = 1,
  QNN_HTP_CONTEXT_CONFIG_OPTION_REGISTER_MULTI_CONTEXTS = 2,
  QNN_HTP_CONTEXT_CONFIG_OPTION_FILE_READ_MEMORY_BUDGET = 3,
  QNN_HTP_CONTEXT_CONFIG_OPTION_DSP_MEMORY_PROFILING_ENABLED = 4,
  QNN_HTP_CONTEXT_CONFIG_OPTION_SHARE_RESOURCES = 5,
  QNN_HTP_CONTEXT_CONFIG_OPTION_IO_MEM_ESTIMATION = 6,
  QNN_HTP_CONTEXT_CONFIG_OPTION_PREPARE_ONLY = 7,
  QNN_HTP_CONTEXT_CONFIG_OPTION_INIT_ACCELERATION = 8,
  QNN_HTP_CONTEXT_CONFIG_OPTION_SKIP_VALIDATION_ON_BINARY_SECTION = 9,
  QNN_HTP_CONTEXT_CONFIG_OPTION_SHARE_RESOURCES_OPTIMIZATION_TYPE = 10,
  QNN_HTP_CONTEXT_CONFIG_OPTION_USE_EXTENDED_UDMA = 11,
  QNN_HTP_CONTEXT_CONFIG_OPTION_REGISTER_CONCURRENT_RESOURCE_SHARING = 12,
  QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_WEIGHT_SHARING_ENABLED = 13,
  QNN_HTP_CONTEXT_CONFIG_OPTION_RESERVED_14 = 14,
  QNN_HTP_CONTEXT_CONFIG_OPTION_RESERVED_15 = 15,
  QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_WEIGHT_SHARING_RAM_PRELOAD_ENABLED = 16,
  QNN_HTP_CONTEXT_CONFIG_OPTION_REUSED_IO_LIMIT = 17,
  QNN_HTP_CONTEXT_CONFIG_OPTION_REFERENCE_WEIGHT_SHARING_ENABLED = 18,
  QNN_HTP_CONTEXT_CONFIG_OPTION_CONCURRENT_DESERIALIZATION_EXTRA_SIZE = 19,
  QNN_HTP_CONTEXT_CONFIG_OPTION_GRAPH_SPLITTING_ENABLED = 20, /* deprecated for GRAPH_SPLITTING_CONFIGS */
  QNN_HTP_CONTEXT_CONFIG_OPTION_CONCURRENT_DESERIALIZATION_PATCH = 21,
  QNN_HTP_CONTEXT_CONFIG_OPTION_GRAPH_SPLITTING_CONFIGS = 22,
  QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_PRELOAD_BUFFER_GROUPS = 23,
  QNN_HTP_CONTEXT_CONFIG_OPTION_RESERVED_24 = 24,
  QNN_HTP_CONTEXT_CONFIG_OPTION_PARALLEL_WEIGHT_LOADING = 25,
  QNN_HTP_CONTEXT_CONFIG_OPTION_UNKNOWN = 2147483647,
} QnnHtpContext_ConfigOption_t;

typedef struct {
  Qnn_ContextHandle_t firstGroupHandle;
  uint64_t maxSpillFillBuffer;
} QnnHtpContext_GroupRegistration_t;

typedef enum {
  SEQUENTIAL_WITH_VA_OPTIMIZATION = 0,
  SEQUENTIAL_WITHOUT_VA_OPTIMIZATION = 1,
  CONCURRENT_OPTIMIZATION = 2,
} QnnHtpContext_ShareResourcesOptimizationType_t;

/* API 2.39 additions: GRAPH_SPLITTING_CONFIGS, PARALLEL_WEIGHT_LOADING, LORA_PRELOAD_BUFFER_GROUPS. */
typedef struct {
  _Bool graphSplittingEnabled;
} QnnHtpContext_GraphSplit_t;

typedef enum {
  QNN_HTP_PARALLEL_WEIGHT_LOADING_MODE_ADAPTIVE = 0,
  QNN_HTP_PARALLEL_WEIGHT_LOADING_MODE_ON = 1,
  QNN_HTP_PARALLEL_WEIGHT_LOADING_MODE_OFF = 2,
} QnnHtpContext_ParallelWeightLoadingMode_t;

typedef struct {
  QnnHtpContext_ParallelWeightLoadingMode_t mode;
  uint64_t thresholdInMbOverride; /* 0: the backend's own threshold (ADAPTIVE only) */
} QnnHtpContext_ParallelWeightLoading_t;

/* One group of graphs sharing a LoRA preload buffer. */
typedef struct {
  const char** graphNames;
  uint32_t numGraphs;
} QnnHtpContext_LoraPreloadGroup_t;

typedef struct {
  const QnnHtpContext_LoraPreloadGroup_t* groups;
  uint32_t numGroups;
} QnnHtpContext_LoraPreloadBufferGroups_t;

typedef struct QnnHtpContext_CustomConfig {
  QnnHtpContext_ConfigOption_t option;
  union {
    _Bool weightSharingEnabled;
    QnnHtpContext_GroupRegistration_t groupRegistration;
    uint64_t fileReadMemoryBudgetInMb;
    _Bool dspMemoryProfilingEnabled;
    _Bool shareResources;
    _Bool ioMemEstimation;
    _Bool isPrepareOnly;
    _Bool initAcceleration;
    _Bool skipValidationOnBinarySection;
    QnnHtpContext_ShareResourcesOptimizationType_t shareResOptType;
    _Bool useExtendedUdma;
    QnnHtpContext_GroupRegistration_t concurrentGroupRegistration;
    _Bool loraWeightSharingEnabled;
    _Bool loraWeightSharingRamPreloadEnabled;
    const QnnHtpContext_LoraPreloadBufferGroups_t* loraPreloadBufferGroups;
    uint64_t reusedIoLimitMb;
    _Bool referenceWeightSharingEnabled;
    uint32_t concurrentDeserializationExtraSizeKB; /* at most 102400, larger is clamped */
    _Bool graphSplittingEnabled;
    int concurrentDeserializationPatchFd;
    QnnHtpContext_GraphSplit_t graphSplittingConfigs;
    QnnHtpContext_ParallelWeightLoading_t parallelWeightLoading;
  };
} QnnHtpContext_CustomConfig_t;

#define QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT { QNN_HTP_CONTEXT_CONFIG_OPTION_UNKNOWN , { false } }
typedef enum {
  QNN_HTP_CONTEXT_GET_PROP_BUFFER_START_ALIGNMENT = 1,
  QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE = 2,
  QNN_HTP_CONTEXT_GET_PROP_WEIGHTS_BUFFER_SIZE = 3,
  QNN_HTP_CONTEXT_GET_PROP_RESERVED_4 = 4,
  QNN_HTP_CONTEXT_GET_PROP_RESERVED_5 = 5,
  QNN_HTP_CONTEXT_GET_PROP_MAX_VTCMBACKUP_BUFFER_SIZE = 6,
  QNN_HTP_CONTEXT_GET_PROP_RESERVED_7 = 7,
  QNN_HTP_CONTEXT_GET_PROP_UNDEFINED = 2147483647,
} QnnHtpContext_GetPropertyOption_t;

typedef struct {
  QnnHtpContext_GetPropertyOption_t option;
  union {
    uint64_t bufferStartAlignment;
    uint64_t spillfillBufferSize;
    uint64_t weightsBufferSize;
    uint64_t vtcmBackupBufferSize;
  };
} QnnHtpContext_CustomProperty_t;

#define QNN_HTP_CONTEXT_CUSTOM_PROPERTY_INIT { QNN_HTP_CONTEXT_GET_PROP_UNDEFINED , 0 }
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
