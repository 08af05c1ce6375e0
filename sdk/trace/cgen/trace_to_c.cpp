#include "trace/cgen/trace_to_c.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "trace/cgen/c_generator.h"

namespace qnn::trace {

ReplayProgramFiles replayProgramFilesOf(const Trace& trace) {
  ReplayProgramFiles files;
  for (const CallRecord& c : trace.calls) {
    if (c.callId != kCallSaverInitialize || c.result != 0) continue;
    const Args<Call::saverInitialize> a(c);
    for (const Value& option : a.config.items) {
      const Value* model = option.field("modelFileName");
      const Value* data = option.field("dataFileName");
      if (model && model->kind == Value::Kind::String && !model->s.empty()) files.source = model->s;
      if (data && data->kind == Value::Kind::String && !data->s.empty()) files.params = data->s;
    }
  }
  return files;
}

bool writeReplayProgram(const Trace& trace, const std::string& dir, const ReplayProgramFiles& files,
                        std::string* error) {
  namespace fs = std::filesystem;
  cgen::CGenerator generator(trace, files.params);
  std::string source = generator.generate();
  fs::path sourcePath = fs::path(dir) / files.source, paramsPath = fs::path(dir) / files.params;
  fs::path sourceTemp = sourcePath.string() + ".tmp", paramsTemp = paramsPath.string() + ".tmp";
  if (!generator.params().write(paramsTemp.string(), error)) return false;
  {
    std::ofstream out(sourceTemp, std::ios::binary);
    out << source;
    if (!out.flush()) {
      if (error) *error = "cannot write " + sourceTemp.string();
      return false;
    }
  }
  std::error_code ec;
  fs::rename(paramsTemp, paramsPath, ec);
  if (!ec) fs::rename(sourceTemp, sourcePath, ec);
  if (ec) {
    if (error) *error = "cannot write " + sourcePath.string() + ": " + ec.message();
    return false;
  }
  return true;
}

}  // namespace qnn::trace
