/* OpenQNN public header: CPU backend specifics: Graph.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_CPU_GRAPH_H
#define QNN_CPU_GRAPH_H

#include "QnnGraph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_CPU_GRAPH_CONFIG_OPTION_OP_DEBUG_CALLBACK = 1,
  QNN_CPU_GRAPH_CONFIG_OPTION_USE_QMX = 2,
  QNN_CPU_GRAPH_CONFIG_OPTION_UNDEFINED = 2147483647,
} QnnCpuGraph_ConfigOption_t;

typedef Qnn_ErrorHandle_t (*QnnCpuGraph_OpDebugCallback_t)(Qnn_OpConfig_t *opConfig, void *callBackParam);

typedef struct {
  void *callBackParam;
  QnnCpuGraph_OpDebugCallback_t cpuGraphOpDebugCallback;
} QnnCpuGraph_OpDebug_t;

#define QNN_CPU_GRAPH_OP_DEBUG_INIT { NULL , NULL }
typedef struct {
  _Bool useQmx;
} QnnCpuGraph_UseQmx_t;

#define QNN_CPU_GRAPH_USE_QMX_INIT { false }
typedef struct {
  QnnCpuGraph_ConfigOption_t option;
  union {
    QnnCpuGraph_OpDebug_t cpuGraphOpDebug;
    QnnCpuGraph_UseQmx_t cpuGraphUseQmx;
  };
} QnnCpuGraph_CustomConfig_t;

#define QNN_CPU_GRAPH_CUSTOM_CONFIG_INIT { QNN_CPU_GRAPH_CONFIG_OPTION_UNDEFINED , { QNN_CPU_GRAPH_OP_DEBUG_INIT } }
#ifdef __cplusplus
}  // extern "C"
#endif

#endif
