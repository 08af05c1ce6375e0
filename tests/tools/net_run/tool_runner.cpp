#include "tests/tools/net_run/tool_runner.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace nettest {

int RunResult::errorLines() const {
  std::istringstream ss(err);
  int n = 0;
  for (std::string line; std::getline(ss, line);)
    if (line.find("error") != std::string::npos) ++n;
  return n;
}

RunResult runTool(const std::string& commandLine) {
  RunResult r;
  const std::string errFile = makeTempDir() + "/stderr.txt";
  FILE* p = popen((commandLine + " 2>" + errFile).c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = readText(errFile);
  return r;
}

std::string makeTempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "netrun_test_XXXXXX").string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) std::abort();
  return buf.data();
}

void writeFloats(const std::string& path, const std::vector<float>& v) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& v) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), v.size());
}

std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::vector<float> readFloats(const std::string& path) {
  auto b = readBytes(path);
  std::vector<float> f(b.size() / sizeof(float));
  std::memcpy(f.data(), b.data(), f.size() * sizeof(float));
  return f;
}

void writeText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string readText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool exists(const std::string& path) { return std::filesystem::exists(path); }

}  // namespace nettest
