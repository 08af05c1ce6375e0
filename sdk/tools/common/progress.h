// Progress on a terminal for long tool runs: one line on stderr, rewritten in
// place at most ten times a second, cleared when done. Shown only when stderr
// is a terminal and the user did not ask for quiet (--quiet, or QNN_NO_PROGRESS
// set), so logs, pipes and CI output never see it.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace qnn::tools {

// Whether progress lines should be shown: stderr is a TTY, not quiet, QNN_NO_PROGRESS unset.
bool progressWanted(bool quiet);

class Progress {
 public:
  // total 0: unknown (a count is shown, no percentage).
  Progress(std::string label, size_t total, bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void update(size_t done);

 private:
  std::string label_;
  size_t total_;
  bool enabled_, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace qnn::tools
