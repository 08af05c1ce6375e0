/* OpenQNN public header: HTP backend specifics: Graph.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_HTP_GRAPH_H
#define QNN_HTP_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "QnnCommon.h"
#include "QnnGraph.h"
#include "QnnTypes.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef enum {
  QNN_HTP_GRAPH_CONFIG_OPTION_OPTIMIZATION = 1,
  QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION = 2,
  QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE = 3,
  QNN_HTP_GRAPH_CONFIG_OPTION_FOLD_RELU_ACTIVATION_INTO_CONV_OFF = 4,
  QNN_HTP_GRAPH_CONFIG_OPTION_SHORT_DEPTH_CONV_ON_HMX_OFF = 5,
  QNN_HTP_GRAPH_CONFIG_OPTION_NUM_HVX_THREADS = 6,
  QNN_HTP_GRAPH_CONFIG_OPTION_UNKNOWN = 0x7fffffff,
} QnnHtpGraph_ConfigOption_t;

typedef enum {
  QNN_HTP_GRAPH_OPTIMIZATION_TYPE_SCHEDULE_THRESHOLD = 1,
  QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_RETRIES = 2,
  QNN_HTP_GRAPH_OPTIMIZATION_TYPE_FINALIZE_OPTIMIZATION_FLAG = 3,
  QNN_HTP_GRAPH_OPTIMIZATION_TYPE_ENABLE_DLBC = 4,
  QNN_HTP_GRAPH_OPTIMIZATION_TYPE_UNKNOWN = 0x7fffffff,
} QnnHtpGraph_OptimizationType_t;

typedef struct {
  QnnHtpGraph_OptimizationType_t type;
  float floatValue;
} QnnHtpGraph_OptimizationOption_t;

typedef struct {
  QnnHtpGraph_ConfigOption_t option;
  union {
    QnnHtpGraph_OptimizationOption_t optimizationOption;
    Qnn_Precision_t precision;
    uint32_t vtcmSizeInMB;
    bool foldReluActivationIntoConvOff;
    bool shortDepthConvOnHmxOff;
    uint64_t numHvxThreads;
  };
} QnnHtpGraph_CustomConfig_t;

#define QNN_HTP_GRAPH_CUSTOM_CONFIG_INIT \
  {QNN_HTP_GRAPH_CONFIG_OPTION_UNKNOWN, {QNN_HTP_GRAPH_OPTIMIZATION_OPTION_INIT}}
#define QNN_HTP_GRAPH_OPTIMIZATION_OPTION_INIT \
  {QNN_HTP_GRAPH_OPTIMIZATION_TYPE_UNKNOWN, 0.0f}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_HTP_GRAPH_H
