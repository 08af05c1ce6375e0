// Context config lists (QnnContext_Config_t), shared by QnnContext_create,
// createFromBinary and createFromBinaryListAsync (runtime_context*.cpp).
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "QnnContext.h"
#include "core/logger.h"
#include "core/status.h"
#include "runtime/backend_hooks.h"

namespace qnn::sdk {

// What a context config list asks of loading a binary beyond settings.
struct BinaryLoadOptions {
  bool selectGraphs = false;           // QNN_CONTEXT_CONFIG_ENABLE_GRAPHS given
  std::set<std::string> enableGraphs;  // only these are deserialized
  bool deferGraphInit = false;         // QNN_CONTEXT_CONFIG_OPTION_DEFER_GRAPH_INIT
};

// QNN_CONTEXT_CONFIG_ASYNC_EXECUTION_QUEUE_DEPTH: the context setting that
// holds it, the depth without the config and the largest accepted (the vendor's
// HTP: 10 and 300, "QNN async execution for HTP backend").
inline constexpr const char* kAsyncQueueDepthSetting = "context.async_queue_depth";
inline constexpr uint32_t kDefaultAsyncQueueDepth = 10;
inline constexpr uint32_t kMaxAsyncQueueDepth = 300;

// Validates context configs; priority and the backend's custom configs go into
// `settings` (may be null: validate only), what only loading a binary uses into
// `load` (may be null). What was accepted but changed is logged to `log` as
// `api`'s warnings.
Status checkContextConfig(const QnnContext_Config_t** config, BackendHooks* hooks = nullptr,
                          BackendSettings* settings = nullptr, const Logger* log = nullptr, const char* api = "",
                          BinaryLoadOptions* load = nullptr);

// A refused config list: an option this library does not support yet, or an invalid one.
Qnn_ErrorHandle_t configErrorCode(const Status& st);

}  // namespace qnn::sdk
