// Config arrays -> trace Values with their contents (docs/saver-trace-format.md,
// "config arrays"), and the pass-through copies that swap Saver handles inside
// configs for the backend's. Custom configs are recorded as the bytes of the
// struct the configured backend defines (include/QNN/CPU, include/QNN/HTP).
#pragma once

#include <vector>

#include "QnnInterface.h"
#include "trace/trace_value.h"

namespace qnn::saver {

trace::Value configListValue(const QnnBackend_Config_t* const* config);
trace::Value configListValue(const QnnContext_Config_t* const* config);
trace::Value configListValue(const QnnGraph_Config_t* const* config);
trace::Value configListValue(const QnnDevice_Config_t* const* config);
trace::Value configListValue(const QnnSignal_Config_t* const* config);

// A graph config array for the pass-through backend: entries naming a Saver
// profile handle are copied with the backend's handle. The result (and the
// copies it points at) lives in `storage`. False if a profile handle is invalid.
struct GraphConfigCopy {
  std::vector<QnnGraph_Config_t> entries;
  std::vector<const QnnGraph_Config_t*> list;
};
bool mapGraphConfig(const QnnGraph_Config_t* const* config, GraphConfigCopy& storage,
                    const QnnGraph_Config_t*** mapped);

}  // namespace qnn::saver
