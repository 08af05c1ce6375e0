// --log_level values and the log callback the tools hand to backends and model
// libraries: one "[qnn <level>] message" line per call on stderr.
#pragma once

#include <cstdarg>
#include <string>

#include "QnnLog.h"

namespace qnn::tools {

// "error", "warn", "info", "debug", "verbose"; throws UsageError otherwise.
QnnLog_Level_t parseLogLevel(const std::string& value);
// The message of one backend log call (printf format + arguments; args is not consumed).
std::string formatLogMessage(const char* fmt, va_list args);
// "error", "warn", "info", "verbose" or "debug".
const char* logLevelName(QnnLog_Level_t level);
void stderrLogCallback(const char* fmt, QnnLog_Level_t level, uint64_t timestamp, va_list args);
// One line of the tool's own in the same format: warnings and errors always, other levels when
// `threshold` (the --log_level, 0 = none) reaches them.
void logLine(QnnLog_Level_t level, QnnLog_Level_t threshold, const std::string& message);

}  // namespace qnn::tools
