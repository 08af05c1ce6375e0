#include "core/logger.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace qnn::sdk {
namespace {

// The callback takes a va_list; this builds one for the "%s" format.
void invokeCallback(QnnLog_Callback_t cb, QnnLog_Level_t level, uint64_t timestamp, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  cb(fmt, level, timestamp, args);
  va_end(args);
}

const char* levelName(QnnLog_Level_t level) {
  switch (level) {
    case QNN_LOG_LEVEL_ERROR: return "ERROR";
    case QNN_LOG_LEVEL_WARN: return "WARN";
    case QNN_LOG_LEVEL_INFO: return "INFO";
    case QNN_LOG_LEVEL_VERBOSE: return "VERBOSE";
    case QNN_LOG_LEVEL_DEBUG: return "DEBUG";
    default: return "?";
  }
}

}  // namespace

void Logger::log(QnnLog_Level_t level, const std::string& message) const {
  if (!callback_ || !enabled(level)) return;
  invokeCallback(callback_, level, nanosSinceCreated(), "%s", message.c_str());
}

uint64_t Logger::nanosSinceCreated() const {
  using namespace std::chrono;
  return static_cast<uint64_t>(duration_cast<nanoseconds>(steady_clock::now() - created_).count());
}

namespace {
thread_local uint64_t tErrorMessages = 0;
}  // namespace

uint64_t errorMessagesOnThisThread() { return tErrorMessages; }

void logMessage(const Logger* logger, QnnLog_Level_t level, const std::string& message) {
  if (level == QNN_LOG_LEVEL_ERROR) ++tErrorMessages;
  if (logger) logger->log(level, message);
  static const bool toStderr = std::getenv("QNN_LOG_TO_STDERR") != nullptr;
  if (toStderr) std::fprintf(stderr, "[qnn %s] %s\n", levelName(level), message.c_str());
}

}  // namespace qnn::sdk
