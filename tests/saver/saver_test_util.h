// Helpers shared by the Saver tests: file contents, running a command in a
// directory with its exit code and output captured, and recorded fields.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "trace/trace_args.h"
#include "trace/trace_reader.h"
#include "trace/trace_value.h"

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

// A field of a recorded struct; a missing one fails the test and reads as null.
inline const trace::Value& at(const trace::Value& v, const std::string& name) {
  const trace::Value* f = v.field(name);
  static const trace::Value missing;
  EXPECT_NE(f, nullptr) << name;
  return f ? *f : missing;
}

// Every argument the Saver recorded for a call with an argument list
// (trace_args.h) is listed for that call, with the listed kind or null: what
// the recorders write is what replay and the C generator read. Returns how many
// calls were checked.
inline size_t expectArgsAsListed(const trace::Trace& t) {
  size_t checked = 0;
  for (const trace::CallRecord& c : t.calls) {
    const trace::ArgSpec* specs = nullptr;
    size_t n = 0;
    if (!trace::listedArgs(c.callId, &specs, &n)) continue;
    ++checked;
    for (size_t k = 0; k < c.args.names.size(); ++k) {
      const trace::Value& v = c.args.items[k];
      const trace::ArgSpec* spec = nullptr;
      for (size_t i = 0; i < n && !spec; ++i) {
        if (c.args.names[k] == specs[i].name) spec = &specs[i];
      }
      EXPECT_NE(spec, nullptr) << trace::callName(c.callId) << " records '" << c.args.names[k] << "', not listed";
      if (spec && spec->kind >= 0 && v.kind != trace::Value::Kind::Null) {
        EXPECT_EQ(int(v.kind), spec->kind) << trace::callName(c.callId) << " argument " << spec->name;
      }
    }
  }
  return checked;
}

}  // namespace qnn::saver_test
