// QnnSystemLog_* of libQnnSystem.so: a log handle (the core's Logger, as QnnLog_create makes
// one) that System API calls taking a logger report through — QnnSystemDlc_createFromFile /
// createFromBinary, and every later call on the DLC handle made from them.
#include "System/QnnSystemLog.h"
#include "system/system_guard.h"

namespace {
constexpr qnn::system::ComponentErrors kLogErrors{QNN_LOG_ERROR_INVALID_ARGUMENT, QNN_LOG_ERROR_INVALID_HANDLE,
                                                  QNN_LOG_ERROR_INVALID_ARGUMENT, QNN_LOG_ERROR_INVALID_ARGUMENT,
                                                  QNN_LOG_ERROR_INITIALIZATION};
bool validLevel(QnnLog_Level_t level) { return level >= QNN_LOG_LEVEL_ERROR && level <= QNN_LOG_LEVEL_DEBUG; }
}  // namespace

using qnn::system::guarded;
using qnn::system::toComponentError;

extern "C" {

// callback may be null (a silent logger, as QnnLog_create allows); maxLogLevel ERROR..DEBUG.
QNN_API Qnn_ErrorHandle_t QnnSystemLog_create(QnnLog_Callback_t callback, QnnLog_Level_t maxLogLevel,
                                              Qnn_LogHandle_t* logger) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!logger) return toComponentError(entry, qnn::sdk::invalidArgument("logger is null"), kLogErrors);
    if (!validLevel(maxLogLevel))
      return toComponentError(entry, qnn::sdk::invalidArgument("maxLogLevel " + std::to_string(int(maxLogLevel)) +
                                                                   " is not QNN_LOG_LEVEL_ERROR..DEBUG"),
                              kLogErrors);
    *logger = qnn::sdk::handles().add(std::make_shared<qnn::sdk::Logger>(callback, maxLogLevel));
    return QNN_SUCCESS;
  }, QNN_LOG_ERROR_INITIALIZATION);
}

QNN_API Qnn_ErrorHandle_t QnnSystemLog_setLogLevel(Qnn_LogHandle_t logger, QnnLog_Level_t maxLogLevel) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto l = qnn::sdk::handles().get<qnn::sdk::Logger>(logger, qnn::sdk::HandleKind::kLog);
    if (!l) return toComponentError(entry, {qnn::sdk::StatusCode::kInvalidHandle, "invalid log handle"}, kLogErrors);
    if (!validLevel(maxLogLevel))
      return toComponentError(entry, qnn::sdk::invalidArgument("maxLogLevel " + std::to_string(int(maxLogLevel)) +
                                                                   " is not QNN_LOG_LEVEL_ERROR..DEBUG"),
                              kLogErrors);
    l->setLevel(maxLogLevel);
    return QNN_SUCCESS;
  }, QNN_LOG_ERROR_INITIALIZATION);
}

QNN_API Qnn_ErrorHandle_t QnnSystemLog_free(Qnn_LogHandle_t logger) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!qnn::sdk::handles().remove(logger, qnn::sdk::HandleKind::kLog))
      return toComponentError(entry, {qnn::sdk::StatusCode::kInvalidHandle, "invalid log handle"}, kLogErrors);
    return QNN_SUCCESS;
  }, QNN_LOG_ERROR_INITIALIZATION);
}

}  // extern "C"
