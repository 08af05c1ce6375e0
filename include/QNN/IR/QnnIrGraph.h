/* OpenQNN public header: IR backend specifics: Graph.
 * Written from the QNN API facts (names, layouts, values); see docs/compatibility.md.
 * The IR backend serializes a composed graph instead of running it; its one graph custom config
 * names the serialization form and where to write it. OpenQNN ships no IR backend (our
 * qairt-converter writes DLC files); clients that build this config (ONNX Runtime's QNN EP for
 * `dump_qnn_ir_dlc`) compile against it. */
#ifndef QNN_IR_GRAPH_H
#define QNN_IR_GRAPH_H

#ifdef __cplusplus
#include <cstdint>
#else
#include <stdint.h>
#endif

#include "QnnGraph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  QNN_IR_GRAPH_SERIALIZATION_TYPE_FLAT_BUFFER = 1
} QnnIrGraph_SerializationType_t;

typedef enum {
  QNN_IR_GRAPH_CONFIG_OPTION_SERIALIZATION = 1,
  QNN_IR_GRAPH_CONFIG_OPTION_UNKNOWN = 0x7fffffff
} QnnIrGraph_ConfigOption_t;

typedef struct {
  QnnIrGraph_SerializationType_t serializationType;
  const char* outputPath;  // a directory the serialized graph is written to
} QnnIrGraph_SerializationOption_t;

typedef struct {
  QnnIrGraph_ConfigOption_t option;
  union {
    QnnIrGraph_SerializationOption_t serializationOption;
  };
} QnnIrGraph_CustomConfig_t;

#define QNN_IR_GRAPH_SERIALIZATION_OPTION_INIT { QNN_IR_GRAPH_SERIALIZATION_TYPE_FLAT_BUFFER , "" }
#define QNN_IR_GRAPH_CUSTOM_CONFIG_INIT { QNN_IR_GRAPH_CONFIG_OPTION_SERIALIZATION , { QNN_IR_GRAPH_SERIALIZATION_OPTION_INIT } }

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
