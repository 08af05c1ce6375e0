// QnnGlobalConfig entry point: process-wide settings for objects created later.
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

// Options are checked whole before any takes effect; the last of one option wins.
Qnn_ErrorHandle_t Runtime::globalConfigSet(const QnnGlobalConfig_t** config) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!config) return QNN_SUCCESS;  // no options: every setting keeps its value
    BackendSettings updated = globalSettings();
    for (size_t i = 0; config[i]; ++i) {
      Status st = Status::ok();
      if (config[i]->option != QNN_GLOBAL_CONFIG_OPTION_SOC_MODEL) {
        st = invalidArgument("config " + std::to_string(i) + ": unknown option " +
                             std::to_string(static_cast<uint32_t>(config[i]->option)));
      } else if (config[i]->socModel == QNN_SOC_MODEL_UNKNOWN) {
        updated.erase("global.soc");  // back to the backend's default
      } else if (desc_.hooks) {
        st = desc_.hooks->checkGlobalSocModel(config[i]->socModel);
      }
      if (!st.isOk()) {
        logMessage(anyLogger().get(), QNN_LOG_LEVEL_ERROR, "QnnGlobalConfig_Set: " + st.message());
        return QNN_GLOBAL_CONFIG_ERROR_INVALID_CONFIG;
      }
      if (config[i]->socModel != QNN_SOC_MODEL_UNKNOWN) updated["global.soc"] = std::to_string(config[i]->socModel);
    }
    std::lock_guard<std::mutex> lock(globalMutex_);
    globalSettings_ = std::move(updated);
    return QNN_SUCCESS;
  });
}

BackendSettings Runtime::globalSettings() const {
  std::lock_guard<std::mutex> lock(globalMutex_);
  return globalSettings_;
}

}  // namespace qnn::sdk
