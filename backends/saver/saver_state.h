// Process-wide Saver state: configuration (QnnSaver_initialize), the optional
// pass-through backend (QNN_SAVER_BACKEND), the handle table and the trace
// writer, opened lazily at the first recorded call so QnnSaver_initialize can
// still choose the directory.
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include "QnnInterface.h"
#include "Saver/QnnSaver.h"
#include "core/api_members.h"
#include "saver/saver_handles.h"
#include "saver/saver_mem_views.h"
#include "trace/trace_writer.h"

namespace qnn::saver {

// The QNN API of the client's headers, as the provider it asked for tells
// (QnnInterface_getProviders: QNN_OPENQNN_CLIENT_API or the current API; a compat
// shim's OpenQnn_getProvidersForClientApi: the shim's). Recorded as the trace's
// "clientApi" info before the next call, so replay programs use that version's names.
void noteClientApi(uint32_t major, uint32_t minor);

class SaverState {
 public:
  static SaverState& get();
  // The state if any entry has run yet, else null (creates nothing).
  static SaverState* peek();

  Qnn_ErrorHandle_t initialize(const QnnSaver_Config_t** config, trace::Value& recorded);
  // The pass-through backend's table, or null when the Saver only records. The
  // 2.39 appends are null when the backend offers no 2.39 table.
  const sdk::InterfaceTable2_39* real() const { return real_ ? &realTable_ : nullptr; }
  // Whose custom config structs to expect: QNN_SAVER_CONFIG_OPTION_BACKEND_ID,
  // else the pass-through backend's id, else 0 (payloads not recorded).
  uint32_t customConfigBackendId();
  // The pass-through backend's id (its provider's backendId), 0 when only recording.
  uint32_t realBackendId() const { return realBackendId_; }
  HandleTable& handles() { return handles_; }
  MemViews& memViews() { return memViews_; }
  trace::Value blob(const void* data, uint64_t size);
  void record(trace::CallRecord& call);
  uint32_t nextTensorId() { return nextTensorId_++; }
  std::string traceDir();
  // Rewrites saver_output.c and params.bin from the trace so far
  // (saver_replay_program.cpp). Runs at backendFree/contextFree and when the
  // library is unloaded or the process exits; a process that dies leaves the
  // trace, which qnn-trace-to-c converts. `atRestingPoint`: a free, skipped
  // when the last generation is recent relative to its cost (it reads the
  // whole trace), so clients that free often do not pay quadratically.
  void writeReplayProgram(bool atRestingPoint = false);
  bool replayProgramStale() const { return callsSinceProgram_ != 0; }

 private:
  SaverState();
  void openTraceLocked();

  std::mutex mu_;  // configuration and lazy open
  std::string outputDir_ = "./saver_output/";
  bool appendTimestamp_ = false;
  uint32_t backendId_ = 0;
  std::string sourceFileName_ = "saver_output.c", paramsFileName_ = "params.bin";
  std::mutex programMu_;  // one generation at a time
  std::atomic<uint64_t> callsSinceProgram_{0};
  double lastProgramEnd_ = 0, lastProgramCost_ = 0;  // steady-clock seconds, under programMu_
  bool started_ = false;
  std::string openedDir_;
  trace::TraceWriter writer_;
  void* lib_ = nullptr;
  const QNN_INTERFACE_VER_TYPE* real_ = nullptr;
  sdk::InterfaceTable2_39 realTable_{};
  uint32_t realBackendId_ = 0;
  uint64_t clientApiWritten_ = 0;  // (major << 32 | minor) + 1 of the last clientApi info, under mu_
  HandleTable handles_;
  MemViews memViews_;
  std::atomic<uint32_t> nextTensorId_{1};
};

}  // namespace qnn::saver
