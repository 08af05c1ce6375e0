// QnnLog entry points.
#include "runtime/runtime.h"

#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

Qnn_ErrorHandle_t Runtime::logCreate(QnnLog_Callback_t callback, QnnLog_Level_t level, Qnn_LogHandle_t* logger) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!logger) return QNN_LOG_ERROR_INVALID_ARGUMENT;
    if (level < QNN_LOG_LEVEL_ERROR || level > QNN_LOG_LEVEL_DEBUG) return QNN_LOG_ERROR_INVALID_ARGUMENT;
    *logger = handles().add(std::make_shared<LogObject>(callback, level));
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::logSetLogLevel(Qnn_LogHandle_t logger, QnnLog_Level_t level) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto l = handles().get<Logger>(logger, HandleKind::kLog);
    if (!l) return QNN_LOG_ERROR_INVALID_HANDLE;
    if (level < QNN_LOG_LEVEL_ERROR || level > QNN_LOG_LEVEL_DEBUG) return QNN_LOG_ERROR_INVALID_ARGUMENT;
    l->setLevel(level);
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::logFree(Qnn_LogHandle_t logger) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    return handles().remove(logger, HandleKind::kLog) ? QNN_SUCCESS : QNN_LOG_ERROR_INVALID_HANDLE;
  });
}

}  // namespace qnn::sdk
