// Logger: delivers messages to the client's QnnLog_Callback_t at or below the
// chosen level. A backend created without a logger stays silent; with
// QNN_LOG_TO_STDERR set in the environment, messages go to stderr as well.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdarg>
#include <string>

#include "QnnLog.h"
#include "core/handle_registry.h"

namespace qnn::sdk {

class Logger : public HandleObject {
 public:
  Logger(QnnLog_Callback_t callback, QnnLog_Level_t maxLevel)
      : callback_(callback), maxLevel_(maxLevel), created_(std::chrono::steady_clock::now()) {}
  HandleKind kind() const override { return HandleKind::kLog; }

  void setLevel(QnnLog_Level_t level) { maxLevel_.store(level); }
  QnnLog_Level_t level() const { return maxLevel_.load(); }
  bool enabled(QnnLog_Level_t level) const { return level <= maxLevel_.load(); }
  // The client's callback (may be null); e.g. handed on to op packages' logInitialize.
  QnnLog_Callback_t callback() const { return callback_; }
  void log(QnnLog_Level_t level, const std::string& message) const;

 private:
  // The callback's timestamp: nanoseconds since the log handle was created, the unit and
  // origin vendor clients assume (their sample prints timestamp / 1e6 as "ms" since start).
  uint64_t nanosSinceCreated() const;

  QnnLog_Callback_t callback_;
  std::atomic<QnnLog_Level_t> maxLevel_;
  std::chrono::steady_clock::time_point created_;
};

// Logs through logger when it is non-null; always honours QNN_LOG_TO_STDERR.
void logMessage(const Logger* logger, QnnLog_Level_t level, const std::string& message);

// How many QNN_LOG_LEVEL_ERROR messages logMessage was given on this thread so
// far: an API entry that fails without having said why logs a line of its own.
uint64_t errorMessagesOnThisThread();

}  // namespace qnn::sdk
