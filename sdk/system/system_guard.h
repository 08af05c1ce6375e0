// What every entry point of libQnnSystem.so wraps its body in: no C++ exception crosses the C
// boundary; errors are logged (to stderr only when QNN_LOG_TO_STDERR is set).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "QnnCommon.h"
#include "System/QnnSystemContext.h"
#include "core/logger.h"
#include "core/status.h"

namespace qnn::system {

// Errors go to stderr only when QNN_LOG_TO_STDERR is set: the System API takes no
// log callback. Logging must not throw out of a catch handler.
// logger: a QnnSystemLog handle's Logger the call was given (may be null).
inline void logError(const char* entry, const std::string& message, const sdk::Logger* logger = nullptr) noexcept {
  try {
    sdk::logMessage(logger, QNN_LOG_LEVEL_ERROR, std::string(entry) + ": " + message);
  } catch (...) {
  }
}

// The QnnSystemContext_* calls take no logger, so their refusals would stay
// unseen without QNN_LOG_TO_STDERR: they also write their line to stderr when
// the logger does not (call it next to logError / toComponentError).
inline void alsoToStderr(const char* entry, const std::string& message) noexcept {
  static const bool loggerPrints = std::getenv("QNN_LOG_TO_STDERR") != nullptr;
  if (!loggerPrints) std::fprintf(stderr, "[qnn ERROR] %s: %s\n", entry, message.c_str());
}

// failure: what an exception other than bad_alloc answers (the component's OPERATION_FAILED).
template <typename Fn>
Qnn_ErrorHandle_t guarded(const char* entry, Fn&& fn,
                          Qnn_ErrorHandle_t failure = QNN_SYSTEM_CONTEXT_ERROR_OPERATION_FAILED) noexcept {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    logError(entry, "out of memory");
    return QNN_COMMON_ERROR_MEM_ALLOC;
  } catch (const std::exception& e) {
    logError(entry, e.what());
    return failure;
  } catch (...) {
    logError(entry, "unexpected internal error");
    return failure;
  }
}

// A component's error codes (QnnSystemContext's, QnnSystemDlc's) for the core's status codes.
struct ComponentErrors {
  Qnn_ErrorHandle_t invalidArgument, invalidHandle, malformed, unsupported, failed;
};
inline constexpr ComponentErrors kContextErrors{
    QNN_SYSTEM_CONTEXT_ERROR_INVALID_ARGUMENT, QNN_SYSTEM_CONTEXT_ERROR_INVALID_HANDLE,
    QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY, QNN_SYSTEM_CONTEXT_ERROR_UNSUPPORTED_FEATURE,
    QNN_SYSTEM_CONTEXT_ERROR_OPERATION_FAILED};

// QNN_SUCCESS, or the status logged under `entry` and turned into the component's code.
inline Qnn_ErrorHandle_t toComponentError(const char* entry, const sdk::Status& s, const ComponentErrors& codes,
                                          const sdk::Logger* logger = nullptr) {
  if (s.isOk()) return QNN_SUCCESS;
  logError(entry, s.message(), logger);
  switch (s.code()) {
    case sdk::StatusCode::kInvalidArgument: return codes.invalidArgument;
    case sdk::StatusCode::kInvalidHandle: return codes.invalidHandle;
    case sdk::StatusCode::kCorruptData: return codes.malformed;
    case sdk::StatusCode::kNotSupported: return codes.unsupported;
    case sdk::StatusCode::kOutOfMemory: return QNN_COMMON_ERROR_MEM_ALLOC;
    default: return codes.failed;
  }
}

}  // namespace qnn::system
