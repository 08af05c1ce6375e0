#include "tools/common/log_level.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>

#include "tools/common/tool_error.h"

namespace qnn::tools {

QnnLog_Level_t parseLogLevel(const std::string& v) {
  if (v == "error") return QNN_LOG_LEVEL_ERROR;
  if (v == "warn") return QNN_LOG_LEVEL_WARN;
  if (v == "info") return QNN_LOG_LEVEL_INFO;
  if (v == "verbose") return QNN_LOG_LEVEL_VERBOSE;
  if (v == "debug") return QNN_LOG_LEVEL_DEBUG;
  throw UsageError("--log_level must be error, warn, info, debug or verbose, got '" + v + "'");
}

std::string formatLogMessage(const char* fmt, va_list args) {
  char buf[2048];
  va_list copy;
  va_copy(copy, args);
  std::vsnprintf(buf, sizeof buf, fmt, copy);
  va_end(copy);
  return buf;
}

const char* logLevelName(QnnLog_Level_t level) {
  return level == QNN_LOG_LEVEL_ERROR     ? "error"
         : level == QNN_LOG_LEVEL_WARN    ? "warn"
         : level == QNN_LOG_LEVEL_INFO    ? "info"
         : level == QNN_LOG_LEVEL_VERBOSE ? "verbose"
                                          : "debug";
}

namespace {
std::mutex g_stderrMutex;  // backends may log from worker threads
}

void stderrLogCallback(const char* fmt, QnnLog_Level_t level, uint64_t, va_list args) {
  const std::string message = formatLogMessage(fmt, args);
  std::lock_guard<std::mutex> lock(g_stderrMutex);
  std::fprintf(stderr, "[qnn %s] %s\n", logLevelName(level), message.c_str());
}

void logLine(QnnLog_Level_t level, QnnLog_Level_t threshold, const std::string& message) {
  if (level > QNN_LOG_LEVEL_WARN && (threshold == 0 || level > threshold)) return;
  std::lock_guard<std::mutex> lock(g_stderrMutex);
  std::fprintf(stderr, "[qnn %s] %s\n", logLevelName(level), message.c_str());
}

}  // namespace qnn::tools
