// The Saver's vendor-compatible output: saver_output.c and params.bin,
// regenerated from the trace file (the single source of truth) by the shared
// generator in sdk/trace/cgen.
#include <chrono>
#include <filesystem>

#include "saver/saver_log.h"
#include "saver/saver_state.h"
#include "trace/trace_reader.h"
#include "trace/cgen/trace_to_c.h"

namespace qnn::saver {

namespace {

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void SaverState::writeReplayProgram(bool atRestingPoint) {
  std::lock_guard<std::mutex> lock(programMu_);
  // Generation takes at most about a tenth of the time between resting points;
  // the exit/unload generation brings the program up to date.
  double start = nowSeconds();
  if (atRestingPoint && start - lastProgramEnd_ < 10 * lastProgramCost_) return;
  std::string dir;
  trace::ReplayProgramFiles files;
  {
    std::lock_guard<std::mutex> config(mu_);
    if (!started_) return;  // nothing recorded yet
    dir = openedDir_;
    files.source = sourceFileName_;
    files.params = paramsFileName_;
  }
  callsSinceProgram_ = 0;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return;  // removed by the client: nothing to add to
  trace::Trace recorded;
  // Another thread may be writing a block right now: its partial tail is left
  // out and that call makes the program stale again.
  trace::readTrace((std::filesystem::path(dir) / "saver_output.qnntrace").string(), recorded);
  std::string error;
  try {
    if (!trace::writeReplayProgram(recorded, dir, files, &error)) logError("Saver: " + error);
  } catch (const std::exception& e) {
    logError(std::string("Saver: cannot write the replay program: ") + e.what());
  }
  lastProgramEnd_ = nowSeconds();
  lastProgramCost_ = lastProgramEnd_ - start;
}

namespace {

// Writes the program once more when the library is unloaded or the process
// exits normally, for clients that never free their backend.
struct FinalProgram {
  ~FinalProgram() {
    try {
      SaverState* s = SaverState::peek();
      if (s && s->replayProgramStale()) s->writeReplayProgram();
    } catch (...) {
    }
  }
} finalProgram;

}  // namespace

}  // namespace qnn::saver
