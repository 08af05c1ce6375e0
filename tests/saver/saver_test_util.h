// Helpers shared by the Saver tests: file contents and running a command in a
// directory with its exit code and output captured.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace qnn::saver_test {

inline std::vector<uint8_t> readBytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Outcome {
  int exitCode = -1;
  std::string out, err;
};

// Runs `command` through the shell in `dir` (stdout/stderr captured in files there).
inline Outcome run(const std::string& command, const std::filesystem::path& dir) {
  static int counter = 0;
  std::string n = std::to_string(counter++);
  std::filesystem::path out = dir / ("cmd_out_" + n + ".txt"), err = dir / ("cmd_err_" + n + ".txt");
  int status = std::system(("cd '" + dir.string() + "' && " + command + " >'" + out.string() + "' 2>'" + err.string() + "'").c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readText(out), readText(err)};
}

}  // namespace qnn::saver_test
