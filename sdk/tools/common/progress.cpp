#include "tools/common/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace qnn::tools {

bool progressWanted(bool quiet) { return !quiet && isatty(fileno(stderr)) && !std::getenv("QNN_NO_PROGRESS"); }

Progress::Progress(std::string label, size_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::update(size_t done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100) && done != total_) return;
  last_ = now, shown_ = true;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  if (total_ > 0)
    std::fprintf(stderr, "\r%s: %zu/%zu (%.0f%%) %.1f s\033[K", label_.c_str(), done, total_,
                 100.0 * double(done) / double(total_), seconds);
  else
    std::fprintf(stderr, "\r%s: %zu %.1f s\033[K", label_.c_str(), done, seconds);
  std::fflush(stderr);
}

Progress::~Progress() {
  if (enabled_ && shown_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

}  // namespace qnn::tools
