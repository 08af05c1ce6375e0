// Saver diagnostics go to stderr: the Saver has no client log handle of its own
// when pass-through is off, and its problems (unwritable directory, missing
// backend) must be seen.
#pragma once

#include <cstdio>
#include <string>

namespace qnn::saver {

inline void logError(const std::string& message) { std::fprintf(stderr, "[QnnSaver] %s\n", message.c_str()); }

}  // namespace qnn::saver
