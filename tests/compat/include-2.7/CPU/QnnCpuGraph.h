/* OpenQNN public header: CPU backend specifics: Graph.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md. */
#ifndef QNN_CPU_GRAPH_H
#define QNN_CPU_GRAPH_H

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
  QNN_CPU_GRAPH_CONFIG_OPTION_OP_DEBUG_CALLBACK = 1,
  QNN_CPU_GRAPH_CONFIG_OPTION_UNDEFINED = 0x7fffffff,
} QnnCpuGraph_ConfigOption_t;

typedef Qnn_ErrorHandle_t (*QnnCpuGraph_OpDebugCallback_t)(Qnn_OpConfig_t *opConfig, void *callBackParam);

typedef struct {
  void *callBackParam;
  QnnCpuGraph_OpDebugCallback_t cpuGraphOpDebugCallback;
} QnnCpuGraph_OpDebug_t;

typedef struct {
  QnnCpuGraph_ConfigOption_t option;
  union {
    QnnCpuGraph_OpDebug_t cpuGraphOpDebug;
  };
} QnnCpuGraph_CustomConfig_t;

#define QNN_CPU_GRAPH_CUSTOM_CONFIG_INIT \
  {QNN_CPU_GRAPH_CONFIG_OPTION_UNDEFINED, {QNN_CPU_GRAPH_OP_DEBUG_INIT}}
#define QNN_CPU_GRAPH_OP_DEBUG_INIT \
  {NULL, NULL}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // QNN_CPU_GRAPH_H
