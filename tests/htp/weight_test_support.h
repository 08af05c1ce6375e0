// What the static-weight encoding tests (packed 4-bit, blockwise expansion) share: both backends by
// path, a session (log + backend) that builds a graph in a fresh context, runs it, optionally keeps
// the context binary and runs it again from there, and the Saver set up to record into a directory.
#pragma once

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "Saver/QnnSaver.h"
#include "tests/htp/htp_test_util.h"

namespace qnn::test {

inline LoadedBackend& cpuLib() {
  static LoadedBackend lib(QNN_TEST_CPU_BACKEND_PATH);
  return lib;
}

struct BackendCase {
  const char* name;
  LoadedBackend& (*lib)();
};
inline const BackendCase kWeightTestBackends[] = {{"Htp", htpLib}, {"Cpu", cpuLib}};

class Session {
 public:
  explicit Session(LoadedBackend& lib) : lib_(lib) {
    EXPECT_TRUE(lib.ok()) << lib.error();
    EXPECT_EQ(api().logCreate(LogCapture::callback, QNN_LOG_LEVEL_ERROR, &log_), QNN_SUCCESS);
    EXPECT_EQ(api().backendCreate(log_, nullptr, &backend_), QNN_SUCCESS);
  }
  ~Session() {
    EXPECT_EQ(api().backendFree(backend_), QNN_SUCCESS);
    EXPECT_EQ(api().logFree(log_), QNN_SUCCESS);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  const QNN_INTERFACE_VER_TYPE& api() const { return lib_.api(); }
  Qnn_BackendHandle_t backend() const { return backend_; }

  // build(api, ctx, &graph) -> code; run(api, graph, &out) -> code. The outputs; with `binary`,
  // the context binary too.
  template <class Build, class Run>
  std::vector<uint8_t> buildAndRun(Build build, Run run, std::vector<uint8_t>* binary = nullptr) {
    Qnn_ContextHandle_t ctx = nullptr;
    EXPECT_EQ(api().contextCreate(backend_, nullptr, nullptr, &ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    std::vector<uint8_t> out;
    EXPECT_EQ(build(api(), ctx, &g), QNN_SUCCESS) << LogCapture::take();
    EXPECT_EQ(run(api(), g, &out), QNN_SUCCESS) << LogCapture::take();
    if (binary) {
      Qnn_ContextBinarySize_t size = 0, written = 0;
      EXPECT_EQ(api().contextGetBinarySize(ctx, &size), QNN_SUCCESS);
      binary->assign(size, 0);
      EXPECT_EQ(api().contextGetBinary(ctx, binary->data(), size, &written), QNN_SUCCESS);
      binary->resize(written);
    }
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    return out;
  }

  // Graph `graphName` of the context binary, run.
  template <class Run>
  std::vector<uint8_t> runFromBinary(const char* graphName, Run run, const std::vector<uint8_t>& binary) {
    Qnn_ContextHandle_t ctx = nullptr;
    std::vector<uint8_t> out;
    EXPECT_EQ(api().contextCreateFromBinary(backend_, nullptr, nullptr, binary.data(), binary.size(), &ctx, nullptr),
              QNN_SUCCESS)
        << LogCapture::take();
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphRetrieve(ctx, graphName, &g), QNN_SUCCESS);
    EXPECT_EQ(run(api(), g, &out), QNN_SUCCESS) << LogCapture::take();
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    return out;
  }

  // Creates `t` in a fresh graph; the code and what was logged.
  std::pair<Qnn_ErrorHandle_t, std::string> create(Qnn_Tensor_t t) {
    Qnn_ContextHandle_t ctx = nullptr;
    EXPECT_EQ(api().contextCreate(backend_, nullptr, nullptr, &ctx), QNN_SUCCESS);
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(api().graphCreate(ctx, "refuse", nullptr, &g), QNN_SUCCESS);
    LogCapture::take();
    Qnn_ErrorHandle_t rc = api().tensorCreateGraphTensor(g, &t);
    std::string log = LogCapture::take();
    EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    return {rc, log};
  }

 private:
  LoadedBackend& lib_;
  Qnn_LogHandle_t log_ = nullptr;
  Qnn_BackendHandle_t backend_ = nullptr;
};

// A UFIXED_POINT_8 graph input or output: its dims, encoding and (once created) id.
struct U8Port {
  std::vector<uint32_t> dims;
  float scale = 0.f;
  int32_t offset = 0;
  uint32_t id = 0;
  size_t size() const {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return n;
  }
};

// Executes a one-input one-output graph on a copy of `x`; `out` gets the output bytes.
inline Qnn_ErrorHandle_t executeU8(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, const U8Port& in,
                                   std::vector<uint8_t> x, const U8Port& outPort, std::vector<uint8_t>* out) {
  out->assign(outPort.size(), 0);
  QuantSpec xs("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, in.dims, in.scale, in.offset, x.data(),
               uint32_t(x.size()));
  QuantSpec ys("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, outPort.dims, outPort.scale, outPort.offset,
               out->data(), uint32_t(out->size()));
  xs.tensor.v1.id = in.id;
  ys.tensor.v1.id = outPort.id;
  return api.graphExecute(g, &xs.tensor, 1, &ys.tensor, 1, nullptr, nullptr);
}

// libQnnSaver.so loaded (pass-through to `backendPath`) and told to record into `dir`; the library
// stays loaded: the Saver's process-wide state outlives its last backend, and it initializes once
// per process. Empty on success, else what failed.
inline std::string startSaver(LoadedBackend& saver, const std::filesystem::path& dir) {
  if (!saver.ok()) return saver.error();
  void* handle = dlopen(QNN_TEST_SAVER_PATH, RTLD_NOW | RTLD_NOLOAD);
  if (!handle) return "libQnnSaver.so is not loaded";
  using Init = Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**);
  auto init = reinterpret_cast<Init>(dlsym(handle, "QnnSaver_initialize"));
  if (!init) return "no QnnSaver_initialize";
  static std::string dirText;
  dirText = dir.string();
  QnnSaver_Config_t out = QNN_SAVER_CONFIG_INIT;
  out.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
  out.outputDirectory = dirText.c_str();
  const QnnSaver_Config_t* configs[] = {&out, nullptr};
  const Qnn_ErrorHandle_t rc = init(configs);
  return rc == QNN_SUCCESS ? std::string() : "QnnSaver_initialize returned " + std::to_string(rc);
}

// `command` run by the shell with its output in `log`; the exit status and that output.
inline std::pair<int, std::string> runLogged(const std::string& command, const std::filesystem::path& log) {
  const int status = std::system((command + " > '" + log.string() + "' 2>&1").c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  return {status, text.str()};
}

#ifdef QNN_TEST_TRACE_REPLAY
// qnn-trace-replay --compare of the Saver recording in `dir` on `backendPath`: exit status and output.
inline std::pair<int, std::string> replayRecording(const std::filesystem::path& dir, const char* backendPath) {
  return runLogged(std::string(QNN_TEST_TRACE_REPLAY) + " --backend " + backendPath + " --compare --trace " +
                       (dir / "saver_output.qnntrace").string(),
                   dir / "replay.txt");
}
#endif

#ifdef QNN_TEST_C_COMPILER
// The C program the Saver wrote into `dir`, compiled strictly and run on `backendPath`: "" and in
// `output` the bytes of its first execute's output `outputName`, else what failed.
inline std::string runSaverProgram(const std::filesystem::path& dir, const char* backendPath,
                                   const std::string& outputName, std::vector<uint8_t>* output) {
  if (!std::filesystem::exists(dir / "saver_output.c")) return "no saver_output.c";
  auto [ccStatus, ccText] = runLogged(std::string("cd '") + dir.string() + "' && " + QNN_TEST_C_COMPILER +
                                          " -std=c11 -Wall -Wextra -Werror " + QNN_TEST_C_FLAGS + " -I'" +
                                          QNN_TEST_INCLUDE_DIR +
                                          "' saver_output.c -o saver_output -DSAVER_OUTPUT_NO_LINKED_BACKEND -ldl",
                                      dir / "cc.txt");
  if (ccStatus != 0) return "compile failed:\n" + ccText;
  auto [runStatus, runText] =
      runLogged(std::string("cd '") + dir.string() + "' && ./saver_output --backend " + backendPath, dir / "run.txt");
  if (runStatus != 0) return "run failed:\n" + runText;
  std::ifstream replayed(dir / "replay_output" / ("execute_0_output_0_" + outputName + ".raw"), std::ios::binary);
  output->assign(std::istreambuf_iterator<char>(replayed), std::istreambuf_iterator<char>());
  return "";
}
#endif

}  // namespace qnn::test
