// Test helpers: run a tool and capture exit code, stdout and stderr; scratch
// directories; float32 raw files.
#pragma once

#include <string>
#include <vector>

namespace nettest {

struct RunResult {
  int exitCode = -1;
  std::string out, err;
  int errorLines() const;  // stderr lines containing "error"
};

RunResult runTool(const std::string& commandLine);
std::string makeTempDir();
void writeFloats(const std::string& path, const std::vector<float>& v);
void writeBytes(const std::string& path, const std::vector<uint8_t>& v);
std::vector<float> readFloats(const std::string& path);
std::vector<uint8_t> readBytes(const std::string& path);
void writeText(const std::string& path, const std::string& text);
std::string readText(const std::string& path);
bool exists(const std::string& path);

}  // namespace nettest
