// Writes the vendor-compatible replay pair for a trace: a self-contained C
// program (default saver_output.c) and the data file it reads (default
// params.bin). Used by libQnnSaver.so when a trace reaches a resting point and
// by qnn-trace-to-c. docs/saver-output-c.md describes the program.
#pragma once

#include <string>

#include "trace/trace_reader.h"

namespace qnn::trace {

struct ReplayProgramFiles {
  std::string source = "saver_output.c";
  std::string params = "params.bin";
};

// The names a recording asked for with QNN_SAVER_CONFIG_OPTION_FILE_CONFIG,
// else the defaults.
ReplayProgramFiles replayProgramFilesOf(const Trace& trace);

// Writes both files into `dir` (each through a temporary and a rename, so a
// reader never sees half a file). False with *error set on an I/O failure.
bool writeReplayProgram(const Trace& trace, const std::string& dir, const ReplayProgramFiles& files,
                        std::string* error);

}  // namespace qnn::trace
